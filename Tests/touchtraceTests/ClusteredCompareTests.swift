import Foundation
import Testing
import TouchTestSupport

/// `compare --group-by` adds Durkalski's clustered McNemar test (issue 31 item 1); without a
/// grouping the report says the plain test assumes independent traces.
@Suite("compare: clustered McNemar")
struct ClusteredCompareTests {
  static let arguments = [
    "compare", TestData.samples, "--only", "device=iphone6s", "--a", "deep-press:threshold=0.35", "--b",
    "stable-press:pressThreshold=0.35", "--bootstrap", "0", "--quiet",
  ]

  /// The statistic recomputed from the per-trace outcome file (`--outcomes`): a trace is correct
  /// for a configuration when none of its rows is a FP or FN; clusters are the `user` column.
  @Test func groupedByUserItMatchesTheFormulaOnThePerTraceOutcomes() throws {
    try inTemporaryDirectory { directory in
      let report = directory + "/c.json"
      let outcomes = directory + "/o.csv"
      #expect(
        runCommand(
          Self.arguments + ["--group-by", "user", "--format", "json", "--output", report, "--outcomes", outcomes]) == 0)
      let json = try jsonObject(report)
      let clustered = try #require(json["mcnemar_clustered"] as? [String: Any])
      #expect(clustered["method"] as? String == "durkalski")
      #expect((json["mcnemar"] as? [String: Any])?["assumes_independent_traces"] as? Bool == false)
      // Per (configuration, trace): correct unless a row says FP or FN; the trace's user.
      let lines = try String(contentsOfFile: outcomes, encoding: .utf8).split(separator: "\n").map {
        $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      }
      let header = lines[0]
      let (cConfiguration, cTrace, cUser, cOutcome) = (
        header.firstIndex(of: "configuration")!, header.firstIndex(of: "trace")!, header.firstIndex(of: "user")!,
        header.firstIndex(of: "outcome")!
      )
      var correct: [String: [String: Bool]] = ["0": [:], "1": [:]]
      var user: [String: String] = [:]
      for row in lines.dropFirst() where row.count == header.count {
        let ok = !["FP", "FN"].contains(row[cOutcome])
        correct[row[cConfiguration]]![row[cTrace], default: true] =
          correct[row[cConfiguration]]![row[cTrace], default: true] && ok
        user[row[cTrace]] = row[cUser]
      }
      var perUser: [String: (b: Int, c: Int, n: Int)] = [:]
      for (trace, name) in user {
        let a = correct["0"]![trace]!
        let b = correct["1"]![trace]!
        var cell = perUser[name, default: (0, 0, 0)]
        cell.n += 1
        if a && !b { cell.b += 1 }
        if b && !a { cell.c += 1 }
        perUser[name] = cell
      }
      let d = perUser.values.map { Double($0.b - $0.c) / Double($0.n) }
      let statistic = pow(d.reduce(0, +), 2) / d.map { $0 * $0 }.reduce(0, +)
      #expect(clustered["clusters"] as? Int == perUser.count)
      #expect(abs(try #require(clustered["statistic"] as? Double) - statistic) < 1e-9)
      #expect(clustered["only_b_correct"] as? Int == perUser.values.map(\.c).reduce(0, +))
      // The Markdown report says which test to read.
      let markdown = directory + "/c.md"
      #expect(runCommand(Self.arguments + ["--group-by", "user", "--format", "md", "--output", markdown]) == 0)
      let text = try String(contentsOfFile: markdown, encoding: .utf8)
      #expect(text.contains("clustered by user (Durkalski et al., 2003; 6 clusters"))
    }
  }

  @Test func withoutAGroupingTheIndependenceAssumptionIsStated() throws {
    try inTemporaryDirectory { directory in
      let report = directory + "/c.json"
      #expect(runCommand(Self.arguments + ["--format", "json", "--output", report]) == 0)
      let json = try jsonObject(report)
      #expect(json["mcnemar_clustered"] is NSNull)
      #expect((json["mcnemar"] as? [String: Any])?["assumes_independent_traces"] as? Bool == true)
      let markdown = directory + "/c.md"
      #expect(runCommand(Self.arguments + ["--format", "md", "--output", markdown]) == 0)
      #expect(
        try String(contentsOfFile: markdown, encoding: .utf8).contains("The test assumes the traces are independent"))
    }
  }

  /// A `--by` column no trace has is a slip, not a group: exit 65 with the closest label.
  @Test func aByColumnNoTraceHasIsRefusedWithASuggestion() throws {
    var code: Int32 = 0
    try inTemporaryDirectory { directory in
      let message = try captureStandardError {
        code = runCommand([
          "sweep", TestData.samples, "--recognizer", "deep-press", "--by", "devices", "--format", "md", "--output",
          directory + "/r.md",
        ])
      }
      #expect(code == 65)
      #expect(message.contains("--by devices: no trace has this label (did you mean 'device'?)"), "\(message)")
      #expect(!FileManager.default.fileExists(atPath: directory + "/r.md"))
    }
  }
}
