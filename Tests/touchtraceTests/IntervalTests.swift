import Foundation
import Testing
import TouchTestSupport

@testable import TouchTraceCLI

/// The 95 % intervals of the reports against SciPy (`Scripts/make-interval-fixtures.py`), and
/// the notes that replace a bootstrap interval the reports do not print.
@Suite("Intervals in the reports")
struct IntervalTests {
  struct Fixture: Decodable {
    struct Stage: Decodable {
      var precision_ci, recall_ci, fpr_ci: [Double]?
    }
    struct Result: Decodable {
      var recognizer: String
      var params: [String: Double]
      var stage1: Stage
      var stage2: Stage?
    }
    var samples: [String]
    var recognizers: String
    var sweep: [Result]
  }

  static let fixture: Fixture = {
    let url = Bundle.module.url(forResource: "wilson", withExtension: "json", subdirectory: "Fixtures/stats")!
    return try! JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
  }()

  static func close(_ actual: Any?, _ expected: [Double]?) -> Bool {
    guard let expected else { return actual is NSNull }
    guard let actual = actual as? [Double], actual.count == 2 else { return false }
    return abs(actual[0] - expected[0]) <= 1e-9 && abs(actual[1] - expected[1]) <= 1e-9
  }

  /// Every configuration of the sweep, both stages, in JSON and in CSV.
  @Test func sweepReportsCarrySciPysIntervals() throws {
    try inTemporaryDirectory { directory in
      let json = directory + "/sweep.json"
      let csv = directory + "/sweep.csv"
      let samples = Self.fixture.samples.map { TestData.repositoryRoot + "/" + $0 }
      #expect(
        runCommand(
          ["sweep"] + samples + [
            "--recognizer", Self.fixture.recognizers, "--output", json, "--csv-output", csv, "--quiet",
          ])
          == 0)
      let results = try #require(try jsonObject(json)["results"] as? [[String: Any]])
      #expect(results.count == Self.fixture.sweep.count)
      let text = try String(contentsOfFile: csv, encoding: .utf8)
      let lines = text.split(separator: "\n").map(String.init)
      let header = SweepCommandTests.fields(lines[0])
      for (k, (result, expected)) in zip(results, Self.fixture.sweep).enumerated() {
        #expect(result["recognizer"] as? String == expected.recognizer)
        #expect(result["params"] as? [String: Double] == expected.params)
        let row = SweepCommandTests.fields(lines[k + 1])
        for (name, ci) in [
          ("precision_ci", expected.stage1.precision_ci), ("recall_ci", expected.stage1.recall_ci),
          ("fpr_ci", expected.stage1.fpr_ci),
        ] {
          #expect(Self.close(result[name], ci), "\(expected.recognizer) \(expected.params) \(name)")
          let low = try #require(header.firstIndex(of: name + "_low"))
          let high = try #require(header.firstIndex(of: name + "_high"))
          if let ci {
            #expect(abs(Double(row[low])! - ci[0]) <= 1e-9 && abs(Double(row[high])! - ci[1]) <= 1e-9)
          } else {
            #expect(row[low] == "" && row[high] == "")
          }
        }
        if let stage2 = expected.stage2 {
          let s = try #require(result["stage2"] as? [String: Any])
          #expect(Self.close(s["precision_ci"], stage2.precision_ci))
          #expect(Self.close(s["recall_ci"], stage2.recall_ci))
          #expect(Self.close(s["fpr_ci"], stage2.fpr_ci))
        }
      }
    }
  }

  /// Six users are fewer than 10 clusters; long-press at 0.3125 s finds every press, so every
  /// resample's recall is 1: neither interval is printed, the report says why.
  @Test func degenerateBootstrapIntervalsAreNamedNotPrinted() throws {
    try inTemporaryDirectory { directory in
      let byUser = directory + "/user.json"
      let byTrace = directory + "/trace.md"
      let byTraceJSON = directory + "/trace.json"
      let options = ["--vary", "minimumPressDuration=0.3125", "--folds", "0", "--bootstrap", "200"]
      #expect(TuneCommandTests.tuneSamples("long-press", options + ["--group-by", "user"], output: byUser) == 0)
      let bootstrap = try #require(try jsonObject(byUser)["bootstrap"] as? [String: Any])
      let intervals = try #require(bootstrap["intervals"] as? [[String: Any]])
      for interval in intervals {
        #expect(interval["note"] as? String == "fewer than 10 clusters (6 users)")
      }
      #expect(
        TuneCommandTests.tuneSamples("long-press", options + ["--json-output", byTraceJSON], output: byTrace) == 0)
      let traced = try #require(
        (try jsonObject(byTraceJSON)["bootstrap"] as? [String: Any])?["intervals"] as? [[String: Any]])
      let recall = try #require(traced.first { $0["statistic"] as? String == "recall" })
      #expect(recall["note"] as? String == "all 200 resamples agree")
      #expect(recall["lower"] as? Double == 1 && recall["upper"] as? Double == 1)
      let precision = try #require(traced.first { $0["statistic"] as? String == "precision" })
      #expect(precision["note"] is NSNull)
      let markdown = try String(contentsOfFile: byTrace, encoding: .utf8)
      #expect(markdown.contains("| recall | 1.000 | not shown: all 200 resamples agree | 200/200 | 0.962–1.000 |"))
      #expect(!markdown.contains("1.000 – 1.000"))
    }
  }
}

/// `sweep --bootstrap`: the best configurations' F1 and latency intervals.
@Suite("Bootstrap intervals in sweep")
struct SweepBootstrapTests {
  /// One configuration, the same seed and units: sweep's intervals are tune's (tune without
  /// folds draws its resamples first from the same stream).
  @Test func sweepsIntervalsAreTunesForTheSameConfiguration() throws {
    try inTemporaryDirectory { directory in
      let sweep = directory + "/sweep.json"
      let tune = directory + "/tune.json"
      let grid = ["--vary", "threshold=0.35", "--bootstrap", "300", "--seed", "7"]
      #expect(
        runCommand(["sweep", TestData.samples, "--recognizer", "deep-press", "--quiet", "--output", sweep] + grid) == 0)
      #expect(TuneCommandTests.tuneSamples("deep-press", grid + ["--folds", "0"], output: tune) == 0)
      let sweepResults = try #require(
        (try jsonObject(sweep)["bootstrap"] as? [String: Any])?["results"] as? [[String: Any]])
      #expect(sweepResults.count == 1)
      let sweepIntervals = try #require(sweepResults[0]["intervals"] as? [[String: Any]])
      let tuneIntervals = try #require(
        (try jsonObject(tune)["bootstrap"] as? [String: Any])?["intervals"] as? [[String: Any]])
      for name in ["f1", "latency_p50", "latency_p90"] {
        let s = try #require(sweepIntervals.first { $0["statistic"] as? String == name })
        let t = try #require(tuneIntervals.first { $0["statistic"] as? String == name })
        #expect(
          s["lower"] as? Double == t["lower"] as? Double && s["upper"] as? Double == t["upper"] as? Double, "\(name)")
        #expect((s["lower"] as? Double).map { $0 < (s["upper"] as? Double)! } == true, "\(name) has width")
        #expect(s["note"] is NSNull)
      }
    }
  }

  @Test func fewClustersAreNamedInEveryFormat() throws {
    try inTemporaryDirectory { directory in
      let base = [
        "sweep", TestData.samples, "--recognizer", "deep-press", "--vary", "threshold=0.35", "--bootstrap", "100",
      ]
      let options = ["--group-by", "user", "--quiet"]
      #expect(
        runCommand(base + options + ["--output", directory + "/s.md", "--csv-output", directory + "/s.csv"]) == 0)
      let markdown = try String(contentsOfFile: directory + "/s.md", encoding: .utf8)
      #expect(
        markdown.contains("| deep-press | threshold=0.35 | 0.569 | not given: fewer than 10 clusters (6 users) |"))
      let lines = try String(contentsOfFile: directory + "/s.csv", encoding: .utf8).split(separator: "\n").map(
        String.init)
      let header = SweepCommandTests.fields(lines[0])
      let row = SweepCommandTests.fields(lines[1])
      #expect(row[header.firstIndex(of: "bootstrap_note")!] == "fewer than 10 clusters (6 users)")
      #expect(row[header.firstIndex(of: "bootstrap_f1_lower")!] == "")
      #expect(runCommand(base + ["--confidence", "1"]) == 64)
      #expect(runCommand(["sweep", TestData.samples, "--recognizer", "deep-press", "--group-by", "user"]) == 64)
    }
  }
}

extension IntervalTests {
  /// `sweep --bootstrap` keeps no trace: the best configurations' outcomes, the truths and the
  /// resampling units come from a second read, of the spooled analyzed traces or (`--spool-limit
  /// 0`) of the files. Its report is the report of standard input without a spool, which keeps
  /// every trace in memory (but for the input's name and the verdict, which standard input
  /// without a spool cannot pair), and of standard input with one, with and without --group-by,
  /// in batches of 5 too.
  @Test(.debugTouchtraceIsBuilt)
  func theBootstrapOfASecondReadIsTheBootstrapOfEveryTraceKept() throws {
    try inTemporaryDirectory { directory in
      let input = directory + "/in.csv"
      TestData.write(try String(contentsOfFile: TestData.samples + "/synth-android.csv", encoding: .utf8), to: input)
      for (k, options) in [
        "--recognizer deep-press,stable-press --bootstrap 60 --seed 9",
        "--recognizer deep-press,peek-pop --bootstrap 40 --group-by user --batch-traces 5",
      ].enumerated() {
        let outputs = ["kept", "spooled", "reread", "spooled-stdin"].map { directory + "/\($0)-\(k).json" }
        let binary = "'\(debugTouchtrace)' sweep"
        let script = """
          \(binary) - \(options) --quiet --spool-limit 0 --output '\(outputs[0])' < '\(input)' && \
          \(binary) '\(input)' \(options) --quiet --output '\(outputs[1])' && \
          \(binary) '\(input)' \(options) --quiet --spool-limit 0 --output '\(outputs[2])' && \
          \(binary) - \(options) --quiet --output '\(outputs[3])' < '\(input)'
          """
        let shell = try runChild("/bin/sh", ["-c", script])
        #expect(shell.code == 0, "\(shell.errors)")
        var reports: [[String: Any]] = []
        for path in outputs {
          var report = try jsonObject(path)
          #expect(report["bootstrap"] != nil, "\(options)")
          // The input's name, and the verdict's paired comparison (standard input gives none
          // without a spool).
          for key in ["configuration", "files", "verdict"] { report[key] = nil }
          reports.append(report)
        }
        for report in reports.dropFirst() {
          #expect(NSDictionary(dictionary: reports[0]).isEqual(to: report), "\(options)")
        }
      }
    }
  }
}
