/// V6 `df-continuous`: DFContinuousForceTouchGestureRecognizer (Daniel Fogg) — "dwell or
/// trigger": the delegate's `forceTouchRecognized` fires `forceTouchDelay` after a touch that
/// started firmly, or at once when force reaches `triggeringForceTouchPressure` after a soft start.
///
/// Rules (faithful defaults):
/// - Detection starts on the touch-down or a moved sample with `force > 1.0` — a **hard-coded**
///   constant, not `baseForceTouchPressure` (`faithfulHardCodedStart`). At detection
///   `initialForce = force` stored in an **integer** (truncated: 2.9 → 2;
///   `faithfulIntTruncation`); if `initialForce > baseForceTouchPressure` the delay timer starts.
///   The timer is **not cancelled** when the force drops (`faithfulUncancelledDelay`; off: a
///   moved sample with force ≤ `baseForceTouchPressure` cancels it).
/// - After detection, a moved sample with `initialForce < trigger` and `force >= trigger`
///   fires at once (if not fired yet).
/// - Firing stops both timers; the recognizer never leaves possible while pressing (the action
///   is a delegate callback).
/// - Every touch-down and moved sample restarts a `timeout` inactivity timer; when it fires →
///   failed. A finger that rests without any force change is therefore failed after `timeout`.
/// - Lift: detected → recognized (ended), else cancelled. Cancel → failed. Leaving the view
///   (failed in the original) is not modeled: traces carry no view bounds.
public struct DFContinuousForceTouch: ConfigurableRecognizer {
  /// Force above which (after truncation) the delay timer starts, force units.
  public let baseForceTouchPressure: Double
  /// Force at which a soft-started touch fires at once, force units (`>=`).
  public let triggeringForceTouchPressure: Double
  /// Dwell time before the timer fires, seconds.
  public let forceTouchDelay: Double
  /// Inactivity timeout, seconds.
  public let timeout: Double
  /// `initialForce` is an integer (truncates).
  public let faithfulIntTruncation: Bool
  /// Detection starts at the hard-coded force 1.0 instead of `baseForceTouchPressure`.
  public let faithfulHardCodedStart: Bool
  /// The delay timer keeps running when the force drops.
  public let faithfulUncancelledDelay: Bool

  @usableFromInline var detected = false
  @usableFromInline var fired = false
  @usableFromInline var initialForce: Double = 0
  @usableFromInline var delayDeadline = Double.infinity
  @usableFromInline var timeoutDeadline = Double.infinity

  /// The `baseForceTouchPressure` parameter.
  public static let baseForceTouchPressure = Parameter<Double>.number(
    "baseForceTouchPressure", .force, default: 1.0, minimum: 0,
    "initial force above which (after truncation) the delay timer starts")
  /// The `triggeringForceTouchPressure` parameter.
  public static let triggeringForceTouchPressure = Parameter<Double>.number(
    "triggeringForceTouchPressure", .force, default: 2.5, minimum: 0,
    "force that fires at once after a softer start (>=)")
  /// The `forceTouchDelay` parameter.
  public static let forceTouchDelay = Parameter<Double>.number(
    "forceTouchDelay", .seconds, default: 0.5, minimum: 0, inclusive: false,
    "dwell after detection before forceTouchRecognized")
  /// The `timeout` parameter.
  public static let timeout = Parameter<Double>.number(
    "timeout", .seconds, default: 1.5, minimum: 0, inclusive: false,
    "fail when no touch event arrives for this long")
  /// The `faithfulIntTruncation` parameter.
  public static let faithfulIntTruncation = Parameter<Bool>.flag(
    "faithfulIntTruncation", default: true, "initialForce is an NSInteger (truncated)")
  /// The `faithfulHardCodedStart` parameter.
  public static let faithfulHardCodedStart = Parameter<Bool>.flag(
    "faithfulHardCodedStart", default: true,
    "detection starts at force > 1.0, ignoring baseForceTouchPressure")
  /// The `faithfulUncancelledDelay` parameter.
  public static let faithfulUncancelledDelay = Parameter<Bool>.flag(
    "faithfulUncancelledDelay", default: true,
    "the delay timer keeps running when the force drops")

  /// The variant's description.
  public static let descriptor = RecognizerDescription(
    name: "df-continuous", code: "V6", title: "DFContinuousForceTouchGestureRecognizer (Fogg)",
    summary:
      "Raw force over a base level starts a delay timer; a jump to the trigger fires at once; fails after inactivity.",
    source: .github(
      "foggzilla/DFContinuousForceTouchGestureRecognizer",
      files: "DFContinuousForceTouchGestureRecognizer/DFContinuousForceTouchGestureRecognizer.m", version: "d838b1e"),
    style: .discrete,
    actionEvent:
      "forceTouchRecognized: forceTouchDelay after a detection with trunc(force) > base, or a moved sample with force >= trigger after a softer detection",
    rules:
      "Detects at force > 1.0 (hard-coded); initialForce = trunc(force); if initialForce > base, a delay timer fires forceTouchRecognized (not cancelled when force drops); else a later moved sample with force >= trigger fires at once. Every event restarts a timeout → failed. Never leaves possible before lift; lift: detected → recognized, else cancelled.",
    parameters: [
      Self.baseForceTouchPressure.spec, Self.triggeringForceTouchPressure.spec, Self.forceTouchDelay.spec,
      Self.timeout.spec, Self.faithfulIntTruncation.spec, Self.faithfulHardCodedStart.spec,
      Self.faithfulUncancelledDelay.spec,
    ],
    sweptByDefault: Self.baseForceTouchPressure.name)

  /// Builds from resolved parameter values.
  public init(parameters: ParameterValues) throws(ParameterError) {
    baseForceTouchPressure = parameters[Self.baseForceTouchPressure]
    triggeringForceTouchPressure = parameters[Self.triggeringForceTouchPressure]
    forceTouchDelay = parameters[Self.forceTouchDelay]
    timeout = parameters[Self.timeout]
    faithfulIntTruncation = parameters[Self.faithfulIntTruncation]
    faithfulHardCodedStart = parameters[Self.faithfulHardCodedStart]
    faithfulUncancelledDelay = parameters[Self.faithfulUncancelledDelay]
  }

  /// Creates the recognizer with the defaults except those given; invalid values trap.
  public init(
    baseForceTouchPressure: Double = 1.0, triggeringForceTouchPressure: Double = 2.5,
    forceTouchDelay: Double = 0.5, timeout: Double = 1.5, faithfulIntTruncation: Bool = true,
    faithfulHardCodedStart: Bool = true, faithfulUncancelledDelay: Bool = true
  ) {
    self = .checked(
      Self.baseForceTouchPressure(baseForceTouchPressure),
      Self.triggeringForceTouchPressure(triggeringForceTouchPressure), Self.forceTouchDelay(forceTouchDelay),
      Self.timeout(timeout), Self.faithfulIntTruncation(faithfulIntTruncation),
      Self.faithfulHardCodedStart(faithfulHardCodedStart), Self.faithfulUncancelledDelay(faithfulUncancelledDelay))
  }

  /// The configured values.
  public var parameters: ParameterValues {
    Self.descriptor.defaults.setting(Self.baseForceTouchPressure, to: baseForceTouchPressure)
      .setting(Self.triggeringForceTouchPressure, to: triggeringForceTouchPressure)
      .setting(Self.forceTouchDelay, to: forceTouchDelay)
      .setting(Self.timeout, to: timeout)
      .setting(Self.faithfulIntTruncation, to: faithfulIntTruncation)
      .setting(Self.faithfulHardCodedStart, to: faithfulHardCodedStart)
      .setting(Self.faithfulUncancelledDelay, to: faithfulUncancelledDelay)
  }

  /// Delay and inactivity timers.
  @inlinable public static var usesTimers: Bool { true }

  /// The earlier of the two timers.
  @inlinable public var timerDeadline: Double { Swift.min(delayDeadline, timeoutDeadline) }

  @inlinable var startLevel: Double { faithfulHardCodedStart ? 1.0 : baseForceTouchPressure }

  @inlinable
  mutating func start(_ sample: TouchSample) {
    detected = true
    // NSInteger conversion truncates toward zero (Int64(_:) does too, without libm's trunc).
    let f = sample.force
    initialForce = faithfulIntTruncation && abs(f) < 9e18 ? Double(Int64(f)) : f
    if initialForce > baseForceTouchPressure { delayDeadline = sample.t + forceTouchDelay }
  }

  @inlinable
  mutating func fire(_ sample: TouchSample, _ context: inout GestureContext) {
    fired = true
    delayDeadline = .infinity
    timeoutDeadline = .infinity
    context.act(at: sample)
  }

  @inlinable
  public mutating func touchesBegan(_ sample: TouchSample, _ context: inout GestureContext) {
    detected = false
    if sample.force > startLevel { start(sample) }
    timeoutDeadline = sample.t + timeout
  }

  @inlinable
  public mutating func touchesMoved(_ sample: TouchSample, _ context: inout GestureContext) {
    timeoutDeadline = .infinity
    if detected {
      if initialForce < triggeringForceTouchPressure && sample.force >= triggeringForceTouchPressure
        && !fired
      {
        fire(sample, &context)
      }
      if !faithfulUncancelledDelay && sample.force <= baseForceTouchPressure {
        delayDeadline = .infinity
      }
    } else if sample.force > startLevel {
      start(sample)
    }
    timeoutDeadline = sample.t + timeout
  }

  @inlinable
  public mutating func touchesEnded(_ sample: TouchSample, _ context: inout GestureContext) {
    delayDeadline = .infinity
    timeoutDeadline = .infinity
    context.setState(detected ? .ended : .cancelled, at: sample)
    detected = false
    fired = false
  }

  @inlinable
  public mutating func touchesCancelled(_ sample: TouchSample, _ context: inout GestureContext) {
    delayDeadline = .infinity
    timeoutDeadline = .infinity
    detected = false
    fired = false
    context.setState(.failed, at: sample)
  }

  @inlinable
  public mutating func timerFired(_ sample: TouchSample, _ context: inout GestureContext) {
    if delayDeadline <= timeoutDeadline {
      fire(sample, &context)
    } else {
      timeoutDeadline = .infinity
      context.setState(.failed, at: sample)
    }
  }

  @inlinable
  public mutating func reset() {
    fired = false
    initialForce = 0
    delayDeadline = .infinity
    timeoutDeadline = .infinity
  }
}
