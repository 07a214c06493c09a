/// Checks samples one at a time as they are appended to a trace, so readers can report the
/// exact position of the first bad sample without a second pass.
///
/// Rules: time never decreases (equal is allowed); force is finite, ≥ 0 and at most the maximum
/// possible force (1e-9 relative tolerance); when phases are given, the first sample is `began`,
/// no later sample is `began`, and nothing follows `ended` or `cancelled`.
///
/// Time must also keep the resolution the analysis needs, 1 µs (recognizer timers are 10 ms,
/// sample intervals 1–17 ms, latencies are reported to 0.1 ms):
/// - every time lies within ±``maximumTimeMagnitude`` (2³² s ≈ 136 years), where the spacing of
///   representable Doubles is at most 2⁻²⁰ s ≈ 0.95 µs; Unix times (about 1.8e9 s today, up to
///   the year 2106) fit, nanosecond or microsecond counts read as seconds do not;
/// - a trace spans at most ``maximumTimeSpan`` (1e6 s ≈ 11.6 days) from its first sample to its
///   last, which bounds the work of everything that steps through time (resampling grids,
///   recognizer timers). One contact lasts seconds; a longer span means times in the wrong unit.
///
/// Such times are refused, not repaired: rebase them (subtract the first time of the trace) or
/// convert them to seconds.
public struct SampleValidator: Sendable {
  /// Relative tolerance for force above the maximum possible force.
  public static var maximumForceTolerance: Double { 1e-9 }
  /// The largest magnitude of a sample time, seconds: 2³² = 4 294 967 296 s. Below it Doubles
  /// are at most 2⁻²⁰ s (0.95 µs) apart.
  public static var maximumTimeMagnitude: Double { 4_294_967_296 }
  /// The longest time span of one trace, seconds (last time − first time): 1e6 s.
  public static var maximumTimeSpan: Double { 1e6 }

  /// The number of samples checked so far.
  public var count: Int { checked }
  @usableFromInline var checked = 0
  /// The maximum possible force the forces are checked against; `nil` when unknown.
  public let maxForce: Double?
  @usableFromInline var lastT = -Double.infinity
  /// The latest time allowed: the first time plus ``maximumTimeSpan`` (before the first sample,
  /// ``maximumTimeMagnitude``).
  @usableFromInline var latestT = SampleValidator.maximumTimeMagnitude
  @usableFromInline var closedBy: TouchPhase?
  @usableFromInline let forceLimit: Double

  /// Creates a validator for one trace.
  /// - Parameter maxForce: the trace's maximum possible force, device units; `nil` when unknown.
  public init(maxForce: Double?) {
    self.maxForce = maxForce
    self.forceLimit = maxForce.map { $0 * (1 + Self.maximumForceTolerance) } ?? .infinity
  }

  /// Checks the next sample and counts it.
  ///
  /// - Parameters:
  ///   - t: sample time, seconds.
  ///   - force: sample force, device units.
  ///   - phase: the sample's phase, or `nil` when the source has no phases (order is not checked).
  /// - Returns: the first rule the sample breaks, or `nil`.
  @inlinable
  public mutating func check(t: Double, force: Double, phase: TouchPhase?) -> TraceProblem? {
    if accept(t: t, force: force, phase: phase) { return nil }
    defer { checked += 1 }
    return diagnose(t: t, force: force, phase: phase)
  }

  /// Checks the next sample; when it breaks no rule, counts it and returns `true`. Otherwise
  /// returns `false` and changes nothing (``check(t:force:phase:)`` then says why).
  @inlinable @inline(__always)
  public mutating func accept(t: Double, force: Double, phase: TouchPhase?) -> Bool {
    // `t >= lastT` and `force <= forceLimit` are false for NaN; infinities fail `t <= latestT`
    // and `isFinite`.
    guard closedBy == nil, t >= lastT, t <= latestT, t >= -Self.maximumTimeMagnitude, force >= 0,
      force <= forceLimit, force.isFinite
    else {
      return false
    }
    if let phase {
      guard (checked == 0) == (phase == .began) else { return false }
      if phase == .ended || phase == .cancelled { closedBy = phase }
    }
    if checked == 0 { latestT = Swift.min(t + Self.maximumTimeSpan, Self.maximumTimeMagnitude) }
    lastT = t
    checked += 1
    return true
  }

  /// Why a sample that ``accept(t:force:phase:)`` refused breaks the rules.
  @usableFromInline
  func diagnose(t: Double, force: Double, phase: TouchPhase?) -> TraceProblem {
    if t.isNaN { return .notANumberValue(field: "t", text: "\(t)") }
    if !t.isFinite { return .infinite(field: "t", text: "\(t)") }
    if force.isNaN { return .notANumberValue(field: "force", text: "\(force)") }
    if !force.isFinite { return .infinite(field: "force", text: "\(force)") }
    if let closedBy { return .sampleAfterEnd(closedBy: closedBy) }
    if t < lastT { return .timeDecreasing(previous: lastT, current: t) }
    if abs(t) > Self.maximumTimeMagnitude { return .timeOutOfRange(t) }
    if t > latestT { return .timeSpanTooLong(first: latestT - Self.maximumTimeSpan, current: t) }
    if force < 0 { return .negativeForce(force) }
    if let maxForce, force > forceLimit { return .forceAboveMaximum(force: force, maximum: maxForce) }
    if let phase {
      if checked == 0 { return .firstNotBegan(phase) }
      return .beganNotFirst(sample: checked)
    }
    preconditionFailure("diagnose called for a valid sample")
  }
}

extension Trace {
  /// Checks the whole trace against the rules of ``SampleValidator`` and the trace-level rules
  /// (a positive maximum force, finite positions, non-negative radius, strictly increasing
  /// `press_at` inside the trace's time span, at least one sample).
  ///
  /// - Returns: the first problem with the index of the sample it concerns (`nil` for
  ///   trace-level problems), or `nil` when the trace is valid.
  /// - Complexity: O(n) in the number of samples.
  public func validate() -> (sample: Int?, problem: TraceProblem)? {
    if let maxForce = metadata.maxForce, !(maxForce > 0) || !maxForce.isFinite {
      return (nil, .invalidMaximumForce(maxForce))
    }
    if t.isEmpty { return (nil, .emptyTrace) }
    var validator = SampleValidator(maxForce: metadata.maxForce)
    for i in t.indices {
      if let problem = validator.check(t: t[i], force: force[i], phase: phase[i]) {
        return (i, problem)
      }
      for (name, column) in [("x", x), ("y", y), ("radius", radius)] {
        guard let value = column?[i] else { continue }
        if value.isNaN { return (i, .notANumberValue(field: name, text: "\(value)")) }
        if !value.isFinite { return (i, .infinite(field: name, text: "\(value)")) }
        if name == "radius", value < 0 { return (i, .negativeRadius(value)) }
      }
    }
    if let problem = Self.checkPressAt(metadata.pressAt, start: t[0], end: t[t.count - 1]) {
      return (nil, problem)
    }
    return nil
  }

  /// Checks reference press times against a trace's time span (seconds): strictly increasing and
  /// inside `start...end`.
  public static func checkPressAt(_ pressAt: [Double], start: Double, end: Double) -> TraceProblem? {
    var previous = -Double.infinity
    for time in pressAt {
      if time.isNaN { return .notANumberValue(field: "press_at", text: "\(time)") }
      if !time.isFinite { return .infinite(field: "press_at", text: "\(time)") }
      if time <= previous { return .pressAtNotIncreasing }
      if time < start || time > end { return .pressAtOutsideTrace(time: time, start: start, end: end) }
      previous = time
    }
    return nil
  }
}
