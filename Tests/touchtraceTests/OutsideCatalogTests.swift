import Foundation
import Testing
import TouchCore
import TouchRecognizers
@testable import TouchTraceCLI
import TouchTestSupport

/// A recognizer written outside the toolkit: recognized on the first moved sample whose
/// normalized force reaches `level`.
struct LevelPress: ConfigurableRecognizer {
  static let level = Parameter<Double>.number(
    "level", .normalizedForce, default: 0.5, minimum: 0, maximum: 1, "normalized force to reach (>=)")

  static let descriptor = RecognizerDescription(
    name: "level-press", code: "", title: "Level press (a test's own recognizer)",
    summary: "Recognized on the first moved sample with force/max >= level.",
    source: RecognizerSource(library: "touchtraceTests", version: nil, link: nil, reference: "OutsideCatalogTests.swift"),
    style: .discrete, actionEvent: "recognized: the first moved sample with force/max >= level",
    rules: "Moved samples: force/max >= level → recognized; lift → failed.",
    parameters: [Self.level.spec], sweptByDefault: Self.level.name)

  let level: Double

  init(parameters: ParameterValues) throws(ParameterError) { level = parameters[Self.level] }

  var parameters: ParameterValues { Self.descriptor.defaults.setting(Self.level, to: level) }

  var requiresMaximumForce: Bool { true }

  mutating func touchesBegan(_ sample: TouchSample, _ context: inout GestureContext) {}

  mutating func touchesMoved(_ sample: TouchSample, _ context: inout GestureContext) {
    if sample.normalizedForce >= level {
      context.setState(.ended, at: sample)
      context.act(at: sample)
    }
  }

  mutating func touchesEnded(_ sample: TouchSample, _ context: inout GestureContext) {
    context.setState(.failed, at: sample)
  }

  mutating func reset() {}
}

@Suite("A catalog handed to the command line")
struct OutsideCatalogTests {
  let catalog = try! RecognizerCatalog.builtIn.adding(LevelPress.self)

  @Test func sweepAndCompositionsReachTheOutsideRecognizer() throws {
    try inTemporaryDirectory { directory in
      let json = directory + "/sweep.json"
      let code = TouchTraceTool.run(
        ["sweep", TestData.samples, "--recognizer", "level-press,tap+level-press", "--format", "json", "--output", json],
        catalog: catalog)
      #expect(code == 0)
      let report = try #require(
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
      let rows = (report["results"] as? [[String: Any]]) ?? []
      let names = Set(rows.compactMap { $0["recognizer"] as? String })
      #expect(names == ["level-press", "tap+level-press"])
      // The default grid of its normalized level: k/20, k = 1…20 (0.5 among them).
      #expect(rows.filter { $0["recognizer"] as? String == "level-press" }.count == 20)
    }
  }

  @Test func theBuiltInCatalogDoesNotKnowIt() throws {
    #expect(runCommand(["sweep", TestData.samples, "--recognizer", "level-press"]) == 64)
    try inTemporaryDirectory { directory in
      let out = directory + "/run.csv"
      #expect(TouchTraceTool.run(["run", TestData.samples, "--recognizer", "level-press", "--format", "csv", "--output", out], catalog: catalog) == 0)
      let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
      #expect(lines.count == 344)  // the header and one row per sample trace
    }
  }
}
