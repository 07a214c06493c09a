internal import CGSL

/// A sample of values, sorted once, with the summary statistics reports need.
///
/// Quantiles use linear interpolation between order statistics — `(1−δ)·x[i] + δ·x[i+1]` with
/// `i = ⌊(n−1)p⌋`, `δ = (n−1)p − i` — the definition of NumPy's default, R's type 7 and
/// `gsl_stats_quantile_from_sorted_data`, which computes them here.
public struct Distribution: Hashable, Sendable {
  /// The values, ascending.
  public let sorted: [Double]

  /// Sorts `values`.
  ///
  /// Sorting uses the standard library's sort, which is several times faster than `gsl_sort`
  /// (a heapsort) on the nearly sorted, tie-heavy data of sampling intervals; the statistics
  /// themselves come from GSL.
  /// - Precondition: no value is NaN.
  public init(_ values: [Double]) {
    precondition(!values.contains(where: \.isNaN), "a distribution cannot hold NaN")
    GSL.prepare()
    sorted = values.sorted()
  }

  /// Wraps values that are already ascending.
  /// - Precondition: `sorted` is ascending and holds no NaN (checked in debug builds).
  public init(sorted: [Double]) {
    #if TOUCH_INTERNAL_CHECKS
      precondition(zip(sorted, sorted.dropFirst()).allSatisfy { $0 <= $1 }, "values must be ascending")
    #endif
    GSL.prepare()
    self.sorted = sorted
  }

  /// The number of values.
  public var count: Int { sorted.count }

  /// Whether there are no values.
  public var isEmpty: Bool { sorted.isEmpty }

  /// The smallest value; `nil` when empty.
  public var min: Double? { sorted.first }

  /// The largest value; `nil` when empty.
  public var max: Double? { sorted.last }

  /// The arithmetic mean (`gsl_stats_mean`); `nil` when empty.
  public var mean: Double? {
    guard !sorted.isEmpty else { return nil }
    return sorted.withUnsafeBufferPointer { gsl_stats_mean($0.baseAddress, 1, $0.count) }
  }

  /// The sample standard deviation, divisor n − 1 (`gsl_stats_sd`); `nil` with fewer than two values.
  public var standardDeviation: Double? {
    guard sorted.count >= 2 else { return nil }
    return sorted.withUnsafeBufferPointer { gsl_stats_sd($0.baseAddress, 1, $0.count) }
  }

  /// The median absolute deviation scaled by 1.4826 to estimate σ for normal data
  /// (`gsl_stats_mad`); `nil` when empty.
  public var scaledMedianAbsoluteDeviation: Double? {
    guard !sorted.isEmpty else { return nil }
    var work = [Double](repeating: 0, count: sorted.count)
    return sorted.withUnsafeBufferPointer { data in
      work.withUnsafeMutableBufferPointer { gsl_stats_mad(data.baseAddress, 1, data.count, $0.baseAddress) }
    }
  }

  /// The `p`-quantile, `p` in 0…1, by linear interpolation (R type 7); `nil` when empty.
  /// - Precondition: `0 <= p <= 1`.
  public func quantile(_ p: Double) -> Double? {
    precondition(p >= 0 && p <= 1, "quantile probability must be in 0...1")
    guard !sorted.isEmpty else { return nil }
    return sorted.withUnsafeBufferPointer {
      gsl_stats_quantile_from_sorted_data($0.baseAddress, 1, $0.count, p)
    }
  }

  /// The median (the 0.5-quantile); `nil` when empty.
  public var median: Double? { quantile(0.5) }
}

/// The smallest and largest of a set of values.
public enum MinMax {
  /// The smallest and largest of `values` (`gsl_stats_minmax`); `nil` when empty.
  public static func of(_ values: [Double]) -> (min: Double, max: Double)? {
    guard !values.isEmpty else { return nil }
    GSL.prepare()
    var low = 0.0
    var high = 0.0
    values.withUnsafeBufferPointer { gsl_stats_minmax(&low, &high, $0.baseAddress, 1, $0.count) }
    return (low, high)
  }
}

extension QuickSummary {
  /// The `p`-quantiles (R type 7) of `|v|` for every `v` in `values`, by selection, without the
  /// other figures of a summary; empty when there are no values.
  /// - Precondition: no value is NaN; every probability is in 0…1.
  public static func absoluteQuantiles(_ values: [Double], _ probabilities: [Double]) -> [Double] {
    guard !values.isEmpty else { return [] }
    var work = values.map { Swift.abs($0) }
    return Selection.quantiles(&work, probabilities)
  }
}

/// Quantiles of unsorted values by selection instead of sorting.
enum Selection {
  /// The `p`-quantiles (R type 7) of `values`, which are reordered in place.
  ///
  /// Each order statistic is found with `gsl_stats_select` (expected O(n)); the middle requested
  /// rank is selected first over the whole array, then the lower ranks inside the part below it
  /// and the higher ranks inside the part above it, so five quantiles cost about 2.5 passes
  /// instead of a sort's O(n log n).
  ///
  /// - Precondition: `values` is not empty and holds no NaN; every `p` is in 0…1.
  static func quantiles(_ values: inout [Double], _ probabilities: [Double]) -> [Double] {
    precondition(!values.isEmpty, "quantiles of an empty set")
    precondition(probabilities.allSatisfy { $0 >= 0 && $0 <= 1 }, "probabilities must be in 0...1")
    GSL.prepare()
    let n = values.count
    let order = probabilities.indices.sorted { probabilities[$0] < probabilities[$1] }
    var result = [Double](repeating: 0, count: probabilities.count)
    values.withUnsafeMutableBufferPointer { data in
      let base = data.baseAddress!
      // Selects the requests order[from..<to] inside data[low..<high]; on entry every element
      // below `low` is ≤ and every element from `high` on is ≥ the elements in between, and the
      // requested ranks lie in low..<high. Each child range includes its parent's pivot, so it is
      // never empty.
      func select(_ from: Int, _ to: Int, _ low: Int, _ high: Int) {
        guard from < to else { return }
        let middle = (from + to) / 2
        let k = order[middle]
        let h = Double(n - 1) * probabilities[k]
        // 0 ≤ h ≤ n − 1 (probabilities are checked to lie in 0...1).
        let i = Swift.min(Int(exactly: h.rounded(.down)) ?? 0, n - 1)
        let delta = h - Double(i)
        let lower = gsl_stats_select(base + low, 1, high - low, i - low)
        var value = lower
        if delta > 0, i + 1 < n {
          // The next order statistic is the smallest element after position i: inside the range
          // when the range goes on, else anywhere after it.
          let end = i + 1 < high ? high : n
          var upper = Double.infinity
          for j in (i + 1)..<end where base[j] < upper { upper = base[j] }
          value = (1 - delta) * lower + delta * upper  // GSL's own formula, for identical results
        }
        result[k] = value
        select(from, middle, low, i + 1)
        select(middle + 1, to, i, high)
      }
      select(0, order.count, 0, n)
    }
    return result
  }
}

/// Count, extremes, mean, standard deviation and chosen quantiles of unsorted values, computed
/// without sorting them: for summarizing many large sets (a sweep's latencies per setting).
///
/// The mean and standard deviation (divisor n − 1) come from correctly rounded sums
/// (``ExactSum``), so every statistic is the same whatever the order of the values (traces
/// read in batches, shards merged); the quantiles are R type 7 (as ``Distribution/quantile(_:)``),
/// found by selection (`gsl_stats_select`) in expected O(n) each instead of a sort.
public struct QuickSummary: Sendable, Hashable {
  /// The number of values.
  public let count: Int
  /// The smallest value; `nil` when empty.
  public let min: Double?
  /// The largest value; `nil` when empty.
  public let max: Double?
  /// The arithmetic mean; `nil` when empty.
  public let mean: Double?
  /// The sample standard deviation (divisor n − 1); `nil` with fewer than two values.
  public let standardDeviation: Double?
  /// The requested quantiles, in the order requested; empty when there are no values.
  public let quantiles: [Double]
  /// How many values are below zero.
  public let negative: Int

  /// Summarizes `values`, with the `p`-quantiles for every `p` in `probabilities`.
  /// - Precondition: no value is NaN; every probability is in 0…1.
  public init(_ values: [Double], quantiles probabilities: [Double]) {
    precondition(!values.contains(where: \.isNaN), "a summary cannot hold NaN")
    count = values.count
    guard let extremes = MinMax.of(values) else {
      (min, max, mean, standardDeviation, quantiles, negative) = (nil, nil, nil, nil, [], 0)
      return
    }
    (min, max) = extremes
    var below = 0
    for v in values where v < 0 { below += 1 }
    negative = below
    // Correctly rounded sums: the same bits in any order of the values.
    (mean, standardDeviation) = values.withUnsafeBufferPointer { v in
      let m = ExactSum.of(v) / Double(v.count)
      guard v.count >= 2 else { return (m, nil) }
      return (m, (ExactSum.of(v) { ($0 - m) * ($0 - m) } / Double(v.count - 1)).squareRoot())
    }
    var work = values
    quantiles = Selection.quantiles(&work, probabilities)
  }
}
