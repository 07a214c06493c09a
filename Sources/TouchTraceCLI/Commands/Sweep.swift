import ArgumentParser
import TouchEvaluation
import TouchRecognizers
import TouchReports

extension TouchTraceCommand {
  /// `touchtrace sweep`: accuracy and latency of recognizers over parameter grids.
  struct Sweep: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Score recognizers against labelled traces over parameter grids: accuracy, false positives, latency.",
      discussion: """
        Each configuration (recognizer + parameter values) is replayed over every labelled trace \
        and scored: actions are matched one to one to the trace's reference times (press_at, \
        else the offline reference rule) within --tolerance seconds; positives (--positive) count \
        per event (TP, FN, FP), other traces once (FP if any action, else TN). Latency is \
        action − reference and action − touch-down for true positives, in seconds. Two-stage \
        recognizers are also scored at stage 2 against pop traces, with a 3-class confusion \
        matrix. Traces without an intent label are skipped.

        --vary NAME=START:STOP:STEP (STOP included when on the grid; decimals or fractions such \
        as 1/60, every point computed exactly) or NAME=V1,V2,...; several --vary give their \
        Cartesian product. --vary and --set apply to every listed recognizer that has the \
        parameter. Without --vary each recognizer gets a default grid over its main threshold. \
        --recognizer all lists every variant; DEPENDENT+REQUIRED (for example tap+deep-press) is \
        a require-to-fail composition, whose added latency is reported.

        Output: --format md (a summary), json (versioned schema), csv (one row per \
        configuration) or html (one self-contained page: figures in inline SVG, then the md \
        tables). Without --format, an --output file ending in .md, .json, .csv or .html picks \
        the format; otherwise standard output gets md when it is a terminal and json when it is \
        not. --json-output and --csv-output write those formats as well. Results do not depend \
        on --threads.
        """)

    @OptionGroup var input: InputOptions

    @OptionGroup var plan: PlanOptions

    @OptionGroup var scoring: ScoringOptions

    @OptionGroup var report: ReportOutputOptions

    @Option(help: ArgumentHelp("Also write the JSON report to this file.", valueName: "file"))
    var jsonOutput: String?

    @Option(help: ArgumentHelp("Also write the CSV report to this file.", valueName: "file"))
    var csvOutput: String?

    @OptionGroup var exec: ExecOptions

    @OptionGroup var threads: ThreadOptions

    @OptionGroup var progress: ProgressOptions

    func validate() throws {
      try exec.withCatalog(tolerance: scoring.tolerance, closing: false) {
        _ = try makePlan()
        _ = try evaluationOptions()
      }
    }

    /// The configurations the options describe.
    func makePlan() throws(ValidationError) -> SweepPlan { try plan.makePlan() }

    /// The scoring options.
    func evaluationOptions() throws(ValidationError) -> EvaluationOptions { try scoring.evaluationOptions() }

    func run() throws {
      try exec.withCatalog(tolerance: scoring.tolerance) { try sweep() }
    }

    func sweep() throws {
      let plan = try makePlan()
      let options = try evaluationOptions()
      let threads = self.threads.count
      try Console.run {
        try Console.checkOutputs([report.output, jsonOutput, csvOutput], inputs: input.inputPaths)
        let evaluation = try Scoring.evaluation(
          input, for: plan.configurations.map(\.recognizer), options: options, threads: threads, command: "sweep")
        let progress = self.progress.progress(command: "sweep")
        let result: SweepResult
        let plan = try self.plan.makePlan(following: evaluation, after: plan)
        do throws(ReplayError) {
          result = try evaluation.sweep(plan, threads: threads, progress: { progress.update($0, $1) })
        } catch {
          progress.finish()
          throw DataError.replay(error, command: "sweep")
        }
        progress.finish()
        let bytes: [UInt8]
        switch report.resolvedFormat {
        case .md: bytes = Array(SweepReport.markdown(result).utf8)
        case .json: bytes = SweepReport.json(result).encoded()
        case .csv: bytes = SweepReport.csv(result)
        case .html:
          do throws(ReplayError) {
            bytes = SweepReport.html(result, try SweepFigureData.gather(result, threads: threads))
          } catch {
            throw DataError.replay(error, command: "sweep")
          }
        case let format: FormatOption<ReportOutputOptions>.unreachable(format)
        }
        // All three or none: the report and --json-output, --csv-output are committed together.
        var outputs: [(path: String, bytes: [UInt8])] = []
        if let jsonOutput { outputs.append((jsonOutput, SweepReport.json(result).encoded())) }
        if let csvOutput { outputs.append((csvOutput, SweepReport.csv(result))) }
        outputs.append((report.target, bytes))
        try Console.emit(outputs, inputs: input.inputPaths)
      }
    }
  }
}
