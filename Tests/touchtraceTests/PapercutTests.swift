import Foundation
import Testing
import TouchCore
import TouchIO
import TouchSignal
import TouchStudy
import TouchTestSupport

@testable import TouchTraceCLI

/// How many lines of `text` contain `part`.
private func lines(of text: String, containing part: String) -> Int {
  text.split(separator: "\n").filter { $0.contains(part) }.count
}

/// The papercuts of issue 19 part 3: one rule for data that cannot be scored, no silent
/// parameter changes, implausible fits, synthesized time, aggregated warnings.
@Suite("touchtrace papercuts", .touchtraceIsBuilt)
struct PapercutTests {
  /// A --vary grid partly out of range: the dropped points are named with the rule they break,
  /// on standard error and in the report (issue 31); "1 recognizer", not "1 recognizers".
  @Test func droppedGridPointsAreNamedWithTheValidRange() throws {
    let run = try runTouchtrace([
      "sweep", TestData.samples, "--recognizer", "deep-press", "--vary", "threshold=0.5:1.5:0.25", "--format", "md",
    ])
    #expect(run.code == 0)
    #expect(
      run.errors.contains(
        "warning: --vary: 2 grid points dropped as invalid: deep-press threshold=1.25, threshold=1.5 (parameter 'threshold' must be in [0, 1])"
      ))
    #expect(
      run.output.contains(
        "- 3 configurations of 1 recognizer: 0 in one pass, 3 by threshold classes, 0 replayed each; 2 grid points dropped as invalid: deep-press threshold=1.25, threshold=1.5 (parameter 'threshold' must be in [0, 1])."
      ))
    // Default grids drop points by design (peek-pop's pop threshold must stay at or above its
    // peek threshold): the report names them, standard error stays quiet.
    let defaults = try runTouchtrace(["sweep", TestData.samples, "--recognizer", "peek-pop", "--format", "md"])
    #expect(defaults.code == 0 && !defaults.errors.contains("dropped"))
    #expect(defaults.output.contains("grid points dropped as invalid: peek-pop peekThreshold=0.8, peekThreshold=0.85"))
  }

  /// Times in milliseconds (a 60 Hz contact: 16.7 ms apart) and in nanoseconds: each file gets
  /// one warning at its first such trace, with the unit it looks like; seconds get none (issue 31).
  @Test func timesThatLookLikeMillisecondsOrNanosecondsAreWarnedAbout() throws {
    try inTemporaryDirectory { directory in
      let ms = directory + "/ms.csv"
      TestData.write(
        "trace,t,force,max_force\na,0,0,1\na,16.7,0.5,1\na,33.4,0,1\nb,0,0,1\nb,16.6,0.4,1\nb,33.2,0,1\n", to: ms)
      let ns = directory + "/ns.csv"
      TestData.write("trace,t,force,max_force\nn,0,0,1\nn,0.0000000167,0.5,1\nn,0.0000000334,0,1\n", to: ns)
      let seconds = directory + "/s.csv"
      TestData.write("trace,t,force,max_force\ns,0,0,1\ns,0.0167,0.5,1\ns,0.0334,0,1\n", to: seconds)
      let run = try runTouchtrace(["inspect", ms, ns, seconds])
      #expect(run.code == 0)
      // Medians 16.7 and 16.6 s: the median of the two is the upper one, 16.7 s (1/16.7 = 0.0599 Hz).
      #expect(
        run.errors.contains(
          "ms.csv:2:1: warning: times look like milliseconds: median sampling interval 16.7 s (0.0599 Hz) in 2 traces here; times are read in seconds: divide them by 1000"
        ))
      #expect(
        run.errors.contains(
          "ns.csv:2:1: warning: times look like nanoseconds: median sampling interval 0.0000000167 s (59.9 MHz) in 1 trace here"
        ))
      #expect(!run.errors.contains("/s.csv:2:1: warning: times look like"))
      #expect(lines(of: run.errors, containing: "times look like") == 2)
    }
  }

  /// Three traces with a maximum force and no intent label.
  static let unlabelled = """
    trace,t,force,max_force
    a,0,0,1
    a,0.05,0.6,1
    a,0.1,0,1
    b,0,0,1
    b,0.05,0.7,1
    b,0.1,0,1
    c,0,0,1
    c,0.1,0.2,1

    """

  /// Three labelled traces, none of them a press or a pop: tap 2, hold 1.
  static let noPositives = """
    trace,t,force,max_force,intent
    a,0,0,1,tap
    a,0.05,0.6,1,tap
    a,0.1,0,1,tap
    b,0,0,1,tap
    b,0.05,0.7,1,tap
    b,0.1,0,1,tap
    c,0,0,1,hold
    c,0.1,0.2,1,hold
    c,0.2,0.1,1,hold

    """

  /// The scoring commands, each writing its report into `directory`.
  static func scoringCommands(_ input: String, _ directory: String) -> [[String]] {
    [
      ["sweep", input, "--recognizer", "deep-press", "--output", directory + "/s.json"],
      [
        "tune", input, "--recognizer", "deep-press", "--folds", "0", "--bootstrap", "0", "--output",
        directory + "/t.json",
      ],
      [
        "compare", input, "--a", "deep-press", "--b", "hysteresis", "--bootstrap", "0", "--output",
        directory + "/c.json",
      ],
      ["check", input, "--recognizer", "deep-press", "--write-baseline", directory + "/b.json"],
    ]
  }

  // MARK: 1. No analyzed trace

  @Test func noAnalyzedTraceIsBadDataInEveryScoringCommand() throws {
    try inTemporaryDirectory(writing: Self.unlabelled) { directory in
      let input = directory + "/t.csv"
      let expected =
        "error: no analyzed trace: 3 of 3 traces skipped: 3 no intent label (give an intent column, or labels with --labels FILE)"
      for arguments in Self.scoringCommands(input, directory)
        + [
          [
            "run", input, "--recognizer", "deep-press", "--outcomes", directory + "/o.csv", "--output",
            directory + "/r.json",
          ]
        ]
      {
        let run = try runTouchtrace(arguments)
        #expect(run.code == 65, "\(arguments[0])")
        #expect(run.errors.contains("touchtrace \(arguments[0]): " + expected), "\(arguments[0]): \(run.errors)")
        #expect(runCommand(arguments) == 65)
      }
      // Nothing was written.
      for name in ["s.json", "t.json", "c.json", "b.json", "o.csv", "r.json"] {
        #expect(!TestData.exists(directory + "/" + name))
      }
    }
  }

  @Test func runSkippingEveryTraceForNoMaximumForceIsBadDataWithOneWarning() throws {
    let text = (0..<5).map { "p\($0),0,0,press\np\($0),0.1,1,press\n" }.joined()
    try inTemporaryDirectory(writing: "trace,t,force,intent\n" + text) { directory in
      let run = try runTouchtrace([
        "run", directory + "/t.csv", "--recognizer", "deep-press", "--skip-invalid", "--format", "csv",
      ])
      #expect(run.code == 65)
      #expect(run.output.isEmpty, "no header-only table")
      // One aggregated line instead of five, naming the fix.
      #expect(lines(of: run.errors, containing: "skipped") == 2)  // the warning and the error
      #expect(
        run.errors.contains(
          "warning: skipped 5 traces: recognizer 'deep-press' needs the trace's maximum possible force and the trace has none "
            + "(first: \(directory)/t.csv:2:1 'p0', \(directory)/t.csv:4:1 'p1', \(directory)/t.csv:6:1 'p2'); "
            + "give a max_force column or --max-force FORCE"), "\(run.errors)")
      #expect(run.errors.contains("touchtrace run: error: no analyzed trace: 5 of 5 traces skipped"))
      // With --max-force the same data replays.
      #expect(
        runCommand([
          "run", directory + "/t.csv", "--recognizer", "deep-press", "--max-force", "1", "--output",
          directory + "/r.json",
        ]) == 0)
    }
  }

  @Test func theMessageListsTheThreeMostFrequentReasonsAndCountsTheRest() {
    var dataset = Dataset()
    let origin = TraceOrigin(file: "x.csv")
    for (reason, n) in [
      ("no intent label", 4), ("not selected (device=a)", 1), ("no user label (--group-by user)", 3), ("odd", 2),
      ("other", 1),
    ] {
      for _ in 0..<n { dataset.skipped.append(SkippedTrace(trace: "t", origin: origin, reason: reason)) }
    }
    #expect(
      ScoringRules.noAnalyzedMessage(dataset)
        == "no analyzed trace: 11 of 11 traces skipped: 4 no intent label (give an intent column, or labels with --labels FILE); "
        + "3 no user label (--group-by user) (label them with --labels FILE, or drop --group-by); "
        + "2 odd (fix the data where the warnings above say); 2 for 2 other reasons")
  }

  // MARK: 2. No positive trace

  @Test func noPositiveTraceIsBadDataInTuneCompareAndCheckAndMisfireModeInSweep() throws {
    try inTemporaryDirectory(writing: Self.noPositives) { directory in
      let input = directory + "/t.csv"
      let message =
        "no positive trace: the positive intents are press, pop (--positive), "
        + "the 3 analyzed traces are tap 2, hold 1; recall, F1 and latency are undefined without positives: "
        + "name the intents that should trigger the action with --positive (one or more of tap, hold)"
      for arguments in Self.scoringCommands(input, directory) {
        let run = try runTouchtrace(arguments)
        if arguments[0] == "sweep" {
          // Issue 31: a sweep of data without presses counts misfires, and says why.
          #expect(run.code == 0, "\(run.errors)")
          #expect(
            run.errors.contains("note: " + message + "; scoring misfires only (--negatives-only says so)"),
            "\(run.errors)")
          continue
        }
        #expect(run.code == 65, "\(arguments[0])")
        #expect(
          run.errors.contains(
            "touchtrace \(arguments[0]): error: " + message
              + "; for data without presses, `touchtrace sweep` reports misfire rates (--negatives-only)"),
          "\(arguments[0]): \(run.errors)")
      }
      // The fix it names works.
      #expect(runCommand(Self.scoringCommands(input, directory)[0] + ["--positive", "hold"]) == 0)
      // tune --objective fpr no longer reports a bound as failing on data without positives: it stops first.
      let fpr = try runTouchtrace([
        "tune", input, "--recognizer", "deep-press", "--objective", "fpr", "--max-fpr", "0.1", "--folds", "0",
        "--bootstrap", "0",
      ])
      #expect(fpr.code == 65 && fpr.errors.contains("no positive trace"))
    }
  }

  // MARK: 3. smooth takes windows as given

  @Test func evenCentredWindowsAreUsageErrorsNamingTheNearestValidOnes() throws {
    try inTemporaryDirectory(writing: SweepCommandTests.traces) { directory in
      let input = directory + "/t.csv"
      let cases: [([String], String)] = [
        (["--method", "savgol", "--window", "10"], "--window must be odd for savgol: use 9 or 11"),
        (["--method", "median", "--window", "4"], "--window must be odd for median: use 3 or 5"),
        (["--method", "gaussian", "--window", "2"], "--window must be odd for gaussian: use 1 or 3"),
        (["--method", "rmedian", "--window", "6"], "--window must be odd for rmedian: use 5 or 7"),
        (["--method", "impulse", "--window", "8"], "--window must be odd for impulse: use 7 or 9"),
        (
          ["--method", "movmean", "--window", "4"],
          "--window must be odd for movmean (centred; --causal takes any length): use 3 or 5"
        ),
        (
          ["--method", "savgol", "--window", "2"],
          "--window 2 is too short for savgol of order 2: a polynomial of order 2 needs at least 3 samples (use --window 3, or a lower --order)"
        ),
        (
          ["--method", "savgol", "--window", "4", "--order", "3"],
          "--window 4 is too short for savgol of order 3: a polynomial of order 3 needs at least 5 samples (use --window 5, or a lower --order)"
        ),
      ]
      for (options, message) in cases {
        let run = try runTouchtrace(["smooth", input, "--output", directory + "/s.csv"] + options)
        #expect(run.code == 64, "\(options)")
        #expect(run.errors.contains(message), "\(options): \(run.errors)")
      }
      #expect(!TestData.exists(directory + "/s.csv"))
      // Windows that need no change are taken: causal windows of any length, ema spans.
      #expect(
        runCommand([
          "smooth", input, "--method", "movmean", "--window", "4", "--causal", "--output", directory + "/s.csv",
        ]) == 0)
      #expect(runCommand(["smooth", input, "--method", "ema", "--window", "4", "--output", directory + "/s.csv"]) == 0)
      #expect(
        runCommand([
          "smooth", input, "--method", "savgol", "--window", "5", "--order", "3", "--output", directory + "/s.csv",
        ]) == 0)
    }
  }

  @Test func aTraceTooShortForSavitzkyGolayIsSkippedAndTheRestSmoothed() throws {
    let text = "trace,t,force\na,0,0.1\na,0.01,0.5\na,0.02,0.9\na,0.03,0.8\na,0.04,0.4\nb,0,0.3\n"
    try inTemporaryDirectory(writing: text) { directory in
      let output = directory + "/s.csv"
      let run = try runTouchtrace([
        "smooth", directory + "/t.csv", "--method", "savgol", "--window", "5", "--output", output,
      ])
      #expect(run.code == 0)
      #expect(
        run.errors.contains(
          "t.csv:7:1: warning: skipped trace 'b': Savitzky-Golay (degree 2) needs at least 3 samples, has 1"))
      #expect(run.errors.contains("touchtrace smooth: 2 traces: 1 smoothed, 1 skipped"))
      let written = try String(contentsOfFile: output, encoding: .utf8)
      #expect(written.split(separator: "\n").count == 6)  // the header and trace a's five samples
      #expect(!written.contains("\nb,"))
      // Under a window in seconds, a one-sample trace has no interval to convert it: skipped too.
      let seconds = try runTouchtrace([
        "smooth", directory + "/t.csv", "--method", "savgol", "--window-seconds", "0.04", "--output", output,
      ])
      #expect(seconds.code == 0 && seconds.errors.contains("skipped trace 'b': no sampling interval"))
    }
  }

  // MARK: 4. Implausible logistic fits

  @Test func aFitOutsideTheTraceIsNotConverged() throws {
    // Exact samples of 0.2 + 5 / (1 + exp(−10 (t − m))) at t = 7.15, 7.17, …, 8.13: the solver
    // recovers m. With m = 7.10 the midpoint lies before the first sample; with m = 7.60 inside.
    func trace(midpoint: Double) -> Trace {
      let t = (0..<50).map { 7.15 + 0.02 * Double($0) }
      return Trace(
        metadata: TraceMetadata(id: "ramp"), t: t, force: t.map { 0.2 + 5 / (1 + exp(-10 * ($0 - midpoint))) })
    }
    let outside = LogisticFitting().fitRamp(of: trace(midpoint: 7.10))
    #expect(!outside.isConverged && outside.parameters == nil)
    #expect(outside.status.key == "out_of_range")
    #expect(outside.status.description == "not converged: the midpoint 7.1 s lies outside the trace (7.15–8.13 s)")
    let inside = LogisticFitting().fitRamp(of: trace(midpoint: 7.60))
    #expect(inside.isConverged)
    #expect(
      abs((inside.parameters?.midpoint ?? 0) - 7.60) < 1e-9 && abs((inside.parameters?.amplitude ?? 0) - 5) < 1e-9)
  }

  @Test func theIssuesFitIsRejectedForItsMidpointAndAmplitude() {
    // The issue's fit: midpoint 23.65 s on a trace spanning 7.15–14.05 s, amplitude 121 with a
    // maximum force of 20/3 (18.15 ×).
    let fit = LogisticFit.Parameters(base: 0, amplitude: 121, midpoint: 23.65, slope: 1)
    #expect(
      LogisticFitting.implausibility(of: fit, span: 7.15...14.05, forceLimit: (20.0 / 3, "the maximum force"))
        == "the midpoint 23.65 s lies outside the trace (7.15–14.05 s); the amplitude 121 is 18.15 × the limit 6.667 (the maximum force)"
    )
    let fine = LogisticFit.Parameters(base: 0, amplitude: 6, midpoint: 10, slope: 1)
    #expect(
      LogisticFitting.implausibility(of: fine, span: 7.15...14.05, forceLimit: (20.0 / 3, "the maximum force")) == nil)
  }

  @Test func featuresReportAnOutOfRangeFitWithItsReason() throws {
    let rows = (0..<50).map { i -> String in
      let t = 7.15 + 0.02 * Double(i)
      return "e,\(t),\(0.2 + 5 / (1 + exp(-10 * (t - 7.10))))\n"
    }
    try inTemporaryDirectory(writing: "trace,t,force\n" + rows.joined()) { directory in
      #expect(
        runCommand(["features", directory + "/t.csv", "--format", "json", "--output", directory + "/f.json"]) == 0)
      let json = try jsonObject(directory + "/f.json")
      let fit = try #require((json["features"] as? [[String: Any]])?.first?["fit"] as? [String: Any])
      #expect(fit["status"] as? String == "out_of_range" && fit["converged"] as? Bool == false)
      #expect((fit["message"] as? String)?.contains("the midpoint 7.1 s lies outside the trace") == true)
      #expect(fit["midpoint_s"] is NSNull)
      #expect(runCommand(["features", directory + "/t.csv", "--format", "csv", "--output", directory + "/f.csv"]) == 0)
      #expect(try String(contentsOfFile: directory + "/f.csv", encoding: .utf8).contains(",out_of_range,"))
    }
  }

  // MARK: 5. Synthesized time

  /// Trace a (press) and b (tap) synthesized at 0.01 s, c (hold) recorded.
  static let synthesized = """
    trace,t,force,max_force,intent,time_synthesized
    a,0,0,1,press,true
    a,0.01,0.6,1,press,true
    a,0.02,0.9,1,press,true
    a,0.03,0,1,press,true
    b,0,0,1,tap,1
    b,0.01,0.7,1,tap,1
    b,0.02,0,1,tap,1
    c,0,0,1,hold,false
    c,0.1,0.2,1,hold,false
    c,0.2,0.1,1,hold,false

    """

  @Test func everyReportThatDependsOnTimeStatesSynthesizedTime() throws {
    try inTemporaryDirectory(writing: Self.synthesized) { directory in
      let input = directory + "/t.csv"
      let sentence = "2 traces have synthesized time (import --interval 0.01): latencies depend on it"
      let reports: [(arguments: [String], file: String)] = [
        (["sweep", input, "--recognizer", "deep-press"], "s"),
        (["tune", input, "--recognizer", "deep-press", "--folds", "0", "--bootstrap", "0"], "t"),
        (["compare", input, "--a", "deep-press", "--b", "hysteresis", "--bootstrap", "0"], "c"),
      ]
      for (arguments, file) in reports {
        #expect(runCommand(arguments + ["--format", "json", "--output", directory + "/\(file).json"]) == 0)
        #expect(try jsonObject(directory + "/\(file).json")["time_synthesized_traces"] as? Int == 2, "\(arguments[0])")
        #expect(runCommand(arguments + ["--format", "md", "--output", directory + "/\(file).md"]) == 0)
        #expect(
          try String(contentsOfFile: directory + "/\(file).md", encoding: .utf8).contains(
            "- **Warning**: \(sentence).\n"))
      }
      #expect(runCommand(["run", input, "--recognizer", "deep-press", "--output", directory + "/r.json"]) == 0)
      #expect(try jsonObject(directory + "/r.json")["time_synthesized_traces"] as? Int == 2)
      #expect(runCommand(["features", input, "--format", "json", "--output", directory + "/f.json"]) == 0)
      #expect(try jsonObject(directory + "/f.json")["time_synthesized_traces"] as? Int == 2)
      #expect(runCommand(["inspect", input, "--format", "json", "--output", directory + "/i.json"]) == 0)
      #expect(try jsonObject(directory + "/i.json")["time_synthesized_traces"] as? Int == 2)
      let text = try runTouchtrace(["inspect", input, "--format", "text"])
      #expect(
        text.output.contains(
          "Time           warning: 2 traces have synthesized time (import --interval 0.01): durations, intervals and latencies depend on it\n"
        ), "\(text.output)")
      let check = try runTouchtrace([
        "check", input, "--recognizer", "deep-press", "--write-baseline", directory + "/b.json", "--format", "md",
      ])
      #expect(check.code == 0 && check.output.contains("- **Warning**: \(sentence).\n"))
      #expect(
        runCommand([
          "check", input, "--recognizer", "deep-press", "--write-baseline", directory + "/b.json", "--output",
          directory + "/w.json",
        ]) == 0)
      #expect(try jsonObject(directory + "/w.json")["time_synthesized_traces"] as? Int == 2)
      #expect(try jsonObject(directory + "/b.json")["time_synthesized_traces"] as? Int == 2)
      #expect(
        runCommand([
          "check", input, "--recognizer", "deep-press", "--baseline", directory + "/b.json", "--output",
          directory + "/k.json",
        ]) == 0)
      #expect(try jsonObject(directory + "/k.json")["time_synthesized_traces"] as? Int == 2)
      #expect(
        runCommand([
          "check", input, "--recognizer", "deep-press", "--baseline", directory + "/b.json", "--output",
          directory + "/k.md",
        ]) == 0)
      #expect(
        try String(contentsOfFile: directory + "/k.md", encoding: .utf8).contains("- **Warning**: \(sentence).\n"))
      #expect(runCommand(["inspect", input, "--output", directory + "/i.md"]) == 0)
      #expect(
        try String(contentsOfFile: directory + "/i.md", encoding: .utf8).contains(
          "| Time | warning: 2 traces have synthesized time"))
      // Beside a CSV table, on standard error.
      let features = try runTouchtrace(["features", input, "--format", "csv"])
      #expect(
        features.errors.contains(
          "touchtrace features: warning: 2 traces have synthesized time (import --interval 0.01): times, durations and rates depend on it"
        ))
    }
  }

  @Test func recordedTimeIsStatedAsZeroAndNotWarnedAbout() throws {
    let traces = SweepCommandTests.traces
    #expect(
      try !report("sweep", on: traces, ["--recognizer", "deep-press", "--format", "md"], as: "md").contains(
        "synthesized"))
    let json = try report("sweep", on: traces, ["--recognizer", "deep-press", "--format", "json"], as: "json")
    #expect(try jsonObject(parsing: json)["time_synthesized_traces"] as? Int == 0)
  }

  @Test func importedForceValuesCarryTheFlagThroughTraceFiles() throws {
    try inTemporaryDirectory { directory in
      TestData.write("[0, 0.5, 1.25, 0.75, 0, 2, 0]", to: directory + "/log.json")
      for format in ["csv", "json"] {
        let file = directory + "/imported.\(format)"
        #expect(
          runCommand([
            "import", "--from", "force-values", directory + "/log.json", "--interval", "0.015", "--output", file,
          ]) == 0)
        let dataset = try TraceLoader.load([file])
        #expect(dataset.traces.count == 3 && dataset.traces.allSatisfy(\.metadata.timeSynthesized), "\(format)")
        #expect(SynthesizedTime(dataset.traces) == SynthesizedTime(traces: 3, interval: 0.015))
      }
    }
  }

  @Test func theReferenceOfATraceStartingAboveHalfItsPeakIsTouchDown() throws {
    // A pen stroke: it touches down at 7.15 s already pressing (0.8 of a peak of 1.0), rises to
    // the peak and releases to 0: no upward crossing of 0.5 exists, so the reference is the
    // first sample.
    let t = (0..<30).map { 7.15 + 0.01 * Double($0) }
    let force = t.indices.map { i in i < 5 ? 0.8 + 0.04 * Double(i) : max(0, 1 - 0.04 * Double(i - 5)) }
    let trace = Trace(metadata: TraceMetadata(id: "pen"), t: t, force: force)
    let times = try ReferenceTimeRule.standard.referenceTimes(for: trace)
    #expect(times == [7.15])
  }

  // MARK: 6. Aggregated warnings

  @Test func aWarningRepeatedInManyFilesPrintsOnceWithTheOptionThatFixesIt() throws {
    try inTemporaryDirectory { directory in
      let recordings = directory + "/recordings"
      try #require(mkdir(recordings, 0o755) == 0)
      for k in 1...4 {
        TestData.write(
          "200;204;0;218;900;1000;0\n201;205;0;300;900;1007;0\n202;206;0;0;900;1014;0\n", to: recordings + "/p\(k).txt")
      }
      let run = try runTouchtrace(["import", "--from", "tablet-csv", recordings, "--output", directory + "/out.csv"])
      #expect(run.code == 0)
      #expect(lines(of: run.errors, containing: "device units") == 1, "\(run.errors)")
      #expect(
        run.errors.contains(
          "warning: 4 files: x and y are in device units (give --position-scale, points per device unit, to convert them to points) "
            + "(first: \(recordings)/p1.txt, \(recordings)/p2.txt, \(recordings)/p3.txt)"), "\(run.errors)")
    }
  }

  @Test func aggregationKeepsSingleMessagesAsTheyAreAndGroupsRepeats() {
    let a = Diagnostic(.warning, "ignoring unknown column q", file: "a.csv", position: TextPosition(line: 1, column: 1))
    let repeated = (1...3).map {
      Diagnostic(.warning, "same", file: "b.csv", position: TextPosition(line: $0, column: 2))
    }
    #expect(
      Console.aggregated([a] + repeated) == [
        "a.csv:1:1: warning: ignoring unknown column q",
        "warning: 3 times: same (first: b.csv:1:2, b.csv:2:2, b.csv:3:2)",
      ])
    let skips = [
      SkippedTrace(
        trace: "x", origin: TraceOrigin(file: "f.csv", position: TextPosition(line: 2, column: 1)),
        reason: "no intent label"),
      SkippedTrace(
        trace: "y", origin: TraceOrigin(file: "f.csv", position: TextPosition(line: 9, column: 1)),
        reason: "t decreases"),
    ]
    #expect(
      Console.aggregated(skips) == [
        "f.csv:2:1: warning: skipped trace 'x': no intent label; give an intent column, or labels with --labels FILE",
        "f.csv:9:1: warning: skipped trace 'y': t decreases",
      ])
  }
}
