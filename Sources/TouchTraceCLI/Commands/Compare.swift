import ArgumentParser
import TouchCore
import TouchEvaluation
import TouchRecognizers
import TouchReports
import TouchStudy
import TouchTuning

extension TouchTraceCommand {
  /// `touchtrace compare`: two configurations on the same traces, pair by pair.
  struct Compare: ParsableCommand, GlobalCommand {
    static let configuration = CommandConfiguration(
      abstract: "Compare two configurations on the same traces: McNemar's test and the paired latency difference.",
      discussion: """
        --a and --b are NAME or NAME:PARAM=VALUE,PARAM=VALUE,... (a variant or DEPENDENT+REQUIRED \
        composition; unnamed parameters keep their defaults; a list parameter's values follow \
        its = separated by commas). Both are replayed over every labelled trace and scored as \
        touchtrace sweep scores them (--positive, --tolerance).

        McNemar's test uses each trace's decision (correct: no false positive and no false \
        negative at any stage): with b traces only A gets right and c only B gets right, \
        b + c < 25 uses the exact two-sided binomial test, p = min(1, 2·P(X ≤ min(b, c))) with \
        X ~ Binomial(b + c, 1/2); otherwise chi-square with one degree of freedom of \
        (|b − c| − 1)² / (b + c) (--no-continuity-correction: (b − c)² / (b + c)).

        The latency difference is B − A on every reference both matched, seconds, with a \
        percentile bootstrap interval for its mean (--bootstrap resamples of traces, or of \
        groups with --group-by, from GSL's mt19937 seeded with --seed).

        Output: --format md, json (touchtrace-compare), csv (one row) or html (figures in \
        inline SVG, then the md tables; the few traces it draws are kept as they are read, no \
        other samples); without --format, an \
        --output ending picks it, else md on a terminal and json otherwise. --outcomes FILE \
        writes both configurations' per-trace outcomes (configuration 0 is A, 1 is B). --by \
        COLUMN (user, device, intent, session, id, touch or an extra label) adds A's and B's counts, rates and latency \
        per group of traces to every format.

        Examples (from the repository root):
          touchtrace compare samples/ --a deep-press:threshold=0.4 \\
            --b stable-press --bootstrap 200
          touchtrace compare samples/ --a deep-press --b shunkit --by device \\
            --output compare.html
        """)

    @OptionGroup var input: InputOptions

    @Option(name: .customLong("a"), help: ArgumentHelp("Configuration A: NAME:PARAM=VALUE,...", valueName: "config"))
    var a: String

    @Option(name: .customLong("b"), help: ArgumentHelp("Configuration B: NAME:PARAM=VALUE,...", valueName: "config"))
    var b: String

    @OptionGroup var scoring: ScoringOptions

    @Option(help: "Resample each user's (session's, device's, intent's or extra label's, e.g. hand) traces together.")
    var groupBy: GroupName?

    @OptionGroup var resampling: ResamplingOptions

    @Flag(inversion: .prefixedNo, help: "Continuity-correct McNemar's chi-square statistic.")
    var continuityCorrection = true

    @OptionGroup var report: OutputOptions<ReportFormat>

    @OptionGroup var outcomes: OutcomeOptions

    @OptionGroup var breakdown: ByOptions

    @OptionGroup var shards: ShardOptions
    @OptionGroup var spooling: SpoolOptions

    @OptionGroup var exec: ExecOptions

    @OptionGroup var global: GlobalOptions

    func validate() throws {
      if shards.partial != nil && outcomes.outcomes != nil {
        throw ValidationError("--partial: --outcomes replays every trace at once; run it unsharded")
      }
      try exec.withCatalog(tolerance: scoring.tolerance, closing: false) {
        _ = try configurations()
        _ = try scoring.evaluationOptions()
      }
    }

    /// Configurations A and B.
    func configurations() throws(ValidationError) -> (a: Configuration, b: Configuration) {
      do throws(SweepPlanError) {
        return (
          try Configuration(parsing: a, catalog: TouchTraceTool.catalog),
          try Configuration(parsing: b, catalog: TouchTraceTool.catalog)
        )
      } catch {
        throw ValidationError("--a/--b: \(error.description)")
      }
    }

    func run() throws {
      try exec.withCatalog(tolerance: scoring.tolerance) { try compare() }
    }

    func compare() throws {
      let (a, b) = try configurations()
      let options = try scoring.evaluationOptions()
      let resampling = try self.resampling.resampling()
      let threads = global.threadCount
      try Console.run {
        try Console.checkOutputs([report.file, outcomes.outcomes], inputs: input.inputPaths)
        let selection = Selection()
        let request = studyRequest(a, b, options: options, threads: threads, selection: selection)
        // No default grid here: the plan is only a carrier.
        let data = try ScoredData.gather(for: "compare", request, plan: nil, planOptions: nil, shard: shards)
        if let partial = shards.partial {
          return try data.writePartial(partial, command: "compare", shard: shards.selected, inputs: input.inputPaths)
        }
        try breakdown.requirePresent(in: data.evaluation, command: "compare")
        let evaluation = data.evaluation
        // Read here, A's and B's columns are there by the request; merged, the partials hold them.
        try ScoredData.requireMerged(data.outcomes.count == 2, "other per-configuration state")
        let columns = (a: data.outcomes[0], b: data.outcomes[1])
        let run = try comparison(data, a, b, resampling: resampling, threads: threads)
        let column = { (c: Int) in c == 0 ? columns.a : columns.b }
        let outcomeWriter = try outcomes.open(inputs: input.inputPaths)
        if let outcomeWriter {
          if evaluation.keepsTraces {
            try outcomeWriter.write(
              [(0, a), (1, b)], evaluation: evaluation, threads: threads, command: "compare", columns: column)
          } else {
            // The rows' metadata from a second read (the first kept only a summary).
            try OutcomePass.write([(0, a), (1, b)], to: outcomeWriter, request: request, evaluation: evaluation)
          }
        }
        let grouped = try breakdown.grouped(
          [(0, a), (1, b)], evaluation: evaluation, threads: threads, command: "compare",
          outcomes: { Array(column($0)) }, labelled: data.stream?.labelledGroups(by: breakdown.by?.field))
        let verdict = Self.verdict(run, a, b, evaluation: evaluation, grouped: grouped)
        VerdictPass.warnAboutData(verdict)
        let bytes = try render(run, verdict: verdict, pair: [a, b], grouped: grouped) {
          // Merging, nothing was read: a second read of the inputs the shards read.
          ScoredData.merged != nil
            ? try FigurePass.comparison(run, columns: columns, request: request)
            : try selection.selector.finish(run, a: columns.a, b: columns.b)
        }
        try Console.emit([(report.target, bytes)], outcomes: outcomeWriter, inputs: input.inputPaths)
      }
    }

    /// The study's request: A's and B's per-trace outcomes as the traces are read, for the
    /// pairing, the bootstrap, the --outcomes table and the HTML figures (and a shard's
    /// partial), without the traces' samples: an HTML report keeps the few traces it draws in
    /// `selection` as they pass.
    private func studyRequest(
      _ a: Configuration, _ b: Configuration, options: EvaluationOptions, threads: Int, selection: Selection
    ) -> ScoredStream.Request {
      let sharded = shards.partial != nil
      var request = ScoredStream.Request(
        input: input.study, shard: shards.selected, recognizers: [a.recognizer, b.recognizer], groupBy: groupBy?.key,
        options: options, threads: threads, command: "compare", outcomes: .replays([a.recognizer, b.recognizer]),
        sweep: false, batchTraces: shards.batchTraces, writesPartial: sharded)
      // On one machine: of each trace only what the reports count, its truth, its resampling
      // unit and its --by label (--outcomes then reads the traces again for its rows, from a
      // spool of them).
      if !sharded, outcomes.outcomes != nil { request.spool = spooling.spool() }
      if !sharded, !(outcomes.outcomes != nil && !request.willReadAgain) {
        request.summaryOnly = true
        request.keepsUnits = true
        request.keepsLabels = breakdown.by?.field
      }
      if !sharded, case .html = report.resolvedFormat {
        request.onReplays = { traces, truths, lists in
          selection.selector.add(batch: traces, truths: truths, outcomes: lists)
        }
      }
      return request
    }

    /// A against B on `data`'s traces: paired, bootstrapped by `--group-by` clusters.
    private func comparison(
      _ data: StudyData, _ a: Configuration, _ b: Configuration,
      resampling: (bootstrap: BootstrapOptions?, seed: UInt64), threads: Int
    ) throws -> ComparisonResult {
      let columns = (a: data.outcomes[0], b: data.outcomes[1])
      let key = groupBy?.key
      do throws(TuningError) {
        if let stream = data.stream, stream.summary != nil {
          // A summary-only read: the truths and resampling units it kept.
          return try ComparisonResult(
            evaluation: data.evaluation, truths: stream.truths, groups: stream.unitGroups(by: key), a: a, b: b,
            bootstrap: resampling.bootstrap, seed: resampling.seed, continuityCorrection: continuityCorrection,
            threads: threads, columns: columns)
        }
        return try ComparisonResult(
          evaluation: data.evaluation, a: a, b: b, groupBy: key, bootstrap: resampling.bootstrap,
          seed: resampling.seed, continuityCorrection: continuityCorrection, threads: threads, columns: columns)
      } catch {
        if case .replay(let replay) = error { throw DataError.replay(replay, command: "compare") }
        throw DataError(description: "touchtrace compare: error: \(error.description)")
      }
    }

    /// The verdict: the better of A and B by F1 (ties: p90 |action − reference|), the paired
    /// comparison oriented from it.
    private static func verdict(
      _ run: ComparisonResult, _ a: Configuration, _ b: Configuration, evaluation: Evaluation,
      grouped: GroupedMetrics?
    ) -> Verdict {
      let pair = [a, b]
      let metrics = [run.comparison.a, run.comparison.b]
      let better = Verdict.candidates(pair, metrics: metrics, rule: Verdict.maximumF1).recommended
      return Verdict(
        configurations: pair, metrics: metrics, rule: Verdict.maximumF1, evaluation: evaluation,
        paired: better == 1 ? run.comparison.swapped() : run.comparison, pairedUnavailable: nil, grouped: grouped,
        clustered: better == 1 ? run.clustered?.swapped() : run.clustered,
        inputCaveats: TimeScaleCheck.caveats(evaluation.dataset.diagnostics))
    }

    /// The report in the chosen format, the verdict inserted; `figures` gives the HTML report's.
    private func render(
      _ run: ComparisonResult, verdict: Verdict, pair: [Configuration], grouped: GroupedMetrics?,
      figures: () throws -> ComparisonFigureData
    ) throws -> [UInt8] {
      let metrics = [run.comparison.a, run.comparison.b]
      let verdictSection = VerdictReport.markdown(verdict, configurations: pair, metrics: metrics)
      switch report.resolvedFormat {
      case .md:
        let text = CompareReport.markdown(run, by: grouped)
        return Array((VerdictReport.inserting(verdictSection, into: text) + StudyFile.recordedMarkdown).utf8)
      case .json:
        let document = CompareReport.json(run, by: grouped)
        let verdictObject = VerdictReport.json(verdict, configurations: pair, metrics: metrics)
        return StudyFile.recorded(VerdictReport.inserting(verdictObject, into: document)).encoded()
      case .csv: return CompareReport.csv(run, by: grouped)
      case .html:
        let data: ComparisonFigureData
        do {
          data = try figures()
        } catch let error as ReplayError {
          throw DataError.replay(error, command: "compare")
        }
        return CompareReport.html(run, data, appendix: StudyFile.recordedMarkdown, verdict: verdictSection)
      }
    }
  }
}

private final class Selection {
  var selector = ComparisonFigureData.Selector()
}
