/// One configuration's state over part of the traces: the integer sums of its metrics and its
/// latency lists, before any statistic.
///
/// Partials of disjoint sets of traces merge exactly (``merge(_:)``): sums add and lists
/// concatenate, and every statistic computed from a list is independent of its order (see
/// TouchSignal's `QuickSummary`), so finishing merged partials gives the bits one pass over all
/// the traces gives.
public struct ConfigurationPartial: Sendable, Hashable {
  var accumulator: MetricsAccumulator

  init(_ accumulator: MetricsAccumulator) { self.accumulator = accumulator }

  /// A partial from its parts, as ``counts``, ``shape`` and ``lists`` give them (for reading a
  /// stored partial back).
  ///
  /// - Parameters:
  ///   - counts: the integer sums; latency summaries are ignored.
  ///   - shape: what the outcomes hold.
  ///   - lists: the latency lists, seconds, in ``LatencyList`` order.
  public init(counts: ConfigurationMetrics, shape: OutcomeShape, lists: [[Double]]) {
    var accumulator = MetricsAccumulator(shape: shape)
    accumulator.metrics = counts
    let list = { (k: LatencyList) in k.rawValue < lists.count ? lists[k.rawValue] : [] }
    accumulator.latency = list(.latency)
    accumulator.fromDown = list(.fromDown)
    accumulator.latency2 = list(.stage2Latency)
    accumulator.fromDown2 = list(.stage2FromDown)
    accumulator.added = list(.added)
    self.accumulator = accumulator
  }

  /// No trace yet.
  public init(shape: OutcomeShape) { accumulator = MetricsAccumulator(shape: shape) }

  /// The latency lists a partial keeps, in this order.
  public enum LatencyList: Int, Sendable, CaseIterable {
    /// Stage 1, action − reference, seconds.
    case latency
    /// Stage 1, action − touch-down, seconds.
    case fromDown
    /// Stage 2, action − reference, seconds.
    case stage2Latency
    /// Stage 2, action − touch-down, seconds.
    case stage2FromDown
    /// Added latency of a require-to-fail composition, seconds.
    case added
  }

  /// The integer sums (traces, counts per stage, confusion, flaps, waits); latency summaries
  /// empty.
  public var counts: ConfigurationMetrics { accumulator.metrics }

  /// What the outcomes hold.
  public var shape: OutcomeShape { accumulator.shape }

  /// The latency lists, seconds, in ``LatencyList`` order.
  public var lists: [[Double]] {
    [accumulator.latency, accumulator.fromDown, accumulator.latency2, accumulator.fromDown2, accumulator.added]
  }

  /// Adds the traces of `other` (disjoint from this partial's).
  public mutating func merge(_ other: ConfigurationPartial) { accumulator.merge(other.accumulator) }

  /// Adds one trace's outcome.
  ///
  /// - Parameters:
  ///   - outcome: the trace's outcome.
  ///   - truth: the trace's ground truth.
  public mutating func add(_ outcome: TraceOutcome, truth: TraceTruth) {
    accumulator.add(outcome, intent: truth.intent, actualClass: truth.actualClass)
  }

  /// The metrics, with their latency statistics.
  public func finish() -> ConfigurationMetrics { accumulator.finish() }
}

/// A sweep's state over part of the traces: a ``ConfigurationPartial`` per configuration of the
/// plan and how each configuration was evaluated.
public struct SweepPartial: Sendable, Hashable {
  /// One per configuration of the plan, in plan order.
  public internal(set) var configurations: [ConfigurationPartial]
  /// How each configuration is evaluated (parallel to ``configurations``).
  public let methods: [SweepMethod]

  /// A partial from its parts.
  ///
  /// - Parameters:
  ///   - configurations: one per configuration of the plan.
  ///   - methods: how each was evaluated.
  public init(configurations: [ConfigurationPartial], methods: [SweepMethod]) {
    precondition(configurations.count == methods.count, "one method per configuration")
    self.configurations = configurations
    self.methods = methods
  }

  /// Adds the traces of `other`, a partial of the same plan over other traces.
  public mutating func merge(_ other: SweepPartial) {
    precondition(other.configurations.count == configurations.count, "partials of the same plan")
    for c in configurations.indices { configurations[c].merge(other.configurations[c]) }
  }

  /// Every configuration's metrics, finished on `threads` threads (the result does not depend
  /// on it).
  public func metrics(threads: Int = 1) -> [ConfigurationMetrics] {
    // The configurations of one threshold class share their partial (the same sums, the same
    // list storage) when one evaluation swept them: their statistics are computed once.
    let parts = configurations
    return Distinct.map(count: parts.count, threads: threads, key: { SharedKey(parts[$0]) }) { parts[$0].finish() }
  }

  /// What makes two partials the same without reading their lists: equal sums and the same list
  /// storage.
  private struct SharedKey: Hashable {
    var counts: ConfigurationMetrics
    var lists: [Int]

    init(_ part: ConfigurationPartial) {
      counts = part.counts
      let a = part.accumulator
      lists = [a.latency, a.fromDown, a.latency2, a.fromDown2, a.added].flatMap { list in
        list.withUnsafeBufferPointer { [Int(bitPattern: $0.baseAddress), $0.count] }
      }
    }
  }
}

extension SweepResult {
  /// The result of a sweep from its merged partial.
  ///
  /// - Parameters:
  ///   - evaluation: the evaluation the partial covers (its traces may hold no samples: reports
  ///     read only their metadata and truths).
  ///   - plan: the plan swept.
  ///   - partial: the merged partial of every trace of `evaluation`.
  ///   - threads: threads for the statistics; the result does not depend on it.
  public init(evaluation: Evaluation, plan: SweepPlan, partial: SweepPartial, threads: Int = 1) {
    self.init(evaluation: evaluation, plan: plan, metrics: partial.metrics(threads: threads), methods: partial.methods)
  }
}

/// Work done once per distinct key: configurations that share their state are finished once.
package enum Distinct {
  /// `body` of the first item of each distinct `key`, on `threads` threads (the result does not
  /// depend on it), given to every item with that key, in item order.
  package static func map<Key: Hashable, T: Sendable>(
    count: Int, threads: Int, key: (Int) -> Key, _ body: @escaping @Sendable (Int) -> T
  ) -> [T] {
    var first: [Key: Int] = [:]
    var distinct: [Int] = []
    var source = [Int](repeating: 0, count: count)
    for item in 0..<count {
      let k = key(item)
      if let d = first[k] {
        source[item] = d
      } else {
        first[k] = distinct.count
        source[item] = distinct.count
        distinct.append(item)
      }
    }
    let chosen = distinct
    let results = Parallel.map(count: chosen.count, chunk: 4, threads: threads) { range in
      range.map { body(chosen[$0]) }
    }
    .flatMap { $0 }
    return source.map { results[$0] }
  }
}
