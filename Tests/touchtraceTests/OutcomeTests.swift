import Foundation
import Testing
import TouchTestSupport

@testable import TouchTraceCLI

/// `--outcomes`: the per-trace rows behind every count — summed, they give the reports' counts;
/// row for row they equal an independent Python scoring (`Scripts/make-outcome-fixtures.py`).
@Suite("Per-trace outcomes (--outcomes)")
struct OutcomeTests {
  struct Fixture: Decodable {
    struct Case: Decodable {
      var name: String
      var recognizer: String
      var settings: [String: String]
      var positives: [String]
      var tolerance: Double
      var rows: [[Value]]
    }
    /// A cell: text, a number or null.
    enum Value: Decodable, Hashable {
      case text(String)
      case number(Double)
      case null
      init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
          self = .null
        } else if let x = try? c.decode(Double.self) {
          self = .number(x)
        } else {
          self = .text(try c.decode(String.self))
        }
      }
    }
    var samples: [String]
    var cases: [Case]
  }

  static let fixture: Fixture = {
    let url = Bundle.module.url(forResource: "outcomes", withExtension: "json", subdirectory: "Fixtures/stats")!
    return try! JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
  }()

  /// One row as compared: trace, stage, outcome, action and reference times in microseconds.
  struct Row: Hashable, CustomStringConvertible {
    var trace: String
    var stage: Int
    var outcome: String
    var action: Int64?
    var reference: Int64?
    var description: String {
      "\(trace) stage \(stage) \(outcome) action \(action.map(String.init) ?? "-") reference \(reference.map(String.init) ?? "-")"
    }

    static func micro(_ x: Double?) -> Int64? { x.map { Int64(($0 * 1e6).rounded()) } }
  }

  /// The rows of a CSV outcome table, with their header.
  static func table(_ path: String) throws -> (header: [String], rows: [[String]]) {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    let lines = text.split(separator: "\n").map(String.init)
    return (SweepCommandTests.fields(lines[0]), lines.dropFirst().map(SweepCommandTests.fields))
  }

  @Test(arguments: fixture.cases.map(\.name))
  func rowsEqualAnIndependentScoringPerTrace(name: String) throws {
    let expected = try #require(Self.fixture.cases.first { $0.name == name })
    try inTemporaryDirectory { directory in
      let out = directory + "/outcomes.csv"
      var arguments = ["sweep"] + Self.fixture.samples.map { TestData.repositoryRoot + "/" + $0 }
      arguments += ["--recognizer", expected.recognizer, "--positive", expected.positives.joined(separator: ",")]
      arguments += [
        "--tolerance", "\(expected.tolerance)", "--outcomes", out, "--output", directory + "/report.json", "--quiet",
      ]
      for (key, value) in expected.settings.sorted(by: { $0.key < $1.key }) {
        arguments += ["--vary", "\(key)=\(value)"]
      }
      #expect(runCommand(arguments) == 0)
      let (header, rows) = try Self.table(out)
      func column(_ name: String) -> Int { header.firstIndex(of: name)! }
      let actual = rows.map { r in
        Row(
          trace: r[column("trace")], stage: Int(r[column("stage")])!, outcome: r[column("outcome")],
          action: Row.micro(Double(r[column("action_t")])), reference: Row.micro(Double(r[column("reference_t")])))
      }
      let wanted = expected.rows.map { r -> Row in
        guard case .text(let trace) = r[0], case .number(let stage) = r[1], case .text(let outcome) = r[2] else {
          preconditionFailure("malformed fixture row")
        }
        func time(_ v: Fixture.Value) -> Int64? { if case .number(let x) = v { Row.micro(x) } else { nil } }
        return Row(trace: trace, stage: Int(stage), outcome: outcome, action: time(r[3]), reference: time(r[4]))
      }
      #expect(actual.count == wanted.count)
      let missing = Self.difference(wanted, actual)
      let extra = Self.difference(actual, wanted)
      #expect(missing.isEmpty, "missing: \(missing.prefix(5))")
      #expect(extra.isEmpty, "unexpected: \(extra.prefix(5))")
      // TP rows carry latency = action − reference.
      for r in rows where r[column("outcome")] == "TP" {
        let latency =
          Double(r[column("latency")])! - (Double(r[column("action_t")])! - Double(r[column("reference_t")])!)
        #expect(abs(latency) < 1e-12)
      }
    }
  }

  /// The multiset difference a − b.
  static func difference(_ a: [Row], _ b: [Row]) -> [Row] {
    var counts: [Row: Int] = [:]
    for row in b { counts[row, default: 0] += 1 }
    var left: [Row] = []
    for row in a {
      if let n = counts[row], n > 0 { counts[row] = n - 1 } else { left.append(row) }
    }
    return left
  }

  /// Rows per configuration and stage sum to the JSON report's TP, FP, FN and TN — one-stage,
  /// two-stage, list-parameter and require-to-fail recognizers, one-pass and replayed.
  @Test func rowsSumToTheReportsCounts() throws {
    try inTemporaryDirectory { directory in
      let report = directory + "/report.json"
      let csv = directory + "/outcomes.csv"
      let jsonl = directory + "/outcomes.jsonl"
      let base = [
        "sweep", TestData.samples, "--recognizer", "deep-press,peek-pop,zones,long-press,tap+deep-press", "--quiet",
      ]
      #expect(runCommand(base + ["--output", report, "--outcomes", csv]) == 0)
      let results = try #require(try jsonObject(report)["results"] as? [[String: Any]])
      let (header, rows) = try Self.table(csv)
      #expect(header == OutcomeTableColumns.expected)
      var sums: [String: Int] = [:]
      for r in rows { sums["\(r[0]) \(r[10]) \(r[11])", default: 0] += 1 }
      var configurations = Set<String>()
      for r in rows { configurations.insert(r[0]) }
      #expect(configurations.count == results.count)
      for (c, result) in results.enumerated() {
        for (stage, counts) in [(1, result as [String: Any]?), (2, result["stage2"] as? [String: Any])] {
          guard let counts else { continue }
          for (key, outcome) in [("tp", "TP"), ("fp", "FP"), ("fn", "FN"), ("tn", "TN")] {
            #expect(
              sums["\(c) \(stage) \(outcome)", default: 0] == counts[key] as? Int,
              "configuration \(c) stage \(stage) \(outcome)")
          }
        }
      }
      // JSON Lines: the same rows, the same names.
      #expect(runCommand(base + ["--output", directory + "/r2.json", "--outcomes", jsonl]) == 0)
      let lines = try String(contentsOfFile: jsonl, encoding: .utf8).split(separator: "\n")
      #expect(lines.count == rows.count)
      for (line, row) in zip(lines, rows).prefix(500) {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(Array(object.keys).sorted() == header.sorted())
        #expect(object["trace"] as? String == row[3] && object["outcome"] as? String == row[11])
        #expect((object["action_t"] as? Double).map { abs($0 - Double(row[12])!) < 1e-12 } ?? (row[12] == ""))
      }
      // Errors only: the FP and FN rows, nothing else.
      let errors = directory + "/errors.csv"
      #expect(
        runCommand(base + ["--output", directory + "/r3.json", "--outcomes", errors, "--outcomes-filter", "errors"])
          == 0)
      let errorRows = try Self.table(errors).rows
      #expect(
        errorRows.map { $0.joined(separator: ",") }
          == rows.filter { $0[11] == "FP" || $0[11] == "FN" }.map { $0.joined(separator: ",") })
    }
  }

  /// `best` keeps the best configuration of each recognizer; tune's is the chosen one; run and
  /// compare give the same rows as sweep for the same configuration.
  @Test func filtersAndEveryCommandAgree() throws {
    try inTemporaryDirectory { directory in
      let all = directory + "/all.csv"
      let best = directory + "/best.csv"
      let sweep = ["sweep", TestData.samples, "--recognizer", "deep-press,hysteresis", "--quiet", "--output"]
      #expect(runCommand(sweep + [directory + "/a.json", "--outcomes", all]) == 0)
      #expect(runCommand(sweep + [directory + "/b.md", "--outcomes", best, "--outcomes-filter", "best"]) == 0)
      let allRows = try Self.table(all).rows
      let bestRows = try Self.table(best).rows
      // deep-press and hysteresis are both best at 0.35 on the samples (the README's table).
      #expect(
        Set(bestRows.map { "\($0[1]) \($0[2])" }) == ["deep-press threshold=0.35", "hysteresis pressThreshold=0.35"])
      let deepPress = allRows.filter { $0[1] == "deep-press" && $0[2] == "threshold=0.35" }.map {
        Array($0.dropFirst())
      }
      #expect(bestRows.filter { $0[1] == "deep-press" }.map { Array($0.dropFirst()) } == deepPress)

      let tune = directory + "/tune.csv"
      #expect(
        TuneCommandTests.tuneSamples(
          "deep-press", ["--folds", "0", "--bootstrap", "0", "--outcomes", tune, "--outcomes-filter", "best"],
          output: directory + "/t.json") == 0)
      #expect(try Self.table(tune).rows.map { Array($0.dropFirst()) } == deepPress)

      let run = directory + "/run.csv"
      #expect(
        runCommand([
          "run", TestData.samples, "--recognizer", "deep-press", "--set", "threshold=0.35", "--output",
          directory + "/r.json",
          "--outcomes", run,
        ]) == 0)
      #expect(try Self.table(run).rows.map { Array($0.dropFirst()) } == deepPress)

      let compare = directory + "/compare.csv"
      #expect(
        runCommand([
          "compare", TestData.samples, "--a", "deep-press:threshold=0.35", "--b", "hysteresis", "--output",
          directory + "/c.json", "--outcomes", compare,
        ]) == 0)
      let compareRows = try Self.table(compare).rows
      #expect(compareRows.filter { $0[0] == "0" }.map { Array($0.dropFirst()) } == deepPress)
      #expect(Set(compareRows.map(\.[0])) == ["0", "1"])
    }
  }

  /// `run --outcomes` scores its labelled traces as the batches pass (no samples kept): among
  /// unlabelled traces (every third here), in batches of 1, 7 and all, its rows are the rows of
  /// `sweep --outcomes` of the same configuration (an independent path: the sweep's replay of
  /// the labelled traces it keeps), and the unlabelled traces are counted as skipped.
  @Test func runScoresItsLabelledTracesAsTheyPass() throws {
    try inTemporaryDirectory { directory in
      let input = directory + "/mixed.csv"
      let lines = try String(contentsOfFile: TestData.samples + "/synth-iphone6s.csv", encoding: .utf8)
        .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      let header = SweepCommandTests.fields(lines[0])
      let (name, intent, pressAt) = (
        0, try #require(header.firstIndex(of: "intent")), try #require(header.firstIndex(of: "press_at"))
      )
      var names: [String] = []
      let mixed =
        [lines[0]]
        + lines.dropFirst().map { line -> String in
          guard !line.isEmpty else { return line }
          var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
          if names.last != fields[name] { names.append(fields[name]) }
          if names.count % 3 == 0 { (fields[intent], fields[pressAt]) = ("", "") }
          return fields.joined(separator: ",")
        }
      TestData.write(mixed.joined(separator: "\n"), to: input)
      let sweep = directory + "/sweep.csv"
      #expect(
        runCommand([
          "sweep", input, "--recognizer", "deep-press", "--vary", "threshold=0.35", "--output", directory + "/s.json",
          "--outcomes", sweep, "--quiet",
        ]) == 0)
      let expected = try Self.table(sweep).rows.map { Array($0.dropFirst()) }
      #expect(expected.count > 50)
      for batch in ["1", "7", "100000"] {
        let run = directory + "/run-\(batch).csv"
        let result = try runChild(
          debugTouchtrace,
          [
            "run", input, "--recognizer", "deep-press", "--set", "threshold=0.35", "--output", directory + "/r.json",
            "--outcomes", run, "--batch-traces", batch,
          ])
        #expect(result.code == 0, "\(result.errors)")
        #expect(try Self.table(run).rows.map { Array($0.dropFirst()) } == expected, "batches of \(batch)")
        #expect(result.errors.contains("skipped \(names.count / 3) traces: no intent label"), "\(result.errors)")
      }
    }
  }

  /// The outcome file goes through the output rules: never over an input, never named twice,
  /// nothing written when it is refused; --carry-state is a usage error with it.
  @Test func theOutcomeFileFollowsTheOutputRules() throws {
    try inTemporaryDirectory(writing: SweepCommandTests.traces) { directory in
      let input = directory + "/t.csv"
      let report = directory + "/report.json"
      #expect(
        runCommand(["sweep", input, "--recognizer", "deep-press", "--output", report, "--outcomes", input]) == 73)
      #expect(!TestData.exists(report))
      #expect(
        runCommand(["sweep", input, "--recognizer", "deep-press", "--output", report, "--outcomes", report]) == 73)
      #expect(!TestData.exists(report))
      #expect(
        runCommand(["sweep", input, "--recognizer", "deep-press", "--output", report, "--outcomes", directory]) == 73)
      #expect(runCommand(["sweep", input, "--recognizer", "deep-press", "--outcomes-filter", "some"]) == 64)
      #expect(
        runCommand(["run", input, "--recognizer", "deep-press", "--carry-state", "--outcomes", directory + "/o.csv"])
          == 64)
      // A missing directory: the report is not written either (all or nothing).
      #expect(
        runCommand([
          "sweep", input, "--recognizer", "deep-press", "--output", report, "--outcomes", directory + "/no/o.csv",
        ]) == 73)
      #expect(!TestData.exists(report))
      // No temporary file is left behind.
      let left = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains("touchtrace-") }
      #expect(left.isEmpty)
      // Hand-checked: a (press at 0.1) acted at 0.1 → TP; b (tap) acted → FP; c (hold) → TN.
      let out = directory + "/o.csv"
      #expect(
        runCommand([
          "sweep", input, "--recognizer", "deep-press", "--vary", "threshold=0.5", "--output", report, "--outcomes",
          out,
        ])
          == 0)
      let rows = try Self.table(out).rows.map { [$0[3], $0[11], $0[12], $0[13], $0[14]] }
      #expect(rows == [["a", "TP", "0.1", "0.1", "0.0"], ["b", "FP", "0.05", "", ""], ["c", "TN", "", "", ""]])
    }
  }
}

/// The columns `--outcomes` promises (the issue's names are a contract).
enum OutcomeTableColumns {
  static let expected = [
    "configuration", "recognizer", "parameters", "trace", "id", "touch", "user", "device", "session", "intent", "stage",
    "outcome", "action_t", "reference_t", "latency",
  ]
}

extension OutcomeTests {
  /// The outcome table is the same bytes whatever the thread count.
  @Test func outcomesDoNotDependOnThreads() throws {
    try inTemporaryDirectory { directory in
      var tables: [Data] = []
      for threads in ["1", "2", "3"] {
        let out = directory + "/o\(threads).jsonl"
        #expect(
          runCommand([
            "sweep", TestData.samples, "--recognizer", "deep-press,peek-pop", "--threads", threads, "--quiet",
            "--output",
            directory + "/r\(threads).json", "--outcomes", out, "--by", "user",
          ]) == 0)
        tables.append(try Data(contentsOf: URL(fileURLWithPath: out)))
        tables.append(try Data(contentsOf: URL(fileURLWithPath: directory + "/r\(threads).json")))
      }
      #expect(tables[0] == tables[2] && tables[0] == tables[4])
      #expect(tables[1] == tables[3] && tables[1] == tables[5])
    }
  }
}

extension OutcomeTests {
  /// A sweep that keeps only its traces' summary writes the table from a second read, batch by
  /// batch through a spill file: of the spool of its analyzed traces, or of its files with
  /// `--spool-limit 0`; both are the table of a sweep that keeps every trace (standard input
  /// without a spool keeps them), byte for byte: with extra label columns, in batches of 3, for
  /// every filter, as CSV and JSON Lines.
  @Test func theTableFromASecondReadIsTheTableOfEveryTraceKept() throws {
    try inTemporaryDirectory { directory in
      let labels = directory + "/labels.csv"
      TestData.write(
        "trace,hand,posture\niphone6s-s8-0001,left,sitting\niphone6s-s8-0003,right,\nandroid-s8-0002,,lying\n",
        to: labels)
      for filter in ["all", "errors", "best"] {
        for ext in ["csv", "jsonl"] {
          var tables: [String] = []
          for spool in [[], ["--spool-limit", "0"]] {
            let table = directory + "/o-\(spool.count).\(ext)"
            let arguments =
              [
                "sweep", TestData.samples, "--recognizer", "deep-press,peek-pop", "--labels", labels, "--batch-traces",
                "3",
                "--outcomes", table, "--outcomes-filter", filter, "--quiet", "--output", directory + "/r.md",
              ] + spool
            #expect(runCommand(arguments) == 0)
            tables.append(try String(contentsOfFile: table, encoding: .utf8))
          }
          #expect(tables[0] == tables[1], "\(filter) \(ext)")
          let lines = tables[0].split(separator: "\n")
          #expect(lines.count > 100)
          if ext == "csv" { #expect(lines[0].hasSuffix(",latency,label:hand,label:posture")) }
          // Every row of a labelled trace ends in its labels.
          let labelled = lines.filter { $0.contains(",iphone6s-s8-0001,") || $0.contains(#""iphone6s-s8-0001""#) }
          let suffix = ext == "csv" ? ",left,sitting" : #""labels":{"hand":"left","posture":"sitting"}}"#
          #expect(filter == "errors" || !labelled.isEmpty)
          #expect(labelled.allSatisfy { $0.hasSuffix(suffix) })
        }
      }
    }
  }

  /// Every trace kept (standard input without a spool) against the spool, a file's and standard
  /// input's: the same `--outcomes` table (one file, so that standard input can carry it).
  @Test(.debugTouchtraceIsBuilt)
  func standardInputsTableFromItsSpoolIsTheTableOfEveryTraceKept() throws {
    try inTemporaryDirectory { directory in
      let file = TestData.samples + "/synth-iphone6s.csv"
      let options = "--recognizer deep-press,peek-pop --batch-traces 3 --quiet --output '\(directory)/r.md'"
      let tables = (0..<3).map { directory + "/one-\($0).csv" }
      let binary = "'\(debugTouchtrace)' sweep"
      let script = """
        \(binary) - \(options) --spool-limit 0 --outcomes '\(tables[0])' < '\(file)' && \
        \(binary) '\(file)' \(options) --outcomes '\(tables[1])' && \
        \(binary) - \(options) --outcomes '\(tables[2])' < '\(file)'
        """
      let shell = try runChild("/bin/sh", ["-c", script])
      #expect(shell.code == 0, "\(shell.errors)")
      let texts = try tables.map { try String(contentsOfFile: $0, encoding: .utf8) }
      #expect(texts[0].split(separator: "\n").count > 100)
      #expect(texts[0] == texts[1] && texts[0] == texts[2])
    }
  }

  /// Standard input's `--outcomes` past the spool's limit cannot be read again: exit 65, saying
  /// why, and no table.
  @Test(.debugTouchtraceIsBuilt)
  func standardInputPastTheSpoolLimitRefusesItsTable() throws {
    try inTemporaryDirectory { directory in
      let table = directory + "/o.csv"
      let shell = try runChild(
        "/bin/sh",
        [
          "-c",
          "'\(debugTouchtrace)' sweep - --recognizer deep-press --outcomes '\(table)' --spool-limit 5000 --quiet --output '\(directory)/r.md' < '\(TestData.samples)/synth-iphone6s.csv'",
        ])
      #expect(shell.code == 65)
      #expect(shell.errors.contains("standard input is read once, and its traces could not be spooled"))
      #expect(shell.errors.contains("--spool-limit"))
      #expect(!FileManager.default.fileExists(atPath: table))
    }
  }
}

extension OutcomeTests {
  /// `tune` writes the table from the outcomes it keeps on disk for its folds, a few thousand
  /// traces at a time; that is the table of the path that keeps every trace and replays it (taken
  /// for an HTML report), byte for byte, in batches of 5 too.
  @Test func tuneWritesTheTableOfTheReplaysFromItsKeptOutcomes() throws {
    try inTemporaryDirectory { directory in
      let command = [
        "tune", ShardMergeTests.data, "--recognizer", "deep-press,peek-pop", "--folds", "3", "--group-by", "user",
        "--bootstrap", "0", "--quiet",
      ]
      let replayed = directory + "/replayed.jsonl"
      #expect(runCommand(command + ["--outcomes", replayed, "--output", directory + "/r.html"]) == 0)
      let expected = try Data(contentsOf: URL(fileURLWithPath: replayed))
      #expect(expected.count > 1000)
      for batch in ["5", "100000"] {
        let kept = directory + "/kept-\(batch).jsonl"
        #expect(
          runCommand(
            command + ["--batch-traces", batch, "--outcomes", kept, "--output", directory + "/r-\(batch).json"]) == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: kept)) == expected, "batch \(batch)")
      }
    }
  }
}
