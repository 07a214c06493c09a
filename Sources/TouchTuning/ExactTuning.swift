import TouchCore
public import TouchEvaluation
import TouchRecognizers
import TouchSignal

/// `tune --exact`: the exact optimum on all traces, and a cross-validation that chooses exactly
/// too. Each fold sweeps its training part over the same exact classes, merges them into the
/// training part's intervals, takes the middle of the widest optimal one (as on all traces) and
/// replays that value on the held-out part. The folds and the bootstrap's resamples are drawn as
/// `tune` draws them (same seed, same groups), so the grid and the exact tuning are compared on
/// the same splits.
public struct ExactTuning: Sendable {
  /// One fold of the exact cross-validation.
  public struct Fold: Sendable {
    /// The fold number, from 0.
    public var fold: Int
    /// Traces in the training part.
    public var trainingTraces: Int
    /// Traces held out.
    public var heldOutTraces: Int
    /// The value of each exact parameter chosen on the training part; `nil` when nothing meets
    /// the rule there.
    public var chosen: [Double]?
    /// The grid parameters' values of the chosen group (`name=value`), when some vary.
    public var fixed: [String]
    /// The optimal interval's objective on the training part.
    public var trainingValue: Double?
    /// The chosen interval (training part) of each exact parameter.
    public var interval: [ExactBounds]?
    /// The chosen value's metrics on the held-out part (a replay).
    public var heldOut: ConfigurationMetrics?
  }

  /// The exact sweep on all traces.
  public let exact: ExactSweep
  /// The options (rule, grouping, folds, bootstrap, seed).
  public let options: TuningOptions
  /// The groups (traces when not grouped).
  public let groups: TraceGroups
  /// The statistics of the folds and intervals.
  public let statistics: [TuningStatistic]
  /// The group of ``exact`` whose optimum is recommended (the best optimum over the grid
  /// parameters' settings; on a tie the wider recommended interval, then the first).
  public let chosenGroup: Int?
  /// The folds; empty without cross-validation.
  public let folds: [Fold]
  /// Held-out statistics over folds: mean ± sd (``statistics`` order).
  public let summaries: [StatisticSummary]
  /// Every fold's held-out outcomes scored together; `nil` without folds or when a fold chose
  /// nothing.
  public let pooled: ConfigurationMetrics?
  /// Bootstrap intervals of the recommended value's statistics (``statistics`` order) on all
  /// traces; `nil` without a bootstrap or a recommendation. Conditional on choosing on the same
  /// traces, as `tune`'s are.
  public let intervals: [ConfidenceInterval]?

  /// Tunes exactly.
  ///
  /// - Parameters:
  ///   - evaluation: every trace with its samples.
  ///   - plan: the exact plan (`ExactAxis.sweepAxis` axes last).
  ///   - axes: the exact axes.
  ///   - options: the rule, grouping, folds, bootstrap and seed.
  ///   - tolerance: the plateau tolerance, objective units.
  ///   - threads: worker threads for the sweeps and replays (the result does not depend on it).
  /// - Throws: ``TuningError``.
  public static func run(
    _ evaluation: Evaluation, plan: SweepPlan, axes: [ExactAxis], options: TuningOptions, tolerance: Double,
    threads: Int = 1
  ) throws(TuningError) -> ExactTuning {
    let n = evaluation.traces.count
    var random = try TuningError.randomSource(seed: options.seed)
    let (groups, assignment) = try FoldAssignment.setUp(evaluation.traces, options: options, random: &random)
    let rule = options.rule
    let all: SweepResult
    do throws(ReplayError) {
      all = try evaluation.sweep(plan, threads: threads)
    } catch {
      throw .replay(error)
    }
    let exact = ExactSweep(all, axes: axes, rule: rule, tolerance: tolerance)
    let chosenGroup = exact.bestGroup
    var statistics = TuningStatistic.standard
    if case .cost = rule.objective { statistics.append(rule.objective.statistic) }

    var folds: [Fold] = []
    var pooledOutcomes = [TraceOutcome?](repeating: nil, count: n)
    if let assignment {
      for fold in 0..<assignment.folds {
        let training = (0..<n).filter { assignment.foldOfTrace[$0] != fold }
        let heldOut = (0..<n).filter { assignment.foldOfTrace[$0] == fold }
        let part = subset(evaluation, training)
        let swept: SweepResult
        do throws(ReplayError) {
          swept = try part.sweep(plan, threads: threads)
        } catch {
          throw .replay(error)
        }
        let trained = ExactSweep(swept, axes: axes, rule: rule, tolerance: tolerance)
        var result = Fold(
          fold: fold, trainingTraces: training.count, heldOutTraces: heldOut.count, chosen: nil, fixed: [],
          trainingValue: nil, interval: nil, heldOut: nil)
        if let g = trained.bestGroup, let optimum = trained.groups[g].optimum {
          result.chosen = optimum.recommended
          result.fixed = trained.groups[g].fixed
          result.trainingValue = optimum.value
          result.interval = trained.groups[g].regions[optimum.recommendedRegion].bounds
          let configuration = plan.configurations[trained.groups[g].regions[optimum.recommendedRegion].configuration]
          let recognizer = recognizer(configuration, axes: axes, values: optimum.recommended)
          let held = subset(evaluation, heldOut)
          let outcomes: [TraceOutcome]
          do throws(ReplayError) {
            outcomes = try held.outcomes(of: recognizer, threads: threads)
          } catch {
            throw .replay(error)
          }
          result.heldOut = held.metrics(of: outcomes, shape: OutcomeShape(recognizer: recognizer))
          for (k, t) in heldOut.enumerated() {
            var outcome = outcomes[k]
            outcome.trace = t
            pooledOutcomes[t] = outcome
          }
        }
        folds.append(result)
      }
    }
    let summaries = statistics.map { statistic in
      StatisticSummary(statistic: statistic, values: folds.map { $0.heldOut.flatMap(statistic.value(of:)) })
    }
    let pooledList = pooledOutcomes.compactMap { $0 }
    let pooled =
      assignment != nil && pooledList.count == n
      ? ConfigurationMetrics(outcomes: pooledList, truths: evaluation.truths, shape: Tuning.stage1Shape) : nil

    var intervals: [ConfidenceInterval]?
    if let bootstrap = options.bootstrap, let g = chosenGroup, let optimum = exact.groups[g].optimum {
      let configuration = plan.configurations[exact.groups[g].regions[optimum.recommendedRegion].configuration]
      let recognizer = recognizer(configuration, axes: axes, values: optimum.recommended)
      let outcomes: [TraceOutcome]
      do throws(ReplayError) {
        outcomes = try evaluation.outcomes(of: recognizer, threads: threads)
      } catch {
        throw .replay(error)
      }
      intervals =
        Bootstrap.intervals(
          of: statistics, outcomeLists: [outcomes], truths: evaluation.truths, units: groups.members,
          options: bootstrap,
          random: &random, threads: threads)[0]
    }
    return ExactTuning(
      exact: exact, options: options, groups: groups, statistics: statistics, chosenGroup: chosenGroup, folds: folds,
      summaries: summaries, pooled: pooled, intervals: intervals)
  }

  /// `configuration` with the exact parameters set to `values`.
  /// (``ExactSweep`` recommends only values the recognizer accepts; the configuration itself,
  /// which lies in the same class, is the fallback.)
  static func recognizer(_ configuration: Configuration, axes: [ExactAxis], values: [Double]) -> AnyForceRecognizer {
    ExactSweep.recognizer(configuration, parameters: axes.map(\.parameter), values: values) ?? configuration.recognizer
  }

  /// The evaluation of the traces at `indices` only (their truths kept).
  static func subset(_ evaluation: Evaluation, _ indices: [Int]) -> Evaluation {
    let dataset = evaluation.dataset
    let part = Dataset(traces: indices.map { dataset.traces[$0] }, origins: indices.map { dataset.origins[$0] })
    return Evaluation(dataset: part, truths: indices.map { evaluation.truths[$0] }, options: evaluation.options)
  }
}
