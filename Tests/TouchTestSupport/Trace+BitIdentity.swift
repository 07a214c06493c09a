public import TouchCore

extension Trace {
  /// Whether `other` holds the same values as this trace bit for bit.
  ///
  /// Stricter than `==`, which treats `0.0` and `-0.0` as equal: every `Double` (samples,
  /// `press_at`, `max_force`) must have the same bit pattern. Use it to test that writing and
  /// reading a trace loses nothing.
  public func isBitIdentical(to other: Trace) -> Bool {
    func same(_ a: [Double]?, _ b: [Double]?) -> Bool {
      guard let a, let b else { return a == nil && b == nil }
      return a.count == b.count && zip(a, b).allSatisfy { $0.bitPattern == $1.bitPattern }
    }
    return self == other && same(t, other.t) && same(force, other.force) && same(x, other.x)
      && same(y, other.y) && same(radius, other.radius)
      && same(metadata.pressAt, other.metadata.pressAt)
      && metadata.maxForce?.bitPattern == other.metadata.maxForce?.bitPattern
  }
}
