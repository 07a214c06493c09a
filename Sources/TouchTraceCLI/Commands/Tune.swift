import ArgumentParser
import TouchCore
import TouchEvaluation
import TouchExport
import TouchIO
import TouchRecognizers
import TouchReports
import TouchStudy
import TouchTuning

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension TouchTraceCommand {
  /// `touchtrace tune`: choose an operating point that generalizes.
  struct Tune: ParsableCommand, GlobalCommand {
    static let configuration = CommandConfiguration(
      abstract: "Choose a recognizer's operating point, cross-validated by group, with bootstrap intervals.",
      discussion: """
        Sweeps the configurations (as touchtrace sweep does: --recognizer, --vary, --set, \
        --positive, --tolerance) once, then chooses the best configuration by --objective: f1 \
        (highest F1), latency (lowest p90 of |action − reference|: an action before the \
        intended press counts by its distance like a late one, so firing early never wins; \
        needs --min-precision and/or --min-recall), fpr (highest recall; needs --max-fpr) or \
        cost (lowest (--cost-fp × FP + --cost-fn × FN) per trace). --min-precision, \
        --min-recall, --max-fpr and --max-early (the share of true positives acting before \
        their reference) bound any objective. Ties: higher F1, then lower p90 |action − \
        reference|, then the earlier \
        configuration (on an ascending grid the smaller value). When no configuration meets \
        the bounds, the report says so, nothing is chosen or exported, and the exit code is 1.

        Cross-validation (--folds K, default 5; 0 skips it): groups (--group-by user, session, \
        device, intent or an extra label such as hand; without it every trace is its own group) are dealt into K folds balanced by \
        trace count; each fold's operating point is chosen on the other folds and scored on \
        it, reported per fold, as mean ± sd, and pooled. K equal to the number of groups is \
        leave-one-group-out; fewer groups than folds is an error (exit 65). With --group-by, \
        traces without the label are skipped (and counted).

        Bootstrap (--bootstrap N resamples, default 1000; 0 skips it): percentile intervals \
        (--confidence, default 0.95) for F1, precision, recall, FPR and p50/p90 latency of the \
        chosen configuration and of the pooled held-out outcomes, resampling groups (or \
        traces) with replacement from GSL's mt19937 seeded with --seed (default: 1). The chosen \
        configuration's intervals are conditional on choosing it on the same traces; the \
        cross-validated numbers are the honest estimate.

        Output: --format md, json (touchtrace-tune), csv (one table: --table configurations, \
        pareto, folds or summary) or html (figures in inline SVG, then the md tables); without \
        --format, an --output ending in .md, .json, .csv or .html picks it, else md on a terminal and json otherwise. --csv-dir writes all four tables. \
        --export-json and --export-swift write the chosen configuration with its provenance. \
        --outcomes FILE writes every configuration's per-trace outcomes (--outcomes-filter best: \
        the chosen one's only). --by COLUMN (user, device, intent, session, id, touch or an extra label) adds the \
        chosen configuration's counts, rates and latency per group of traces (--table groups, \
        groups.csv in --csv-dir). \
        The same seed gives the same bytes whatever --threads.

        Memory: the traces are swept as they are read; every configuration's outcome on every \
        trace (9 bytes, 13 with a stage 2, and 24 per matched reference) goes to a temporary \
        file for the folds and the bootstrap, read back one configuration at a time; of each \
        trace only its truth, its resampling unit, its --by label and what the reports count \
        are kept, not its samples. --outcomes and HTML read the inputs a second time for the \
        rows and the figures. --export (its conformance vectors) and HTML of \
        standard input keep every trace's samples.

        Examples (from the repository root):
          touchtrace tune samples/ --recognizer deep-press --folds 3 \\
            --bootstrap 200
          touchtrace tune samples/ --recognizer deep-press --objective latency \\
            --min-recall 0.8 --export-swift Thresholds.swift --output tune.json
        """)

    @OptionGroup var input: InputOptions

    @OptionGroup var plan: PlanOptions

    @OptionGroup var scoring: ScoringOptions

    @OptionGroup var objective: ObjectiveOptions

    @Option(
      help:
        "Keep each user's (session's, device's, intent's or extra label's, e.g. hand) traces together in folds and resamples."
    )
    var groupBy: GroupName?

    @Option(help: ArgumentHelp("Cross-validation folds (0: none).", valueName: "k"))
    var folds = 5

    @OptionGroup var resampling: ResamplingOptions

    @OptionGroup var report: OutputOptions<ReportFormat>

    @Option(help: "The CSV table --format csv writes.")
    var table: TableName = .configurations

    @Option(help: ArgumentHelp("Also write the JSON report to this file.", valueName: "file"))
    var jsonOutput: String?

    @Option(help: ArgumentHelp("Also write every CSV table to this directory (NAME.csv).", valueName: "dir"))
    var csvDir: String?

    @Option(help: ArgumentHelp("Write the chosen configuration as JSON (touchtrace-configuration).", valueName: "file"))
    var exportJson: String?

    @Option(
      help: ArgumentHelp("Write the chosen configuration as Swift source to paste into an app.", valueName: "file"))
    var exportSwift: String?

    @Option(
      name: .customLong("export"),
      help: ArgumentHelp(
        "Write the chosen configuration as recognizer code for iOS, Android and the web, with conformance vectors from these traces (as `touchtrace export`; the directory's files must be new).",
        valueName: "dir"))
    var exportDirectory: String?

    @OptionGroup var outcomes: OutcomeOptions

    @OptionGroup var breakdown: ByOptions

    @OptionGroup var shards: ShardOptions
    @OptionGroup var spooling: SpoolOptions

    @OptionGroup var exec: ExecOptions

    enum TableName: String, ExpressibleByArgument, CaseIterable {
      case configurations, pareto, folds, summary, groups
    }

    @OptionGroup var global: GlobalOptions

    @OptionGroup var exactSweep: ExactOptions

    func validate() throws {
      if table == .groups && breakdown.by == nil { throw ValidationError("--table groups needs --by COLUMN") }
      if shards.partial != nil && outcomes.outcomes != nil {
        throw ValidationError("--partial: --outcomes replays every trace at once; run it unsharded")
      }
      if exactSweep.isOn {
        if let refusal = ExactPass.refusal(
          input: input, shards: shards, outcomes: outcomes, by: breakdown, bootstrap: 0)
        {
          throw ValidationError(refusal)
        }
        if exportJson != nil || exportSwift != nil || exportDirectory != nil || csvDir != nil {
          throw ValidationError(
            "--exact writes its report only (no --export-json, --export-swift, --export or --csv-dir): export the recommended value from a tune with --set NAME=VALUE"
          )
        }
      }
      try exec.withCatalog(tolerance: scoring.tolerance, closing: false) {
        let plan = try plan.makePlan()
        if exportDirectory != nil {
          if shards.partial != nil {
            throw ValidationError(
              "--export writes code for the configuration the whole tuning chooses, which one shard does not have: run tune unsharded with --export"
            )
          }
          for configuration in plan.configurations {
            do throws(ExportError) {
              _ = try ExportConfiguration(configuration.recognizer)
            } catch {
              throw ValidationError("--export: \(error.description)")
            }
          }
        }
        _ = try scoring.evaluationOptions()
        _ = try tuningOptions()
      }
    }

    /// The rule, grouping, folds, bootstrap and seed the flags describe.
    func tuningOptions() throws(ValidationError) -> TuningOptions {
      let rule = try objective.rule()
      guard folds == 0 || folds >= 2 else {
        throw ValidationError("--folds must be 0 (no cross-validation) or at least 2, got \(folds)")
      }
      let resampling = try self.resampling.resampling()
      return TuningOptions(
        rule: rule, groupBy: groupBy?.key, folds: folds, bootstrap: resampling.bootstrap, seed: resampling.seed)
    }

    func run() throws {
      try exec.withCatalog(tolerance: scoring.tolerance) { try tune() }
    }

    /// Tunes: reads and scores the traces (or takes the merged partials), then chooses and
    /// writes the report and exports; one shard writes its partial instead.
    func tune() throws {
      if exactSweep.isOn { return try tuneExactly() }
      let plan = try self.plan.makePlan()
      let options = try scoring.evaluationOptions()
      let tuning = try tuningOptions()
      let threads = global.threadCount
      try Console.run {
        try checkOutputs()
        let progress = report.progress(command: "tune")
        let request = scoredRequest(plan, options: options, tuning: tuning, threads: threads)
        let data = try ScoredData.gather(
          for: "tune", request, plan: plan, planOptions: self.plan, progress: progress, finishing: false, shard: shards)
        if shards.partial == nil { try breakdown.requirePresent(in: data.evaluation, command: "tune") }
        if let partial = shards.partial {
          progress.finish()
          try data.writePartial(partial, command: "tune", shard: shards.selected, inputs: input.inputPaths)
          return
        }
        try tuneAndWrite(consume data, request: request, tuning: tuning, threads: threads, progress: progress)
      }
    }
  }
}

extension TouchTraceCommand.Tune {
  /// Refuses, before any work, outputs that would replace an input or one another: the report,
  /// `--json-output`, the exports, `--outcomes` and the `--csv-dir` tables.
  private func checkOutputs() throws {
    try Console.checkOutputs(
      [report.file, jsonOutput, exportJson, exportSwift, outcomes.outcomes]
        + TuneReport.Table.allCases.map { table in csvDir.map { csvPath($0, table) } }
        + [breakdown.by == nil ? nil : csvDir.map { csvPath($0, "groups") }],
      inputs: input.inputPaths)
  }

  /// What to read and score: swept as the traces are read, every configuration's per-trace
  /// outcomes kept for the folds and the bootstrap (or a shard's partial) on disk, batch by batch
  /// (`OutcomeSpill`), read back a configuration at a time. The traces' samples are kept, and
  /// swept by the tuning after the read, only for what replays traces after the tuning and cannot
  /// read them again (``keepsSamples``).
  private func scoredRequest(
    _ plan: SweepPlan, options: EvaluationOptions, tuning: TuningOptions, threads: Int
  ) -> ScoredStream.Request {
    let sharded = shards.partial != nil
    let streamed = sharded || !keepsSamples
    var request = ScoredStream.Request(
      input: input.study, shard: shards.selected, recognizers: plan.configurations.map(\.recognizer),
      groupBy: tuning.groupBy, options: options, threads: threads, command: "tune", keepSamples: !streamed,
      outcomes: streamed ? .allOnDisk : .none, sweep: streamed, batchTraces: shards.batchTraces,
      writesPartial: sharded)
    // --export records the data's SHA-256: hashed as it is read, not read again.
    request.hashesInputs = exportDirectory != nil
    // The verdict, the figures and --outcomes read the analyzed traces again, from a spool.
    if !sharded { request.spool = spooling.spool() }
    // Streamed on one machine: of each trace, only what the reports count, its truth, its
    // resampling unit and its --by label (--outcomes then reads the traces again for its rows).
    if streamed, !sharded, !(outcomes.outcomes != nil && !request.willReadAgain) {
      request.summaryOnly = true
      request.keepsUnits = true
      request.keepsLabels = breakdown.by?.field
    }
    return request
  }

  /// Whether the traces' samples are kept for after the tuning: of standard input without a
  /// spool (`--spool-limit 0`), for an HTML report (which redraws them) or `--export` (which
  /// writes them as conformance vectors). Else a second read draws the figures and writes the
  /// vectors as the traces pass; `--outcomes` writes the outcomes kept as they were read.
  private var keepsSamples: Bool {
    (report.resolvedFormat == .html || exportDirectory != nil) && input.study.readsOnce && !spooling.spools
  }

  /// Tunes on the scored `data` and writes every output or none: the report, `--outcomes`,
  /// `--json-output`, the `--csv-dir` tables and the exports; exit 1 when nothing was chosen.
  private func tuneAndWrite(
    _ data: consuming StudyData, request: ScoredStream.Request, tuning: TuningOptions, threads: Int,
    progress: Progress
  ) throws {
    let evaluation = data.evaluation
    var (result, columns) = try runTuning(data, tuning: tuning, threads: threads, progress: progress)
    let outcomeWriter = try writeOutcomes(
      result, evaluation: evaluation, request: request, threads: threads, columns: columns)
    let configurations = result.sweep.configurations
    let grouped = try breakdown.grouped(
      result.chosen.map { [($0, configurations[$0])] } ?? [], evaluation: evaluation, threads: threads,
      command: "tune",
      outcomes: columns.map { columns in { Array(try columns($0)) } },
      labelled: data.stream?.labelledGroups(by: breakdown.by?.field))
    // Every configuration's outcomes are no longer needed: freed before the verdict reads the
    // inputs again.
    columns = nil
    data.outcomes = []
    data.outcomeColumns = nil
    let verdict = try makeVerdict(result, evaluation: evaluation, tuning: tuning, request: request, grouped: grouped)
    let bytes = try reportBytes(result, grouped: grouped, verdict: verdict, request: request, threads: threads)
    // Every output or none: the report, --json-output, the --csv-dir tables and the exports
    // are committed together.
    let tool = "touchtrace \(TouchTraceVersion.current)"
    var outputs = otherOutputs(result, grouped: grouped, verdict: verdict, tool: tool)
    outputs.append((report.target, bytes))
    if let exportDirectory {
      try exportCode(
        result, to: exportDirectory, tool: tool, digests: data.stream?.inputs.map { ($0.file, $0.sha256) },
        request: request)
    }
    try emit(outputs, outcomes: outcomeWriter)
    if let reason = result.noChoiceReason {
      Console.error(
        "touchtrace tune: error: \(reason)"
          + (exportJson != nil || exportSwift != nil || exportDirectory != nil ? "; nothing exported" : ""))
      throw Exit.failure
    }
  }

  /// Tunes `data`'s plan on its traces — on the outcomes kept on disk as they were read, or on
  /// the partials' when merging (either way one configuration's read back at a time), or on the
  /// samples kept — then finishes the progress line. Returns the result and how to get a
  /// configuration's outcomes again, by its index (`nil`: replay the samples).
  private func runTuning(
    _ data: StudyData, tuning: TuningOptions, threads: Int, progress: Progress
  ) throws -> (TuningResult, columns: ((Int) throws -> OutcomeColumn)?) {
    guard let plan = data.plan else { preconditionFailure("tune scores the plan it made") }
    if ScoredData.merged != nil {
      try ScoredData.requireMerged(
        (data.sweep != nil || data.spilled != nil) && data.outcomeColumns?.count == plan.configurations.count,
        "other per-configuration state")
    }
    let result: TuningResult
    let outcomes: ((Int) throws -> OutcomeColumn)?
    if let columns = data.outcomeColumns {
      var incremental = try Self.tuned(progress) { () throws(TuningError) in
        guard let stream = data.stream, stream.summary != nil else {
          return try Tuning.Incremental(data.evaluation, plan: plan, options: tuning, threads: threads)
        }
        // A summary-only read: the truths and resampling units it kept.
        return try Tuning.Incremental(
          truths: stream.truths, groups: stream.unitGroups(by: tuning.groupBy), plan: plan, options: tuning,
          threads: threads)
      }
      // A failed read of the spill file is an I/O error (exit 74), as the latency lists' is.
      for c in plan.configurations.indices { incremental.add(try columns.column(c), of: c) }
      result = incremental.finish(sweep: try data.sweepResult(threads: threads))
      outcomes = { try columns.column($0) }
    } else {
      result = try Self.tuned(progress) { () throws(TuningError) in
        try Tuning.run(data.evaluation, plan: plan, options: tuning, threads: threads) { progress.update($0, $1) }
      }
      outcomes = nil
    }
    progress.finish()
    return (result, outcomes)
  }

  /// `body`'s value; its error as the command's (the progress line finished first).
  private static func tuned<T>(_ progress: Progress, _ body: () throws(TuningError) -> T) throws -> T {
    do throws(TuningError) {
      return try body()
    } catch {
      progress.finish()
      if case .replay(let replay) = error { throw DataError.replay(replay, command: "tune") }
      throw DataError(description: "touchtrace tune: error: \(error.description)")
    }
  }

  /// Opens `--outcomes` and writes into it the per-trace outcomes of every configuration (or
  /// the chosen one's, `--outcomes-filter best`); `nil` without `--outcomes`.
  private func writeOutcomes(
    _ result: TuningResult, evaluation: Evaluation, request: ScoredStream.Request, threads: Int,
    columns: ((Int) throws -> OutcomeColumn)?
  ) throws -> OutcomeWriter? {
    let outcomeWriter = try outcomes.open(inputs: input.inputPaths)
    if let outcomeWriter {
      let configurations = result.sweep.configurations
      let chosen =
        outcomes.outcomesFilter == .best ? (result.chosen.map { [$0] } ?? []) : Array(configurations.indices)
      let written = chosen.map { (index: $0, configuration: configurations[$0]) }
      if evaluation.keepsTraces {
        try outcomeWriter.write(written, evaluation: evaluation, threads: threads, command: "tune", columns: columns)
      } else {
        // The rows' metadata from a second read (the first kept only a summary).
        try OutcomePass.write(written, to: outcomeWriter, request: request, evaluation: evaluation)
      }
    }
    return outcomeWriter
  }

  /// The verdict on the tuned configurations: the recommended one against the runner-up.
  private func makeVerdict(
    _ result: TuningResult, evaluation: Evaluation, tuning: TuningOptions, request: ScoredStream.Request,
    grouped: GroupedMetrics?
  ) throws -> Verdict {
    do {
      return try VerdictPass.verdict(
        configurations: result.sweep.configurations, metrics: result.sweep.metrics, rule: tuning.rule,
        evaluation: evaluation, request: request, grouped: grouped,
        noChoiceReason: result.noChoiceReason)
    } catch let error as ReplayError {
      throw DataError.replay(error, command: "tune")
    }
  }

  /// The verdict's Markdown section, with the chosen configuration's bootstrap F1 interval.
  private func verdictMarkdown(_ result: TuningResult, verdict: Verdict) -> String {
    let f1Interval = result.intervals.flatMap { intervals in
      result.statistics.firstIndex(of: .f1).map {
        (interval: intervals[$0], clusters: result.groups.count, unit: result.groups.unit)
      }
    }
    return VerdictReport.markdown(
      verdict, configurations: result.sweep.configurations, metrics: result.sweep.metrics, f1Interval: f1Interval)
  }

  /// The JSON report (touchtrace-tune) with the verdict and the study file's record.
  private func jsonReport(_ result: TuningResult, grouped: GroupedMetrics?, verdict: Verdict) -> [UInt8] {
    let document = TuneReport.json(result, by: grouped)
    let verdictObject = VerdictReport.json(
      verdict, configurations: result.sweep.configurations, metrics: result.sweep.metrics)
    return StudyFile.recorded(VerdictReport.inserting(verdictObject, into: document)).encoded()
  }

  /// The report in `--format`: Markdown, JSON, the `--table` CSV table or HTML (its figures from
  /// the samples kept, or else from a second read of the inputs `request` read).
  private func reportBytes(
    _ result: TuningResult, grouped: GroupedMetrics?, verdict: Verdict, request: ScoredStream.Request, threads: Int
  ) throws -> [UInt8] {
    let verdictSection = verdictMarkdown(result, verdict: verdict)
    switch report.resolvedFormat {
    case .md:
      let report = TuneReport.markdown(result, by: grouped)
      return Array((VerdictReport.inserting(verdictSection, into: report) + StudyFile.recordedMarkdown).utf8)
    case .json: return jsonReport(result, grouped: grouped, verdict: verdict)
    case .csv:
      if let table = table.table { return TuneReport.csv(result, table: table) }
      return grouped.map { TuneReport.groupsCSV(result, by: $0) } ?? []
    case .html:
      let marked = TuneReport.markedConfigurations(result)
      let data: SweepFigureData
      if request.keepSamples {
        do throws(ReplayError) {
          data = try SweepFigureData.gather(result.sweep, marked: marked, threads: threads)
        } catch {
          throw DataError.replay(error, command: "tune")
        }
      } else {
        data = try FigurePass.gather(result.sweep, request: request, marked: marked)
      }
      return TuneReport.html(result, data, appendix: StudyFile.recordedMarkdown, verdict: verdictSection)
    }
  }

  /// The outputs besides the report: `--json-output`, the `--csv-dir` tables, `--export-json`
  /// and `--export-swift` (those two only when a configuration was chosen).
  private func otherOutputs(
    _ result: TuningResult, grouped: GroupedMetrics?, verdict: Verdict, tool: String
  ) -> [(path: String, bytes: [UInt8])] {
    var outputs: [(path: String, bytes: [UInt8])] = []
    if let jsonOutput { outputs.append((jsonOutput, jsonReport(result, grouped: grouped, verdict: verdict))) }
    if let csvDir {
      for table in TuneReport.Table.allCases {
        outputs.append((csvPath(csvDir, table), TuneReport.csv(result, table: table)))
      }
      if let grouped { outputs.append((csvPath(csvDir, "groups"), TuneReport.groupsCSV(result, by: grouped))) }
    }
    if let exportJson, let document = TuneExport.json(result, tool: tool) {
      outputs.append((exportJson, document.encoded()))
    }
    if let exportSwift, let source = TuneExport.swift(result, tool: tool) {
      outputs.append((exportSwift, Array(source.utf8)))
    }
    return outputs
  }

  /// Writes `outputs` and the `--outcomes` file all or none, creating `--csv-dir` first (and
  /// removing it again when it was created and the writing failed).
  private func emit(_ outputs: [(path: String, bytes: [UInt8])], outcomes outcomeWriter: OutcomeWriter?) throws {
    let createdDirectory = try csvDir.map(Console.makeDirectory) ?? false
    do throws(FileWriteError) {
      try Console.emit(outputs, outcomes: outcomeWriter, inputs: input.inputPaths)
    } catch {
      if createdDirectory, let csvDir { rmdir(csvDir) }
      throw error
    }
  }
}

extension TouchTraceCommand.Tune {
  /// `--exact`: the exact optimum by the objective on all traces, the exact cross-validation and
  /// the bootstrap of the recommended value.
  func tuneExactly() throws {
    let options = try scoring.evaluationOptions()
    let tuning = try tuningOptions()
    let threads = global.threadCount
    try Console.run {
      try Console.checkOutputs([report.file, jsonOutput], inputs: input.inputPaths)
      let exact = try ExactPass.make(
        exact: exactSweep, plan: plan, input: input, batchTraces: shards.batchTraces, command: "tune")
      let progress = report.progress(command: "tune")
      let request = ScoredStream.Request(
        input: input.study, shard: shards.selected, recognizers: exact.plan.configurations.map(\.recognizer),
        groupBy: tuning.groupBy, options: options, threads: threads, command: "tune", keepSamples: true,
        batchTraces: shards.batchTraces, writesPartial: false)
      let data = try ScoredData.gather(
        for: "tune", request, plan: exact.plan, planOptions: self.plan, progress: progress, shard: shards)
      let result: ExactTuning
      do throws(TuningError) {
        result = try ExactTuning.run(
          data.evaluation, plan: exact.plan, axes: exact.axes, options: tuning,
          tolerance: exactSweep.tolerance(latency: tuning.rule.objective.statistic.isLatency), threads: threads)
      } catch {
        if case .replay(let replay) = error { throw DataError.replay(replay, command: "tune") }
        throw DataError(description: "touchtrace tune: error: \(error.description)")
      }
      try ExactOutputs.emit(
        result.exact, command: "tune", grid: exact.grid, tuning: result, format: report.resolvedFormat,
        target: report.target,
        jsonOutput: jsonOutput, csvOutput: nil, inputs: input.inputPaths)
      if result.chosenGroup == nil {
        Console.error(
          "touchtrace tune: error: no exact interval meets the rule (\(tuning.rule.constraints)) with a defined objective"
        )
        throw Exit.failure
      }
    }
  }

  /// The file of one CSV table in `--csv-dir`.
  func csvPath(_ directory: String, _ table: TuneReport.Table) -> String { csvPath(directory, table.rawValue) }

  /// The file of the CSV table `name` in `--csv-dir`.
  func csvPath(_ directory: String, _ name: String) -> String {
    (directory.hasSuffix("/") ? directory : directory + "/") + name + ".csv"
  }
}

extension TouchTraceCommand.Tune.TableName {
  /// The report's table; `nil` for `groups` (the `--by` breakdown).
  var table: TuneReport.Table? {
    switch self {
    case .configurations: .configurations
    case .pareto: .pareto
    case .folds: .folds
    case .summary: .summary
    case .groups: nil
    }
  }
}

extension TouchTraceCommand.Tune {
  /// `--export DIR`: the chosen configuration as code, with the tuning's traces as conformance
  /// vectors (nothing when no configuration was chosen).
  /// `digests`: the SHA-256 of each input as the stream read it (`nil` when merging partials:
  /// the files are read again).
  func exportCode(
    _ result: TuningResult, to directory: String, tool: String, digests known: [(file: String, sha256: SHA256.Digest)]?,
    request: ScoredStream.Request
  ) throws {
    guard let recognizer = TuneExport.chosenRecognizer(result),
      var provenance = TuneExport.provenance(result, tool: tool)
    else { return }
    let evaluation = result.sweep.evaluation
    let contacts = evaluation.analyzedCount
    let digests = try known ?? ExportProvenance.digests(evaluation.dataset.files)
    provenance += ExportProvenance.vectorLines(files: digests, traces: contacts, random: 0, seed: 0)
    let configuration = try ExportConfiguration(recognizer, provenance: provenance)
    // The traces kept (standard input without a spool): the vectors in memory. Else written to a
    // temporary file by a second read, and copied into the export.
    let spooled =
      evaluation.keepsTraces ? nil : try VectorsPass.spool(recognizer, request: request, evaluation: evaluation)
    let files = Exporter.files(
      configuration, vectors: try spooled == nil ? .text(vectorText(evaluation.dataset.traces, recognizer)) : .apart)
    try ExportProvenance.write(files, into: directory, inputs: input.inputPaths, vectors: spooled)
    let fileCount = Exporter.listing(files, vectorsApart: spooled != nil).count
    Console.diagnose(
      "touchtrace tune: exported \(recognizer.name) (\(configuration.parameters.map { "\($0.name)=\($0.value)" }.joined(separator: ", "))) to \(directory): \(fileCount) files, conformance vectors of \(contacts) contacts"
    )
  }

  /// The conformance vectors of `traces` (kept in memory) replayed through `recognizer`.
  private func vectorText(_ traces: [Trace], _ recognizer: AnyForceRecognizer) throws -> String {
    do throws(ReplayError) {
      return try ConformanceVectors.text(traces, recognizer: recognizer)
    } catch {
      throw DataError.replay(error, command: "tune")
    }
  }
}
