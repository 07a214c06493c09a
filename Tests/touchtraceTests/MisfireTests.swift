import Foundation
import Testing
import TouchTestSupport

@testable import TouchTraceCLI

/// Misfire mode (issue 31): data without presses is scored for false alarms, per contact (with
/// the Wilson interval) and per minute of contact (with the exact Poisson interval); nothing is
/// chosen. Counts by hand; intervals from SciPy (`binomtest(2, 4).proportion_ci("wilson")`,
/// `chi2.ppf(0.025, 4) / 2`, `chi2.ppf(0.975, 6) / 2`).
@Suite("Misfire mode")
struct MisfireTests {
  /// Five contacts of 15 s each (maximum force 1), sampled at 0, 0.5, 1, 7.5, 14, 14.5 and 15 s
  /// (median interval 0.5 s): a (drag) peaks at 0.6, b (tap) at 0.3, c (no intent) at 0.9, d
  /// (press) at 0.8, e (no intent) at 0.1. deep-press at 0.5 acts once on a, c and d.
  static let traces: String = {
    var csv = "trace,t,force,max_force,intent\n"
    for (name, peak, intent) in [
      ("a", "0.6", "drag"), ("b", "0.3", "tap"), ("c", "0.9", ""), ("d", "0.8", "press"), ("e", "0.1", ""),
    ] {
      for t in ["0", "0.5", "1", "7.5", "14", "14.5", "15"] {
        csv += "\(name),\(t),\(t == "7.5" ? peak : "0"),1,\(intent)\n"
      }
    }
    return csv
  }()

  /// The report of `sweep` in misfire mode on ``traces``: `--negatives-only`, deep-press at
  /// threshold 0.5, then `options`, written as `ext`; expects exit 0.
  static func misfireReport(
    _ options: [String] = [], as ext: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> String {
    try report(
      "sweep", on: traces, ["--negatives-only", "--recognizer", "deep-press", "--vary", "threshold=0.5"] + options,
      as: ext, sourceLocation: sourceLocation)
  }

  @Test func negativesOnlyCountsMisfiresPerContactAndPerMinute() throws {
    let root = try jsonObject(parsing: Self.misfireReport(as: "json"))
    // d is labelled press: skipped with its reason; a, b, c, e are scored (c and e as none).
    let skipped = try #require(root["skipped"] as? [[String: Any]])
    #expect(skipped.count == 1 && skipped[0]["trace"] as? String == "d")
    #expect(skipped[0]["reason"] as? String == "labelled press: --negatives-only scores negatives only")
    let misfires = try #require(root["misfires"] as? [String: Any])
    #expect(misfires["contacts"] as? Int == 4)
    #expect(misfires["contact_minutes"] as? Double == 1)  // 4 × 15 s
    let row = try #require((misfires["configurations"] as? [[String: Any]])?.first)
    #expect(row["misfiring_contacts"] as? Int == 2 && row["actions"] as? Int == 2)  // a and c
    #expect(row["rate"] as? Double == 0.5 && row["per_minute"] as? Double == 2)
    let rateCI = try #require(row["rate_ci"] as? [Double])
    #expect(abs(rateCI[0] - 0.15003898915214953) < 1e-12 && abs(rateCI[1] - 0.8499610108478505) < 1e-12)
    let perMinuteCI = try #require(row["per_minute_ci"] as? [Double])
    #expect(abs(perMinuteCI[0] - 0.24220927854396496) < 1e-9 && abs(perMinuteCI[1] - 7.22468766772396) < 1e-9)
    // Nothing to choose.
    let verdict = try #require(root["verdict"] as? [String: Any])
    #expect(verdict["recommended"] is NSNull || verdict["recommended"] == nil)
    let caveats = try #require(verdict["caveats"] as? [[String: Any]])
    #expect(caveats.map { $0["code"] as? String } == ["no_choice"])

    let text = try Self.misfireReport(["--format", "md"], as: "md")
    #expect(text.contains("| deep-press | threshold=0.5 | 2/4 | 0.500 (0.150–0.850) | 2 | 2.00 (0.24–7.22) |"))
    #expect(text.contains("**Nothing to ship by maximum F1**"))
  }

  @Test func byGroupGivesEachGroupsRatesAndMinutes() throws {
    // By intent: drag (a: 1 of 1, 0.25 min, 4 a minute), no intent label (c, e: 1 of 2,
    // 0.5 min, 2 a minute; the group of traces without the label, as every --by names it), tap
    // (b: 0 of 1).
    let misfires = try #require(
      try jsonObject(parsing: Self.misfireReport(["--by", "intent"], as: "json"))["misfires"] as? [String: Any])
    let rows = try #require(misfires["by"] as? [[String: Any]])
    let byGroup = Dictionary(uniqueKeysWithValues: rows.map { ($0["group"] as? String ?? "?", $0) })
    #expect(byGroup.keys.sorted() == ["(none)", "drag", "tap"])
    #expect(byGroup["drag"]?["misfiring_contacts"] as? Int == 1 && byGroup["drag"]?["per_minute"] as? Double == 4)
    #expect(byGroup["(none)"]?["contacts"] as? Int == 2 && byGroup["(none)"]?["contact_minutes"] as? Double == 0.5)
    #expect(byGroup["(none)"]?["rate"] as? Double == 0.5 && byGroup["(none)"]?["per_minute"] as? Double == 2)
    #expect(byGroup["tap"]?["misfiring_contacts"] as? Int == 0 && byGroup["tap"]?["rate"] as? Double == 0)
    #expect(rows.allSatisfy { $0["column"] as? String == "intent" })
  }

  @Test func dataWithoutPositivesIsScoredForMisfiresWithANote() throws {
    // Without the flag: c and e have no intent (skipped), d is dropped here; a (drag) and b (tap)
    // are negatives, and no trace is a positive.
    let negatives = Self.traces.split(separator: "\n").filter { !$0.hasPrefix("d,") }.joined(separator: "\n") + "\n"
    try inTemporaryDirectory(writing: negatives) { directory in
      let json = directory + "/m.json"
      #expect(
        runCommand([
          "sweep", directory + "/t.csv", "--recognizer", "deep-press", "--vary", "threshold=0.5", "--output", json,
        ]) == 0)
      let misfires = try #require(try jsonObject(json)["misfires"] as? [String: Any])
      #expect(misfires["contacts"] as? Int == 2)
      let row = try #require((misfires["configurations"] as? [[String: Any]])?.first)
      #expect(row["misfiring_contacts"] as? Int == 1)  // a
      // tune still needs positives: it chooses by a metric of presses found.
      #expect(runCommand(["tune", directory + "/t.csv", "--recognizer", "deep-press"]) == 65)
    }
  }

  @Test func theHTMLReportDrawsMisfireRatesOnly() throws {
    let page = try report(
      "sweep", on: Self.traces, ["--negatives-only", "--recognizer", "deep-press,stable-press"], as: "html")
    #expect(page.contains("id=\"fig-misfires-deep-press\"") && page.contains("id=\"fig-misfires-stable-press\""))
    #expect(
      !page.contains("id=\"fig-metrics-") && !page.contains("id=\"fig-roc\"") && !page.contains("id=\"fig-examples-"))
  }
}
