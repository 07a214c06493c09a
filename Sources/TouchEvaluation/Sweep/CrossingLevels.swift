/// K sorted levels prepared once for ``RunningMaxSweep``, so that finding every level a quantity
/// crosses costs O(1) whatever K is.
///
/// The levels are cut into buckets of equal width by value (2·K to 64·K buckets, the fewest that
/// leave at most one distinct level in any bucket, else at most two). A quantity's bucket says at
/// once which levels lie wholly below it (crossed) and which wholly above (not crossed); the
/// level or two sharing its bucket are then compared with the quantity itself. The bucket arithmetic
/// only narrows the search, the comparisons decide: results are exact for any levels, uniform or
/// not, including thresholds on exact grids such as k/60 that equal the quantities.
///
/// Levels that no bucketing separates (more than two distinct levels per bucket even at 64·K
/// buckets), non-finite levels (NaN levels are never crossed) and magnitudes above 2¹⁰⁰⁰ fall
/// back to a search from the lowest uncrossed level (branch-free count of the next eight,
/// galloping beyond), which gives the same steps.
///
/// ```swift
/// let levels = CrossingLevels((0...60).map { Double($0) / 60 })   // 0, 1/60, …, 1
/// let found = levels.withUnsafeLevels { l in
///   RunningMaxSweep.firstCrossings(AtOrAbove.self, quantities: q, range: 0..<q.count, levels: l, into: steps)
/// }
/// ```
public struct CrossingLevels: Sendable {
  /// The levels, non-decreasing (duplicates allowed).
  public let values: [Double]
  /// The distinct levels, ascending, then two NaN (compared past the end, never crossed).
  @usableFromInline let distinct: [Double]
  /// `ends[u]`: how many levels are at or below `distinct[u − 1]` (`ends[0] = 0`).
  @usableFromInline let ends: [Int32]
  /// `buckets[b]`: how many distinct levels lie in buckets before `b`.
  @usableFromInline let buckets: [Int32]
  /// How quantities map to buckets.
  @usableFromInline let layout: BucketLayout

  /// The number of levels, K.
  public var count: Int { values.count }

  /// Prepares `levels` (non-decreasing; duplicates allowed) for sweeps.
  ///
  /// - Precondition: no level is less than the one before it, and there are fewer than 2³¹.
  /// - Complexity: O(K) (a few passes over the levels).
  public init(_ levels: [Double]) {
    precondition(levels.count < Int(Int32.max), "too many levels")
    for j in levels.indices.dropFirst() {
      precondition(!(levels[j] < levels[j - 1]), "levels must be non-decreasing")
    }
    values = levels
    let limit = 0x1p1000
    guard let lowest = levels.first, let highest = levels.last,
      levels.allSatisfy({ $0.isFinite }), lowest >= -limit, highest <= limit
    else {
      (distinct, ends, buckets) = ([], [], [])
      layout = BucketLayout(origin: 0, scale: 1, top: 0, floor: 0, indexed: false, window: 0)
      return
    }
    var distinct: [Double] = []
    var ends: [Int32] = [0]
    for (j, level) in levels.enumerated() {
      if distinct.last != level {
        distinct.append(level)
        ends.append(Int32(j + 1))
      } else {
        ends[ends.count - 1] = Int32(j + 1)
      }
    }
    let u = distinct.count
    var table: [Int32] = []
    var chosenScale = 1.0
    var chosenTop = 0.0
    var chosenWindow = 0
    // The fewest buckets that leave one distinct level per bucket, else two.
    search: for window in 1...2 {
      var buckets = 2 * u
      while buckets <= 64 * u && buckets <= 1 << 24 {
        let scale = highest > lowest ? Double(buckets) / (highest - lowest) : 1
        let top = Double(buckets)
        var occupancy = [Int32](repeating: 0, count: buckets + 2)
        var crowded = false
        for level in distinct {
          let b = UnsafeCrossingLevels.bucket(level, origin: lowest, scale: scale, top: top)
          occupancy[b] += 1
          if occupancy[b] > window {
            crowded = true
            break
          }
        }
        // The running maximum starts at `floor`, just below the lowest level: it must land in
        // bucket 0 (its offset rounds to 0, not below).
        if !crowded && (lowest.nextDown - lowest) * scale > -0.5 {
          table = [Int32](repeating: 0, count: buckets + 2)
          var below: Int32 = 0
          for b in 0..<(buckets + 2) {
            table[b] = below
            below += occupancy[b]
          }
          chosenScale = scale
          chosenTop = top
          chosenWindow = window
          break search
        }
        buckets *= 2
      }
    }
    self.distinct = distinct + [.nan, .nan]
    self.ends = ends
    self.buckets = table
    layout = BucketLayout(
      origin: lowest, scale: chosenScale, top: chosenTop, floor: lowest.nextDown, indexed: !table.isEmpty,
      window: chosenWindow)
  }

  /// Runs `body` with the prepared levels borrowed (valid only inside `body`).
  @inlinable
  public func withUnsafeLevels<R>(_ body: (UnsafeCrossingLevels) throws -> R) rethrows -> R {
    try values.withUnsafeBufferPointer { v in
      try distinct.withUnsafeBufferPointer { d in
        try ends.withUnsafeBufferPointer { e in
          try buckets.withUnsafeBufferPointer { b in
            try body(
              UnsafeCrossingLevels(
                values: v, distinct: d.baseAddress, ends: e.baseAddress, buckets: b.baseAddress,
                layout: layout, duplicates: d.count != v.count + 2))
          }
        }
      }
    }
  }
}

/// Borrowed ``CrossingLevels`` (from ``CrossingLevels/withUnsafeLevels(_:)``), what the kernel
/// reads. Valid only while the levels it was borrowed from are alive and unchanged.
public struct UnsafeCrossingLevels {
  /// The levels, non-decreasing.
  public let values: UnsafeBufferPointer<Double>
  @usableFromInline let distinct: UnsafePointer<Double>?
  @usableFromInline let ends: UnsafePointer<Int32>?
  @usableFromInline let buckets: UnsafePointer<Int32>?
  @usableFromInline let layout: BucketLayout
  @usableFromInline let duplicates: Bool

  @inlinable
  init(
    values: UnsafeBufferPointer<Double>, distinct: UnsafePointer<Double>?, ends: UnsafePointer<Int32>?,
    buckets: UnsafePointer<Int32>?, layout: BucketLayout, duplicates: Bool
  ) {
    self.values = values
    self.distinct = distinct
    self.ends = ends
    self.buckets = buckets
    self.layout = layout
    self.duplicates = duplicates
  }

  /// The number of levels, K.
  @inlinable public var count: Int { values.count }

  /// The bucket of `x` (≥ the floor): `(x − origin)·scale` rounded to the nearest integer
  /// (by adding 2⁵², exact below 2³²), at most `top`. Monotone in `x`: a lower bucket means a
  /// lower value. The index and the kernel both call this function, so they agree bit for bit.
  @inlinable @inline(__always)
  static func bucket(_ x: Double, origin: Double, scale: Double, top: Double) -> Int {
    let offset = Swift.min((x - origin) * scale, top)
    return Int(truncatingIfNeeded: UInt32(truncatingIfNeeded: (offset + 0x1p52).bitPattern))
  }
}

/// How the prepared levels map quantities to buckets (shared by ``CrossingLevels`` and
/// ``UnsafeCrossingLevels``).
@usableFromInline
struct BucketLayout: Sendable {
  /// The lowest level: bucket 0 starts there.
  @usableFromInline let origin: Double
  /// Buckets per unit of the levels.
  @usableFromInline let scale: Double
  /// The last bucket, as a `Double` (quantities above the highest level land there).
  @usableFromInline let top: Double
  /// The largest value below every level: the running maximum's start.
  @usableFromInline let floor: Double
  /// Whether the bucket index is used (otherwise the kernel searches).
  @usableFromInline let indexed: Bool
  /// The most distinct levels in one bucket (1 or 2; 0 when not indexed).
  @usableFromInline let window: Int

  @inlinable
  init(origin: Double, scale: Double, top: Double, floor: Double, indexed: Bool, window: Int) {
    self.origin = origin
    self.scale = scale
    self.top = top
    self.floor = floor
    self.indexed = indexed
    self.window = window
  }
}

/// How many distinct levels share a bucket at most, and so how many are compared.
@usableFromInline
protocol BucketWindow {
  /// The number of distinct levels `maximum` crosses, given the first in its bucket.
  static func crossed<Test: CrossingTest>(
    _ test: Test.Type, _ maximum: Double, first: Int, distinct: UnsafePointer<Double>
  ) -> Int
}

/// One distinct level per bucket.
@usableFromInline
enum OneLevelPerBucket: BucketWindow {
  @inlinable @inline(__always)
  static func crossed<Test: CrossingTest>(
    _ test: Test.Type, _ maximum: Double, first: Int, distinct: UnsafePointer<Double>
  ) -> Int {
    first &+ (Test.crosses(maximum, distinct[first]) ? 1 : 0)
  }
}

/// Up to two distinct levels per bucket (the next bucket's first, or the NaN padding, is
/// compared too: it lies above `maximum`, so it is not crossed).
@usableFromInline
enum TwoLevelsPerBucket: BucketWindow {
  @inlinable @inline(__always)
  static func crossed<Test: CrossingTest>(
    _ test: Test.Type, _ maximum: Double, first: Int, distinct: UnsafePointer<Double>
  ) -> Int {
    var crossed = first
    crossed &+= Test.crosses(maximum, distinct[first]) ? 1 : 0
    crossed &+= Test.crosses(maximum, distinct[first &+ 1]) ? 1 : 0
    return crossed
  }
}

/// How a count of crossed distinct levels becomes a count of crossed levels.
@usableFromInline
protocol LevelCount {
  static func levels(crossing distinctCount: Int, ends: UnsafePointer<Int32>) -> Int
}

/// No duplicate levels: the counts are equal.
@usableFromInline
enum DistinctLevels: LevelCount {
  @inlinable @inline(__always)
  static func levels(crossing distinctCount: Int, ends: UnsafePointer<Int32>) -> Int { distinctCount }
}

/// Duplicate levels: every copy of a crossed value is crossed.
@usableFromInline
enum RepeatedLevels: LevelCount {
  @inlinable @inline(__always)
  static func levels(crossing distinctCount: Int, ends: UnsafePointer<Int32>) -> Int { Int(ends[distinctCount]) }
}

/// What the indexed kernel does besides recording steps: nothing, or copy a companion column's
/// value at each step's position (`RunningMaxSweep.firstCrossings(…, gathering:gatheredInto:)`).
@usableFromInline
protocol StepCompanion {
  /// Copies the companion value at `position` to slot `slot` (the slot of the step that
  /// `position` would record).
  func copy(from position: Int, to slot: Int)
}

/// No companion column.
@usableFromInline
struct NoCompanion: StepCompanion {
  @inlinable init() {}
  @inlinable @inline(__always)
  func copy(from position: Int, to slot: Int) {}
}

/// A companion column gathered at the steps.
@usableFromInline
struct CompanionColumn: StepCompanion {
  @usableFromInline let source: UnsafePointer<Double>
  @usableFromInline let destination: UnsafeMutablePointer<Double>

  @inlinable
  init(source: UnsafePointer<Double>, destination: UnsafeMutablePointer<Double>) {
    self.source = source
    self.destination = destination
  }

  @inlinable @inline(__always)
  func copy(from position: Int, to slot: Int) { destination[slot] = source[position] }
}

extension RunningMaxSweep {
  /// The indexed kernel for `>` and `>=` (see ``CrossingLevels``).
  ///
  /// Two phases alternate. **Waiting**: eight positions at a time, the largest quantity is
  /// compared with the lowest uncrossed level; stretches that cross nothing are skipped (NaN
  /// counts as a possible crossing: the next phase looks at it). **Rising**: position by
  /// position, a quantity above the running maximum raises it, and the number of levels the
  /// maximum crosses is read from the bucket index; a step is written at every new maximum (and
  /// the companion value copied; branch-free) and kept only when that number grew. Rising ends
  /// after eight positions without a new maximum. (A rising loop without the branch on "new
  /// maximum" avoids its mispredictions and was faster on the benchmark traces, but executes
  /// 1.5× the instructions at 64 levels, above the benchmarks' instruction ceiling.)
  ///
  /// Exactness: the number of levels crossed by the running maximum is the number of levels
  /// crossed so far (the tests are monotone in the quantity), so a step is recorded exactly
  /// where the sample-by-sample scan finds one. Skipped stretches cross no uncrossed level.
  /// Room: a step is stored at `steps[count]` for every rising position; the rising phase stops
  /// before `count` could reach K, and `count` never exceeds the positions seen, so stores stay
  /// within min(n, K).
  @inlinable @inline(__always)
  static func indexedCrossings<Test: CrossingTest, Window: BucketWindow, Count: LevelCount, Companion: StepCompanion>(
    _ test: Test.Type, _ window: Window.Type, _ counting: Count.Type, quantities: UnsafePointer<Double>,
    range: Range<Int>,
    levels: UnsafeCrossingLevels, inclusive: Bool, into steps: UnsafeMutablePointer<CrossingStep>, companion: Companion
  ) -> Int {
    let values = levels.values.baseAddress.unsafelyUnwrapped
    let k = levels.values.count
    let distinct = levels.distinct.unsafelyUnwrapped
    let buckets = levels.buckets.unsafelyUnwrapped
    let ends = levels.ends.unsafelyUnwrapped
    let origin = levels.layout.origin
    let scale = levels.layout.scale
    let top = levels.layout.top
    let raw = UnsafeRawPointer(quantities)
    var count = 0
    var p = 0
    var maximum = levels.layout.floor
    var i = range.lowerBound
    let end = range.upperBound
    while p < k && i < end {
      // Waiting: skip positions that cannot cross levels[p].
      let next = SIMD2<Double>(repeating: values[p])
      @inline(__always) func mayCross(_ x: SIMD2<Double>) -> Bool {
        inclusive ? any(.!(x .< next)) : any(.!(x .<= next))
      }
      while i &+ 8 <= end {
        let block = raw + i &* 8
        let a = block.loadUnaligned(as: SIMD2<Double>.self)
        let b = block.loadUnaligned(fromByteOffset: 16, as: SIMD2<Double>.self)
        let c = block.loadUnaligned(fromByteOffset: 32, as: SIMD2<Double>.self)
        let d = block.loadUnaligned(fromByteOffset: 48, as: SIMD2<Double>.self)
        // The running maximum of the eight, lane by lane (x86 `maxpd`). A NaN in `top`
        // stays there (and counts as a possible crossing); a NaN among b, c, d is dropped,
        // which loses nothing: NaN crosses no level. So `top` is NaN or at least every value.
        var top = a
        top = top.replacing(with: b, where: b .> top)
        top = top.replacing(with: c, where: c .> top)
        top = top.replacing(with: d, where: d .> top)
        if mayCross(top) { break }
        i &+= 8
      }
      while i &+ 2 <= end {
        if mayCross((raw + i &* 8).loadUnaligned(as: SIMD2<Double>.self)) { break }
        i &+= 2
      }
      // Rising: at most K − count positions, so that `count` stays below K.
      let stop = Swift.min(end, i &+ (k &- count))
      var quiet = Swift.min(stop, i &+ 8)
      while i < quiet {
        let x = quantities[i]
        if x > maximum {
          maximum = x
          let b = UnsafeCrossingLevels.bucket(maximum, origin: origin, scale: scale, top: top)
          let crossed = Window.crossed(test, maximum, first: Int(buckets[b]), distinct: distinct)
          let upper = Count.levels(crossing: crossed, ends: ends)
          steps[count] = CrossingStep(
            lower: Int32(truncatingIfNeeded: p), upper: Int32(truncatingIfNeeded: upper), position: i)
          companion.copy(from: i, to: count)
          count &+= upper != p ? 1 : 0
          p = upper
          quiet = Swift.min(stop, i &+ 9)
        }
        i &+= 1
      }
    }
    return count
  }
}
