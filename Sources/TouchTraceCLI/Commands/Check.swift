import ArgumentParser
import TouchCore
import TouchEvaluation
import TouchIO
import TouchRecognizers
import TouchReports
import TouchSignal
import TouchTuning

extension TouchTraceCommand {
  /// `touchtrace check`: a regression gate for continuous integration.
  struct Check: ParsableCommand, GlobalCommand {
    static let configuration = CommandConfiguration(
      abstract: "Gate a recognizer configuration against a committed baseline: accuracy (McNemar) and p90 |latency|.",
      discussion: """
        With --write-baseline FILE, scores the configuration (--recognizer and --set, as \
        touchtrace run takes them; --positive, --tolerance as touchtrace sweep) on the data and \
        writes the baseline: the tool version, the configuration, the options, a content hash of \
        the scored contacts, every contact's decision (correct: no false positive and no false \
        negative at any stage) and the p90 of |action − reference|. With --baseline FILE, scores the \
        configuration again and compares it with the baseline: the accuracy check fails when \
        McNemar's test on the paired per-contact decisions gives p < --alpha (default: 0.05) \
        and the baseline is right more often; the latency check fails when the p90 of \
        |action − reference| (early actions count by their distance: firing early is not \
        faster) grows by more than --max-latency-increase seconds (default: 0.005). \
        McNemar's test counts every contact as independent; with --group-by user (or device, \
        session, or an extra label) the accuracy check reads the cluster-adjusted test \
        (Durkalski et al., 2003) instead, since contacts of one person or device are not \
        independent, and reports both. \
        A summary (Markdown, or JSON with --format json) goes to --output, standard output by \
        default; --junit FILE writes JUnit XML (one test \
        case per check, a <failure> with the figures).
        Exit codes: 0 every check holds (or the baseline was written); 1 a check failed; 65 the \
        baseline is malformed, or was written by another tool version, from other data (its \
        content hash or contacts differ) or with other --positive/--tolerance, or no trace is \
        left to score or none is a positive; 66 the baseline \
        is missing; 64, 73, 74 as every command.

        Examples (from the repository root):
          touchtrace check samples/ --recognizer deep-press \\
            --write-baseline baseline.json
          touchtrace check samples/ --recognizer deep-press \\
            --baseline baseline.json --junit check.xml --output check.md
        """)

    @OptionGroup var input: InputOptions

    @Option(help: ArgumentHelp("The recognizer variant or DEPENDENT+REQUIRED composition.", valueName: "name"))
    var recognizer: String

    @Option(
      name: .customLong("set"),
      help: ArgumentHelp(
        "Set a parameter: NAME=VALUE (repeatable; required.NAME=VALUE for a composition).", valueName: "name=value"))
    var settings: [String] = []

    @OptionGroup var scoring: ScoringOptions

    @Option(help: ArgumentHelp("Compare with this baseline file.", valueName: "file"))
    var baseline: String?

    @Option(help: ArgumentHelp("Write the baseline to this file instead of checking.", valueName: "file"))
    var writeBaseline: String?

    @Option(help: ArgumentHelp("Significance level of McNemar's test.", valueName: "alpha"))
    var alpha = 0.05

    @Option(
      help: ArgumentHelp(
        "Cluster contacts by this label (user, session, device or an extra label): the accuracy check uses McNemar's test adjusted for clusters.",
        valueName: "label"))
    var groupBy: GroupName?

    @Option(
      help: ArgumentHelp("Largest allowed growth of the p90 of |action − reference|, seconds.", valueName: "seconds"))
    var maxLatencyIncrease = 0.005

    @Option(help: ArgumentHelp("Also write a JUnit XML report to this file.", valueName: "file"))
    var junit: String?

    @OptionGroup var output: OutputOptions<Format>

    /// The summary's formats: Markdown or JSON.
    enum Format: FormatChoice {
      case md, json

      var format: OutputFormat {
        switch self {
        case .md: .md
        case .json: .json
        }
      }
    }

    @OptionGroup var global: GlobalOptions

    func validate() throws {
      guard (baseline == nil) != (writeBaseline == nil) else {
        throw ValidationError("give exactly one of --baseline FILE (check) and --write-baseline FILE (record)")
      }
      if writeBaseline != nil && junit != nil {
        throw ValidationError("--junit reports a check; it does not combine with --write-baseline")
      }
      if writeBaseline != nil && groupBy != nil {
        throw ValidationError(
          "--group-by clusters a check's test; it does not combine with --write-baseline (give it with --baseline)")
      }
      guard alpha > 0 && alpha < 1 else {
        throw ValidationError("--alpha must be strictly between 0 and 1, got \(alpha)")
      }
      guard maxLatencyIncrease >= 0 && maxLatencyIncrease.isFinite else {
        throw ValidationError("--max-latency-increase must be a number of seconds ≥ 0, got \(maxLatencyIncrease)")
      }
      _ = try makeConfiguration()
      _ = try scoring.evaluationOptions()
    }

    /// `NAME` or `NAME:PARAM=VALUE,…`: the configuration's text.
    var configurationText: String {
      settings.isEmpty
        ? recognizer : recognizer + Configuration.parameterSeparator(for: recognizer) + settings.joined(separator: ",")
    }

    /// The configuration the options describe.
    func makeConfiguration() throws(ValidationError) -> Configuration {
      for setting in settings where PlanOptions.setting(setting) == nil {
        throw ValidationError("--set expects NAME=VALUE, got '\(setting)'")
      }
      do throws(SweepPlanError) {
        return try Configuration(parsing: configurationText, catalog: TouchTraceTool.catalog)
      } catch {
        throw ValidationError(error.description)
      }
    }

    func run() throws {
      let configuration = try makeConfiguration()
      let options = try scoring.evaluationOptions()
      let threads = global.threadCount
      let tool = "touchtrace \(TouchTraceVersion.current)"
      try Console.run {
        let inputs = input.inputPaths + (baseline.map { [$0] } ?? [])
        try Console.checkOutputs([writeBaseline, junit, output.file], inputs: inputs)
        // The baseline first: a missing or malformed one stops before any scoring.
        var recorded: RegressionGate.Snapshot?
        if let baseline {
          let bytes = try TraceFiles.read(baseline)
          do throws(CheckReport.BaselineError) {
            recorded = try CheckReport.readBaseline(bytes, file: baseline)
          } catch {
            throw DataError(description: error.description)
          }
        }
        let evaluation = try Scoring.evaluation(
          input, for: [configuration.recognizer], options: options, threads: threads, command: "check")
        let outcomes: [TraceOutcome]
        do throws(ReplayError) {
          outcomes = try evaluation.outcomes(of: configuration.recognizer, threads: threads)
        } catch {
          throw DataError.replay(error, command: "check")
        }
        let synthesizedTime = SynthesizedTime(evaluation.traces)
        let current = RegressionGate.Snapshot(
          outcomes: outcomes, evaluation: evaluation, configuration: configurationText, tool: tool)
        if let writeBaseline {
          try Console.emit(
            [
              (writeBaseline, CheckReport.baseline(current, synthesizedTime: synthesizedTime).encoded()),
              (
                output.target,
                output.resolvedFormat == .json
                  ? StudyFile.recorded(
                    CheckReport.writtenJSON(current, path: writeBaseline, synthesizedTime: synthesizedTime)
                  ).encoded()
                  : Array(
                    (CheckReport.written(current, path: writeBaseline, synthesizedTime: synthesizedTime)
                      + StudyFile.recordedMarkdown).utf8)
              ),
            ],
            inputs: inputs)
          return
        }
        guard let recorded, let baseline else { return }
        var clusters: [[Int]]?
        if let key = groupBy?.key {
          do throws(TuningError) {
            clusters = try TraceGroups(traces: evaluation.traces, key: key).members
          } catch {
            throw DataError(description: "touchtrace check: error: \(error.description)")
          }
        }
        let result: RegressionGate.Result
        do throws(RegressionGate.Mismatch) {
          result = try RegressionGate.check(
            current, against: recorded, alpha: alpha, maxLatencyIncrease: maxLatencyIncrease, clusters: clusters,
            clusterUnit: groupBy?.key.rawValue)
        } catch {
          throw DataError(description: "\(baseline): error: refusing the baseline: \(error.description)")
        }
        var outputs: [(path: String, bytes: [UInt8])] = []
        if let junit { outputs.append((junit, Array(CheckReport.junit(result).utf8))) }
        outputs.append(
          (
            output.target,
            output.resolvedFormat == .json
              ? StudyFile.recorded(CheckReport.json(result, synthesizedTime: synthesizedTime)).encoded()
              : Array(
                (CheckReport.markdown(result, synthesizedTime: synthesizedTime) + StudyFile.recordedMarkdown).utf8)
          ))
        try Console.emit(outputs, inputs: inputs)
        if !result.passed { throw Exit.failure }
      }
    }
  }
}
