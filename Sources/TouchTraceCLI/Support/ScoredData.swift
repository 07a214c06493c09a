import TouchCore
import TouchEvaluation
import TouchPartials
import TouchRecognizers
import TouchReports
import TouchStudy
import TouchTuning

/// How a scoring command gets its `StudyData` (TouchStudy): read from its inputs batch by
/// batch (`ScoredStream`), or, during `touchtrace merge`, from the partials of a job array
/// (`MergedStudy`); with the command's messages, progress and errors.
enum ScoredData {
  /// The partials being merged, while `touchtrace merge` runs the command that wrote them.
  @TaskLocal static var merged: MergedStudy?
  /// The merged partials' latency lists, on disk (`MergedLists`), while `touchtrace merge` runs
  /// the command; ``merged``'s sweep then holds the sums only.
  @TaskLocal static var mergedLists: SpilledSweep?

  /// ``gather(_:plan:planOptions:progress:)`` for `command`, then ``check(_:command:shard:misfires:)``:
  /// a replay error is reported as the command's, the progress line finished first; with
  /// `finishing`, the progress line is finished before the check reports skipped traces too.
  static func gather(
    for command: String, _ request: ScoredStream.Request, plan: SweepPlan?, planOptions: PlanOptions?,
    progress: Progress? = nil, finishing: Bool = true, shard: ShardOptions, misfires: Bool = false
  ) throws -> StudyData {
    let data: StudyData
    do {
      data = try gather(request, plan: plan, planOptions: planOptions, progress: progress)
    } catch let error as ReplayError {
      progress?.finish()
      throw DataError.replay(error, command: command)
    }
    if finishing { progress?.finish() }
    try check(data, command: command, shard: shard, misfires: misfires)
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
  ) throws -> StudyData {
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
      return try StudyData(
        merged: merged, lists: mergedLists, plan: try makePlan(merged.maximumForces), request: request)
    }
    let stream = try ScoredStream.read(request, plan: makePlan, planFollowsData: follows, progress: progress)
    return StudyData(stream: stream, request: request)
  }

  /// `StudyData.replayAgain`:
  /// merging, of the inputs the shards read (checked by their SHA-256).
  static func replayAgain(
    _ recognizers: [AnyForceRecognizer], request: ScoredStream.Request, evaluation: Evaluation, for what: String,
    batchTraces: Int? = nil,
    onReplays: @escaping (_ traces: [Trace], _ truths: [TraceTruth], _ outcomes: [[TraceOutcome]]) -> Void
  ) throws {
    try StudyData.replayAgain(
      recognizers, request: request, evaluation: evaluation, for: what, batchTraces: batchTraces,
      mergedInputs: merged?.inputs, onReplays: onReplays)
  }

  /// Refuses partials (exit 65) whose state does not fit the command they record: `what` they
  /// hold instead.
  static func requireMerged(_ condition: Bool, _ what: String) throws {
    guard condition else { throw StudyData.mergedMismatch(what) }
  }

  /// Says why traces were skipped after loading (one line per reason), and stops when no trace
  /// is analyzed or none is a positive — unless this is one shard, whose traces are checked
  /// when merged.
  ///
  /// - Parameter misfires: whether data without positives is scored in misfire mode (`sweep`)
  ///   instead of stopping.
  static func check(_ data: StudyData, command: String, shard: ShardOptions, misfires: Bool = false) throws {
    data.stream?.reportSkips(command: command)
    guard shard.partial == nil else { return }
    let evaluation = data.evaluation
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
}

extension StudyData {
  /// Writes this shard's partial to `path` (through the outputs' checks: never over an input).
  func writePartial(_ path: String, command: String, shard: Shard, inputs: [String]) throws {
    guard let stream else { preconditionFailure("a partial is written by the command that read the traces") }
    try stream.writePartial(
      path, command: command, shard: shard, sweep: spilled, groups: groups, outcomes: partialOutcomes, inputs: inputs)
  }
}
