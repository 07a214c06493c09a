import TouchCore
import TouchEvaluation
import TouchPartials
import TouchRecognizers
import TouchReports
import TouchStudy
import TouchTuning

/// A scoring command's traces and scoring state, wherever they come from: read from its inputs
/// batch by batch (``ScoredStream``), or merged from the partials of a job array
/// (``MergedStudy``, during `touchtrace merge`).
struct ScoredData {
  /// The partials being merged, while `touchtrace merge` runs the command that wrote them.
  @TaskLocal static var merged: MergedStudy?
  /// The merged partials' latency lists, on disk (`MergedLists`), while `touchtrace merge` runs
  /// the command; ``merged``'s sweep then holds the sums only.
  @TaskLocal static var mergedLists: SpilledSweep?

  var evaluation: Evaluation
  /// The plan scored (`nil` for compare, which replays its two configurations itself).
  var plan: SweepPlan!
  /// The merged sweep partial (merging), or the stream's, lists on disk (reading).
  var sweep: SweepPartial?
  var spilled: SpilledSweep?
  var groups: GroupPartials?
  /// The per-trace outcomes kept in memory (`ScoredStream.Request.outcomes`), one column per
  /// slot.
  var outcomes: [OutcomeColumn]
  /// Every configuration's per-trace outcomes, read one configuration at a time
  /// (`ScoredStream.Outcomes.allOnDisk`): from the stream's spill, or merged from the partials'.
  var outcomeColumns: OutcomeColumns?
  /// The stream, when read here (for writing a partial).
  var stream: ScoredStream?

  /// ``gather(_:plan:planOptions:progress:)`` for `command`, then ``check(command:shard:misfires:)``:
  /// a replay error is reported as the command's, the progress line finished first; with
  /// `finishing`, the progress line is finished before the check reports skipped traces too.
  static func gather(
    for command: String, _ request: ScoredStream.Request, plan: SweepPlan?, planOptions: PlanOptions?,
    progress: Progress? = nil, finishing: Bool = true, shard: ShardOptions, misfires: Bool = false
  ) throws -> ScoredData {
    let data: ScoredData
    do {
      data = try gather(request, plan: plan, planOptions: planOptions, progress: progress)
    } catch let error as ReplayError {
      progress?.finish()
      throw DataError.replay(error, command: command)
    }
    if finishing { progress?.finish() }
    try data.check(command: command, shard: shard, misfires: misfires)
    if let spool = request.spool, spool.isComplete, Console.verbose && !Console.quiet {
      Console.detail(Self.spoolNote(spool))
    }
    return data
  }

  /// What `--verbose` says of the spool a first read wrote: its traces and size, or why it
  /// stopped.
  static func spoolNote(_ spool: AnalyzedSpool) -> String {
    if let failure = spool.failure { return "note: the analyzed traces are not spooled: \(failure)" }
    let tenths = (spool.size * 10 + 524_288) / 1_048_576
    return
      "note: \(TextFormat.count(spool.count, "analyzed trace")) spooled for the second reads (\(tenths / 10).\(tenths % 10) MiB, a temporary file)"
  }

  /// Reads (or takes from the partials being merged) the traces of `request` and scores them
  /// with `plan` (whose default grids may follow the data's maximum forces).
  static func gather(
    _ request: ScoredStream.Request, plan: SweepPlan?, planOptions: PlanOptions?, progress: Progress? = nil
  ) throws -> ScoredData {
    let follows =
      plan.map { plan in
        plan.axes.isEmpty && plan.recognizers.contains(where: { SweepPlan.defaultGridFollowsMaximumForce($0) })
      } ?? false
    func makePlan(_ forces: [Double]) throws -> SweepPlan? {
      guard let plan, let planOptions else { return nil }
      let made = follows ? try planOptions.makePlan(maximumForces: forces) : plan
      // Points of the user's own --vary grids (default grids drop points by design: the report
      // names those).
      if !made.axes.isEmpty, !made.dropped.isEmpty, !made.axes.contains(where: \.isExact) {
        Console.diagnose(
          "warning: --vary: \(TextFormat.count(made.dropped.count, "grid point")) dropped as invalid: \(DroppedConfiguration.summary(made.dropped))"
        )
      }
      return made
    }
    if let merged {
      let plan = try makePlan(merged.maximumForces)
      // What the partials hold must fit the command they record (each partial was checked on
      // its own when read; these are the checks that need the command's plan).
      let n = merged.dataset.traces.count
      try requireMerged(!request.truths || merged.truths.count == n, "traces without ground truth")
      try requireMerged(!request.sweep || plan == nil || merged.sweep != nil, "no scoring state")
      if let plan, let sweep = merged.sweep {
        try requireMerged(sweep.configurations.count == plan.configurations.count, "another number of configurations")
        try requireMerged(
          zip(sweep.configurations, plan.configurations).allSatisfy { $0.shape == $1.shape }, "other configurations")
      }
      // The lists on disk (merge moved them there as it read the partials), with the sums.
      let lists = merged.sweep == nil ? nil : mergedLists
      if let groups = merged.groups {
        try requireMerged(groups.configurations.count == plan?.configurations.count, "another number of configurations")
      }
      // One outcome per trace of each partial's, merged one per trace (MergedStudy checks it).
      try requireMerged(
        merged.outcomes.count == 0 || merged.truths.count == n, "per-trace outcomes that are not one per trace")
      let evaluation = Evaluation(dataset: merged.dataset, truths: merged.truths, options: request.options)
      // Every configuration's (tune) merged when read, one at a time; a comparison's two here.
      let onDisk = if case .allOnDisk = request.outcomes { true } else { false }
      return ScoredData(
        evaluation: evaluation, plan: plan, sweep: lists == nil ? merged.sweep : nil, spilled: lists,
        groups: merged.groups, outcomes: onDisk ? [] : try merged.outcomes.all(),
        outcomeColumns: onDisk ? merged.outcomes : nil, stream: nil)
    }
    let stream = try ScoredStream.read(request, plan: makePlan, planFollowsData: follows, progress: progress)
    let evaluation =
      if let summary = stream.summary {
        Evaluation(summary: summary.summary, dataset: stream.dataset(), options: request.options)
      } else {
        // Truths kept without their traces (`keepsTruths`) stay in the stream.
        Evaluation(
          dataset: stream.dataset(), truths: request.keepsTraces ? stream.truths : [], options: request.options)
      }
    return ScoredData(
      evaluation: evaluation, plan: stream.plan, sweep: nil, spilled: stream.sweep, groups: stream.groups,
      outcomes: stream.outcomes, outcomeColumns: stream.outcomeSpill.map(OutcomeColumns.init), stream: stream)
  }

  /// Reads `second` (a `ScoredStream.Request.replaying(_:)` of a first read) quietly, since the
  /// first read already said what it skipped and why, and never from the partials being merged.
  static func readAgain(_ second: ScoredStream.Request) throws -> ScoredData {
    guard second.canReadAgain else {
      let reason = second.spool?.failure.map { ", and its traces could not be spooled: \($0)" } ?? ""
      throw DataError(
        description:
          "touchtrace \(second.command): error: standard input is read once\(reason); save the traces to a file")
    }
    return try $merged.withValue(nil) {
      try Console.$quiet.withValue(true) { try gather(second, plan: nil, planOptions: nil) }
    }
  }

  /// Reads `request`'s inputs again, replaying `recognizers` and handing each batch's replays to
  /// `onReplays` without keeping them (`what` the read is for names it in messages). Merging,
  /// they are the inputs the shards read, checked against the SHA-256 the shards recorded.
  ///
  /// - Throws: `DataError` when the inputs changed since the shards read them or the read gives
  ///   other traces than `evaluation`'s, and what reading throws.
  static func replayAgain(
    _ recognizers: [AnyForceRecognizer], request: ScoredStream.Request, evaluation: Evaluation, for what: String,
    batchTraces: Int? = nil,
    onReplays: @escaping (_ traces: [Trace], _ truths: [TraceTruth], _ outcomes: [[TraceOutcome]]) -> Void
  ) throws {
    var second = request.replaying(recognizers)
    second.keepsReplays = false
    if let batchTraces { second.batchTraces = batchTraces }
    let merged = ScoredData.merged
    second.writesPartial = merged != nil
    second.onReplays = onReplays
    let data = try readAgain(second)
    if let merged, data.stream?.inputs != merged.inputs {
      throw DataError(
        description:
          "touchtrace merge: error: \(what) replay the inputs the shards read, and they changed since (SHA-256 differs); merge to md, json or csv, or run the \(request.command) again"
      )
    }
    guard data.readsSameTraces(as: evaluation) else {
      throw DataError(
        description:
          "touchtrace \(request.command): error: the inputs changed while \(what) came from them (a second read gave other traces)"
      )
    }
  }

  /// Whether this read (which kept its traces' names' hashes) gave the traces `evaluation`
  /// analyzed, in the same order.
  func readsSameTraces(as evaluation: Evaluation) -> Bool {
    let names = stream?.nameDigests ?? []
    return names.count == evaluation.analyzedCount
      && EvaluationSummary.namesDigest(ofNameHashes: names) == evaluation.summary.namesDigest
  }

  /// Refuses partials (exit 65) whose state does not fit the command they record: `what` they
  /// hold instead.
  static func requireMerged(_ condition: Bool, _ what: String) throws {
    guard !condition else { return }
    throw DataError(
      description: "touchtrace merge: error: the partials hold \(what) than their command needs; run the shards again")
  }

  /// The sweep's result: every configuration's metrics, its latency lists read back one
  /// configuration at a time.
  func sweepResult(threads: Int) throws -> SweepResult {
    if let spilled {
      return SweepResult(
        evaluation: evaluation, plan: plan, metrics: try spilled.metrics(threads: threads), methods: spilled.methods)
    }
    return SweepResult(evaluation: evaluation, plan: plan, partial: sweep!, threads: threads)
  }

  /// Says why traces were skipped after loading (one line per reason), and stops when no trace
  /// is analyzed or none is a positive — unless this is one shard, whose traces are checked
  /// when merged.
  ///
  /// - Parameter misfires: whether data without positives is scored in misfire mode (`sweep`)
  ///   instead of stopping.
  func check(command: String, shard: ShardOptions, misfires: Bool = false) throws {
    stream?.reportSkips(command: command)
    guard shard.partial == nil else { return }
    let summary = evaluation.summary
    if misfires, summary.analyzed > 0, summary.positives == 0 {
      try ScoringRules.requireAnalyzed(evaluation, command: command)
      if !evaluation.options.negativesOnly {
        Console.diagnose(
          "note: \(ScoringRules.noPositiveMessage(summary.intents, positives: evaluation.options.positives)); scoring misfires only (--negatives-only says so)"
        )
      }
      return
    }
    try ScoringRules.requireScorable(evaluation, command: command)
  }

  /// The per-group metrics of every configuration (`--by`), in the breakdown's group order.
  func groupedMetrics(by field: TraceFilter.Field?) -> GroupedMetrics? {
    guard let field, let groups else { return nil }
    let breakdown = GroupBreakdown(evaluation, by: field)
    let metrics = groups.configurations.enumerated().map { c, list in
      breakdown.names.map { name in
        list.first { $0.name == name }?.partial.finish()
          ?? ConfigurationPartial(shape: plan.configurations[c].shape).finish()
      }
    }
    return GroupedMetrics(breakdown: breakdown, configurations: Array(metrics.indices), metrics: metrics)
  }

  /// Writes this shard's partial to `path` (through the outputs' checks: never over an input).
  func writePartial(_ path: String, command: String, shard: Shard, inputs: [String]) throws {
    guard let stream else { preconditionFailure("a partial is written by the command that read the traces") }
    // Each configuration's outcomes read back from disk, or from the columns kept, one at a time.
    let columns = outcomeColumns ?? OutcomeColumns(outcomes)
    try stream.writePartial(
      path, command: command, shard: shard, sweep: spilled, groups: groups, outcomes: columns, inputs: inputs)
  }
}

extension ScoredStream {
  /// The resampling units of a read that kept them (`Request.keepsUnits`), grouped by `key`
  /// (the request's `groupBy`); one group per trace without a key.
  func unitGroups(by key: GroupKey?) -> TraceGroups {
    key.map { TraceGroups(labels: units, key: $0) } ?? TraceGroups(names: units)
  }

  /// The groups by `column` (`--by`) of a read that kept only its traces' summary, truths and
  /// `column` labels (`Request.keepsLabels`); `nil` for any other read or without a column.
  func labelledGroups(by column: TraceFilter.Field?) -> GroupBreakdown? {
    guard summary != nil, let column, labels.count == truths.count else { return nil }
    return GroupBreakdown(labels: labels, truths: truths, by: column)
  }
}
