import Foundation
import Testing
import TouchCore
import TouchRecognizers
import TouchTestSupport

@testable import TouchTraceCLI

/// A recognizer written outside the toolkit, two-stage: the action on the first touch-down or
/// moved sample whose normalized force reaches `level`, stage 2 when it reaches `popLevel`.
struct LevelPress: ConfigurableRecognizer, UniformSampleRecognizer {
  static let level = Parameter<Double>.number(
    "level", .normalizedForce, default: 0.5, minimum: 0, maximum: 1, "normalized force of the action (>=)")
  static let popLevel = Parameter<Double>.number(
    "popLevel", .normalizedForce, default: 0.9, minimum: 0, maximum: 1, "normalized force of stage 2 (>=)")

  static let descriptor = RecognizerDescription(
    name: "level-press", code: "", title: "Level press (a test's own recognizer)",
    summary: "Two levels of force/max: the action at level, stage 2 at popLevel.",
    source: RecognizerSource(
      library: "touchtraceTests", version: nil, link: nil, reference: "OutsideCatalogTests.swift"),
    style: .continuous, actionEvent: "began: force/max >= level", stage2Event: "ended: force/max >= popLevel",
    rules: "Touch-down and moved samples: force/max >= level → began (action); >= popLevel → ended (stage 2).",
    parameters: [Self.level.spec, Self.popLevel.spec], sweptByDefault: Self.level.name)

  let level: Double
  let popLevel: Double
  let parameters: ParameterValues

  init(parameters: ParameterValues) throws(ParameterError) {
    (level, popLevel, self.parameters) = (parameters[Self.level], parameters[Self.popLevel], parameters)
  }

  var requiresMaximumForce: Bool { true }

  mutating func handle(_ sample: TouchSample, _ context: inout GestureContext) {
    let n = sample.normalizedForce
    if context.state == .possible && n >= level { context.setState(.began, acting: .action, at: sample) }
    if context.state == .began && n >= popLevel { context.setState(.ended, acting: .stage2, at: sample) }
  }

  mutating func touchesEnded(_ sample: TouchSample, _ context: inout GestureContext) {
    context.finish(.cancelled, at: sample)
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
        [
          "sweep", TestData.samples, "--recognizer", "level-press,tap+level-press", "--format", "json", "--output",
          json,
        ],
        catalog: catalog)
      #expect(code == 0)
      let report = try jsonObject(json)
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
      #expect(
        TouchTraceTool.run(
          ["run", TestData.samples, "--recognizer", "level-press", "--format", "csv", "--output", out], catalog: catalog
        ) == 0)
      let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
      #expect(lines.count == 344)  // the header and one row per sample trace
    }
  }
}
