package import TouchCore
public import TouchEvaluation
public import TouchSignal

/// The distribution of paired differences, seconds.
public struct PairedDifferences: Sendable, Hashable {
  /// The differences, in trace order (then reference order within a trace).
  public let values: [Double]
  /// The number of pairs.
  public var count: Int { values.count }
  /// The mean (`gsl_stats_mean`); `nil` without pairs.
  public let mean: Double?
  /// The sample standard deviation, divisor n − 1 (`gsl_stats_sd`); `nil` below two pairs.
  public let standardDeviation: Double?
  /// The median (R type 7); `nil` without pairs.
  public let median: Double?
  /// The smallest difference; `nil` without pairs.
  public let minimum: Double?
  /// The largest difference; `nil` without pairs.
  public let maximum: Double?
  /// Pairs with a negative difference (B acted first).
  public let negative: Int
  /// Pairs with a zero difference (both acted at the same sample time).
  public let zero: Int
  /// Pairs with a positive difference (A acted first).
  public let positive: Int

  /// Summarizes `values`.
  /// - Precondition: no value is NaN.
  public init(_ values: [Double]) {
    self.values = values
    let d = Distribution(values)
    mean = d.mean
    standardDeviation = d.standardDeviation
    median = d.median
    minimum = d.min
    maximum = d.max
    negative = values.filter { $0 < 0 }.count
    zero = values.filter { $0 == 0 }.count
    positive = values.filter { $0 > 0 }.count
  }
}

/// Two configurations scored on the same traces, compared pair by pair.
///
/// - **Decisions**: each trace is correct or not for each configuration
///   (`TraceOutcome.isCorrect`: no false positive and no false negative at any stage); the
///   2 × 2 table of paired decisions goes to ``McNemarTest``.
/// - **Latency**: for every reference time that **both** configurations matched (stage 1), the
///   difference `latency_B − latency_A` (= B's action − A's action), seconds; positive when B is
///   the later. Summarized by ``PairedDifferences``, with a percentile bootstrap interval for the
///   mean difference (resampling the units — traces or groups — with their pairs).
/// - **Timing error**: on the same pairs, `|latency_B| − |latency_A|`, seconds; negative when B
///   acts nearer the intended press. Acting earlier is not being faster: an action before the
///   reference is premature, so only this difference says which configuration is better timed.
public struct PairedComparison: Sendable {
  /// Configuration A's metrics on the traces.
  public let a: ConfigurationMetrics
  /// Configuration B's metrics on the traces.
  public let b: ConfigurationMetrics
  /// The test on the paired decisions.
  public let mcnemar: McNemarTest
  /// `latency_B − latency_A` on references both matched, seconds.
  public let latencyDifferences: PairedDifferences
  /// Traces on which both matched at least one reference.
  public let tracesBothDetect: Int
  /// The bootstrap interval of the mean latency difference; `nil` when no bootstrap was asked for.
  public let meanDifferenceInterval: ConfidenceInterval?
  /// `|latency_B| − |latency_A|` on the same pairs, seconds: negative where B acts nearer the
  /// reference.
  public let timingErrorDifferences: PairedDifferences
  /// The bootstrap interval of the mean timing-error difference (from the same resamples); `nil`
  /// when no bootstrap was asked for.
  public let meanTimingErrorDifferenceInterval: ConfidenceInterval?

  /// Compares outcomes of two configurations on the same traces.
  ///
  /// - Parameters:
  ///   - a: A's outcomes, one per trace, in trace order.
  ///   - shapeA: A's outcome shape.
  ///   - b: B's outcomes, aligned with `a`.
  ///   - shapeB: B's outcome shape.
  ///   - truths: the evaluation's truths.
  ///   - units: the bootstrap's resampling units (positions in the outcome lists); empty without a
  ///     bootstrap.
  ///   - bootstrap: resamples and confidence; `nil` for no interval.
  ///   - random: the generator the resamples are drawn from.
  ///   - continuityCorrection: whether McNemar's chi-square statistic is continuity-corrected.
  ///   - threads: threads that score resamples.
  /// - Precondition: `a` and `b` are aligned (same length, same trace at each position).
  /// - Throws: ``TuningError/gsl(_:)`` when a GSL distribution function fails.
  public init<Outcomes: RandomAccessCollection<TraceOutcome>>(
    a: Outcomes, shapeA: OutcomeShape, b: Outcomes, shapeB: OutcomeShape, truths: [TraceTruth],
    units: [[Int]], bootstrap: BootstrapOptions?, random: inout RandomSource, continuityCorrection: Bool = true,
    threads: Int = 1
  ) throws(TuningError) {
    precondition(a.count == b.count && zip(a, b).allSatisfy { $0.trace == $1.trace }, "outcomes must be aligned")
    self.a = ConfigurationMetrics(outcomes: a, truths: truths, shape: shapeA)
    self.b = ConfigurationMetrics(outcomes: b, truths: truths, shape: shapeB)
    do throws(GSLError) {
      mcnemar = try McNemarTest(
        a: a.map(\.isCorrect), b: b.map(\.isCorrect), continuityCorrection: continuityCorrection)
    } catch {
      throw .gsl(error)
    }
    // Per position, the pairs of latencies on references both matched, as (A's, B's): position
    // p's pairs are pairs[starts[p]..<starts[p + 1]] (one flat list, not one array per trace).
    // A reference is identified by its time and, for repeated times, its rank among them.
    let (pairs, starts) = Self.matchedPairs(a, b)
    latencyDifferences = PairedDifferences(pairs.map { $0.b - $0.a })
    timingErrorDifferences = PairedDifferences(pairs.map { Swift.abs($0.b) - Swift.abs($0.a) })
    tracesBothDetect = zip(starts, starts.dropFirst()).filter { $0 < $1 }.count
    if let bootstrap, !units.isEmpty {
      let values = Bootstrap.resampledValues(units: units, options: bootstrap, random: &random, threads: threads) {
        positions in
        var sum = 0.0
        var sumAbsolute = 0.0
        var n = 0
        for p in positions {
          for pair in pairs[starts[p]..<starts[p + 1]] {
            sum += pair.b - pair.a
            sumAbsolute += Swift.abs(pair.b) - Swift.abs(pair.a)
            n += 1
          }
        }
        return n == 0 ? [nil, nil] : [sum / Double(n), sumAbsolute / Double(n)]
      }
      meanDifferenceInterval = Bootstrap.interval(
        of: values.map { $0[0] }, estimate: latencyDifferences.mean, confidence: bootstrap.confidence)
      meanTimingErrorDifferenceInterval = Bootstrap.interval(
        of: values.map { $0[1] }, estimate: timingErrorDifferences.mean, confidence: bootstrap.confidence)
    } else {
      meanDifferenceInterval = nil
      meanTimingErrorDifferenceInterval = nil
    }
  }

  /// The pairs (A's latency, B's latency) on references both matched, position by position in
  /// one list, and where each position's pairs start (`starts[p]..<starts[p + 1]`).
  private static func matchedPairs(_ a: some Sequence<TraceOutcome>, _ b: some Sequence<TraceOutcome>) -> (
    pairs: [(a: Double, b: Double)], starts: [Int]
  ) {
    var pairs: [(a: Double, b: Double)] = []
    var starts = [0]
    starts.reserveCapacity(a.underestimatedCount + 1)
    var scratch = PairScratch()
    for (x, y) in zip(a, b) {
      scratch.appendPairs(x, y, to: &pairs)
      starts.append(pairs.count)
    }
    return (pairs, starts)
  }

  /// What finding one trace's matched pairs reuses from trace to trace.
  fileprivate struct PairScratch {
    private var byReference: [Double: [Double]] = [:]
    private var used: [Double: Int] = [:]

    /// Appends the pairs (A's latency, B's latency) of the references both `x` and `y` matched
    /// (stage 1), in the order of B's matches. A reference is identified by its time and, for
    /// repeated times, its rank among them.
    mutating func appendPairs(_ x: TraceOutcome, _ y: TraceOutcome, to pairs: inout [(a: Double, b: Double)]) {
      byReference.removeAll(keepingCapacity: true)
      used.removeAll(keepingCapacity: true)
      for match in x.stage1.matches { byReference[match.reference, default: []].append(match.latency) }
      for match in y.stage1.matches {
        let rank = used[match.reference, default: 0]
        used[match.reference] = rank + 1
        if let latencies = byReference[match.reference], rank < latencies.count {
          pairs.append((latencies[rank], match.latency))
        }
      }
    }
  }

  /// A comparison made as the traces pass, without a bootstrap: each trace's two outcomes are
  /// added as they come (A's and B's metrics, the paired decisions' counts, the matched pairs'
  /// latencies), so no trace's outcomes or truth need to be kept. ``finish(continuityCorrection:)``
  /// gives what ``init(a:shapeA:b:shapeB:truths:units:bootstrap:random:continuityCorrection:threads:)``
  /// gives on the same outcomes in the same order with no bootstrap.
  package struct Accumulator {
    private var a: MetricsAccumulator
    private var b: MetricsAccumulator
    private var counts = (both: 0, a: 0, b: 0, neither: 0)
    private var pairs: [(a: Double, b: Double)] = []
    private var tracesBothDetect = 0
    private var scratch = PairScratch()

    /// No trace yet, for configurations of these shapes.
    package init(shapeA: OutcomeShape, shapeB: OutcomeShape) {
      a = MetricsAccumulator(shape: shapeA)
      b = MetricsAccumulator(shape: shapeB)
    }

    /// The traces added.
    package var count: Int { counts.both + counts.a + counts.b + counts.neither }

    /// Adds one trace: A's outcome `x`, B's outcome `y`, and its truth's intent and class.
    package mutating func add(_ x: TraceOutcome, _ y: TraceOutcome, intent: Intent, actualClass: PressClass) {
      a.add(x, intent: intent, actualClass: actualClass)
      b.add(y, intent: intent, actualClass: actualClass)
      switch (x.isCorrect, y.isCorrect) {
      case (true, true): counts.both += 1
      case (true, false): counts.a += 1
      case (false, true): counts.b += 1
      case (false, false): counts.neither += 1
      }
      let before = pairs.count
      scratch.appendPairs(x, y, to: &pairs)
      if pairs.count > before { tracesBothDetect += 1 }
    }

    /// The comparison of the traces added.
    ///
    /// - Throws: ``TuningError/gsl(_:)`` when a GSL distribution function fails.
    package func finish(continuityCorrection: Bool = true) throws(TuningError) -> PairedComparison {
      let mcnemar: McNemarTest
      do throws(GSLError) {
        mcnemar = try McNemarTest(
          bothCorrect: counts.both, onlyA: counts.a, onlyB: counts.b, neither: counts.neither,
          continuityCorrection: continuityCorrection)
      } catch {
        throw .gsl(error)
      }
      return PairedComparison(
        a: a.finish(), b: b.finish(), mcnemar: mcnemar,
        latencyDifferences: PairedDifferences(pairs.map { $0.b - $0.a }),
        timingErrorDifferences: PairedDifferences(pairs.map { Swift.abs($0.b) - Swift.abs($0.a) }),
        tracesBothDetect: tracesBothDetect)
    }
  }

  /// A comparison without bootstrap intervals, from its parts.
  private init(
    a: ConfigurationMetrics, b: ConfigurationMetrics, mcnemar: McNemarTest, latencyDifferences: PairedDifferences,
    timingErrorDifferences: PairedDifferences, tracesBothDetect: Int
  ) {
    self.a = a
    self.b = b
    self.mcnemar = mcnemar
    self.latencyDifferences = latencyDifferences
    self.timingErrorDifferences = timingErrorDifferences
    self.tracesBothDetect = tracesBothDetect
    meanDifferenceInterval = nil
    meanTimingErrorDifferenceInterval = nil
  }
}

extension PairedComparison {
  /// The same comparison with A and B exchanged: counts swapped, differences negated, intervals
  /// mirrored (the test's p-value is symmetric).
  public func swapped() -> PairedComparison {
    PairedComparison(swapping: self)
  }

  private init(swapping c: PairedComparison) {
    a = c.b
    b = c.a
    mcnemar = c.mcnemar.swapped()
    latencyDifferences = PairedDifferences(c.latencyDifferences.values.map { -$0 })
    timingErrorDifferences = PairedDifferences(c.timingErrorDifferences.values.map { -$0 })
    tracesBothDetect = c.tracesBothDetect
    meanDifferenceInterval = c.meanDifferenceInterval?.negated()
    meanTimingErrorDifferenceInterval = c.meanTimingErrorDifferenceInterval?.negated()
  }
}

extension McNemarTest {
  /// The test with A and B exchanged (the same statistic and p-value).
  func swapped() -> McNemarTest {
    McNemarTest(
      bothCorrect: bothCorrect, onlyA: onlyB, onlyB: onlyA, neither: neither, method: method, statistic: statistic,
      pValue: pValue)
  }

  private init(
    bothCorrect: Int, onlyA: Int, onlyB: Int, neither: Int, method: Method, statistic: Double?, pValue: Double
  ) {
    self.bothCorrect = bothCorrect
    self.onlyA = onlyA
    self.onlyB = onlyB
    self.neither = neither
    self.method = method
    self.statistic = statistic
    self.pValue = pValue
  }
}

extension ConfidenceInterval {
  /// The interval of the negated statistic.
  func negated() -> ConfidenceInterval {
    var copy = self
    copy.estimate = estimate.map { -$0 }
    (copy.lower, copy.upper) = (upper.map { -$0 }, lower.map { -$0 })
    return copy
  }
}
