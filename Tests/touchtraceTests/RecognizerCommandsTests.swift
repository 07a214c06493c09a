import Foundation
import Testing
import TouchCore
import TouchRecognizers
import TouchReports

@testable import TouchTraceCLI

@Suite("touchtrace recognizers / run")
struct RecognizerCommandsTests {
  @Test func runParsesSettingsAndCompositions() throws {
    let run = try TouchTraceCommand.Run.parse([
      "x.csv", "--recognizer", "tap", "--require-failure-of", "deep-press", "--set", "allowableMovement=5",
      "--set", "required.threshold=0.5",
    ])
    let recognizer = try run.makeRecognizer()
    #expect(recognizer.name == "tap+deep-press")
    #expect(recognizer.parameters["allowableMovement"] == .number(5))
    #expect(recognizer.parameters["required.threshold"] == .number(0.5))
  }

  @Test func invalidSettingsAreUsageErrors() {
    #expect(throws: (any Error).self) {
      try TouchTraceCommand.Run.parse(["x.csv", "--recognizer", "deep-press", "--set", "threshold=2"])
    }
    #expect(throws: (any Error).self) {
      try TouchTraceCommand.Run.parse(["x.csv", "--recognizer", "deep-press", "--set", "threshold"])
    }
    #expect(throws: (any Error).self) {
      try TouchTraceCommand.Run.parse(["x.csv", "--recognizer", "deep-press", "--set", "required.threshold=0.5"])
    }
    #expect(throws: (any Error).self) { try TouchTraceCommand.Run.parse(["x.csv", "--recognizer", "nope"]) }
  }

  @Test func csvHasOneRowPerTraceWithTheActionEvent() throws {
    // shunkit: 181/60 > 3.0 at sample 2 (t = 0.02).
    let trace = Trace(
      metadata: TraceMetadata(id: "a,b", maxForce: 20.0 / 3), t: [0, 0.01, 0.02, 0.03],
      force: [0, 3.0, 181.0 / 60, 0])
    let quiet = Trace(metadata: TraceMetadata(id: "q", maxForce: 20.0 / 3), t: [0, 0.01], force: [0, 0])
    let results = try AnyForceRecognizer(variant: "shunkit").replay(traces: [trace, quiet])
    let text = String(decoding: RunReport.csv(results), as: UTF8.self)
    #expect(
      text == """
        trace,action_t,action_index,stage2_t,stage2_index,actions,flaps,final_state,held_t,added_latency
        "a,b",0.02,2,,,1,,ended,,
        q,,,,,0,,cancelled,,

        """)
  }

  @Test func csvQuotesTraceNamesThatWouldReadAsComments() throws {
    let trace = Trace(metadata: TraceMetadata(id: "#1", maxForce: 20.0 / 3), t: [0, 0.01], force: [0, 0])
    let results = try AnyForceRecognizer(variant: "shunkit").replay(traces: [trace])
    let text = String(decoding: RunReport.csv(results), as: UTF8.self)
    #expect(text.hasSuffix("\n\"#1\",,,,,0,,cancelled,,\n"))
  }

  @Test func jsonCarriesAccountingEventsAndAction() throws {
    let trace = Trace(
      metadata: TraceMetadata(id: "p", maxForce: 20.0 / 3), t: [0, 0.5, 1], force: [0, 5, 0])
    let recognizer = try AnyForceRecognizer(variant: "deep-press")
    let results = try recognizer.replay(traces: [trace])
    let dataset = Dataset(traces: [trace], origins: [TraceOrigin(file: "p.csv")])
    let json = RunReport.json(results, recognizer: recognizer, carryState: false, dataset: dataset).text(pretty: false)
    #expect(json.contains(#""traces":{"total":1,"analyzed":1,"skipped":0}"#))
    #expect(json.contains(#""trace":"p","action_t":0.5,"action_index":1"#))
    #expect(json.contains(#""events":[{"state":"began","t":0.5,"index":1},{"state":"ended","t":1.0,"index":2}]"#))
  }

  @Test func recognizersMarkdownNamesEveryCatalogEntry() {
    let text = CatalogReport.markdown(RecognizerCatalog.builtIn)
    for d in RecognizerCatalog.builtIn.descriptions {
      #expect(text.contains("\n| `\(d.name)` | \(d.code) |"))
      #expect(text.contains("\n## `\(d.name)` — "))
    }
    // A flag's range keeps its table intact.
    #expect(text.contains("true\\|false"))
  }

  @Test func recognizersJSONIsTheCatalogWithTheIssuesFields() throws {
    let bytes = CatalogReport.json(RecognizerCatalog.builtIn).encoded()
    let array = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [[String: Any]])
    #expect(array.map { $0["name"] as? String } == RecognizerCatalog.builtIn.names.map(Optional.some))
    for object in array {
      let name = try #require(object["name"] as? String)
      #expect((object["summary"] as? String)?.isEmpty == false, "\(name)")
      let stages = try #require(object["stages"] as? [[String: Any]])
      #expect(stages.first?["event"] as? String == "action")
      let sweep = try #require(object["sweep"] as? [String: Any])
      #expect(["one-pass", "classes", "replay"].contains(sweep["method"] as? String ?? ""))
      // The class parameters are the ones declared as compared (`compared_as`).
      let classes = Set(sweep["classes"] as? [String] ?? [])
      let compared = Set(
        ((object["parameters"] as? [[String: Any]]) ?? []).filter { $0["compared_as"] is String }.compactMap {
          $0["name"] as? String
        })
      #expect(classes == compared, "\(name)")
      if sweep["method"] as? String == "classes" { #expect(!classes.isEmpty, "\(name)") }
      let parameters = try #require(object["parameters"] as? [[String: Any]])
      #expect(!parameters.isEmpty)
      for p in parameters {
        #expect(p["name"] is String && p["unit"] is String && p["default"] != nil)
        #expect((p["range"] as? [Any])?.count == 2)
        #expect(p["grid"] is [String: Any])
      }
    }
    let hysteresis = try #require(array.first { $0["name"] as? String == "hysteresis" })
    #expect(
      (hysteresis["sweep"] as? [String: Any])?["classes"] as? [String] == [
        "pressThreshold", "releaseThreshold", "palmThreshold",
      ])
    let stable = try #require(array.first { $0["name"] as? String == "stable-press" })
    #expect((stable["sweep"] as? [String: Any])?["method"] as? String == "classes")
    let rngh = try #require(array.first { $0["name"] as? String == "rngh-force" })
    let maxForce = try #require((rngh["parameters"] as? [[String: Any]])?.first { $0["name"] as? String == "maxForce" })
    #expect(maxForce["default"] as? String == "nan")
    #expect(maxForce["unit"] as? String == "normalized force")
    #expect((maxForce["range"] as? [Double]) == [-1, 1])
    // shunkit's raw-force grid follows the data's maximum force.
    let shunkit = try #require(array.first { $0["name"] as? String == "shunkit" })
    let minimumForce = try #require((shunkit["parameters"] as? [[String: Any]])?.first)
    let grid = try #require(minimumForce["grid"] as? [String: Any])
    #expect(grid["relative_to_max_force"] as? Bool == true)
    #expect((grid["values"] as? [Double])?.first == 0.05)
    #expect((shunkit["sweep"] as? [String: Any])?["method"] as? String == "one-pass")
  }
}
