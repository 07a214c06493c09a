public import TouchEvaluation
import TouchRecognizers
import TouchSignal

/// What `touchtrace tune` does besides sweeping: the rule, the grouping, the cross-validation,
/// the bootstrap and the seed.
public struct TuningOptions: Sendable, Hashable {
  /// The objective, bounds and tie rule.
  public var rule: OperatingPointRule
  /// The label that groups traces for cross-validation and the bootstrap; `nil`: every trace is
  /// its own group.
  public var groupBy: GroupKey?
  /// The number of cross-validation folds: 0 for none, else ≥ 2.
  public var folds: Int
  /// The bootstrap; `nil` for none.
  public var bootstrap: BootstrapOptions?
  /// The seed of the one MT19937 stream that shuffles groups into folds and then draws the
  /// bootstrap resamples.
  public var seed: UInt64

  /// Creates options.
  /// - Precondition: `folds` is 0 or ≥ 2.
  public init(
    rule: OperatingPointRule, groupBy: GroupKey? = nil, folds: Int = 5,
    bootstrap: BootstrapOptions? = BootstrapOptions(),
    seed: UInt64 = 1
  ) {
    precondition(folds == 0 || folds >= 2, "folds must be 0 (no cross-validation) or at least 2, got \(folds)")
    self.rule = rule
    self.groupBy = groupBy
    self.folds = folds
    self.bootstrap = bootstrap
    self.seed = seed
  }
}

/// One fold of a cross-validation: the operating point chosen on the other folds (the training
/// part) and how it did on this one (the held-out part).
public struct FoldResult: Sendable {
  /// The fold number, from 0.
  public let fold: Int
  /// The held-out groups (indices into ``TraceGroups/names``).
  public let groups: [Int]
  /// Traces in the training part.
  public let trainingTraces: Int
  /// Traces in the held-out part.
  public let heldOutTraces: Int
  /// The configuration chosen on the training part; `nil` when none is eligible there.
  public let chosen: Int?
  /// Why nothing was chosen; `nil` when something was.
  public let noChoiceReason: String?
  /// The chosen configuration's metrics on the training part.
  public let training: ConfigurationMetrics?
  /// The chosen configuration's metrics on the held-out part.
  public let heldOut: ConfigurationMetrics?
  /// The rule's bounds the chosen configuration breaks on the held-out part (empty: it meets
  /// them all); `nil` when nothing was chosen.
  public let heldOutViolations: [String]?
}

/// The mean and standard deviation of a statistic over folds.
public struct StatisticSummary: Sendable, Hashable {
  /// The statistic.
  public var statistic: TuningStatistic
  /// The folds where it is defined (those that chose a configuration and whose held-out part
  /// defines it).
  public var count: Int
  /// The mean over those folds; `nil` when there are none.
  public var mean: Double?
  /// The standard deviation over those folds (divisor n − 1); `nil` below two.
  public var standardDeviation: Double?

  /// Summarizes values (one per fold; `nil` where undefined).
  public init(statistic: TuningStatistic, values: [Double?]) {
    let d = Distribution(values.compactMap { $0 })
    self.statistic = statistic
    count = d.count
    mean = d.mean
    standardDeviation = d.standardDeviation
  }
}

/// Grouped K-fold cross-validation of the tuning procedure.
public struct CrossValidation: Sendable {
  /// The folds each group belongs to.
  public let assignment: FoldAssignment
  /// The folds, in order.
  public let folds: [FoldResult]
  /// Held-out statistics over folds: mean ± sd (``TuningResult/statistics`` order).
  public let summaries: [StatisticSummary]
  /// Every fold's held-out outcomes (each scored by the configuration chosen without it),
  /// scored together (stage 1) — sed_eval's advice: evaluate folds together, not only averaged.
  /// `nil` when no fold chose a configuration.
  public let pooled: ConfigurationMetrics?
  /// The traces in ``pooled`` (all analyzed traces when every fold chose a configuration).
  public let pooledTraces: Int
  /// Bootstrap intervals of the pooled held-out statistics (``TuningResult/statistics`` order),
  /// drawn with the same resamples as ``TuningResult/intervals``; `nil` without a bootstrap, when
  /// a fold chose nothing, or when nothing was chosen on all traces.
  public let pooledIntervals: [ConfidenceInterval]?
}

/// The outcome of tuning: every configuration scored, the chosen operating point, Pareto fronts,
/// the cross-validation and the bootstrap.
public struct TuningResult: Sendable {
  /// The sweep (plan, per-configuration metrics on all traces, methods).
  public let sweep: SweepResult
  /// The options.
  public let options: TuningOptions
  /// The groups (traces when not grouped).
  public let groups: TraceGroups
  /// The statistics reported for folds and intervals: F1, precision, recall, FPR, p50 and p90
  /// latency, and the cost per trace for the cost objective.
  public let statistics: [TuningStatistic]
  /// Each configuration's score on all traces (plan order).
  public let scores: [OperatingPointScore]
  /// The configuration chosen on all traces; `nil` when none is eligible.
  public let chosen: Int?
  /// Why nothing was chosen; `nil` when something was.
  public let noChoiceReason: String?
  /// The Pareto front of F1 against p90 latency over all configurations.
  public let paretoFront: [ParetoPoint]
  /// The Pareto front of each recognizer's configurations, in plan order.
  public let paretoFronts: [(recognizer: RecognizerSpec, points: [ParetoPoint])]
  /// The cross-validation; `nil` when `folds` is 0.
  public let crossValidation: CrossValidation?
  /// Bootstrap intervals of the chosen configuration's statistics (``statistics`` order);
  /// `nil` without a bootstrap or a chosen configuration. They are conditional on the choice
  /// made on the same traces, so optimistic; the cross-validation's held-out numbers are the
  /// honest estimate.
  public let intervals: [ConfidenceInterval]?

  /// The metrics of configuration `c` on all traces.
  public func metrics(_ c: Int) -> ConfigurationMetrics { sweep.metrics[c] }
}

/// Tuning: choose an operating point from one sweep, check it by grouped cross-validation,
/// and put bootstrap intervals on it.
///
/// One sweep over all traces gives every configuration's per-trace outcomes; the training and
/// held-out parts of each fold and every bootstrap resample are scored from those outcomes
/// (TouchEvaluation's `ConfigurationMetrics(outcomes:truths:shape:)`, the sweep's own
/// accumulator) — no trace is replayed twice. See the TuningMethods article for the definitions.
public enum Tuning {
  /// A shape that scores only stage 1 (what tuning statistics read), for outcome lists that mix
  /// configurations.
  static let stage1Shape = OutcomeShape(twoStage: false, reportsFlaps: false, isComposition: false)

  /// Tunes `plan` on `evaluation`'s traces.
  ///
  /// - Parameters:
  ///   - evaluation: the labelled traces (every one must have the grouping label).
  ///   - plan: the configurations to choose from.
  ///   - options: rule, grouping, folds, bootstrap, seed.
  ///   - threads: threads for the sweep, the fold scoring and the bootstrap; the result does
  ///     not depend on it.
  ///   - scored: the sweep already done — its result and each configuration's per-trace outcomes
  ///     in trace order (merged shards, or traces swept as they were read) — instead of sweeping
  ///     `evaluation`'s traces, which may then hold metadata only.
  ///   - progress: called with configurations done and the total during the sweep.
  /// - Throws: ``TuningError`` — no trace, a missing group label, fewer groups than folds, a
  ///   trace a configuration cannot replay, a GSL failure.
  public static func run(
    _ evaluation: Evaluation, plan: SweepPlan, options: TuningOptions, threads: Int = 1,
    scored: (result: SweepResult, outcomes: [OutcomeColumn])? = nil,
    progress: ((Int, Int) -> Void)? = nil
  ) throws(TuningError) -> TuningResult {
    var tuning = try Incremental(evaluation, plan: plan, options: options, threads: threads)
    let sweep: SweepResult
    if let scored {
      precondition(scored.outcomes.count == plan.configurations.count, "one outcome list per configuration")
      for c in plan.configurations.indices { tuning.add(scored.outcomes[c], of: c) }
      sweep = scored.result
    } else {
      do throws(ReplayError) {
        sweep = try evaluation.sweep(plan, threads: threads, progress: progress) { tuning.add($1, of: $0) }
      } catch {
        throw .replay(error)
      }
    }
    return tuning.finish(sweep: sweep)
  }

  /// Tuning fed one configuration's per-trace outcomes at a time — for outcomes read back from
  /// disk one configuration at a time, so that memory holds one configuration's and the chosen
  /// ones', not every configuration's. ``Tuning/run(_:plan:options:threads:scored:progress:)``
  /// is this fed by a sweep.
  ///
  /// ```swift
  /// var tuning = try Tuning.Incremental(evaluation, plan: plan, options: options)
  /// for c in plan.configurations.indices { tuning.add(try spill.column(c), of: c) }
  /// let result = tuning.finish(sweep: sweepResult)
  /// ```
  public struct Incremental {
    /// The generator: the folds are dealt from it first, the bootstrap draws from it last.
    private final class Random {
      var source: RandomSource
      init(_ source: consuming RandomSource) { self.source = source }
    }

    private let truths: [TraceTruth]
    private let plan: SweepPlan
    private let options: TuningOptions
    private let threads: Int
    private let random: Random
    private let groups: TraceGroups
    private let assignment: FoldAssignment?
    private var choices: RunningChoices

    /// Deals the groups of `evaluation`'s traces into folds, before any outcome.
    ///
    /// - Parameters:
    ///   - evaluation: the labelled traces (every one must have the grouping label); their
    ///     samples are not read.
    ///   - plan: the configurations to choose from.
    ///   - options: rule, grouping, folds, bootstrap, seed.
    ///   - threads: threads for the fold scoring and the bootstrap; the result does not depend
    ///     on it.
    /// - Throws: ``TuningError`` — no trace, a missing group label, fewer groups than folds, a
    ///   GSL failure.
    public init(_ evaluation: Evaluation, plan: SweepPlan, options: TuningOptions, threads: Int = 1)
      throws(TuningError)
    {
      guard !evaluation.traces.isEmpty else { throw .noTraces }
      try self.init(
        truths: evaluation.truths, groups: try TraceGroups(traces: evaluation.traces, key: options.groupBy), plan: plan,
        options: options, threads: threads)
    }

    /// Deals `groups` into folds, before any outcome: for traces known by their truths and
    /// resampling units alone (a read that kept no trace's metadata).
    ///
    /// - Parameters:
    ///   - truths: every trace's truth, in trace order.
    ///   - groups: the traces' groups by `options.groupBy` (``TraceGroups/init(labels:key:)``,
    ///     or ``TraceGroups/init(names:)`` without a grouping label).
    ///   - plan: the configurations to choose from.
    ///   - options: rule, grouping, folds, bootstrap, seed.
    ///   - threads: threads for the fold scoring and the bootstrap; the result does not depend
    ///     on it.
    /// - Throws: ``TuningError`` — no trace, fewer groups than folds, a GSL failure.
    public init(truths: [TraceTruth], groups: TraceGroups, plan: SweepPlan, options: TuningOptions, threads: Int = 1)
      throws(TuningError)
    {
      guard !truths.isEmpty else { throw .noTraces }
      var source = try TuningError.randomSource(seed: options.seed)
      assignment =
        options.folds >= 2 ? try FoldAssignment(groups: groups, folds: options.folds, random: &source) : nil
      self.groups = groups
      random = Random(source)
      choices = RunningChoices(truths: truths, plan: plan, rule: options.rule, assignment: assignment, threads: threads)
      self.truths = truths
      self.plan = plan
      self.options = options
      self.threads = threads
    }

    /// Scores configuration `configuration`'s outcomes on all traces and on each fold's
    /// training part, keeping it where it is the best so far.
    ///
    /// - Precondition: one outcome per trace, in trace order; each configuration once.
    public mutating func add(_ outcomes: OutcomeColumn, of configuration: Int) {
      choices.add(configuration, Array(outcomes), column: outcomes)
    }

    /// ``add(_:of:)`` of a list in any order.
    mutating func add(_ outcomes: [TraceOutcome], of configuration: Int) {
      choices.add(configuration, outcomes, column: nil)
    }

    /// The result, once every configuration's outcomes were added: the choice, the Pareto
    /// fronts, the cross-validation and the bootstrap.
    ///
    /// - Parameter sweep: the sweep the outcomes came from (every configuration's metrics).
    /// - Precondition: every configuration of the plan was added.
    public func finish(sweep: SweepResult) -> TuningResult {
      precondition(choices.full.allSatisfy { $0 != nil }, "every configuration's outcomes were added")
      let rule = options.rule
      let metrics = choices.full.map { $0! }
      let scores = metrics.enumerated().map { rule.score($1, configuration: $0) }
      let chosen = rule.best(of: scores)?.configuration
      precondition(chosen == choices.overall?.score.configuration, "the running choice matches the final one")
      let (paretoFront, paretoFronts) = Tuning.paretoFronts(metrics, plan: plan)

      var statistics = TuningStatistic.standard
      if case .cost = rule.objective { statistics.append(rule.objective.statistic) }
      let validated = assignment.map { Tuning.crossValidation($0, choices: choices, statistics: statistics) }

      // Bootstrap of the chosen configuration (and of the pooled held-out outcomes, same draws).
      let intervals = Tuning.bootstrap(
        options.bootstrap, of: statistics, chosen: choices.overall?.outcomes, pooled: validated?.pooledOutcomes,
        truths: truths, units: groups.members, random: &random.source, threads: threads)
      var crossValidation = validated?.crossValidation
      if let cv = crossValidation, let intervals, intervals.count == 2 {
        crossValidation = CrossValidation(
          assignment: cv.assignment, folds: cv.folds, summaries: cv.summaries, pooled: cv.pooled,
          pooledTraces: cv.pooledTraces,
          pooledIntervals: intervals[1])
      }
      return TuningResult(
        sweep: sweep, options: options, groups: groups, statistics: statistics, scores: scores, chosen: chosen,
        noChoiceReason: chosen == nil ? rule.explainNoChoice(metrics) : nil, paretoFront: paretoFront,
        paretoFronts: paretoFronts, crossValidation: crossValidation, intervals: intervals?[0])
    }
  }

  /// Bootstrap intervals of the chosen configuration's statistics and then, when given, of the
  /// pooled held-out outcomes (the same draws); `nil` without a bootstrap or a chosen configuration.
  private static func bootstrap(
    _ bootstrap: BootstrapOptions?, of statistics: [TuningStatistic], chosen: OutcomeColumn?,
    pooled: OutcomeColumn?, truths: [TraceTruth], units: [[Int]], random: inout RandomSource, threads: Int
  ) -> [[ConfidenceInterval]]? {
    guard let bootstrap, let chosen else { return nil }
    var lists = [chosen]
    if let pooled { lists.append(pooled) }
    return Bootstrap.intervals(
      of: statistics, outcomeLists: lists, truths: truths, units: units, options: bootstrap, random: &random,
      threads: threads)
  }

  /// The Pareto fronts of F1 against p90 |latency| on all traces: over every configuration, and
  /// over each recognizer's configurations (plan order).
  private static func paretoFronts(_ metrics: [ConfigurationMetrics], plan: SweepPlan) -> (
    overall: [ParetoPoint], byRecognizer: [(recognizer: RecognizerSpec, points: [ParetoPoint])]
  ) {
    let configurations = plan.configurations
    func front(_ indices: some Sequence<Int>) -> [ParetoPoint] {
      ParetoFront.front(
        of: indices.map {
          (configuration: $0, f1: metrics[$0].stage1.f1, absoluteLatencyP90: metrics[$0].stage1.latency.absoluteP90)
        })
    }
    let overall = front(configurations.indices)
    let byRecognizer = plan.recognizers.map { spec in
      (recognizer: spec, points: front(configurations.indices.filter { configurations[$0].spec == spec }))
    }
    return (overall, byRecognizer)
  }

  /// The cross-validation (without pooled intervals) from the folds' choices, and the pooled
  /// held-out outcomes in trace order when every fold chose a configuration (`nil` otherwise).
  private static func crossValidation(
    _ assignment: FoldAssignment, choices: RunningChoices, statistics: [TuningStatistic]
  ) -> (crossValidation: CrossValidation, pooledOutcomes: OutcomeColumn?) {
    let folds = Self.foldResults(assignment, choices: choices)
    // Pooled: each trace's outcome under the configuration its fold chose, in trace order.
    var byTrace = [TraceOutcome?](repeating: nil, count: choices.traceCount)
    for fold in 0..<assignment.folds {
      guard let candidate = choices.perFold[fold] else { continue }
      for t in choices.heldOutTraces[fold] { byTrace[t] = candidate.outcomes[t] }
    }
    let pooled = byTrace.compactMap { $0 }
    let summaries = statistics.map { statistic in
      StatisticSummary(statistic: statistic, values: folds.map { $0.heldOut.flatMap(statistic.value(of:)) })
    }
    let pooledMetrics =
      pooled.isEmpty ? nil : ConfigurationMetrics(outcomes: pooled, truths: choices.truths, shape: stage1Shape)
    let crossValidation = CrossValidation(
      assignment: assignment, folds: folds, summaries: summaries, pooled: pooledMetrics, pooledTraces: pooled.count,
      pooledIntervals: nil)
    return (crossValidation, pooled.count == choices.traceCount ? OutcomeColumn(pooled) : nil)
  }

  /// Each fold's result: the configuration chosen on its training part (or why none was), its
  /// metrics there and on the held-out part, and the rule's bounds it breaks there.
  private static func foldResults(_ assignment: FoldAssignment, choices: RunningChoices) -> [FoldResult] {
    let rule = choices.rule
    let n = choices.traceCount
    let counts = assignment.traceCounts
    return (0..<assignment.folds).map { fold in
      let candidate = choices.perFold[fold]
      let heldOutMetrics = candidate?.heldOut
      return FoldResult(
        fold: fold, groups: assignment.groups(inFold: fold), trainingTraces: n - counts[fold],
        heldOutTraces: counts[fold],
        chosen: candidate?.score.configuration,
        noChoiceReason: candidate == nil
          ? rule.explainNoChoice(choices.reachPerFold[fold]) + " (on the training part)" : nil,
        training: candidate?.training, heldOut: heldOutMetrics,
        heldOutViolations: heldOutMetrics.map { rule.constraints.violations(of: $0.stage1) })
    }
  }

  /// Outcomes placed at their trace's index.
  static func inTraceOrder(_ outcomes: [TraceOutcome], count: Int) -> [TraceOutcome] {
    if outcomes.count == count && outcomes.indices.allSatisfy({ outcomes[$0].trace == $0 }) { return outcomes }
    var placed = [TraceOutcome?](repeating: nil, count: count)
    for outcome in outcomes { placed[outcome.trace] = outcome }
    return placed.map { $0! }
  }
}

/// The best configuration so far on all traces and on each fold's training part (with its
/// held-out metrics), kept up to date as the sweep hands over each configuration's outcomes.
private struct RunningChoices {
  /// A configuration chosen so far.
  struct Candidate {
    /// Its score (on all traces, or on the fold's training part).
    var score: OperatingPointScore
    /// Its per-trace outcomes, in trace order.
    var outcomes: OutcomeColumn
    /// A fold's: its metrics on the training part.
    var training: ConfigurationMetrics?
    /// A fold's: its metrics on the held-out part.
    var heldOut: ConfigurationMetrics?
  }

  /// The objective, bounds and tie rule.
  let rule: OperatingPointRule
  /// The traces' ground truth.
  let truths: [TraceTruth]
  /// The plan's configurations.
  let configurations: [Configuration]
  /// Threads that score the parts.
  let threads: Int
  /// The number of traces.
  let traceCount: Int
  /// Trace indices of each fold's training and held-out parts (a part is scored through a view
  /// of the outcomes at these indices).
  let trainingTraces: [[Int]]
  /// See ``trainingTraces``.
  let heldOutTraces: [[Int]]
  /// Each configuration's metrics on all traces (`nil` before its outcomes came).
  var full: [ConfigurationMetrics?]
  /// The best configuration on all traces so far.
  var overall: Candidate?
  /// The best configuration on each fold's training part so far.
  var perFold: [Candidate?]
  /// What each fold's training part reached, to explain why nothing was chosen there.
  var reachPerFold: [RuleReach]

  /// No choice yet, for `plan` on the traces of `truths` (`assignment`: the folds, `nil` for none).
  init(
    truths: [TraceTruth], plan: SweepPlan, rule: OperatingPointRule, assignment: FoldAssignment?, threads: Int
  ) {
    let n = truths.count
    let k = assignment?.folds ?? 0
    let foldOfTrace = assignment?.foldOfTrace ?? []
    self.rule = rule
    self.truths = truths
    configurations = plan.configurations
    self.threads = threads
    traceCount = n
    full = [ConfigurationMetrics?](repeating: nil, count: configurations.count)
    perFold = [Candidate?](repeating: nil, count: k)
    reachPerFold = [RuleReach](repeating: RuleReach(), count: k)
    heldOutTraces = (0..<k).map { fold in (0..<n).filter { foldOfTrace[$0] == fold } }
    trainingTraces = (0..<k).map { fold in (0..<n).filter { foldOfTrace[$0] != fold } }
  }

  /// Scores configuration `c`'s outcomes `list` (any order) on all traces and on each fold's
  /// training part, and keeps it where it is the best so far (as `column` when given: the same
  /// outcomes, kept already).
  mutating func add(_ c: Int, _ list: [TraceOutcome], column: OutcomeColumn?) {
    let outcomes = Tuning.inTraceOrder(list, count: traceCount)
    var kept = column
    func keep() -> OutcomeColumn {
      if kept == nil { kept = OutcomeColumn(outcomes) }
      return kept!
    }
    let shape = configurations[c].shape
    let (truths, trainingTraces) = (truths, trainingTraces)
    // Task 0: all traces; 1…K: the training part of fold t − 1.
    let metrics = Parallel.map(items: 1 + perFold.count, threads: threads) { t -> ConfigurationMetrics in
      if t == 0 { return ConfigurationMetrics(outcomes: outcomes, truths: truths, shape: shape) }
      // A view, not a copy: two folds' copies at once were 46 MB on 240 000 traces.
      return ConfigurationMetrics(
        outcomes: trainingTraces[t - 1].lazy.map { outcomes[$0] }, truths: truths, shape: shape)
    }
    full[c] = metrics[0]
    let score = rule.score(metrics[0], configuration: c)
    if score.isEligible, overall.map({ rule.prefers(score, over: $0.score) }) ?? true {
      overall = Candidate(score: score, outcomes: keep())
    }
    for fold in 0..<perFold.count {
      reachPerFold[fold].add(metrics[1 + fold], objective: rule.objective)
      let s = rule.score(metrics[1 + fold], configuration: c)
      if s.isEligible, perFold[fold].map({ rule.prefers(s, over: $0.score) }) ?? true {
        // The held-out part is scored only for the fold's best configuration so far.
        let heldOut = ConfigurationMetrics(
          outcomes: heldOutTraces[fold].lazy.map { outcomes[$0] }, truths: truths, shape: shape)
        perFold[fold] = Candidate(score: s, outcomes: keep(), training: metrics[1 + fold], heldOut: heldOut)
      }
    }
  }
}
