/// How a compared quantity crosses a level, for ``RunningMaxSweep``. The test must be monotone
/// in the level: whenever `crosses(q, b)` holds, `crosses(q, a)` holds for every `a ≤ b`.
public protocol CrossingTest {
  /// Whether `quantity` crosses `level`.
  static func crosses(_ quantity: Double, _ level: Double) -> Bool
}

/// `quantity > level` (the recognizer compares with a strict `>`). NaN never crosses.
public enum StrictlyAbove: CrossingTest {
  /// `quantity > level`.
  @inlinable @inline(__always)
  public static func crosses(_ quantity: Double, _ level: Double) -> Bool { quantity > level }
}

/// `quantity >= level` (the recognizer compares with `>=`). NaN never crosses.
public enum AtOrAbove: CrossingTest {
  /// `quantity >= level`.
  @inlinable @inline(__always)
  public static func crosses(_ quantity: Double, _ level: Double) -> Bool { quantity >= level }
}

/// One step of a trace's running maximum that crosses at least one level: levels
/// `lower ..< upper` are all crossed first at `position`.
public struct CrossingStep: Sendable, Hashable {
  /// The first level index crossed here (every lower level was crossed earlier).
  public var lower: Int32
  /// One past the last level index crossed here.
  public var upper: Int32
  /// Where: the index into the quantity column.
  public var position: Int

  /// Creates a step.
  @inlinable
  public init(lower: Int32, upper: Int32, position: Int) {
    self.lower = lower
    self.upper = upper
    self.position = position
  }
}

/// The one-pass threshold sweep kernel: for K sorted levels, the first position at which each
/// level is crossed, found in **one pass** over a trace's compared quantities.
///
/// Level `k` is crossed first at the first position whose quantity crosses it; since the test
/// is monotone in the level, that is the first position at which the **running maximum**
/// crosses it. Each position where the running maximum crosses new levels gives one
/// ``CrossingStep``: "levels `lower ..< upper` are first crossed here". The scan stops once
/// every level is crossed.
///
/// Two ways to find the levels a quantity crosses:
/// - with levels prepared as ``CrossingLevels`` (the fast path, for ``StrictlyAbove`` and
///   ``AtOrAbove``): a bucket index by value answers in O(1) whatever K is, and the kernel
///   skips eight positions at a time while nothing can cross, then follows the running maximum
///   without a branch per step. Cost per trace: O(n), with no per-step search;
/// - with levels as a plain buffer: it compares each quantity with the lowest uncrossed level
///   and, when it crosses, counts the next eight levels without branches, galloping and
///   binary-searching beyond. Cost per trace: O(n + m·log K) for m steps.
///
/// Both give identical steps (tests compare them with a direct scan per level on seeded data
/// with ties, NaN and duplicates). The loops allocate nothing and call nothing; the test is a
/// static type, inlined.
///
/// ```swift
/// // Levels 0.25, 0.5, 0.75 on quantities 0.1, 0.6, 0.4, 0.8 with `>=`:
/// // steps (lower 0, upper 2, position 1) and (lower 2, upper 3, position 3).
/// let levels = CrossingLevels([0.25, 0.5, 0.75])
/// let found = levels.withUnsafeLevels { l in
///   RunningMaxSweep.firstCrossings(AtOrAbove.self, quantities: q, range: 0..<4, levels: l, into: steps)
/// }
/// ```
public enum RunningMaxSweep {
  /// The steps of one trace whose quantities are `quantities[range]`, with prepared levels.
  ///
  /// - Parameters:
  ///   - test: the comparison (``StrictlyAbove`` or ``AtOrAbove`` use the bucket index; any
  ///     other test is searched).
  ///   - quantities: the compared quantity of every position (NaN never crosses).
  ///   - range: the trace's positions, within `quantities`.
  ///   - levels: the K levels, borrowed from ``CrossingLevels``.
  ///   - steps: where the steps go, in order; room for `min(range.count, levels.count)`.
  /// - Returns: the number of steps written. Levels from the last step's `upper` on (all of
  ///   them when it returns 0) are never crossed.
  /// - Complexity: O(n) for the indexed levels, O(n + m·log K) otherwise.
  @inlinable
  public static func firstCrossings<Test: CrossingTest>(
    _ test: Test.Type, quantities: UnsafeBufferPointer<Double>, range: Range<Int>,
    levels: UnsafeCrossingLevels, into steps: UnsafeMutablePointer<CrossingStep>
  ) -> Int {
    preparedCrossings(test, quantities: quantities, range: range, levels: levels, into: steps, companion: NoCompanion())
  }

  /// The steps of one trace whose quantities are `quantities[range]`, with prepared levels, and
  /// the value of a companion column (such as the trace's times) at each step.
  ///
  /// Gives the same steps as the entry point without a companion and, for each step `s`,
  /// `gathered[s] = column[steps[s].position]`. The indexed kernel reads the column
  /// while it scans, at the positions where the running maximum rises, so on data that is not in
  /// cache those reads overlap the scan; reading `column[position]` after the scan instead waits
  /// for a cache miss once per trace (the cold 1000-threshold benchmark sweep spent about a
  /// quarter of its time there).
  ///
  /// - Parameters:
  ///   - test: the comparison (``StrictlyAbove`` or ``AtOrAbove`` use the bucket index; any
  ///     other test is searched, then gathered).
  ///   - quantities: the compared quantity of every position (NaN never crosses).
  ///   - range: the trace's positions, within `quantities`.
  ///   - levels: the K levels, borrowed from ``CrossingLevels``.
  ///   - steps: where the steps go, in order; room for `min(range.count, levels.count)`.
  ///   - column: the companion column, readable at every position of `range`.
  ///   - gathered: receives `column` at each step's position; the same room as `steps`.
  /// - Returns: the number of steps written (and values gathered).
  /// - Complexity: O(n) for the indexed levels, O(n + m·log K) otherwise.
  @inlinable
  public static func firstCrossings<Test: CrossingTest>(
    _ test: Test.Type, quantities: UnsafeBufferPointer<Double>, range: Range<Int>,
    levels: UnsafeCrossingLevels, into steps: UnsafeMutablePointer<CrossingStep>,
    gathering column: UnsafePointer<Double>, gatheredInto gathered: UnsafeMutablePointer<Double>
  ) -> Int {
    preparedCrossings(
      test, quantities: quantities, range: range, levels: levels, into: steps,
      companion: CompanionColumn(source: column, destination: gathered))
  }

  /// Both prepared-levels entry points: picks the indexed kernel's specialization, or searches.
  @inlinable @inline(__always)
  static func preparedCrossings<Test: CrossingTest, Companion: StepCompanion>(
    _ test: Test.Type, quantities: UnsafeBufferPointer<Double>, range: Range<Int>,
    levels: UnsafeCrossingLevels, into steps: UnsafeMutablePointer<CrossingStep>, companion: Companion
  ) -> Int {
    precondition(range.lowerBound >= 0 && range.upperBound <= quantities.count, "range outside the quantities")
    guard levels.count > 0, !range.isEmpty else { return 0 }
    let inclusive = Test.self == AtOrAbove.self
    if levels.layout.indexed && (inclusive || Test.self == StrictlyAbove.self) {
      let q = quantities.baseAddress.unsafelyUnwrapped
      switch (levels.layout.window, levels.duplicates) {
      case (1, false):
        return indexedCrossings(
          test, OneLevelPerBucket.self, DistinctLevels.self, quantities: q, range: range, levels: levels,
          inclusive: inclusive, into: steps, companion: companion)
      case (1, true):
        return indexedCrossings(
          test, OneLevelPerBucket.self, RepeatedLevels.self, quantities: q, range: range, levels: levels,
          inclusive: inclusive, into: steps, companion: companion)
      case (_, false):
        return indexedCrossings(
          test, TwoLevelsPerBucket.self, DistinctLevels.self, quantities: q, range: range, levels: levels,
          inclusive: inclusive, into: steps, companion: companion)
      case (_, true):
        return indexedCrossings(
          test, TwoLevelsPerBucket.self, RepeatedLevels.self, quantities: q, range: range, levels: levels,
          inclusive: inclusive, into: steps, companion: companion)
      }
    }
    let found = searchedCrossings(test, quantities: quantities, range: range, levels: levels.values, into: steps)
    for s in 0..<found { companion.copy(from: steps[s].position, to: s) }
    return found
  }

  /// The steps of one trace whose quantities are `quantities[range]`, with levels as a plain
  /// buffer (searched; see ``CrossingLevels`` for the O(1) index).
  ///
  /// - Parameters:
  ///   - test: the comparison (``StrictlyAbove`` or ``AtOrAbove``).
  ///   - quantities: the compared quantity of every position (NaN never crosses).
  ///   - range: the trace's positions.
  ///   - levels: the K levels, non-decreasing (duplicates allowed).
  ///   - steps: where the steps go, in order; room for `min(range.count, levels.count)`.
  /// - Returns: the number of steps written. Levels from the last step's `upper` on (all of
  ///   them when it returns 0) are never crossed.
  /// - Complexity: O(n + m·log K).
  @inlinable
  public static func firstCrossings<Test: CrossingTest>(
    _ test: Test.Type, quantities: UnsafeBufferPointer<Double>, range: Range<Int>,
    levels: UnsafeBufferPointer<Double>, into steps: UnsafeMutablePointer<CrossingStep>
  ) -> Int {
    searchedCrossings(test, quantities: quantities, range: range, levels: levels, into: steps)
  }

  /// The search kernel: the lowest uncrossed level is compared with each quantity; on a
  /// crossing, the next eight levels are counted without branches (the crossed ones are a
  /// prefix), then, when all eight are crossed, galloping (1, 2, 4, … levels further) and a
  /// branch-free binary search find the first uncrossed level.
  @inlinable
  static func searchedCrossings<Test: CrossingTest>(
    _ test: Test.Type, quantities: UnsafeBufferPointer<Double>, range: Range<Int>,
    levels: UnsafeBufferPointer<Double>, into steps: UnsafeMutablePointer<CrossingStep>
  ) -> Int {
    let k = levels.count
    guard k > 0 else { return 0 }
    var count = 0
    var p = 0
    var next = levels[0]
    var i = range.lowerBound
    let end = range.upperBound
    while i < end {
      let x = quantities[i]
      if Test.crosses(x, next) {
        // Levels p+1 … p+8, counted without branches: the levels are sorted, so the crossed
        // ones are a prefix and their count is the new p (short gaps are the common case).
        var low: Int
        if p &+ 9 <= k {
          var c = 0
          c &+= Test.crosses(x, levels[p &+ 1]) ? 1 : 0
          c &+= Test.crosses(x, levels[p &+ 2]) ? 1 : 0
          c &+= Test.crosses(x, levels[p &+ 3]) ? 1 : 0
          c &+= Test.crosses(x, levels[p &+ 4]) ? 1 : 0
          c &+= Test.crosses(x, levels[p &+ 5]) ? 1 : 0
          c &+= Test.crosses(x, levels[p &+ 6]) ? 1 : 0
          c &+= Test.crosses(x, levels[p &+ 7]) ? 1 : 0
          c &+= Test.crosses(x, levels[p &+ 8]) ? 1 : 0
          low = p &+ 1 &+ c
        } else {
          low = p &+ 1
          while low < k && Test.crosses(x, levels[low]) { low &+= 1 }
        }
        if low == p &+ 9 && low < k {
          // A long gap: gallop (levels[low − 1] is crossed), then a branch-free binary search
          // for the first uncrossed level in the last stretch.
          var b = 1
          while low &+ b &- 1 < k && Test.crosses(x, levels[low &+ b &- 1]) { b &<<= 1 }
          var first = b == 1 ? low : low &+ (b &>> 1)
          var length = Swift.min(low &+ b &- 1, k) &- first
          while length > 0 {
            let half = length &>> 1
            let crossed = Test.crosses(x, levels[first &+ half])
            first = crossed ? first &+ half &+ 1 : first
            length = crossed ? length &- half &- 1 : half
          }
          low = first
        }
        steps[count] = CrossingStep(
          lower: Int32(truncatingIfNeeded: p), upper: Int32(truncatingIfNeeded: low), position: i)
        count &+= 1
        p = low
        if p == k { break }
        next = levels[p]
      }
      i &+= 1
    }
    return count
  }

  /// The steps of many traces stored as one column: trace `j`'s positions are
  /// `offsets[j] ..< offsets[j + 1]`, and every trace is compared with the same levels,
  /// prepared once.
  ///
  /// - Parameters:
  ///   - test: the comparison (``StrictlyAbove`` or ``AtOrAbove`` use the bucket index).
  ///   - quantities: the compared quantities of all traces.
  ///   - offsets: trace boundaries (traces + 1 elements, non-decreasing, within `quantities`).
  ///   - levels: the K levels.
  ///   - steps: where the steps go; room for Σ min(nⱼ, K).
  ///   - stepOffsets: receives trace `j`'s steps as `stepOffsets[j] ..< stepOffsets[j + 1]`
  ///     (offsets.count elements).
  /// - Returns: the number of steps written.
  /// - Precondition: `steps` and `stepOffsets` have the room stated.
  /// - Complexity: O(Σ nⱼ) for the indexed levels.
  @inlinable
  public static func firstCrossings<Test: CrossingTest>(
    _ test: Test.Type, quantities: UnsafeBufferPointer<Double>, offsets: UnsafeBufferPointer<Int>,
    levels: CrossingLevels, steps: UnsafeMutableBufferPointer<CrossingStep>,
    stepOffsets: UnsafeMutableBufferPointer<Int>
  ) -> Int {
    levels.withUnsafeLevels { l in
      forEachTrace(offsets: offsets, levels: l.count, steps: steps, stepOffsets: stepOffsets) { range, out in
        firstCrossings(test, quantities: quantities, range: range, levels: l, into: out)
      }
    }
  }

  /// The steps of many traces stored as one column: trace `j`'s positions are
  /// `offsets[j] ..< offsets[j + 1]`, and every trace is compared with the same levels.
  ///
  /// - Parameters:
  ///   - test: the comparison (``StrictlyAbove`` or ``AtOrAbove``).
  ///   - quantities: the compared quantities of all traces.
  ///   - offsets: trace boundaries (traces + 1 elements, non-decreasing).
  ///   - levels: the K levels, non-decreasing.
  ///   - steps: where the steps go; room for Σ min(nⱼ, K).
  ///   - stepOffsets: receives trace `j`'s steps as `stepOffsets[j] ..< stepOffsets[j + 1]`
  ///     (offsets.count elements).
  /// - Returns: the number of steps written.
  /// - Precondition: `steps` and `stepOffsets` have the room stated.
  /// - Complexity: O(Σ (nⱼ + mⱼ·log K)).
  @inlinable
  public static func firstCrossings<Test: CrossingTest>(
    _ test: Test.Type, quantities: UnsafeBufferPointer<Double>, offsets: UnsafeBufferPointer<Int>,
    levels: UnsafeBufferPointer<Double>, steps: UnsafeMutableBufferPointer<CrossingStep>,
    stepOffsets: UnsafeMutableBufferPointer<Int>
  ) -> Int {
    forEachTrace(offsets: offsets, levels: levels.count, steps: steps, stepOffsets: stepOffsets) { range, out in
      searchedCrossings(test, quantities: quantities, range: range, levels: levels, into: out)
    }
  }

  /// Runs `kernel` on every trace of `offsets` with its room in `steps`, filling `stepOffsets`.
  @inlinable @inline(__always)
  static func forEachTrace(
    offsets: UnsafeBufferPointer<Int>, levels k: Int, steps: UnsafeMutableBufferPointer<CrossingStep>,
    stepOffsets: UnsafeMutableBufferPointer<Int>, _ kernel: (Range<Int>, UnsafeMutablePointer<CrossingStep>) -> Int
  ) -> Int {
    guard offsets.count > 0 else { return 0 }
    precondition(stepOffsets.count >= offsets.count, "stepOffsets needs one element per offset")
    guard let base = steps.baseAddress else {
      precondition(k == 0 || offsets.first == offsets.last, "no room for steps")
      for j in 0..<offsets.count { stepOffsets[j] = 0 }
      return 0
    }
    var total = 0
    stepOffsets[0] = 0
    for j in 0..<(offsets.count - 1) {
      let range = offsets[j]..<offsets[j + 1]
      precondition(steps.count - total >= Swift.min(range.count, k), "no room for steps")
      total &+= kernel(range, base + total)
      stepOffsets[j + 1] = total
    }
    return total
  }
}
