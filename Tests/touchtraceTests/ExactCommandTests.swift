import Foundation
import Testing
import TouchTestSupport

@testable import TouchTraceCLI

/// `sweep --exact` and `tune --exact` (issue 29), on traces whose exact optimum is known by hand.
@Suite("touchtrace sweep --exact, tune --exact")
struct ExactCommandTests {
  /// Two presses peaking at 0.6 and 0.8 (maximum force 1), two taps peaking at 0.4 and 0.2.
  /// deep-press (force ≥ threshold on a moved sample) fires on both presses, in time, for any
  /// threshold up to 0.6, on the 0.4 tap up to 0.4 and on the 0.2 tap up to 0.2: F1 is 1 exactly
  /// on (0.4, 0.6], 0.8 on (0.2, 0.4], 2/3 on (0.6, 0.8]; its middle 0.5 is the recommendation.
  static let traces = """
    trace,t,force,max_force,intent,press_at
    p1,0,0,1,press,0.2
    p1,0.1,0.3,1,press,0.2
    p1,0.2,0.6,1,press,0.2
    p1,0.3,0,1,press,0.2
    p2,0,0,1,press,0.2
    p2,0.1,0.4,1,press,0.2
    p2,0.2,0.8,1,press,0.2
    p2,0.3,0,1,press,0.2
    t1,0,0,1,tap,
    t1,0.1,0.2,1,tap,
    t1,0.2,0.4,1,tap,
    t1,0.3,0,1,tap,
    t2,0,0,1,tap,
    t2,0.1,0.1,1,tap,
    t2,0.2,0.2,1,tap,
    t2,0.3,0,1,tap,

    """

  @Test func sweepFindsTheExactOptimumByHand() throws {
    let exact = ["--recognizer", "deep-press", "--exact", "--quiet"]
    let root = try jsonObject(parsing: report("sweep", on: Self.traces, exact, as: "json"))
    #expect(root["format"] as? String == "touchtrace-exact")
    let verdict = try #require(root["verdict"] as? [String: Any])
    #expect(verdict["ship"] as? String == "deep-press threshold=0.5")
    let optimum = try #require(root["optimum"] as? [String: Any])
    #expect(optimum["value"] as? Double == 1)
    let intervals = try #require(optimum["intervals"] as? [[String: Any]])
    #expect(intervals.count == 1)
    #expect(intervals[0]["low"] as? Double == 0.4 && intervals[0]["low_open"] as? Bool == true)
    #expect(intervals[0]["high"] as? Double == 0.6 && intervals[0]["high_open"] as? Bool == false)
    #expect((optimum["recommended"] as? [String: Any])?["threshold"] as? Double == 0.5)
    let plateau = try #require(optimum["plateau"] as? [String: Any])
    #expect(
      plateau["low"] as? Double == 0.4 && plateau["high"] as? Double == 0.6 && plateau["intervals"] as? Int == 1)
    // The k/20 grid lands on the optimum (0.45, 0.5, 0.55, 0.6).
    let grid = try #require(optimum["grid"] as? [String: Any])
    #expect(grid["best_objective"] as? Double == 1)
    // Every interval by hand: F1 0.8 on (0.2, 0.4], 2/3 on (0.6, 0.8], and the counts.
    let all = try #require(root["intervals"] as? [[String: Any]])
    func interval(holding x: Double) -> [String: Any]? {
      all.first { i in
        let low = i["low"] as! Double
        let high = i["high"] as! Double
        return ((i["low_open"] as! Bool) ? x > low : x >= low) && ((i["high_open"] as! Bool) ? x < high : x <= high)
      }
    }
    #expect(interval(holding: 0.3)?["f1"] as? Double == 0.8)
    #expect(interval(holding: 0.3)?["fp"] as? Int == 1)
    #expect(interval(holding: 0.7)?["f1"] as? Double == 2.0 / 3)
    #expect(interval(holding: 0.7)?["fn"] as? Int == 1)
    #expect(interval(holding: 0.9)?["tp"] as? Int == 0)
    // The intervals cover [0, 1] without gaps or overlaps.
    var next = 0.0
    var nextOpen = false
    for i in all {
      #expect(i["low"] as? Double == next && i["low_open"] as? Bool == nextOpen)
      next = i["high"] as! Double
      nextOpen = !(i["high_open"] as! Bool)
    }
    #expect(next == 1 && nextOpen, "the last interval ends at 1, closed")

    // Markdown: the verdict first; the same bytes whatever --threads (the input's path is in it).
    try inTemporaryDirectory(writing: Self.traces) { directory in
      let sweep = ["sweep", directory + "/t.csv"] + exact
      let text = try report(sweep + ["--threads", "1"], in: directory, as: "md")
      #expect(text.contains("## Verdict\n\n**Ship deep-press threshold=0.5**: F1 1.000"))
      #expect(text.contains("| (0.4, 0.6] |"))
      #expect(try Array(report(sweep + ["--threads", "2"], in: directory, as: "md").utf8) == Array(text.utf8))
    }
    // CSV: one row per interval.
    let rows = try report("sweep", on: Self.traces, exact, as: "csv").split(separator: "\n")
    #expect(rows.count == all.count + 1)
    #expect(rows[0].hasPrefix("recognizer,fixed,low,high,low_open,high_open,classes,tp,fp,tn,fn"))
  }

  @Test func tuneCrossValidatesExactly() throws {
    let root = try jsonObject(
      parsing: report(
        "tune", on: Self.traces,
        ["--recognizer", "deep-press", "--exact", "--folds", "2", "--bootstrap", "50", "--quiet"], as: "json"))
    #expect((root["verdict"] as? [String: Any])?["ship"] as? String == "deep-press threshold=0.5")
    let cv = try #require(root["cross_validation"] as? [String: Any])
    let folds = try #require(cv["folds"] as? [[String: Any]])
    #expect(folds.count == 2)
    for fold in folds {
      // The chosen value lies in the interval chosen on the training part.
      let chosen = try #require((fold["chosen"] as? [String: Any])?["threshold"] as? Double)
      let interval = try #require(fold["interval"] as? [String: Any])
      let low = interval["low"] as! Double
      let high = interval["high"] as! Double
      #expect(chosen > low && chosen <= high)
      #expect(fold["held_out"] is [String: Any])
    }
    let intervals = try #require(root["recommended_intervals"] as? [[String: Any]])
    #expect(intervals.first?["statistic"] as? String == "f1" && intervals.first?["estimate"] as? Double == 1)
  }

  @Test func refusalsNameWhatToDo() {
    inTemporaryDirectory(writing: Self.traces) { directory in
      let file = directory + "/t.csv"
      func code(_ arguments: [String]) -> Int32 {
        runCommand(arguments + ["--quiet", "--output", directory + "/x.json"])
      }
      #expect(code(["sweep", file, "--recognizer", "deep-press,hysteresis", "--exact"]) == 64)
      #expect(code(["sweep", "-", "--recognizer", "deep-press", "--exact"]) == 64)
      #expect(code(["sweep", file, "--recognizer", "stable-press", "--exact-parameter", "dwellTime"]) == 64)
      #expect(code(["sweep", file, "--recognizer", "deep-press", "--exact", "--vary", "threshold=0.1,0.2"]) == 64)
      #expect(code(["sweep", file, "--recognizer", "deep-press", "--exact", "--by", "user"]) == 64)
      #expect(code(["sweep", file, "--recognizer", "deep-press", "--plateau-tolerance", "0.02"]) == 64)
      // Dense data is bounded: more classes than --exact-max-classes stop the run (exit 65).
      #expect(code(["sweep", file, "--recognizer", "deep-press", "--exact", "--exact-max-classes", "3"]) == 65)
      #expect(!TestData.exists(directory + "/x.json"))
    }
  }
}
