/// The raw-force scans of the fast path
/// (``ForceRecognizer/skipInertSamples(force:from:to:maxForce:)``): each returns the first index
/// in `from..<to` whose force meets its condition, or `to`. Bounds come from ``FastPathBound``.
@usableFromInline
enum ForceScan {
  /// The first index whose force is not below `bound` (`!(force < bound)`: NaN stops).
  @inlinable @inline(__always)
  static func firstNotBelow(_ force: UnsafeBufferPointer<Double>, _ bound: Double, from: Int, to: Int) -> Int {
    var i = from
    while i < to && force[i] < bound { i &+= 1 }
    return i
  }

  /// The first index whose force is above `bound` (`force > bound`: NaN does not stop).
  @inlinable @inline(__always)
  static func firstAbove(_ force: UnsafeBufferPointer<Double>, _ bound: Double, from: Int, to: Int) -> Int {
    var i = from
    while i < to && !(force[i] > bound) { i &+= 1 }
    return i
  }

  /// The first index whose force is not above `bound` (`!(force > bound)`: NaN stops).
  @inlinable @inline(__always)
  static func firstNotAbove(_ force: UnsafeBufferPointer<Double>, _ bound: Double, from: Int, to: Int) -> Int {
    var i = from
    while i < to && force[i] > bound { i &+= 1 }
    return i
  }

  /// The first index whose force is at least `upper` or at most `lower`.
  @inlinable @inline(__always)
  static func firstOutside(
    _ force: UnsafeBufferPointer<Double>, atLeast upper: Double, atMost lower: Double, from: Int, to: Int
  ) -> Int {
    var i = from
    while i < to {
      let f = force[i]
      if f >= upper || f <= lower { break }
      i &+= 1
    }
    return i
  }

  /// The first index whose force is non-zero and at least `bound` (`atLeast`) or at most it.
  @inlinable @inline(__always)
  static func firstNonZero(
    _ force: UnsafeBufferPointer<Double>, atLeast: Bool, _ bound: Double, from: Int, to: Int
  ) -> Int {
    var i = from
    while i < to {
      let f = force[i]
      if f != 0 && (atLeast ? f >= bound : f <= bound) { break }
      i &+= 1
    }
    return i
  }
}
