import Foundation
import Testing
import TouchTestSupport

@testable import TouchTraceCLI

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// `touchtrace check`: passes unchanged, fails with a JUnit failure on a clearly worse
/// configuration, refuses a baseline from other data, options or tool version.
@Suite("touchtrace check")
struct CheckCommandTests {
  static func check(_ arguments: [String]) -> Int32 {
    runCommand(["check", TestData.samples, "--recognizer", "deep-press"] + arguments)
  }

  @Test func passesUnchangedAndFailsWorse() throws {
    try inTemporaryDirectory { directory in
      let baseline = directory + "/baseline.json"
      #expect(Self.check(["--set", "threshold=0.35", "--write-baseline", baseline]) == 0)
      let document = try jsonObject(baseline)
      #expect(document["format"] as? String == "touchtrace-baseline" && document["version"] as? Int == 2)
      // The README's sweep table: deep-press at 0.35 has TP 80, FP 103, FN 18, TN 160.
      #expect(document["tp"] as? Int == 80 && document["fp"] as? Int == 103 && document["tn"] as? Int == 160)
      #expect((document["contacts"] as? [Any])?.count == 343)

      let same = directory + "/same.xml"
      #expect(Self.check(["--set", "threshold=0.35", "--baseline", baseline, "--junit", same]) == 0)
      let passing = try String(contentsOfFile: same, encoding: .utf8)
      #expect(passing.contains("tests=\"2\" failures=\"0\"") && !passing.contains("<failure"))
      #expect(try XMLDocument(xmlString: passing).rootElement()?.name == "testsuites")

      // 0.05 fires on almost everything: far fewer contacts right (F1 0.122 in the sweep).
      let worse = directory + "/worse.xml"
      #expect(Self.check(["--set", "threshold=0.05", "--baseline", baseline, "--junit", worse]) == 1)
      let failing = try XMLDocument(xmlString: try String(contentsOfFile: worse, encoding: .utf8))
      let cases = try failing.nodes(forXPath: "//testcase")
      #expect(cases.count == 2)
      let accuracy = try #require(
        try failing.nodes(forXPath: "//testcase[@name='accuracy (McNemar)']/failure").first as? XMLElement)
      let message = try #require(accuracy.attribute(forName: "message")?.stringValue)
      #expect(message.contains("accuracy dropped significantly") && message.contains("only baseline correct"))
      // Its 26 true positives all act before the press (signed p90 −158 ms, which a signed gate
      // took for 216 ms faster): by |action − reference| it is 70 ms worse, and the latency
      // check fails too.
      let early = try #require(
        try failing.nodes(forXPath: "//testcase[@name='p90 |latency|']/failure").first as? XMLElement)
      #expect(early.attribute(forName: "message")?.stringValue?.contains("(n = 26, 26 early)") == true)

      // Against a baseline at 0.6, 0.35 keeps accuracy (240 against 239 correct, p = 1) but its
      // p90 |action − reference| is 99.5 ms larger (24 of its 80 true positives act early, some
      // by far, where its signed p90 of 57.8 ms looked 12.5 ms faster): only latency fails.
      let baseline6 = directory + "/baseline-0.6.json"
      #expect(Self.check(["--set", "threshold=0.6", "--write-baseline", baseline6]) == 0)
      let slower = directory + "/slower.xml"
      #expect(Self.check(["--set", "threshold=0.35", "--baseline", baseline6, "--junit", slower]) == 1)
      let latency = try XMLDocument(xmlString: try String(contentsOfFile: slower, encoding: .utf8))
      #expect(try latency.nodes(forXPath: "//failure").count == 1)
      #expect(try latency.nodes(forXPath: "//testcase[@name='p90 |latency|']/failure").count == 1)
      // …and holds with a looser limit.
      #expect(Self.check(["--set", "threshold=0.35", "--baseline", baseline6, "--max-latency-increase", "0.15"]) == 0)
    }
  }

  @Test func groupByClustersTheAccuracyTest() throws {
    try inTemporaryDirectory { directory in
      let baseline = directory + "/baseline.json"
      #expect(Self.check(["--set", "threshold=0.35", "--write-baseline", baseline]) == 0)
      // --group-by belongs to the check, not to writing a baseline.
      #expect(
        Self.check(["--set", "threshold=0.35", "--write-baseline", directory + "/b2.json", "--group-by", "device"])
          == 64)
      // No trace has a `hand` label: the clusters cannot be formed.
      #expect(Self.check(["--set", "threshold=0.05", "--baseline", baseline, "--group-by", "hand"]) == 65)

      let json = directory + "/check.json"
      #expect(
        Self.check(["--set", "threshold=0.05", "--baseline", baseline, "--group-by", "device", "--output", json]) == 1)
      let root = try jsonObject(json)
      let accuracy = try #require((root["checks"] as? [[String: Any]])?.first)
      #expect(accuracy["test"] as? String == "mcnemar_clustered")
      #expect(accuracy["assumes_independent_traces"] as? Bool == false)
      #expect(accuracy["group_by"] as? String == "device")
      let clustered = try #require(accuracy["mcnemar_clustered"] as? [String: Any])
      // samples/ holds three devices.
      #expect(clustered["clusters"] as? Int == 3 && clustered["traces"] as? Int == 343)
      // The decision reads the clustered p; the plain one is kept beside it.
      #expect(accuracy["p_value"] as? Double == clustered["p_value"] as? Double)
      #expect(accuracy["mcnemar_p_value"] as? Double != accuracy["p_value"] as? Double)
      let markdown = directory + "/check.md"
      #expect(
        Self.check(["--set", "threshold=0.05", "--baseline", baseline, "--group-by", "device", "--output", markdown])
          == 1)
      let text = try String(contentsOfFile: markdown, encoding: .utf8)
      #expect(text.contains("McNemar clustered by device (Durkalski, 3 clusters)"))
      #expect(text.contains("fewer than"))  // 3 clusters: the approximation is rough, and it says so

      // Without --group-by the report says what it assumes.
      let plain = directory + "/plain.json"
      #expect(Self.check(["--set", "threshold=0.05", "--baseline", baseline, "--output", plain]) == 1)
      let plainAccuracy = try #require((try jsonObject(plain)["checks"] as? [[String: Any]])?.first)
      #expect(
        plainAccuracy["test"] as? String == "mcnemar" && plainAccuracy["assumes_independent_traces"] as? Bool == true)
    }
  }

  @Test func refusesAMismatchedBaseline() throws {
    try inTemporaryDirectory { directory in
      let baseline = directory + "/baseline.json"
      #expect(Self.check(["--set", "threshold=0.35", "--write-baseline", baseline]) == 0)
      // Other data: one device only.
      #expect(Self.check(["--only", "device=iphone6s", "--baseline", baseline]) == 65)
      // Other options.
      #expect(Self.check(["--tolerance", "0.1", "--baseline", baseline]) == 65)
      // Another tool version.
      let text = try String(contentsOfFile: baseline, encoding: .utf8)
      let old = directory + "/old.json"
      TestData.write(text.replacingOccurrences(of: "\"touchtrace 0.1.0\"", with: "\"touchtrace 0.0.9\""), to: old)
      #expect(Self.check(["--baseline", old]) == 65)
      // The same data, one sample changed: the content hash differs.
      let changed = directory + "/data"
      try FileManager.default.createDirectory(atPath: changed, withIntermediateDirectories: false)
      for name in ["synth-android.csv", "synth-iphone6s.csv", "synth-touchpad.csv"] {
        var csv = try String(contentsOfFile: TestData.samples + "/" + name, encoding: .utf8)
        if name == "synth-touchpad.csv",
          let range = csv.range(of: "\n", options: .backwards, range: csv.startIndex..<csv.index(before: csv.endIndex))
        {
          // Drop the last row: one contact loses its last sample.
          csv = String(csv[..<range.upperBound])
        }
        TestData.write(csv, to: changed + "/" + name)
      }
      #expect(runCommand(["check", changed, "--recognizer", "deep-press", "--baseline", baseline]) == 65)
      // Malformed, missing, usage.
      TestData.write("{\"format\": \"touchtrace-sweep\"}", to: directory + "/bad.json")
      #expect(Self.check(["--baseline", directory + "/bad.json"]) == 65)
      #expect(Self.check(["--baseline", directory + "/missing.json"]) == 66)
      #expect(Self.check([]) == 64)
      #expect(Self.check(["--baseline", baseline, "--write-baseline", directory + "/b2.json"]) == 64)
      #expect(Self.check(["--baseline", baseline, "--alpha", "1.5"]) == 64)
      // The JUnit report may not replace the baseline (an input of the run).
      #expect(Self.check(["--baseline", baseline, "--junit", baseline]) == 73)
    }
  }
}
