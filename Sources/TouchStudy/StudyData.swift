public import TouchCore
public import TouchEvaluation
public import TouchPartials

/// A study's traces and scoring state, wherever they come from: read from its inputs batch by
/// batch (``ScoredStream``), or merged from the partials of a job array (`MergedStudy`).
///
/// What a report is made of: the evaluation (the traces' accounting and truths, or their
/// summary), each configuration's sums and latency lists, per-group partials and per-trace
/// outcomes, as the request asked.
public struct StudyData {
  /// The traces' accounting and truths (or, for a request that keeps only a summary, that
  /// summary).
  public var evaluation: Evaluation
  /// The plan scored (`nil` for a read that replays its configurations itself, as `compare`'s).
  public var plan: SweepPlan?
  /// The merged sweep partial, when its latency lists are in memory.
  public var sweep: SweepPartial?
  /// Each configuration's sums with its latency lists on disk: the stream's, or those a merge
  /// moved there.
  public var spilled: SpilledSweep?
  /// The per-group partials (`ScoredStream.Request.by`).
  public var groups: GroupPartials?
  /// The per-trace outcomes kept in memory (`ScoredStream.Request.outcomes`), one column per
  /// slot.
  public var outcomes: [OutcomeColumn]
  /// Every configuration's per-trace outcomes, read one configuration at a time
  /// (`ScoredStream.Outcomes.allOnDisk`): from the stream's spill, or merged from the partials'.
  public var outcomeColumns: OutcomeColumns?
  /// The stream, when the traces were read here (for writing a partial, and what loading said).
  public var stream: ScoredStream?

  /// What `stream`, read for `request`, holds.
  public init(stream: ScoredStream, request: ScoredStream.Request) {
    evaluation =
      if let summary = stream.summary {
        Evaluation(summary: summary.summary, dataset: stream.dataset(), options: request.options)
      } else {
        // Truths kept without their traces (`keepsTruths`) stay in the stream.
        Evaluation(
          dataset: stream.dataset(), truths: request.keepsTraces ? stream.truths : [], options: request.options)
      }
    plan = stream.plan
    sweep = nil
    spilled = stream.sweep
    groups = stream.groups
    outcomes = stream.outcomes
    outcomeColumns = stream.outcomeSpill.map(OutcomeColumns.init)
    self.stream = stream
  }

  /// What the partials `merged` hold, as the command they record reads it: `request` and `plan`
  /// (made from the merged maximum forces) are the command's.
  ///
  /// - Parameters:
  ///   - merged: the partials, each checked when read.
  ///   - lists: the merged latency lists on disk, with the sums (`nil`: they are in `merged`).
  ///   - plan: the command's plan.
  ///   - request: the command's request (what it keeps, its outcomes).
  /// - Throws: ``StudyError`` (``mergedMismatch(_:)``) when what the partials hold does not fit
  ///   the command; `PartialError` when a merged outcome column cannot be read.
  public init(merged: MergedStudy, lists: SpilledSweep?, plan: SweepPlan?, request: ScoredStream.Request) throws {
    let n = merged.dataset.traces.count
    try Self.require(!request.truths || merged.truths.count == n, "traces without ground truth")
    try Self.require(!request.sweep || plan == nil || merged.sweep != nil, "no scoring state")
    if let plan, let sweep = merged.sweep {
      try Self.require(sweep.configurations.count == plan.configurations.count, "another number of configurations")
      try Self.require(
        zip(sweep.configurations, plan.configurations).allSatisfy { $0.shape == $1.shape }, "other configurations")
    }
    if let groups = merged.groups {
      try Self.require(groups.configurations.count == plan?.configurations.count, "another number of configurations")
    }
    // One outcome per trace of each partial's, merged one per trace (MergedStudy checks it).
    try Self.require(
      merged.outcomes.count == 0 || merged.truths.count == n, "per-trace outcomes that are not one per trace")
    // The lists on disk (merge moved them there as it read the partials), with the sums.
    let lists = merged.sweep == nil ? nil : lists
    evaluation = Evaluation(dataset: merged.dataset, truths: merged.truths, options: request.options)
    self.plan = plan
    sweep = lists == nil ? merged.sweep : nil
    spilled = lists
    groups = merged.groups
    // Every configuration's (tune) merged when read, one at a time; a comparison's two here.
    let onDisk = if case .allOnDisk = request.outcomes { true } else { false }
    outcomes = onDisk ? [] : try merged.outcomes.all()
    outcomeColumns = onDisk ? merged.outcomes : nil
    stream = nil
  }

  /// The error for partials whose state does not fit the command they record: `what` they hold
  /// instead (the command line's exit 65).
  public static func mergedMismatch(_ what: String) -> StudyError {
    StudyError(
      description: "touchtrace merge: error: the partials hold \(what) than their command needs; run the shards again")
  }

  private static func require(_ condition: Bool, _ what: String) throws(StudyError) {
    guard condition else { throw mergedMismatch(what) }
  }

  /// The sweep's result: every configuration's metrics, its latency lists read back one
  /// configuration at a time (on `threads` threads).
  ///
  /// - Precondition: the data has a plan and scoring state (`ScoredStream.Request.sweep`).
  public func sweepResult(threads: Int) throws -> SweepResult {
    guard let plan else { preconditionFailure("a sweep's result needs the plan it scored") }
    if let spilled {
      return SweepResult(
        evaluation: evaluation, plan: plan, metrics: try spilled.metrics(threads: threads), methods: spilled.methods)
    }
    guard let sweep else { preconditionFailure("a sweep's result needs its scoring state") }
    return SweepResult(evaluation: evaluation, plan: plan, partial: sweep, threads: threads)
  }

  /// The per-group metrics of every configuration (`--by`), in the breakdown's group order;
  /// `nil` without a column or per-group partials.
  public func groupedMetrics(by field: TraceFilter.Field?) -> GroupedMetrics? {
    guard let field, let groups, let plan else { return nil }
    let breakdown = GroupBreakdown(evaluation, by: field)
    let metrics = groups.configurations.enumerated().map { c, list in
      breakdown.names.map { name in
        list.first { $0.name == name }?.partial.finish()
          ?? ConfigurationPartial(shape: plan.configurations[c].shape).finish()
      }
    }
    return GroupedMetrics(breakdown: breakdown, configurations: Array(metrics.indices), metrics: metrics)
  }

  /// Whether this read (which kept its traces' names' hashes) gave the traces `evaluation`
  /// analyzed, in the same order.
  public func readsSameTraces(as evaluation: Evaluation) -> Bool {
    let names = stream?.nameDigests ?? []
    return names.count == evaluation.analyzedCount
      && EvaluationSummary.namesDigest(ofNameHashes: names) == evaluation.summary.namesDigest
  }

  /// Every configuration's per-trace outcomes as a partial writes them: from disk, or from the
  /// columns kept.
  public var partialOutcomes: OutcomeColumns { outcomeColumns ?? OutcomeColumns(outcomes) }
}
