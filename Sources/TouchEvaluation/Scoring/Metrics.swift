public import TouchCore
import TouchSignal

/// The distribution of a set of latencies, seconds. Empty sets give `nil` statistics (reports
/// write `null`), never 0 or NaN.
///
/// Quantiles interpolate linearly between order statistics (R type 7, NumPy's default), computed
/// by `gsl_stats_quantile_from_sorted_data` through TouchSignal's `Distribution`; the mean and
/// the standard deviation (divisor n − 1) by `gsl_stats_mean` and `gsl_stats_sd` over the
/// sorted values.
public struct LatencySummary: Sendable, Hashable {
  /// The number of values.
  public var count: Int
  /// The mean; `nil` when empty.
  public var mean: Double?
  /// The sample standard deviation; `nil` with fewer than two values.
  public var standardDeviation: Double?
  /// The smallest value; `nil` when empty.
  public var minimum: Double?
  /// The median; `nil` when empty.
  public var p50: Double?
  /// The 90th percentile; `nil` when empty.
  public var p90: Double?
  /// The 95th percentile; `nil` when empty.
  public var p95: Double?
  /// The 99th percentile; `nil` when empty.
  public var p99: Double?
  /// The largest value; `nil` when empty.
  public var maximum: Double?
  /// How many values are negative (early actions, before the reference).
  public var early: Int

  /// Summarizes `values` (any order).
  /// - Precondition: no value is NaN.
  public init(_ values: [Double]) {
    let d = Distribution(values)
    count = d.count
    mean = d.mean
    standardDeviation = d.standardDeviation
    minimum = d.min
    p50 = d.quantile(0.5)
    p90 = d.quantile(0.9)
    p95 = d.quantile(0.95)
    p99 = d.quantile(0.99)
    maximum = d.max
    early = d.sorted.prefix { $0 < 0 }.count
  }
}

/// A count per intent, in `Intent.allCases` order.
public struct IntentCounts: Sendable, Hashable {
  /// The counts, indexed like `Intent.allCases`.
  public private(set) var counts: [Int]

  /// All zero.
  public init() { counts = [Int](repeating: 0, count: Intent.allCases.count) }

  /// The count for `intent`.
  public subscript(intent: Intent) -> Int {
    get { counts[Self.index(intent)] }
    set { counts[Self.index(intent)] = newValue }
  }

  /// The sum over intents.
  public var total: Int { counts.reduce(0, +) }

  private static func index(_ intent: Intent) -> Int {
    switch intent {
    case .tap: 0
    case .press: 1
    case .pop: 2
    case .hold: 3
    case .drag: 4
    case .none: 5
    }
  }
}

/// Counts and rates of one stage over a set of traces. See the Metrics article for the exact
/// definitions.
public struct StageMetrics: Sendable, Hashable {
  /// Matched actions on positive traces.
  public var truePositives = 0
  /// Unmatched actions on positive traces plus negative traces with any action.
  public var falsePositives = 0
  /// Unmatched references on positive traces.
  public var falseNegatives = 0
  /// Negative traces without any action.
  public var trueNegatives = 0
  /// Positive traces.
  public var positiveTraces = 0
  /// Negative traces.
  public var negativeTraces = 0
  /// Negative traces with at least one action (the false-positive part counted per trace).
  public var falsePositiveTraces = 0
  /// Reference times over positive traces (= TP + FN).
  public var references = 0
  /// Events of this stage over all traces.
  public var actions = 0
  /// False positives by the intent of the trace they happened on.
  public var falsePositivesByIntent = IntentCounts()
  /// `action − reference` of every true positive, seconds.
  public var latency = LatencySummary([])
  /// `action − touch-down` of every true positive, seconds.
  public var latencyFromDown = LatencySummary([])

  /// Empty metrics.
  public init() {}

  /// TP / (TP + FP); `nil` when nothing was predicted.
  public var precision: Double? { ratio(truePositives, truePositives + falsePositives) }
  /// TP / (TP + FN); `nil` when there are no references.
  public var recall: Double? { ratio(truePositives, truePositives + falseNegatives) }
  /// 2·TP / (2·TP + FP + FN) — the harmonic mean of precision and recall when both exist, 0 when
  /// TP = 0 with any error; `nil` when TP + FP + FN = 0.
  public var f1: Double? { ratio(2 * truePositives, 2 * truePositives + falsePositives + falseNegatives) }
  /// (TP + TN) / (TP + TN + FP + FN); `nil` when all are 0.
  public var accuracy: Double? {
    ratio(truePositives + trueNegatives, truePositives + trueNegatives + falsePositives + falseNegatives)
  }
  /// Negative traces with an action / negative traces; `nil` without negative traces.
  public var falsePositiveRate: Double? { ratio(falsePositiveTraces, negativeTraces) }

  private func ratio(_ a: Int, _ b: Int) -> Double? { b == 0 ? nil : Double(a) / Double(b) }
}

/// The two-stage confusion matrix: traces counted by actual class (rows) and predicted class
/// (columns), both in ``PressClass`` order (none, press, pop).
public struct ClassConfusion: Sendable, Hashable {
  /// `counts[actual][predicted]`.
  public private(set) var counts: [[Int]]

  /// All zero.
  public init() { counts = [[Int]](repeating: [0, 0, 0], count: 3) }

  /// The number of traces of class `actual` predicted as `predicted`.
  public subscript(actual: PressClass, predicted: PressClass) -> Int {
    get { counts[actual.rawValue][predicted.rawValue] }
    set { counts[actual.rawValue][predicted.rawValue] = newValue }
  }
}

/// Everything reported for one configuration over a set of traces.
public struct ConfigurationMetrics: Sendable, Hashable {
  /// The number of traces scored.
  public var traces = 0
  /// The action (stage 1), scored against the positive intents.
  public var stage1 = StageMetrics()
  /// Stage 2 of two-stage variants, scored against `pop`; `nil` otherwise.
  public var stage2: StageMetrics?
  /// The two-stage confusion matrix; `nil` for one-stage variants.
  public var confusion: ClassConfusion?
  /// Releases while touching, summed over traces; `nil` for variants without a release.
  public var flaps: Int?
  /// For require-to-fail compositions: the latency the wait added, over traces where the
  /// dependent acted (0 when it did not wait); `nil` otherwise.
  public var addedLatency: LatencySummary?
  /// For compositions: traces where the dependent acted after being held (it had to wait for the
  /// other recognizer to fail); `nil` otherwise.
  public var waited: Int?

  /// Scores `outcomes` — any subset of traces, in any order, repeats allowed (a bootstrap
  /// resample) — against their truths.
  ///
  /// - Parameters:
  ///   - outcomes: per-trace outcomes of one configuration; `outcome.trace` indexes `truths`.
  ///   - truths: the evaluation's truths (``Evaluation/truths``).
  ///   - shape: which parts the configuration fills in.
  public init(outcomes: some Sequence<TraceOutcome>, truths: [TraceTruth], shape: OutcomeShape) {
    var latency: [Double] = []
    var fromDown: [Double] = []
    var latency2: [Double] = []
    var fromDown2: [Double] = []
    var added: [Double] = []
    if shape.twoStage {
      stage2 = StageMetrics()
      confusion = ClassConfusion()
    }
    if shape.reportsFlaps { flaps = 0 }
    if shape.isComposition { waited = 0 }
    for outcome in outcomes {
      let truth = truths[outcome.trace]
      traces += 1
      Self.add(outcome.stage1, intent: truth.intent, to: &stage1, latency: &latency, fromDown: &fromDown)
      if shape.twoStage {
        if let s = outcome.stage2 {
          Self.add(s, intent: truth.intent, to: &stage2!, latency: &latency2, fromDown: &fromDown2)
        }
        confusion![truth.actualClass, outcome.predictedClass] += 1
      }
      if shape.reportsFlaps { flaps! += outcome.flaps ?? 0 }
      if shape.isComposition {
        if let a = outcome.addedLatency { added.append(a) }
        if outcome.waited { waited! += 1 }
      }
    }
    stage1.latency = LatencySummary(latency)
    stage1.latencyFromDown = LatencySummary(fromDown)
    if shape.twoStage {
      stage2!.latency = LatencySummary(latency2)
      stage2!.latencyFromDown = LatencySummary(fromDown2)
    }
    if shape.isComposition { addedLatency = LatencySummary(added) }
  }

  private static func add(
    _ s: StageOutcome, intent: Intent, to m: inout StageMetrics, latency: inout [Double], fromDown: inout [Double]
  ) {
    m.truePositives += s.truePositives
    m.falsePositives += s.falsePositives
    m.falseNegatives += s.falseNegatives
    m.trueNegatives += s.trueNegatives
    m.actions += s.actions
    m.references += s.references
    m.falsePositivesByIntent[intent] += s.falsePositives
    if s.isPositive {
      m.positiveTraces += 1
    } else {
      m.negativeTraces += 1
      if s.actions > 0 { m.falsePositiveTraces += 1 }
    }
    for match in s.matches {
      latency.append(match.latency)
      fromDown.append(match.latencyFromDown)
    }
  }
}
