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
/// crosses it. The kernel keeps `p`, the lowest level not yet crossed, and compares each
/// quantity with `levels[p]` only (one comparison per position). When a quantity crosses it, the
/// new `p` — the first level it does not cross — is found by galloping (probing `p + 1, p + 2,
/// p + 4, …`) and a binary search inside the last gap, and one ``CrossingStep`` records the
/// range of levels crossed there. The scan stops once every level is crossed.
///
/// Cost per trace: O(n + m·log K) for n positions, K levels and m steps (m ≤ min(n, K)); levels
/// never crossed cost nothing, so K = 1000 costs little more than K = 1 on short traces.
/// The loops allocate nothing and call nothing; the test is a static type, inlined.
///
/// ```swift
/// // Levels 0.25, 0.5, 0.75 on quantities 0.1, 0.6, 0.4, 0.8 with `>=`:
/// // steps (lower 0, upper 2, position 1) and (lower 2, upper 3, position 3).
/// ```
public enum RunningMaxSweep {
  /// The steps of one trace whose quantities are `quantities[range]`.
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
        // Gallop: levels[p + b/2] is crossed; look for the first uncrossed level.
        var b = 1
        while p &+ b < k && Test.crosses(x, levels[p &+ b]) { b &<<= 1 }
        var low = p &+ (b &>> 1) &+ 1
        var high = Swift.min(p &+ b, k)
        while low < high {
          let middle = (low &+ high) &>> 1
          if Test.crosses(x, levels[middle]) { low = middle &+ 1 } else { high = middle }
        }
        steps[count] = CrossingStep(lower: Int32(truncatingIfNeeded: p), upper: Int32(truncatingIfNeeded: low), position: i)
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
    guard offsets.count > 0 else { return 0 }
    precondition(stepOffsets.count >= offsets.count, "stepOffsets needs one element per offset")
    guard let base = steps.baseAddress else {
      precondition(levels.isEmpty || offsets.first == offsets.last, "no room for steps")
      for j in 0..<offsets.count { stepOffsets[j] = 0 }
      return 0
    }
    var total = 0
    stepOffsets[0] = 0
    for j in 0..<(offsets.count - 1) {
      let range = offsets[j]..<offsets[j + 1]
      precondition(steps.count - total >= Swift.min(range.count, levels.count), "no room for steps")
      total &+= firstCrossings(test, quantities: quantities, range: range, levels: levels, into: base + total)
      stepOffsets[j + 1] = total
    }
    return total
  }
}
