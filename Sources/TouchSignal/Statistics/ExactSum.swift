/// The correctly rounded sum of floating-point values: the double nearest to their exact real
/// sum (ties to even), whatever the order of the values.
///
/// Shewchuk's algorithm ("Adaptive precision floating-point arithmetic and fast robust geometric
/// predicates", 1997), the one behind Python's `math.fsum`: the running sum is kept exactly as a
/// short list of non-overlapping partials, rounded once at the end. Order independence is what
/// lets statistics computed over batches of traces, or over shards merged on another machine,
/// equal the statistics of one pass over all traces, bit for bit.
///
/// ```swift
/// var sum = ExactSum()
/// for x in [1e100, 1.0, -1e100] { sum.add(x) }
/// sum.value   // 1.0 (a running sum gives 0.0)
/// ```
public struct ExactSum: Sendable, Hashable {
  /// Non-overlapping partial sums, increasing in magnitude; their exact sum is the exact sum of
  /// everything added.
  private var partials: [Double] = []
  /// Sum of the infinite values added (NaN once +∞ and −∞ were both added).
  private var special = 0.0
  /// Whether a NaN was added.
  private var sawNaN = false

  /// An empty sum (0).
  public init() {}

  /// The correctly rounded sum of `values`.
  public static func of(_ values: some Sequence<Double>) -> Double {
    var sum = ExactSum()
    for x in values { sum.add(x) }
    return sum.value
  }

  /// The correctly rounded sum of `values`, each transformed by `term` first (rounded once:
  /// `{ ($0 - m) * ($0 - m) }` for squared deviations), its partials on the stack: no
  /// allocation, for summarizing many lists.
  ///
  /// - Parameters:
  ///   - values: the values.
  ///   - term: the term each value contributes.
  @inlinable
  public static func of(_ values: UnsafeBufferPointer<Double>, term: (Double) -> Double = { $0 }) -> Double {
    // Non-overlapping partials of doubles number at most about 2098 / 53 < 40.
    withUnsafeTemporaryAllocation(of: Double.self, capacity: 64) { p -> Double in
      var n = 0
      var special = 0.0
      var sawNaN = false
      for value in values {
        let x = term(value)
        guard x.isFinite else {
          if x.isNaN { sawNaN = true } else { special += x }
          continue
        }
        n = add(x, to: p.baseAddress!, count: n)
      }
      if sawNaN { return .nan }
      if special != 0 || special.isNaN { return special }
      return rounded(UnsafeBufferPointer(start: p.baseAddress, count: n))
    }
  }

  /// Adds `x` exactly.
  public mutating func add(_ x: Double) {
    guard x.isFinite else {
      if x.isNaN { sawNaN = true } else { special += x }
      return
    }
    partials.append(0)  // room for one more partial
    let count = partials.withUnsafeMutableBufferPointer { Self.add(x, to: $0.baseAddress!, count: $0.count - 1) }
    partials.removeLast(partials.count - count)
  }

  /// Adds finite `x` to the `count` non-overlapping partials at `p` (room for one more);
  /// returns the new count.
  @inlinable
  static func add(_ x: Double, to p: UnsafeMutablePointer<Double>, count n: Int) -> Int {
    var x = x
    var kept = 0
    for j in 0..<n {
      var y = p[j]
      if Swift.abs(x) < Swift.abs(y) { swap(&x, &y) }
      let high = x + y
      let low = y - (high - x)
      if low != 0 {
        p[kept] = low
        kept += 1
      }
      x = high
    }
    p[kept] = x
    return kept + 1
  }

  /// The double nearest the exact sum (ties to even); ±∞ or NaN when such values were added.
  public var value: Double {
    if sawNaN { return .nan }
    if special != 0 || special.isNaN { return special }
    return partials.withUnsafeBufferPointer { Self.rounded($0) }
  }

  /// The double nearest the exact sum of non-overlapping `partials` (increasing in magnitude),
  /// ties to even.
  @usableFromInline
  static func rounded(_ partials: UnsafeBufferPointer<Double>) -> Double {
    guard var n = partials.indices.last else { return 0 }
    var high = partials[n]
    var low = 0.0
    while n > 0 {
      n -= 1
      let x = high
      let y = partials[n]
      high = x + y
      let yr = high - x
      low = y - yr
      if low != 0 { break }
    }
    // Round half to even across the partials below: when the remainder is exactly half an ulp
    // and the next partial has the same sign, the true sum lies beyond the tie.
    if n > 0 && ((low < 0 && partials[n - 1] < 0) || (low > 0 && partials[n - 1] > 0)) {
      let y = low * 2
      let x = high + y
      let yr = x - high
      if y == yr { high = x }
    }
    return high
  }
}
