public import TouchCore
import TouchSignal

/// The distribution of a set of latencies, seconds. Empty sets give `nil` statistics (reports
/// write `null`), never 0 or NaN.
///
/// Quantiles interpolate linearly between order statistics (R type 7, NumPy's default), computed
/// by selection (`gsl_stats_select`) through TouchSignal's `QuickSummary`; the mean and the
/// standard deviation (divisor n − 1) by `gsl_stats_mean` and `gsl_stats_sd` over the values in
/// the order given (trace order in the sweeps).
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
  /// The median of the absolute values (`|action − reference|`, the timing error); `nil` when
  /// empty.
  public var absoluteP50: Double?
  /// The 90th percentile of the absolute values, seconds; `nil` when empty. Unlike ``p90`` it
  /// cannot be lowered by acting early: an action `d` seconds before its reference counts as
  /// much as one `d` seconds after it, and more than one exactly at it.
  public var absoluteP90: Double?
  /// The 99th percentile of the absolute values, seconds; `nil` when empty.
  public var absoluteP99: Double?

  /// The share of values that are negative (early actions over true positives), 0…1; `nil`
  /// when empty.
  public var earlyRate: Double? { count == 0 ? nil : Double(early) / Double(count) }

  /// Summarizes `values` (any order; the mean and standard deviation sum them in this order).
  /// - Precondition: no value is NaN.
  public init(_ values: [Double]) {
    // Selection, not a sort: a sweep summarizes two latency sets per setting.
    let s = QuickSummary(values, quantiles: [0.5, 0.9, 0.95, 0.99])
    count = s.count
    mean = s.mean
    standardDeviation = s.standardDeviation
    minimum = s.min
    (p50, p90, p95, p99) =
      s.quantiles.isEmpty
      ? (nil, nil, nil, nil) : (s.quantiles[0], s.quantiles[1], s.quantiles[2], s.quantiles[3])
    maximum = s.max
    early = s.negative
    if s.negative == 0 {
      // Nothing early: the absolute values are the values (−0 reads as 0 in every report).
      (absoluteP50, absoluteP90, absoluteP99) = (p50, p90, p99)
    } else {
      let a = QuickSummary.absoluteQuantiles(values, [0.5, 0.9, 0.99])
      (absoluteP50, absoluteP90, absoluteP99) = (a[0], a[1], a[2])
    }
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
    var accumulator = MetricsAccumulator(shape: shape)
    for outcome in outcomes { accumulator.add(outcome, truths: truths) }
    self = accumulator.finish()
  }

  init(shape: OutcomeShape) {
    if shape.twoStage {
      stage2 = StageMetrics()
      confusion = ClassConfusion()
    }
    if shape.reportsFlaps { flaps = 0 }
    if shape.isComposition { waited = 0 }
  }
}

/// The integer part of one trace's stage outcome, as the sums use it.
typealias StageTally = StageCounts<Int32>

extension StageCounts<Int32> {
  init(_ s: StageOutcome) {
    self.init(
      isPositive: s.isPositive, actions: Int32(s.actions), references: Int32(s.references),
      matched: Int32(s.matches.count))
  }
}

extension StageCounts {
  /// Adds the counts to `m`.
  func add(to m: inout StageMetrics, intent: Intent) {
    m.truePositives += Int(truePositives)
    m.falsePositives += Int(falsePositives)
    m.falseNegatives += Int(falseNegatives)
    m.trueNegatives += Int(trueNegatives)
    m.actions += Int(actions)
    m.references += Int(references)
    m.falsePositivesByIntent[intent] += Int(falsePositives)
    if isPositive {
      m.positiveTraces += 1
    } else {
      m.negativeTraces += 1
      if actions > 0 { m.falsePositiveTraces += 1 }
    }
  }
}

/// One trace's outcome in fixed size, for the level tables of one-pass and class sweeps: the
/// integer sums, and where its matched pairs' latencies lie in a ``LatencyStore``. Adding it (with
/// its store) is the same as adding the outcome. Compositions (added latency, waiting) have none.
struct TraceTally: Sendable {
  var stage1: StageTally
  var stage2: StageTally?
  /// Releases while touching (0 when the shape reports none).
  var flaps: Int32
  var predicted: PressClass
  /// The stage-1 matched pairs in the store's stage-1 lists.
  var matches1: Range<Int32>
  /// The stage-2 matched pairs in the store's stage-2 lists.
  var matches2: Range<Int32>

  /// The tally of `outcome`, its latencies appended to `store`.
  /// - Precondition: not a composition's outcome.
  init(_ outcome: TraceOutcome, store: inout LatencyStore) {
    precondition(outcome.addedLatency == nil && !outcome.waited, "no composition")
    stage1 = StageTally(outcome.stage1)
    stage2 = outcome.stage2.map(StageTally.init)
    flaps = Int32(outcome.flaps ?? 0)
    predicted = outcome.predictedClass
    let start1 = Int32(store.latency1.count)
    for match in outcome.stage1.matches {
      store.latency1.append(match.latency)
      store.fromDown1.append(match.latencyFromDown)
    }
    matches1 = start1..<Int32(store.latency1.count)
    let start2 = Int32(store.latency2.count)
    for match in outcome.stage2?.matches ?? [] {
      store.latency2.append(match.latency)
      store.fromDown2.append(match.latencyFromDown)
    }
    matches2 = start2..<Int32(store.latency2.count)
  }

  /// Whether the tally has any latency to add.
  var hasLatencies: Bool { !matches1.isEmpty || !matches2.isEmpty }
}

/// The latencies of a level table's tallies (``TraceTally/matches1``, ``TraceTally/matches2``).
struct LatencyStore: Sendable {
  var latency1: [Double] = []
  var fromDown1: [Double] = []
  var latency2: [Double] = []
  var fromDown2: [Double] = []
}

/// Sums outcomes into metrics. The sums are integers and the latency lists are sorted before
/// any statistic, so partial accumulators can be merged in any order with the same result.
package struct MetricsAccumulator: Sendable, Hashable {
  var metrics: ConfigurationMetrics
  let shape: OutcomeShape
  var latency: [Double] = []
  var fromDown: [Double] = []
  var latency2: [Double] = []
  var fromDown2: [Double] = []
  var added: [Double] = []

  package init(shape: OutcomeShape) {
    self.shape = shape
    metrics = ConfigurationMetrics(shape: shape)
  }

  /// Adds one trace's outcome.
  mutating func add(_ outcome: TraceOutcome, truths: [TraceTruth]) {
    add(outcome, intent: truths[outcome.trace].intent, actualClass: truths[outcome.trace].actualClass)
  }

  /// Adds one trace's outcome, given its truth's intent and class.
  package mutating func add(_ outcome: TraceOutcome, intent: Intent, actualClass: PressClass) {
    metrics.traces += 1
    StageTally(outcome.stage1).add(to: &metrics.stage1, intent: intent)
    for match in outcome.stage1.matches {
      latency.append(match.latency)
      fromDown.append(match.latencyFromDown)
    }
    if shape.twoStage {
      if let s = outcome.stage2 {
        StageTally(s).add(to: &metrics.stage2!, intent: intent)
        for match in s.matches {
          latency2.append(match.latency)
          fromDown2.append(match.latencyFromDown)
        }
      }
      metrics.confusion![actualClass, outcome.predictedClass] += 1
    }
    if shape.reportsFlaps { metrics.flaps! += outcome.flaps ?? 0 }
    if shape.isComposition {
      if let a = outcome.addedLatency { added.append(a) }
      if outcome.waited { metrics.waited! += 1 }
    }
  }

  /// Adds latencies of a level table's tally (the sums come separately, through ``CountVector``).
  mutating func addLatencies(_ tally: TraceTally, from store: LatencyStore) {
    for i in tally.matches1 {
      latency.append(store.latency1[Int(i)])
      fromDown.append(store.fromDown1[Int(i)])
    }
    if shape.twoStage {
      for i in tally.matches2 {
        latency2.append(store.latency2[Int(i)])
        fromDown2.append(store.fromDown2[Int(i)])
      }
    }
  }

  /// Adds another accumulator's sums and lists.
  mutating func merge(_ other: MetricsAccumulator) {
    metrics.traces += other.metrics.traces
    Self.merge(other.metrics.stage1, into: &metrics.stage1)
    if shape.twoStage {
      Self.merge(other.metrics.stage2!, into: &metrics.stage2!)
      for a in PressClass.allCases {
        for p in PressClass.allCases { metrics.confusion![a, p] += other.metrics.confusion![a, p] }
      }
    }
    if shape.reportsFlaps { metrics.flaps! += other.metrics.flaps! }
    if shape.isComposition { metrics.waited! += other.metrics.waited! }
    latency += other.latency
    fromDown += other.fromDown
    latency2 += other.latency2
    fromDown2 += other.fromDown2
    added += other.added
  }

  private static func merge(_ s: StageMetrics, into m: inout StageMetrics) {
    m.truePositives += s.truePositives
    m.falsePositives += s.falsePositives
    m.falseNegatives += s.falseNegatives
    m.trueNegatives += s.trueNegatives
    m.positiveTraces += s.positiveTraces
    m.negativeTraces += s.negativeTraces
    m.falsePositiveTraces += s.falsePositiveTraces
    m.references += s.references
    m.actions += s.actions
    for intent in Intent.allCases { m.falsePositivesByIntent[intent] += s.falsePositivesByIntent[intent] }
  }

  /// The metrics, with the latency statistics.
  package func finish() -> ConfigurationMetrics {
    var m = metrics
    m.stage1.latency = LatencySummary(latency)
    m.stage1.latencyFromDown = LatencySummary(fromDown)
    if shape.twoStage {
      m.stage2!.latency = LatencySummary(latency2)
      m.stage2!.latencyFromDown = LatencySummary(fromDown2)
    }
    if shape.isComposition { m.addedLatency = LatencySummary(added) }
    return m
  }
}

/// The integer sums of a ``MetricsAccumulator`` as a flat vector, so the one-pass path can add
/// a step's tally to a whole range of levels at once (difference arrays).
///
/// Layout: traces; stage 1 (TP, FP, FN, TN, references, actions, positive traces, negative
/// traces, false-positive traces, FP by intent × 6); stage 2 likewise; the confusion matrix
/// (row-major); flaps.
enum CountVector {
  static let stage = 15
  static let flapsIndex = 1 + 2 * stage + 9
  static let width = flapsIndex + 1

  /// Adds `sign` × the tally's sums to `v[0 ..< width]`.
  static func add(
    _ tally: TraceTally, intent: Intent, actualClass: PressClass, sign: Int32, to v: UnsafeMutablePointer<Int32>
  ) {
    v[0] &+= sign
    add(tally.stage1, intent: intent, sign: sign, to: v + 1)
    if let s = tally.stage2 {
      add(s, intent: intent, sign: sign, to: v + 1 + stage)
      v[1 + 2 * stage + 3 * actualClass.rawValue + tally.predicted.rawValue] &+= sign
    }
    v[flapsIndex] &+= sign &* tally.flaps
  }

  private static func add(_ t: StageTally, intent: Intent, sign: Int32, to v: UnsafeMutablePointer<Int32>) {
    v[0] &+= sign &* t.truePositives
    v[1] &+= sign &* t.falsePositives
    v[2] &+= sign &* t.falseNegatives
    v[3] &+= sign &* t.trueNegatives
    v[4] &+= sign &* t.references
    v[5] &+= sign &* t.actions
    if t.isPositive {
      v[6] &+= sign
    } else {
      v[7] &+= sign
      if t.actions > 0 { v[8] &+= sign }
    }
    v[9 + (Intent.allCases.firstIndex(of: intent) ?? 0)] &+= sign &* t.falsePositives
  }

  /// Adds the sums in `v` to `m` (shaped by `shape`).
  static func apply(_ v: UnsafePointer<Int32>, to m: inout ConfigurationMetrics, shape: OutcomeShape) {
    m.traces += Int(v[0])
    apply(v + 1, to: &m.stage1)
    if shape.twoStage {
      apply(v + 1 + stage, to: &m.stage2!)
      for a in PressClass.allCases {
        for p in PressClass.allCases { m.confusion![a, p] += Int(v[1 + 2 * stage + 3 * a.rawValue + p.rawValue]) }
      }
    }
    if shape.reportsFlaps { m.flaps! += Int(v[flapsIndex]) }
  }

  private static func apply(_ v: UnsafePointer<Int32>, to m: inout StageMetrics) {
    m.truePositives += Int(v[0])
    m.falsePositives += Int(v[1])
    m.falseNegatives += Int(v[2])
    m.trueNegatives += Int(v[3])
    m.references += Int(v[4])
    m.actions += Int(v[5])
    m.positiveTraces += Int(v[6])
    m.negativeTraces += Int(v[7])
    m.falsePositiveTraces += Int(v[8])
    for (k, intent) in Intent.allCases.enumerated() { m.falsePositivesByIntent[intent] += Int(v[9 + k]) }
  }
}
