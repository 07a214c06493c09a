import ArgumentParser
import TouchEvaluation
import TouchIO
import TouchRecognizers
import TouchReports
import TouchSignal
import TouchStudy
import TouchTuning

extension TouchTraceCommand {
  /// `touchtrace sweep`: accuracy and latency of recognizers over parameter grids.
  struct Sweep: ParsableCommand, GlobalCommand {
    static let configuration = CommandConfiguration(
      abstract: "Score recognizers against labelled traces over parameter grids: accuracy, false positives, latency.",
      discussion: """
        Each configuration (recognizer + parameter values) is replayed over every labelled trace \
        and scored: actions are matched one to one to the trace's reference times (press_at, \
        else the offline reference rule: upward crossings of half the smoothed peak, or \
        touch-down when the trace starts at or above half its peak, as most pen traces do) \
        within --tolerance seconds; positives (--positive) count \
        per event (TP, FN, FP), other traces once (FP if any action, else TN). Latency is \
        action − reference and action − touch-down for true positives, in seconds. Two-stage \
        recognizers are also scored at stage 2 against pop traces, with a 3-class confusion \
        matrix. Traces without an intent label are skipped; when no trace is left, or none is a \
        positive, the command stops (exit 65) saying what is missing and the flag that fixes \
        it (--labels, --max-force, --only, --positive), as tune, compare and check do. Precision, recall and the \
        false-positive rate come with 95 % Wilson score intervals, latency quantiles with \
        their n. Fine grids are cheap: a first-crossing threshold is evaluated for every value \
        in one pass per trace, and the comparison thresholds of stateful recognizers \
        (`touchtrace recognizers` lists them) once per class of values lying between the same \
        two distinct forces of a trace; both give exactly what replaying every setting gives, \
        and the JSON and CSV reports' method field says which path each configuration took.

        --vary NAME=START:STOP:STEP (STOP included when on the grid; decimals or fractions such \
        as 1/60, every point computed exactly) or NAME=V1,V2,...; several --vary give their \
        Cartesian product. --vary and --set apply to every listed recognizer that has the \
        parameter. Without --vary each recognizer gets a default grid over its main threshold. \
        --recognizer all lists every variant; DEPENDENT+REQUIRED (for example tap+deep-press) is \
        a require-to-fail composition, whose added latency is reported.

        Output: --format md (a summary), json (versioned schema), csv (one row per \
        configuration) or html (one self-contained page: figures in inline SVG, then the md \
        tables; the figures come from a second read of the inputs, or, on standard input, from \
        every trace kept in memory). Without --format, an --output file ending in .md, .json, .csv or .html picks \
        the format; otherwise standard output gets md when it is a terminal and json when it is \
        not. --json-output and --csv-output write those formats as well. --outcomes FILE writes \
        the per-trace outcomes behind every count (CSV, or JSON Lines for .jsonl; \
        --outcomes-filter all, errors or best), from a second read of the inputs (on standard \
        input, from every trace kept in memory). --by COLUMN (user, device, intent, session, id, \
        touch or an extra label such as hand) adds each configuration's counts, rates and latency per group of traces to every \
        format. --bootstrap N adds percentile bootstrap intervals of F1 and p50/p90 latency for \
        each recognizer's best configuration (resampling traces, or --group-by user, session, \
        device or extra-label groups, from GSL's mt19937 seeded with --seed); with fewer than 10 clusters, or \
        when every resample agrees, the report says so instead. Results do not depend on \
        --threads.

        Examples (from the repository root):
          touchtrace sweep samples/ --recognizer deep-press \\
            --vary threshold=0.2:0.8:0.05
          touchtrace sweep samples/ --recognizer all --output report.html
          touchtrace sweep samples/ --recognizer deep-press,stable-press \\
            --by device --output sweep.json
          touchtrace sweep samples/ --recognizer deep-press --print-config \\
            > study.toml
          touchtrace sweep --config study.toml --vary threshold=0.3:0.5:0.1 \\
            --output sweep.md
        """)

    @OptionGroup var input: InputOptions

    @OptionGroup var plan: PlanOptions

    @OptionGroup var scoring: ScoringOptions

    @OptionGroup var report: OutputOptions<ReportFormat>

    @Option(help: ArgumentHelp("Also write the JSON report to this file.", valueName: "file"))
    var jsonOutput: String?

    @Option(help: ArgumentHelp("Also write the CSV report to this file.", valueName: "file"))
    var csvOutput: String?

    @OptionGroup var outcomes: OutcomeOptions

    @OptionGroup var breakdown: ByOptions

    @Option(
      help: ArgumentHelp(
        "Bootstrap resamples for intervals of F1 and p50/p90 latency of each recognizer's best configuration (0: none).",
        valueName: "n"))
    var bootstrap = 0

    @Option(help: ArgumentHelp("Confidence level of the bootstrap intervals.", valueName: "level"))
    var confidence = 0.95

    @Option(help: seedHelp)
    var seed: UInt64 = 1

    @Option(
      help:
        "Resample each user's (session's, device's, intent's or extra label's, e.g. hand) traces together in the bootstrap."
    )
    var groupBy: GroupName?

    @OptionGroup var exec: ExecOptions

    @OptionGroup var shards: ShardOptions
    @OptionGroup var spooling: SpoolOptions

    @OptionGroup var global: GlobalOptions

    @OptionGroup var exactSweep: ExactOptions

    func validate() throws {
      guard bootstrap >= 0 else { throw ValidationError("--bootstrap must be 0 or more resamples, got \(bootstrap)") }
      guard confidence > 0 && confidence < 1 else {
        throw ValidationError("--confidence must be strictly between 0 and 1, got \(confidence)")
      }
      if groupBy != nil && bootstrap == 0 {
        throw ValidationError(
          "--group-by sets the bootstrap's resampling unit; it needs --bootstrap N (for per-group results use --by)")
      }
      if exactSweep.isOn,
        let refusal = ExactPass.refusal(
          input: input, shards: shards, outcomes: outcomes, by: breakdown, bootstrap: bootstrap)
      {
        throw ValidationError(refusal)
      }
      if shards.partial != nil, let reason = everyTraceReason {
        throw ValidationError(
          "--partial: \(reason) needs every trace at once; run it unsharded (tune --bootstrap gives intervals from shards)"
        )
      }
      try exec.withCatalog(tolerance: scoring.tolerance, closing: false) {
        _ = try makePlan()
        _ = try evaluationOptions()
      }
    }

    /// What needs every trace after the sweep (replays of chosen configurations), if anything:
    /// a shard, which sees only its own traces, cannot do it (see ``keepsSamples(readsOnce:)``
    /// for what keeps the samples in memory).
    var everyTraceReason: String? {
      if exactSweep.isOn { return nil }
      if bootstrap > 0 { return "--bootstrap" }
      if outcomes.outcomes != nil { return "--outcomes" }
      if case .html = report.resolvedFormat { return "an HTML report" }
      return nil
    }

    /// Whether the traces' samples are kept after the sweep: for the bootstrap, `--outcomes` and
    /// an HTML report of traces that cannot be read again (neither spooled nor in files that can
    /// be read twice; a second read gives the resampled outcomes, the table and the figures).
    func keepsSamples(readsOnce: Bool) -> Bool {
      guard readsOnce else { return false }
      if case .html = report.resolvedFormat { return true }
      return bootstrap > 0 || outcomes.outcomes != nil
    }

    /// The configurations the options describe.
    func makePlan() throws(ValidationError) -> SweepPlan { try plan.makePlan() }

    /// The scoring options.
    func evaluationOptions() throws(ValidationError) -> EvaluationOptions { try scoring.evaluationOptions() }

    func run() throws {
      try exec.withCatalog(tolerance: scoring.tolerance) { try sweep() }
    }

    func sweep() throws {
      if exactSweep.isOn { return try sweepExactly() }
      let plan = try makePlan()
      let options = try evaluationOptions()
      let threads = global.threadCount
      try Console.run {
        try Console.checkOutputs(
          [report.file, jsonOutput, csvOutput, outcomes.outcomes, shards.partial], inputs: input.inputPaths)
        let request = studyRequest(plan, options: options, threads: threads)
        let data = try ScoredData.gather(
          for: "sweep", request, plan: plan, planOptions: self.plan, progress: report.progress(command: "sweep"),
          shard: shards, misfires: true)
        if let partial = shards.partial {
          return try data.writePartial(partial, command: "sweep", shard: shards.selected, inputs: input.inputPaths)
        }
        try breakdown.requirePresent(in: data.evaluation, command: "sweep")
        let result = try data.sweepResult(threads: threads)
        let grouped = data.groupedMetrics(by: breakdown.by?.field)
        let outcomeWriter = try writeOutcomes(result, request: request, evaluation: data.evaluation, threads: threads)
        let intervals = try bootstrapIntervals(result, request: request, evaluation: data.evaluation, threads: threads)
        let verdict = try verdict(result, grouped: grouped, intervals: intervals, request: request)
        var outputs = SweepOutputs(result: result, grouped: grouped, intervals: intervals, verdict: verdict)
        try outputs.add(self, request: request, threads: threads)
        try Console.emit(outputs.files, outcomes: outcomeWriter, streams: outputs.streams, inputs: input.inputPaths)
      }
    }

    /// The study's request: the traces' summary only, unless a report that replays traces
    /// after the sweep must keep their samples (their second reads come from a spool of the
    /// analyzed traces, standard input's too).
    func studyRequest(_ plan: SweepPlan, options: EvaluationOptions, threads: Int) -> ScoredStream.Request {
      var request = ScoredStream.Request(
        input: input.study, shard: shards.selected, recognizers: plan.configurations.map(\.recognizer),
        groupBy: bootstrap > 0 ? groupBy?.key : nil, options: options, threads: threads, command: "sweep",
        by: breakdown.by?.field, batchTraces: shards.batchTraces, writesPartial: shards.partial != nil)
      if shards.partial == nil { request.spool = spooling.spool() }
      request.keepSamples = keepsSamples(readsOnce: !request.willReadAgain)
      request.summaryOnly = !request.keepSamples && shards.partial == nil
      return request
    }

    /// `--outcomes`: every configuration's rows (or the best ones'), from the samples kept or a
    /// second read; the writer is committed with the report.
    func writeOutcomes(
      _ result: SweepResult, request: ScoredStream.Request, evaluation: Evaluation, threads: Int
    ) throws -> OutcomeWriter? {
      guard let outcomeWriter = try outcomes.open(inputs: input.inputPaths) else { return nil }
      let chosen =
        outcomes.outcomesFilter == .best
        ? result.bestConfigurations().map(\.configuration) : Array(result.configurations.indices)
      let configurations = chosen.map { (index: $0, configuration: result.configurations[$0]) }
      if request.keepSamples {
        try outcomeWriter.write(configurations, evaluation: evaluation, threads: threads, command: "sweep")
      } else {
        try OutcomePass.write(configurations, to: outcomeWriter, request: request, evaluation: evaluation)
      }
      return outcomeWriter
    }

    /// `--bootstrap`: the best configurations' intervals, resampled from the samples kept or
    /// from their outcomes read again; `nil` without it.
    func bootstrapIntervals(
      _ result: SweepResult, request: ScoredStream.Request, evaluation: Evaluation, threads: Int
    ) throws -> SweepIntervals? {
      guard bootstrap > 0 else { return nil }
      let best = result.bestConfigurations().map(\.configuration).sorted()
      let options = BootstrapOptions(resamples: bootstrap, confidence: confidence)
      // Without the samples, the best configurations' outcomes from a second read.
      let read =
        request.keepSamples
        ? nil
        : try ResamplingRead.read(
          best.map { result.configurations[$0].recognizer }, request: request, evaluation: evaluation)
      do throws(TuningError) {
        if let read {
          return try SweepIntervals(
            configurations: best, outcomeLists: read.columns, truths: read.truths, groups: read.groups,
            options: options, seed: seed, threads: threads)
        }
        return try SweepIntervals(
          sweep: result, configurations: best, groupBy: groupBy?.key, options: options, seed: seed, threads: threads)
      } catch {
        if case .replay(let replay) = error { throw DataError.replay(replay, command: "sweep") }
        throw DataError(description: "touchtrace sweep: error: \(error.description)")
      }
    }

    /// The verdict (the best F1, paired with the runner-up), or, with no positive trace, the
    /// misfire rates instead: its Markdown section and what the JSON report inserts.
    func verdict(
      _ result: SweepResult, grouped: GroupedMetrics?, intervals: SweepIntervals?, request: ScoredStream.Request
    ) throws -> SweepOutputs.VerdictParts {
      // Misfire mode: no positive trace, false alarms only.
      let misfires: MisfireRates?
      do throws(GSLError) {
        misfires = try MisfireRates(result)
      } catch {
        throw DataError(description: "touchtrace sweep: error: \(error)")
      }
      let verdict: Verdict
      do {
        verdict = try VerdictPass.verdict(
          configurations: result.configurations, metrics: result.metrics, rule: Verdict.maximumF1,
          evaluation: result.evaluation, request: request, grouped: grouped,
          noChoiceReason: misfires == nil
            ? nil
            : "no trace is a positive: with nothing to find there is no F1 to maximize; the misfire rates below are the result"
        )
      } catch let error as ReplayError {
        throw DataError.replay(error, command: "sweep")
      }
      let f1Interval = verdict.recommended.flatMap { c in
        intervals.flatMap { intervals in
          intervals.configurations.firstIndex(of: c).flatMap { k in
            SweepIntervals.statistics.firstIndex(of: .f1).map {
              (interval: intervals.intervals[k][$0], clusters: intervals.groups.count, unit: intervals.groups.unit)
            }
          }
        }
      }
      var misfireSection = misfires.map { MisfireReport.markdown($0, configurations: result.configurations) } ?? ""
      var misfireObject = misfires.map { MisfireReport.json($0, configurations: result.configurations) }
      if misfires != nil, let grouped {
        do throws(GSLError) {
          misfireSection += try MisfireReport.markdown(by: grouped, configurations: result.configurations)
          let byGroup = try MisfireReport.json(by: grouped, configurations: result.configurations)
          misfireObject = misfireObject.map { MisfireReport.adding(by: byGroup, to: $0) }
        } catch {
          throw DataError(description: "touchtrace sweep: error: \(error)")
        }
      }
      let section =
        VerdictReport.markdown(
          verdict, configurations: result.configurations, metrics: result.metrics, f1Interval: f1Interval)
        + misfireSection
      return SweepOutputs.VerdictParts(verdict: verdict, section: section, misfires: misfireObject)
    }

    /// `--exact`: the breakpoints first, then one configuration per exact class, reported as
    /// intervals with the exact optimum of F1.
    func sweepExactly() throws {
      let options = try evaluationOptions()
      let threads = global.threadCount
      try Console.run {
        try Console.checkOutputs([report.file, jsonOutput, csvOutput], inputs: input.inputPaths)
        let exact = try ExactPass.make(
          exact: exactSweep, plan: plan, input: input, batchTraces: shards.batchTraces, command: "sweep")
        let progress = report.progress(command: "sweep")
        let request = ScoredStream.Request(
          input: input.study, shard: shards.selected, recognizers: exact.plan.configurations.map(\.recognizer),
          groupBy: nil,
          options: options, threads: threads, command: "sweep", keepSamples: false, by: nil,
          batchTraces: shards.batchTraces, writesPartial: false)
        let data = try ScoredData.gather(
          for: "sweep", request, plan: exact.plan, planOptions: self.plan, progress: progress, shard: shards)
        let result = try data.sweepResult(threads: threads)
        let rule: OperatingPointRule
        do throws(TuningRuleError) {
          rule = try OperatingPointRule(objective: .f1)
        } catch {
          throw DataError(description: "touchtrace sweep: error: \(error.description)")
        }
        let sweep = ExactSweep(result, axes: exact.axes, rule: rule, tolerance: exactSweep.tolerance(latency: false))
        try ExactOutputs.emit(
          sweep, command: "sweep", grid: exact.grid, format: report.resolvedFormat, target: report.target,
          jsonOutput: jsonOutput, csvOutput: csvOutput, inputs: input.inputPaths)
      }
    }
  }
}
