import Foundation
import Testing
import TouchTestSupport

@testable import TouchReports
@testable import TouchTraceCLI

/// The `swiftc` on `PATH`, if any.
let swiftCompiler: String? = {
  for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
    let path = "\(directory)/swiftc"
    if FileManager.default.isExecutableFile(atPath: path) { return path }
  }
  return nil
}()

@Suite("touchtrace tune")
struct TuneCommandTests {
  /// Runs `touchtrace tune` quietly on the committed samples with `recognizer`, `options` and
  /// `--output output`; returns the exit code.
  static func tuneSamples(_ recognizer: String, _ options: [String], output: String) -> Int32 {
    runCommand(["tune", TestData.samples, "--recognizer", recognizer] + options + ["--output", output, "--quiet"])
  }

  /// Presses and taps by three users; deep-press at 0.5 gets a, d and e right and fires on b
  /// (a hard tap), at 0.9 it misses every press.
  static let traces = """
    trace,t,force,max_force,intent,press_at,user
    a,0,0,1,press,0.1,u1
    a,0.05,0.3,1,press,0.1,u1
    a,0.1,0.6,1,press,0.1,u1
    a,0.15,0.8,1,press,0.1,u1
    a,0.2,0.1,1,press,0.1,u1
    b,0,0,1,tap,,u1
    b,0.05,0.7,1,tap,,u1
    b,0.1,0,1,tap,,u1
    c,0,0,1,hold,,u2
    c,0.1,0.2,1,hold,,u2
    c,0.2,0.1,1,hold,,u2
    d,0,0,1,press,0.1,u2
    d,0.05,0.4,1,press,0.1,u2
    d,0.1,0.7,1,press,0.1,u2
    d,0.15,0.2,1,press,0.1,u2
    e,0,0,1,press,0.05,u3
    e,0.05,0.6,1,press,0.05,u3
    e,0.1,0.8,1,press,0.05,u3
    e,0.15,0.1,1,press,0.05,u3
    f,0,0,1,tap,,
    f,0.1,0.3,1,tap,,

    """

  @Test func exitCodesFollowTheDocumentedTable() {
    inTemporaryDirectory(writing: Self.traces) { directory in
      let input = directory + "/t.csv"
      let out = directory + "/out.json"
      let base = [
        "tune", input, "--recognizer", "deep-press", "--vary", "threshold=0.5,0.9", "--output", out, "--quiet",
      ]
      #expect(runCommand(base) == 0)
      #expect(runCommand(base + ["--objective", "latency"]) == 64)  // needs a bound
      #expect(runCommand(base + ["--objective", "latency", "--min-recall", "0.5"]) == 0)
      #expect(runCommand(base + ["--objective", "fpr"]) == 64)  // needs --max-fpr
      #expect(runCommand(base + ["--objective", "fpr", "--max-fpr", "0.5"]) == 0)
      #expect(runCommand(base + ["--cost-fp", "2"]) == 64)  // costs belong to --objective cost
      #expect(runCommand(base + ["--objective", "cost", "--cost-fp", "0", "--cost-fn", "0"]) == 64)
      #expect(runCommand(base + ["--objective", "cost", "--cost-fn", "4"]) == 0)
      #expect(runCommand(base + ["--min-precision", "1.5"]) == 64)
      #expect(runCommand(base + ["--folds", "1"]) == 64)
      #expect(runCommand(base + ["--bootstrap", "-1"]) == 64)
      #expect(runCommand(base + ["--confidence", "1"]) == 64)
      #expect(runCommand(base + ["--seed", "18446744073709551616"]) == 64)
      #expect(runCommand(base + ["--seed", "4294967295", "--folds", "2"]) == 0)
      #expect(runCommand(base + ["--objective", "best"]) == 64)
      // No trace has a 'team' label: bad data; 'force' cannot be a label: usage.
      #expect(runCommand(base + ["--group-by", "team"]) == 65)
      #expect(runCommand(base + ["--group-by", "force"]) == 64)
      #expect(runCommand(["tune", directory + "/missing.csv", "--recognizer", "deep-press"]) == 66)
      // Six traces (one per trace group) against 7 folds, three users against 4: bad data.
      #expect(runCommand(base + ["--folds", "7"]) == 65)
      #expect(runCommand(base + ["--group-by", "user", "--folds", "4"]) == 65)
      #expect(runCommand(base + ["--group-by", "user", "--folds", "3"]) == 0)
      // Bounds no configuration meets: the report is written, nothing is exported, exit 1.
      let swift = directory + "/tuned.swift"
      #expect(runCommand(base + ["--min-precision", "1", "--min-recall", "1", "--export-swift", swift]) == 1)
      #expect(TestData.exists(out) && !TestData.exists(swift))
    }
  }

  @Test func jsonCarriesTheChoiceFoldsIntervalsAndAccounting() throws {
    let json = try jsonObject(
      parsing: report(
        "tune", on: Self.traces,
        [
          "--recognizer", "deep-press", "--vary", "threshold=0.5,0.9", "--group-by", "user", "--folds", "3",
          "--bootstrap", "200", "--format", "json",
        ], as: "json"))
    #expect(json["format"] as? String == "touchtrace-tune" && json["version"] as? Int == 1)
    // f has no user label: skipped with the reason, and counted.
    #expect(json["traces"] as? [String: Int] == ["total": 6, "analyzed": 5, "skipped": 1])
    let skipped = try #require(json["skipped"] as? [[String: Any]])
    #expect(skipped.first?["reason"] as? String == "no user label (--group-by user)")
    let options = try #require(json["options"] as? [String: Any])
    #expect(options["group_by"] as? String == "user" && options["folds"] as? Int == 3 && options["seed"] as? Int == 1)
    #expect((options["objective"] as? [String: Any])?["name"] as? String == "f1")
    #expect((options["constraints"] as? [String: Any])?["min_precision"] is NSNull)
    // threshold 0.5: a, d, e matched (TP 3), b fires (FP 1), c silent (TN 1) → F1 6/7.
    let chosen = try #require(json["chosen"] as? [String: Any])
    #expect(chosen["params"] as? [String: Double] == ["threshold": 0.5])
    #expect(chosen["tp"] as? Int == 3 && chosen["fp"] as? Int == 1 && chosen["f1"] as? Double == 6.0 / 7)
    #expect(json["no_choice_reason"] is NSNull)
    let configurations = try #require(json["configurations"] as? [[String: Any]])
    #expect(configurations.count == 2)
    // threshold 0.9 never fires: precision and latency are null, not 0.
    #expect(configurations[1]["precision"] is NSNull && configurations[1]["latency_p50"] is NSNull)
    let cv = try #require(json["cross_validation"] as? [String: Any])
    #expect(cv["leave_one_group_out"] as? Bool == true && cv["by"] as? String == "user")
    let folds = try #require(cv["results"] as? [[String: Any]])
    #expect(folds.map { $0["fold"] as? Int } == [1, 2, 3])
    #expect(Set(folds.flatMap { ($0["held_out_groups"] as? [String]) ?? [] }) == ["u1", "u2", "u3"])
    #expect(folds.allSatisfy { ($0["training_traces"] as? Int ?? 0) + ($0["held_out_traces"] as? Int ?? 0) == 5 })
    let bootstrap = try #require(json["bootstrap"] as? [String: Any])
    #expect(
      bootstrap["unit"] as? String == "user" && bootstrap["units"] as? Int == 3
        && bootstrap["resamples"] as? Int == 200)
    let intervals = try #require(bootstrap["intervals"] as? [[String: Any]])
    #expect(
      intervals.map { $0["statistic"] as? String } == [
        "f1", "precision", "recall", "fpr", "latency_p50", "latency_p90", "abs_latency_p90", "early_rate",
      ])
    let pareto = try #require(json["pareto"] as? [String: Any])
    #expect((pareto["overall"] as? [[String: Any]])?.count == 1)  // 0.9 has no latency
  }

  /// An `exec:` recognizer acting `offset` seconds from each press's reference (its peak force,
  /// where `press_at` puts the reference), for offsets from −0.2 to +0.1 s: every offset has the
  /// same counts (TP 12, FP 0, FN 0, TN 4, all within the 0.25 s tolerance) and a signed p90
  /// equal to the offset, so ranking by signed p90 would choose −0.2 (firing 200 ms before the
  /// press). `--objective latency` chooses 0, no early offset is on any Pareto front, and
  /// `--max-early 0` leaves only the offsets ≥ 0 eligible.
  @Test func earlyFiringNeverWinsTheLatencyObjective() throws {
    var csv = "trace,t,force,max_force,intent,press_at,user\n"
    for k in 0..<12 {
      let peak = 18 + k
      for i in 0..<48 {
        let force = max(0, 1 - Double(abs(i - peak)) / 10) * 0.9
        csv += "p\(k),\(Double(i) / 60),\(force),1,press,\(Double(peak) / 60),u\(k % 4)\n"
      }
    }
    for k in 0..<4 {
      for i in 0..<30 { csv += "n\(k),\(Double(i) / 60),\(0.2 * (1 - Double(abs(i - 15)) / 15)),1,tap,,u\(k)\n" }
    }
    try inTemporaryDirectory(writing: csv) { directory in
      let script = TestData.repositoryRoot + "/Tests/touchtraceTests/Fixtures/exec/offset_press.py"
      let offsets = ["-0.2", "-0.15", "-0.1", "-0.05", "0", "0.05", "0.1"]
      let output = directory + "/tune.json"
      let common = [
        "tune", directory + "/t.csv", "--recognizer", "exec:python3 \(script)", "--vary",
        "offset=" + offsets.joined(separator: ","), "--folds", "0", "--bootstrap", "0", "--quiet", "--output", output,
      ]
      #expect(runCommand(common + ["--objective", "latency", "--min-recall", "0.8"]) == 0)
      var json = try jsonObject(output)
      let configurations = try #require(json["configurations"] as? [[String: Any]])
      #expect(configurations.count == offsets.count)
      for c in configurations {
        #expect(c["tp"] as? Int == 12 && c["fp"] as? Int == 0 && c["fn"] as? Int == 0 && c["tn"] as? Int == 4)
      }
      func offset(_ object: Any?) -> Double? {
        ((object as? [String: Any])?["params"] as? [String: Any])?["offset"] as? Double
      }
      #expect(offset(json["chosen"]) == 0)
      let pareto = try #require(json["pareto"] as? [String: Any])
      let overall = try #require(pareto["overall"] as? [[String: Any]])
      #expect(overall.map { offset($0) } == [0])
      let fronts = try #require(pareto["by_recognizer"] as? [[String: Any]])
      for front in fronts {
        for point in (front["points"] as? [[String: Any]]) ?? [] { #expect((offset(point) ?? -1) >= 0) }
      }
      // The verdict ships offset 0; its runner-up is −0.05 (the same |error| 0.05 as +0.05, first
      // in plan order), and the paired timing is hand-computed: 12 references both matched, the
      // runner-up acting 0.05 s earlier and 0.05 s further from every press.
      let verdict = try #require(json["verdict"] as? [String: Any])
      #expect(offset(verdict["recommended"]) == 0)
      #expect((verdict["recommended"] as? [String: Any])?["early_rate"] as? Double == 0)
      #expect(offset(verdict["runner_up"]) == -0.05)
      let paired = try #require(verdict["paired"] as? [String: Any])
      #expect(paired["latency_pairs"] as? Int == 12)
      #expect(abs(try #require(paired["latency_difference_median"] as? Double) + 0.05) < 1e-9)
      #expect(abs(try #require(paired["timing_error_difference_median"] as? Double) - 0.05) < 1e-9)
      #expect(paired["only_recommended"] as? Int == 0 && paired["only_runner_up"] as? Int == 0)
      // F1 objective, early firing bounded: the early offsets break --max-early 0.
      #expect(runCommand(common + ["--max-early", "0"]) == 0)
      json = try jsonObject(output)
      let eligible = try #require(json["configurations"] as? [[String: Any]]).filter { $0["eligible"] as? Bool == true }
      #expect(eligible.compactMap { ($0["params"] as? [String: Any])?["offset"] as? Double } == [0, 0.05, 0.1])
    }
  }

  @Test func unmetBoundsAreExplicitInEveryFormat() throws {
    try inTemporaryDirectory(writing: Self.traces) { directory in
      let args = [
        "tune", directory + "/t.csv", "--recognizer", "deep-press", "--vary", "threshold=0.5,0.9", "--min-precision",
        "0.9",
        "--folds", "0", "--bootstrap", "0", "--quiet",
      ]
      #expect(runCommand(args + ["--format", "json", "--output", directory + "/r.json"]) == 1)
      let json = try jsonObject(directory + "/r.json")
      #expect(json["chosen"] is NSNull)
      let reason = try #require(json["no_choice_reason"] as? String)
      #expect(reason.hasPrefix("no configuration meets the rule (maximum F1 subject to precision ≥ 0.9)"))
      #expect(reason.contains("the highest precision reached is 0.75"))
      #expect(json["cross_validation"] is NSNull && json["bootstrap"] is NSNull)
      #expect(runCommand(args + ["--format", "md", "--output", directory + "/r.md"]) == 1)
      #expect(
        try String(contentsOfFile: directory + "/r.md", encoding: .utf8).contains(
          "**No configuration chosen**: no configuration meets"))
      #expect(runCommand(args + ["--format", "csv", "--output", directory + "/r.csv"]) == 1)
      let csv = try String(contentsOfFile: directory + "/r.csv", encoding: .utf8)
      #expect(csv.contains("precision 0.75 < 0.9") && !csv.contains(",true\n"))  // no row is chosen
    }
  }

  @Test func outputIsIdenticalWhateverTheThreadCountAndFollowsTheSeed() throws {
    try inTemporaryDirectory { directory in
      func run(threads: String, seed: String, format: String) throws -> Data {
        let out = directory + "/out-\(threads)-\(seed).\(format)"
        let code = Self.tuneSamples(
          "deep-press,stable-press,peek-pop",
          [
            "--vary", "threshold=0.2:0.8:0.1", "--vary", "pressThreshold=0.3:0.6:0.1", "--group-by", "user", "--folds",
            "3",
            "--bootstrap", "200", "--seed", seed, "--threads", threads, "--format", format,
          ], output: out)
        #expect(code == 0)
        return try Data(contentsOf: URL(fileURLWithPath: out))
      }
      for format in ["json", "csv", "md"] {
        let one = try run(threads: "1", seed: "7", format: format)
        #expect(try run(threads: "3", seed: "7", format: format) == one, "\(format)")
        if format == "json" {
          #expect(try run(threads: "2", seed: "7", format: format) == one)
          #expect(try run(threads: "2", seed: "8", format: format) != one)
        }
      }
    }
  }

  @Test func csvTablesAreTidy() throws {
    try inTemporaryDirectory { directory in
      let tables = directory + "/tables"
      #expect(
        Self.tuneSamples(
          "deep-press,zones", ["--group-by", "device", "--folds", "3", "--bootstrap", "100", "--csv-dir", tables],
          output: directory + "/r.md") == 0)
      let expectedRows = ["configurations": 21, "folds": 3, "summary": 8]
      for name in ["configurations", "pareto", "folds", "summary"] {
        let text = try String(contentsOfFile: "\(tables)/\(name).csv", encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        let header = SweepCommandTests.fields(lines[0])
        #expect(Set(header).count == header.count, "\(name): repeated column")
        for line in lines.dropFirst() {
          #expect(SweepCommandTests.fields(line).count == header.count, "\(name): \(line)")
        }
        if let rows = expectedRows[name] { #expect(lines.count - 1 == rows, "\(name)") }
      }
      let summary = try String(contentsOfFile: tables + "/summary.csv", encoding: .utf8)
      #expect(
        summary.hasPrefix("statistic,chosen,chosen_lower,chosen_upper,chosen_defined,cv_folds,cv_mean,cv_sd,pooled,"))
      // zones' list parameter is one cell, its values joined by ';'.
      let configurations = try String(contentsOfFile: tables + "/configurations.csv", encoding: .utf8)
      #expect(configurations.contains("param_normalizedForceThreshholds"))
    }
  }

  /// The Swift export's string literals (the recognizer's name, which a user's catalog entry may
  /// spell with any character but `,= /:`), against escapes written by hand.
  @Test func swiftLiteralsEscapeWhatTheCompilerRejectsRaw() {
    #expect(TuneExport.literal("deep-press") == #""deep-press""#)
    #expect(TuneExport.literal("a\"b\\c") == #""a\"b\\c""#)
    #expect(TuneExport.literal("\n\r\t") == #""\n\r\t""#)
    #expect(TuneExport.literal("bell\u{7}del\u{7F}nul\u{0}esc\u{1B}") == #""bell\u{7}del\u{7F}nul\u{0}esc\u{1B}""#)
    // Printable non-ASCII characters, line separators included, stay as they are.
    #expect(TuneExport.literal("é\u{2028}→") == "\"é\u{2028}→\"")
  }

  /// The compiler accepts the export's literal of every ASCII character (raw control characters
  /// are an "unprintable ASCII character" error in a literal).
  @Test(.enabled(if: swiftCompiler != nil, "swiftc is not on PATH"))
  func swiftcAcceptsTheLiteralOfEveryASCIICharacter() throws {
    let ascii = String(String.UnicodeScalarView((0..<128).compactMap(Unicode.Scalar.init(_:))))
    try inTemporaryDirectory { directory in
      let file = directory + "/literal.swift"
      TestData.write("let name = \(TuneExport.literal(ascii))\nprint(name.unicodeScalars.count)\n", to: file)
      let typecheck = try runChild(swiftCompiler!, ["-typecheck", file])
      #expect(typecheck.code == 0, "\(typecheck.errors)")
    }
  }

  /// Exports of a composition (`required.` parameters) and of a variant with a list and a flag
  /// parameter type-check together with code that reads them.
  @Test(.enabled(if: swiftCompiler != nil, "swiftc is not on PATH"))
  func theSwiftExportCompilesAndTheJSONExportNamesItsData() throws {
    try inTemporaryDirectory { directory in
      let cases = [
        (
          "tap+deep-press", "required.threshold=0.3,0.5", "TunedTapDeepPress",
          "let threshold: Double = TunedTapDeepPress.requiredThreshold"
        ),
        (
          "zones", "faithfulSingleReport=true,false", "TunedZones",
          "let levels: [Double] = TunedZones.normalizedForceThreshholds"
        ),
      ]
      var files: [String] = []
      var uses = ""
      for (k, (recognizer, vary, type, use)) in cases.enumerated() {
        let swift = directory + "/Tuned\(k).swift"
        let json = directory + "/tuned\(k).json"
        #expect(
          Self.tuneSamples(
            recognizer,
            ["--vary", vary, "--folds", "0", "--bootstrap", "50", "--export-swift", swift, "--export-json", json],
            output: directory + "/r.json") == 0)
        let source = try String(contentsOfFile: swift, encoding: .utf8)
        #expect(source.hasPrefix("// Force-press configuration tuned by touchtrace "))
        #expect(
          source.contains(
            "\nenum \(type) {\n  /// The recognizer, as touchtrace names it.\n  static let variant = \"\(recognizer)\"\n"
          ))
        files.append(swift)
        uses += "\(use)\nprint(\(type).variant)\n"
        // The JSON export: variant, library, parameters with units, data and cross-validation state.
        let export = try jsonObject(json)
        #expect(
          export["format"] as? String == "touchtrace-configuration" && export["recognizer"] as? String == recognizer)
        #expect((export["variant"] as? [String: Any])?["source"] is String)
        #expect(
          (export["params"] as? [String: Any])?.isEmpty == false
            && (export["units"] as? [String: Any])?.isEmpty == false)
        let tunedOn = try #require(export["tuned_on"] as? [String: Any])
        #expect((tunedOn["files"] as? [String])?.count == 3)
        #expect(tunedOn["traces"] as? [String: Int] == ["total": 343, "analyzed": 343, "skipped": 0])
        #expect(tunedOn["cross_validation"] is NSNull && (tunedOn["intervals"] as? [Any])?.count == 8)
      }
      #expect(try jsonObject(directory + "/tuned0.json")["required"] is [String: Any])
      let main = directory + "/main.swift"
      TestData.write(uses, to: main)
      let typecheck = try runChild(swiftCompiler!, ["-typecheck"] + files + [main])
      #expect(typecheck.code == 0, "\(typecheck.errors)")
    }
  }

  @Test func samplesRunCrossValidatedByUser() throws {
    try inTemporaryDirectory { directory in
      let out = directory + "/r.md"
      #expect(
        Self.tuneSamples(
          "deep-press,stable-press", ["--group-by", "user", "--folds", "6", "--bootstrap", "200", "--seed", "1"],
          output: out) == 0)
      let text = try String(contentsOfFile: out, encoding: .utf8)
      #expect(text.hasPrefix("# Tune\n"))
      #expect(text.contains("## Cross-validation (6 folds by user, leave-one-user-out)"))
      #expect(text.contains("| mean ± sd over folds |") && text.contains("| pooled (343 traces) |"))
      #expect(text.contains("## Pareto front: F1 against p90 |latency|"))
      #expect(text.contains("conditional on choosing this configuration on the same traces"))
    }
  }
}

@Suite("touchtrace compare")
struct CompareCommandTests {
  @Test func exitCodesAndAHandCheckedTable() throws {
    try inTemporaryDirectory { directory in
      let input = directory + "/t.csv"
      TestData.write(TuneCommandTests.traces, to: input)
      let out = directory + "/c.json"
      let base = [
        "compare", input, "--a", "deep-press:threshold=0.5", "--b", "deep-press:threshold=0.9", "--output", out,
      ]
      #expect(runCommand(base) == 0)
      #expect(runCommand(["compare", input, "--a", "deep-press:threshold=2", "--b", "deep-press"]) == 64)
      #expect(runCommand(["compare", input, "--a", "deep-press:thresh=0.5", "--b", "deep-press"]) == 64)
      #expect(runCommand(["compare", input, "--a", "nope", "--b", "deep-press"]) == 64)
      #expect(runCommand(["compare", input, "--a", "deep-press"]) == 64)
      #expect(runCommand(["compare", input, "--a", "deep-press", "--b", "deep-press", "--seed", "-1"]) == 64)
      #expect(runCommand(["compare", directory + "/missing.csv", "--a", "deep-press", "--b", "deep-press"]) == 66)
      let json = try jsonObject(out)
      #expect(json["format"] as? String == "touchtrace-compare" && json["version"] as? Int == 1)
      #expect(json["traces"] as? [String: Int] == ["total": 6, "analyzed": 6, "skipped": 0])
      // A (0.5): right on a, c, d, e, f; wrong on b (fires on the tap). B (0.9): right on b, c, f;
      // wrong on a, d, e (misses them). Both right: c, f; only A: a, d, e; only B: b.
      // Exact: 2 · P(X ≤ 1), X ~ Bin(4, ½) = 2 · 5/16 = 0.625.
      let m = try #require(json["mcnemar"] as? [String: Any])
      #expect(m["both_correct"] as? Int == 2 && m["only_a_correct"] as? Int == 3 && m["only_b_correct"] as? Int == 1)
      #expect(
        m["neither_correct"] as? Int == 0 && m["method"] as? String == "exact-binomial" && m["statistic"] is NSNull)
      #expect(abs((m["p_value"] as? Double ?? 0) - 0.625) < 1e-12)
      // B matches nothing, so there is no pair: every latency-difference statistic is null.
      let d = try #require(json["latency_difference"] as? [String: Any])
      #expect(d["pairs"] as? Int == 0 && d["mean"] is NSNull && d["median"] is NSNull)
      #expect((d["mean_interval"] as? [String: Any])?["lower"] is NSNull)
      #expect((json["a"] as? [String: Any])?["text"] as? String == "deep-press:threshold=0.5")
    }
  }

  @Test func samplesComparisonIsDeterministic() throws {
    try inTemporaryDirectory { directory in
      var outputs: [Data] = []
      for threads in ["1", "3"] {
        for format in ["json", "csv", "md"] {
          let out = directory + "/c-\(threads).\(format)"
          #expect(
            runCommand([
              "compare", TestData.samples, "--a", "deep-press:threshold=0.35", "--b", "stable-press:pressThreshold=0.3",
              "--group-by", "user", "--bootstrap", "300", "--threads", threads, "--format", format, "--output", out,
            ]) == 0)
          outputs.append(try Data(contentsOf: URL(fileURLWithPath: out)))
        }
      }
      #expect(Array(outputs[0..<3]) == Array(outputs[3..<6]))
      let csv = String(decoding: outputs[1], as: UTF8.self).split(separator: "\n")
      #expect(
        csv.count == 2
          && SweepCommandTests.fields(String(csv[0])).count == SweepCommandTests.fields(String(csv[1])).count)
      let md = String(decoding: outputs[2], as: UTF8.self)
      #expect(md.contains("## McNemar's test on per-trace decisions") && md.contains("## Latency difference (B − A)"))
    }
  }
}
