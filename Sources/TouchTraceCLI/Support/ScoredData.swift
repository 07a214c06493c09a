import TouchCore
import TouchEvaluation
import TouchPartials
import TouchRecognizers
import TouchReports

/// A scoring command's traces and scoring state, wherever they come from: read from its inputs
/// batch by batch (``ScoredStream``), or merged from the partials of a job array
/// (``MergedStudy``, during `touchtrace merge`).
struct ScoredData {
  /// The partials being merged, while `touchtrace merge` runs the command that wrote them.
  @TaskLocal static var merged: MergedStudy?

  var evaluation: Evaluation
  /// The plan scored (`nil` for compare, which replays its two configurations itself).
  var plan: SweepPlan!
  var sweep: SweepPartial?
  var groups: GroupPartials?
  var outcomes: [[TraceOutcome]]
  /// The stream, when read here (for writing a partial).
  var stream: ScoredStream?

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
      return follows ? try planOptions.makePlan(maximumForces: forces) : plan
    }
    if let merged {
      let evaluation = Evaluation(dataset: merged.dataset, truths: merged.truths, options: request.options)
      return ScoredData(
        evaluation: evaluation, plan: try makePlan(merged.maximumForces), sweep: merged.sweep, groups: merged.groups,
        outcomes: merged.outcomes, stream: nil)
    }
    let stream = try ScoredStream.run(request, plan: makePlan, planFollowsData: follows, progress: progress)
    let evaluation = Evaluation(
      dataset: stream.dataset(withSamples: request.keepSamples), truths: stream.kept.map { $0.truth! }, options: request.options)
    return ScoredData(
      evaluation: evaluation, plan: stream.plan, sweep: stream.sweep, groups: stream.groups, outcomes: stream.outcomes,
      stream: stream)
  }

  /// Says why traces were skipped after loading (one line per reason), and stops when no trace
  /// is analyzed or none is a positive — unless this is one shard, whose traces are checked
  /// when merged.
  func check(command: String, shard: ShardOptions) throws {
    stream?.reportSkips(command: command)
    if shard.partial == nil { try ScoringRules.requireScorable(evaluation, command: command) }
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
    try stream.writePartial(path, command: command, shard: shard, sweep: sweep, groups: groups, outcomes: outcomes, inputs: inputs)
  }
}
