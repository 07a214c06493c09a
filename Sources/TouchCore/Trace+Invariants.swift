extension Trace {
  /// Traps if the columns differ in length. Compiled only in debug builds
  /// (`TOUCH_INTERNAL_CHECKS`); a no-op in release builds.
  @inlinable @inline(__always)
  public func checkInvariants() {
    #if TOUCH_INTERNAL_CHECKS
      precondition(force.count == t.count, "force column length differs from t")
      precondition(phase.count == t.count, "phase column length differs from t")
      precondition(x.map { $0.count == t.count } ?? true, "x column length differs from t")
      precondition(y.map { $0.count == t.count } ?? true, "y column length differs from t")
      precondition(radius.map { $0.count == t.count } ?? true, "radius column length differs from t")
    #endif
  }
}
