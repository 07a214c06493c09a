/// How many times each distinct number was added: an open-addressing hash table keyed by the
/// numbers' bit patterns (−0 counted as +0, as `==` has it), with linear probing and a
/// multiplicative hash. It does what a `[Double: Int]` of counts does, without `Hasher`'s
/// seeded SipHash per update: counting a dataset's sampling intervals and forces is one update
/// per sample, and the `Dictionary` cost `inspect` about a tenth of its time.
///
/// - Precondition: no NaN is added (NaN is not equal to itself, so a table could not count it).
struct DistinctCounts {
  /// The empty slot's key: a NaN's bit pattern, which no added value has.
  private static let empty: UInt64 = 0x7FF8_0000_0000_0A11
  private var keys: [UInt64]
  private var counts: [Int]
  /// 64 − log₂ of the table's size: the hash's top bits pick the slot.
  private var shift: UInt64
  /// The number of distinct values.
  private(set) var distinct = 0

  /// An empty table with room for `capacity` distinct values before it grows.
  init(capacity: Int = 512) {
    var size = 16
    while size < 2 * capacity { size *= 2 }
    keys = [UInt64](repeating: Self.empty, count: size)
    counts = [Int](repeating: 0, count: size)
    shift = UInt64(64 - size.trailingZeroBitCount)
  }

  /// Adds `count` occurrences of `value`.
  ///
  /// - Returns: whether `value` was not in the table before.
  @discardableResult
  mutating func add(_ value: Double, count: Int = 1) -> Bool {
    precondition(!value.isNaN, "a count of distinct numbers takes no NaN")
    let key = value == 0 ? 0 : value.bitPattern
    let mask = keys.count &- 1
    var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    while true {
      let found = keys[slot]
      if found == key {
        counts[slot] &+= count
        return false
      }
      if found == Self.empty { break }
      slot = (slot &+ 1) & mask
    }
    keys[slot] = key
    counts[slot] = count
    distinct &+= 1
    if 2 &* distinct > keys.count { grow() }
    return true
  }

  /// The number of times `value` was added (0 if never).
  func count(of value: Double) -> Int {
    guard !value.isNaN else { return 0 }
    let key = value == 0 ? 0 : value.bitPattern
    let mask = keys.count &- 1
    var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
    while keys[slot] != Self.empty {
      if keys[slot] == key { return counts[slot] }
      slot = (slot &+ 1) & mask
    }
    return 0
  }

  /// The distinct values, in no particular order.
  var values: [Double] {
    var result: [Double] = []
    result.reserveCapacity(distinct)
    for key in keys where key != Self.empty { result.append(Double(bitPattern: key)) }
    return result
  }

  /// Calls `body` with each distinct value and its count, in no particular order.
  func forEach(_ body: (_ value: Double, _ count: Int) -> Void) {
    for slot in keys.indices where keys[slot] != Self.empty { body(Double(bitPattern: keys[slot]), counts[slot]) }
  }

  /// Doubles the table, placing every value again.
  private mutating func grow() {
    var larger = DistinctCounts(capacity: keys.count)
    forEach { value, count in larger.add(value, count: count) }
    self = larger
  }
}

/// A multiset of numbers (no NaN) kept as its distinct values with their counts: the exact order
/// statistics of many values that repeat (sampling intervals on a clock's grid) in memory for
/// the distinct ones. Values are counted in a `DistinctCounts` table as they come; the distinct
/// ones are sorted once, for the summary.
struct CountedValues {
  private var table = DistinctCounts()
  /// The number of values added, repeats included.
  private(set) var count = 0

  mutating func add(_ value: Double) {
    table.add(value)
    count += 1
  }

  /// Sorts `values` (no NaN) ascending, as `sort()` would, by a least-significant-byte-first
  /// radix sort of their bit patterns mapped to unsigned keys that order as the numbers do
  /// (negative numbers' bits inverted, the sign bit set on the others): O(n) per pass, and a
  /// byte that every key shares (the exponent of intervals of one magnitude) takes no pass. It
  /// replaced `sort()` here, which took a tenth of `inspect`'s time. Only −0 and +0 differ from
  /// `sort()`: −0 comes first whatever the input order.
  ///
  /// - Parameters:
  ///   - values: the numbers, sorted in place.
  ///   - keys, scratch: buffers, resized as needed (kept by the caller to spare allocations).
  static func radixSort(_ values: inout [Double], keys: inout [UInt64], scratch: inout [UInt64]) {
    let n = values.count
    guard n > 1 else { return }
    let sign: UInt64 = 1 << 63
    keys.removeAll(keepingCapacity: true)
    keys.reserveCapacity(n)
    // Counts of every byte of every key, in one read.
    var histogram = [Int](repeating: 0, count: 8 * 256)
    for value in values {
      let bits = value.bitPattern
      let key = bits & sign != 0 ? ~bits : bits | sign
      keys.append(key)
      for byte in 0..<8 { histogram[byte &* 256 &+ Int((key >> UInt64(byte &* 8)) & 0xFF)] &+= 1 }
    }
    if scratch.count < n { scratch = [UInt64](repeating: 0, count: n) }
    keys.withUnsafeMutableBufferPointer { source in
      scratch.withUnsafeMutableBufferPointer { target in
        var from = source.baseAddress!
        var to = target.baseAddress!
        var offsets = [Int](repeating: 0, count: 256)
        for byte in 0..<8 {
          let row = byte &* 256
          // A byte every key shares orders nothing.
          if histogram[row &+ Int((from[0] >> UInt64(byte &* 8)) & 0xFF)] == n { continue }
          var total = 0
          for digit in 0..<256 {
            offsets[digit] = total
            total &+= histogram[row &+ digit]
          }
          for i in 0..<n {
            let digit = Int((from[i] >> UInt64(byte &* 8)) & 0xFF)
            to[offsets[digit]] = from[i]
            offsets[digit] &+= 1
          }
          swap(&from, &to)
        }
        for i in 0..<n {
          let key = from[i]
          values[i] = Double(bitPattern: key & sign != 0 ? key & ~sign : ~key)
        }
      }
    }
  }

  /// ``SummaryStatistics/bySelection(_:moments:)`` of the values: the same quantiles (R type 7,
  /// GSL's interpolation formula) from the sorted distinct values.
  func summary(moments: Moments) -> (SummaryStatistics, robustSpread: Double?) {
    var summary = SummaryStatistics([])
    guard count > 0 else { return (summary, nil) }
    var values = table.values
    var keys: [UInt64] = []
    var scratch: [UInt64] = []
    Self.radixSort(&values, keys: &keys, scratch: &scratch)
    let counts = values.map { table.count(of: $0) }
    summary.count = count
    (summary.min, summary.max) = (values.first!, values.last!)
    summary.mean = moments.mean
    summary.standardDeviation = moments.standardDeviation
    let q = [0.05, 0.25, 0.5, 0.75, 0.95].map { Self.quantile($0, of: count, values: values, counts: counts) }
    (summary.p5, summary.median, summary.p95) = (q[0], q[2], q[4])
    return (summary, (q[3] - q[1]) / 1.348_979_500_392_163)
  }

  /// The value of rank `rank` (from 0) in sorted order.
  private static func value(rank: Int, values: [Double], counts: [Int]) -> Double {
    var seen = 0
    for (value, n) in zip(values, counts) {
      seen += n
      if rank < seen { return value }
    }
    return values.last!
  }

  /// The `p`-quantile of `n` values, as `Selection.quantiles` computes it.
  private static func quantile(_ p: Double, of n: Int, values: [Double], counts: [Int]) -> Double {
    let h = Double(n - 1) * p
    let i = Swift.min(Int(exactly: h.rounded(.down)) ?? 0, n - 1)
    let delta = h - Double(i)
    let lower = value(rank: i, values: values, counts: counts)
    guard delta > 0, i + 1 < n else { return lower }
    return (1 - delta) * lower + delta * value(rank: i + 1, values: values, counts: counts)
  }
}
