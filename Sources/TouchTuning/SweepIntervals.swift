public import TouchEvaluation
import TouchRecognizers
import TouchSignal

/// Percentile bootstrap intervals of F1 and the p50 and p90 latencies for some configurations of
/// a sweep (`touchtrace sweep --bootstrap N`: each recognizer's best), resampling the same
/// units (groups with a key, else traces) with the same draws for every configuration, as
/// ``Bootstrap`` does for `tune`.
public struct SweepIntervals: Sendable {
  /// The statistics estimated.
  public static let statistics: [TuningStatistic] = [.f1, .latencyP50, .latencyP90]

  /// The configurations (indices into the sweep's configurations).
  public let configurations: [Int]
  /// Per configuration (parallel to ``configurations``), one interval per statistic
  /// (``statistics`` order).
  public let intervals: [[ConfidenceInterval]]
  /// The resampling units.
  public let groups: TraceGroups
  /// The resamples and confidence.
  public let options: BootstrapOptions
  /// The seed of GSL's mt19937.
  public let seed: UInt64

  /// Replays `configurations` of `sweep` and bootstraps their statistics.
  ///
  /// - Parameters:
  ///   - sweep: the sweep.
  ///   - configurations: which configurations (indices).
  ///   - groupBy: the resampling unit's label; `nil`: each trace is a unit.
  ///   - options: resamples and confidence.
  ///   - seed: the generator's seed.
  ///   - threads: threads for the replays and the scoring of resamples.
  /// - Throws: `TuningError` when a trace lacks the `groupBy` label, a replay fails, or the
  ///   generator cannot be created.
  public init(
    sweep: SweepResult, configurations: [Int], groupBy: GroupKey?, options: BootstrapOptions, seed: UInt64, threads: Int
  ) throws(TuningError) {
    let evaluation = sweep.evaluation
    guard !evaluation.traces.isEmpty else { throw .noTraces }
    let groups = try TraceGroups(traces: evaluation.traces, key: groupBy)
    var lists: [[TraceOutcome]] = []
    for c in configurations {
      do throws(ReplayError) {
        lists.append(try sweep.outcomes(configuration: c, threads: threads))
      } catch {
        throw .replay(error)
      }
    }
    try self.init(
      configurations: configurations, outcomeLists: lists, truths: evaluation.truths, groups: groups,
      options: options, seed: seed, threads: threads)
  }

  /// Bootstraps the statistics of `configurations` from their per-trace outcomes, replayed
  /// elsewhere (a second read of a sweep that kept no trace).
  ///
  /// - Parameters:
  ///   - configurations: which configurations (indices).
  ///   - outcomeLists: per configuration, its outcome on every trace, in trace order (arrays, or
  ///     TouchEvaluation's `OutcomeColumn`s).
  ///   - truths: every trace's truth, in trace order.
  ///   - groups: the resampling units over those traces.
  ///   - options: resamples and confidence.
  ///   - seed: the generator's seed.
  ///   - threads: threads for the scoring of resamples.
  /// - Throws: `TuningError` when there is no trace or the generator cannot be created.
  public init<Outcomes: RandomAccessCollection<TraceOutcome> & Sendable>(
    configurations: [Int], outcomeLists: [Outcomes], truths: [TraceTruth], groups: TraceGroups,
    options: BootstrapOptions, seed: UInt64, threads: Int
  ) throws(TuningError) where Outcomes.Index == Int {
    guard !truths.isEmpty else { throw .noTraces }
    var random = try TuningError.randomSource(seed: seed)
    intervals =
      outcomeLists.isEmpty
      ? []
      : Bootstrap.intervals(
        of: Self.statistics, outcomeLists: outcomeLists, truths: truths, units: groups.members, options: options,
        random: &random, threads: threads)
    self.configurations = configurations
    self.groups = groups
    self.options = options
    self.seed = seed
  }

  /// Configuration `index`'s intervals; `nil` when it was not bootstrapped.
  public func intervals(ofConfiguration index: Int) -> [ConfidenceInterval]? {
    configurations.firstIndex(of: index).map { intervals[$0] }
  }
}
