public import TouchEvaluation
public import TouchSignal

/// How many resamples a percentile bootstrap draws and how wide its intervals are.
public struct BootstrapOptions: Sendable, Hashable {
  /// The number of resamples, ≥ 1.
  public var resamples: Int
  /// The confidence level of the intervals, strictly between 0 and 1 (0.95: 95 %).
  public var confidence: Double

  /// Creates options.
  /// - Precondition: `resamples >= 1` and `0 < confidence < 1`.
  public init(resamples: Int = 1000, confidence: Double = 0.95) {
    precondition(resamples >= 1, "a bootstrap needs at least one resample, got \(resamples)")
    precondition(
      confidence > 0 && confidence < 1, "the confidence level must be strictly between 0 and 1, got \(confidence)")
    self.resamples = resamples
    self.confidence = confidence
  }
}

/// A percentile bootstrap confidence interval for one statistic.
public struct ConfidenceInterval: Sendable, Hashable {
  /// The statistic on the original sample; `nil` when undefined there.
  public var estimate: Double?
  /// The lower bound: the (1 − confidence)/2 quantile of the resampled values; `nil` when no
  /// resample defined the statistic.
  public var lower: Double?
  /// The upper bound: the (1 + confidence)/2 quantile of the resampled values; `nil` when no
  /// resample defined the statistic.
  public var upper: Double?
  /// The confidence level (0.95: 95 %).
  public var confidence: Double
  /// The number of resamples drawn.
  public var resamples: Int
  /// The number of resamples in which the statistic was defined (the bounds are quantiles of
  /// those values only).
  public var defined: Int

  /// Creates an interval.
  public init(estimate: Double?, lower: Double?, upper: Double?, confidence: Double, resamples: Int, defined: Int) {
    self.estimate = estimate
    self.lower = lower
    self.upper = upper
    self.confidence = confidence
    self.resamples = resamples
    self.defined = defined
  }

  /// Whether `value` lies inside [lower, upper] (`false` when the bounds are undefined).
  public func contains(_ value: Double) -> Bool {
    guard let lower, let upper else { return false }
    return lower <= value && value <= upper
  }
}

/// The percentile bootstrap over resampling units.
///
/// A **unit** is a set of positions in an outcome list — one trace, or every trace of one group.
/// Each resample draws as many units as there are, uniformly **with replacement**
/// (`RandomSource.sample(count:withReplacementFrom:)`, GSL's `gsl_ran_sample` on MT19937), and
/// concatenates their traces (repeats included). Statistics of each resample are computed like
/// those of the original sample; the interval's bounds are the (1 − c)/2 and (1 + c)/2 quantiles
/// (R type 7, TouchSignal's `Distribution`) of the resamples in which the statistic is defined.
///
/// All resamples are drawn on the calling thread, in order, from the one generator; only the
/// scoring is spread over threads (in batches, each result to its own slot). So the same seed
/// gives the same intervals whatever the thread count.
public enum Bootstrap {
  /// Resamples drawn per batch, then scored in parallel: up to 64, and no more than about four
  /// million drawn units in all (32 MB of indices: 64 resamples of 240 000 traces were 123 MB),
  /// at least one per thread. The draws are the same in any batches.
  static func batch(units: Int, threads: Int) -> Int {
    Swift.max(threads, Swift.min(64, 4_000_000 / Swift.max(1, units)))
  }

  /// The values of `evaluate` on `options.resamples` resamples of `units`.
  ///
  /// - Parameters:
  ///   - units: per unit, the positions it contributes (non-empty list of units).
  ///   - options: the number of resamples (the confidence is not used here).
  ///   - random: the generator the resamples are drawn from, in order.
  ///   - threads: how many threads score resamples.
  ///   - evaluate: the statistics of one resample, given its positions in draw order.
  /// - Returns: one array of statistic values per resample, in draw order.
  public static func resampledValues(
    units: [[Int]], options: BootstrapOptions, random: inout RandomSource, threads: Int,
    evaluate: @Sendable ([Int]) -> [Double?]
  ) -> [[Double?]] {
    precondition(!units.isEmpty, "a bootstrap needs at least one unit")
    var values: [[Double?]] = []
    values.reserveCapacity(options.resamples)
    var done = 0
    while done < options.resamples {
      let count = Swift.min(batch(units: units.count, threads: threads), options.resamples - done)
      // The units drawn, in order; each resample's positions are laid out by the thread that
      // scores it, so a batch holds units, not positions (64 resamples of 240 000 traces were
      // 198 MB of positions).
      let drawn = (0..<count).map { _ in random.sample(count: units.count, withReplacementFrom: units.count) }
      values += Parallel.map(items: count, threads: threads) { evaluate(positions(of: drawn[$0], in: units)) }
      done += count
    }
    return values
  }

  /// The positions of the drawn units `picked`, in draw order, repeats included.
  private static func positions(of picked: [Int], in units: [[Int]]) -> [Int] {
    var positions: [Int] = []
    positions.reserveCapacity(picked.reduce(0) { $0 + units[$1].count })
    for u in picked { positions += units[u] }
    return positions
  }

  /// The percentile interval of `values` (one per resample; `nil` where undefined).
  ///
  /// - Precondition: `0 < confidence < 1`; no value is NaN.
  public static func interval(of values: [Double?], estimate: Double?, confidence: Double) -> ConfidenceInterval {
    precondition(confidence > 0 && confidence < 1, "the confidence level must be strictly between 0 and 1")
    let defined = Distribution(values.compactMap { $0 })
    let alpha = 1 - confidence
    return ConfidenceInterval(
      estimate: estimate, lower: defined.quantile(alpha / 2), upper: defined.quantile(1 - alpha / 2),
      confidence: confidence, resamples: values.count, defined: defined.count)
  }

  /// Percentile intervals of `statistics` for each outcome list, all lists resampled with the
  /// same draws (so their intervals are paired).
  ///
  /// - Parameters:
  ///   - statistics: what to estimate (stage 1).
  ///   - outcomeLists: outcome lists of equal length (arrays, or TouchEvaluation's
  ///     `OutcomeColumn`s); `units` index positions in them.
  ///   - truths: the truths the outcomes' `trace` fields index (`Evaluation.truths`).
  ///   - units: the resampling units (positions).
  ///   - options: resamples and confidence.
  ///   - random: the generator.
  ///   - threads: threads that score resamples.
  /// - Returns: per outcome list, one interval per statistic.
  public static func intervals<Outcomes: RandomAccessCollection<TraceOutcome> & Sendable>(
    of statistics: [TuningStatistic], outcomeLists: [Outcomes], truths: [TraceTruth], units: [[Int]],
    options: BootstrapOptions, random: inout RandomSource, threads: Int
  ) -> [[ConfidenceInterval]] where Outcomes.Index == Int {
    let shape = Tuning.stage1Shape
    let lists = outcomeLists
    let values = resampledValues(units: units, options: options, random: &random, threads: threads) { positions in
      lists.flatMap { outcomes in
        let m = ConfigurationMetrics(outcomes: positions.lazy.map { outcomes[$0] }, truths: truths, shape: shape)
        return statistics.map { $0.value(of: m) }
      }
    }
    return lists.indices.map { l in
      let original = ConfigurationMetrics(outcomes: lists[l], truths: truths, shape: shape)
      return statistics.indices.map { s in
        interval(
          of: values.map { $0[l * statistics.count + s] }, estimate: statistics[s].value(of: original),
          confidence: options.confidence)
      }
    }
  }
}
