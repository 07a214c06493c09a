/// `stable-press` (ours): a force press that tries to keep the latency of a plain threshold while
/// rejecting the classic false positives — hard taps and accidental force during drags — and the
/// press/release chatter of single-threshold designs.
///
/// Per delivered sample (touch-down and moved samples), on the normalized force `n`:
/// 1. **Drag gate**: before the first press, moving farther than `movementLimit` from the
///    touch-down position fails the contact (it is a scroll or drag; NaN: off).
/// 2. **Dwell = causal running-minimum filter**: when `n >= pressThreshold` the press arms; a
///    sample with `n < pressThreshold` disarms it. The press is recognized (the action) when the
///    force has stayed at or above the threshold for `dwellTime` — i.e. when the minimum of the
///    force over the last `dwellTime` reaches the threshold. Between samples the force is held
///    (UIKit sends nothing while it does not change), so the condition is decided exactly by a
///    timer at the deadline, with no sample needed.
/// 3. **Tap guard**: a press is never recognized before `tapTimeout` after touch-down (a contact
///    lifted sooner is a tap, however hard); the deadline is the later of the two.
/// 4. **Hysteresis**: a press releases when `n < releaseThreshold` (a flap when the finger still
///    touches) and can press again (`rearm`).
///
/// States: possible → began (first press) → changed (later releases and presses) → ended at
/// lift; a contact without a press fails. See the DesigningStablePress article for the reasoning behind
/// the defaults (chosen a priori, not fitted to any dataset).
public struct StablePress: ConfigurableRecognizer, UniformSampleRecognizer {
  /// Normalized force that arms a press (`>=`).
  public let pressThreshold: Double
  /// Normalized force below which a press releases (`<`).
  public let releaseThreshold: Double
  /// How long the force must stay at or above the press threshold, seconds.
  public let dwellTime: Double
  /// Shortest contact before a press can be recognized, seconds.
  public let tapTimeout: Double
  /// Movement from touch-down that marks the contact as a drag before any press, points; NaN: off.
  public let movementLimit: Double
  /// Whether a released press can press again within the contact.
  public let rearm: Bool

  @usableFromInline var downT: Double = 0
  @usableFromInline var down = TouchOrigin()
  @usableFromInline var phase: UInt8 = 0  // 0 idle, 1 arming, 2 pressed, 3 done (no rearm)
  @usableFromInline var deadline = Double.infinity
  @usableFromInline var everPressed = false

  /// The `pressThreshold` parameter.
  public static let pressThreshold = Parameter<Double>.number(
    "pressThreshold", .normalizedForce, default: 0.45, minimum: 0, maximum: 1,
    "normalized force that arms a press (>=); about three times an average touch")
  /// The `releaseThreshold` parameter.
  public static let releaseThreshold = Parameter<Double>.number(
    "releaseThreshold", .normalizedForce, default: 0.3, minimum: 0, maximum: 1,
    "normalized force below which a press releases (<); at most pressThreshold")
  /// The `dwellTime` parameter.
  public static let dwellTime = Parameter<Double>.number(
    "dwellTime", .seconds, default: 0.03, minimum: 0,
    "time the force must stay at or above pressThreshold (a running-minimum filter)")
  /// The `tapTimeout` parameter.
  public static let tapTimeout = Parameter<Double>.number(
    "tapTimeout", .seconds, default: 0.1, minimum: 0,
    "shortest contact before a press can be recognized (Android's TAP_TIMEOUT)")
  /// The `movementLimit` parameter.
  public static let movementLimit = Parameter<Double>.number(
    "movementLimit", .points, default: 10, minimum: 0, nan: "off",
    "movement before the first press that marks the contact as a drag")
  /// The `rearm` parameter.
  public static let rearm = Parameter<Bool>.flag(
    "rearm", default: true, "a released press can press again in the same contact")

  /// The variant's description.
  public static let descriptor = RecognizerDescription(
    name: "stable-press", code: "ours", title: "Stable press (dwell + tap guard + hysteresis + drag gate)",
    summary: "Ours: dwell above pressThreshold, guarded against taps and drags, released below releaseThreshold.",
    source: RecognizerSource(
      library: "TouchTrace", version: nil, link: nil,
      reference: "TouchTrace (this package); see the DesigningStablePress article"),
    style: .continuous,
    actionEvent:
      "press: max(crossing + dwellTime, touch-down + tapTimeout), if n stayed >= pressThreshold since the crossing",
    releaseEvent: "n fell below releaseThreshold (a flap when the finger still touches)",
    rules:
      "Before the first press, moving farther than movementLimit fails the contact. n >= pressThreshold arms; a sample below disarms. The press fires at max(arm time + dwellTime, touch-down + tapTimeout) by timer. Release at n < releaseThreshold; re-press allowed (rearm). Lift: ended if it pressed, else failed.",
    parameters: [
      Self.pressThreshold.spec.compared(as: .normalized), Self.releaseThreshold.spec.compared(as: .normalized),
      Self.dwellTime.spec, Self.tapTimeout.spec, Self.movementLimit.spec, Self.rearm.spec,
    ],
    sweptByDefault: Self.pressThreshold.name)

  /// Builds from resolved parameter values.
  ///
  /// - Throws: ``ParameterError`` when `releaseThreshold > pressThreshold`.
  /// `pressThreshold` only in `n >= pressThreshold` and `n < pressThreshold`; `releaseThreshold`
  /// only in `n < releaseThreshold`.
  public func thresholdSide(of parameter: String) -> ThresholdSide? {
    parameter == Self.pressThreshold.name || parameter == Self.releaseThreshold.name ? .atLeast : nil
  }

  public init(parameters: ParameterValues) throws(ParameterError) {
    pressThreshold = parameters[Self.pressThreshold]
    releaseThreshold = parameters[Self.releaseThreshold]
    dwellTime = parameters[Self.dwellTime]
    tapTimeout = parameters[Self.tapTimeout]
    movementLimit = parameters[Self.movementLimit]
    rearm = parameters[Self.rearm]
    try Self.require(Self.releaseThreshold, .atMost, Self.pressThreshold, in: parameters)
  }

  /// Creates the recognizer; invalid values trap.
  public init(
    pressThreshold: Double = 0.45, releaseThreshold: Double = 0.3, dwellTime: Double = 0.03,
    tapTimeout: Double = 0.1, movementLimit: Double = 10, rearm: Bool = true
  ) {
    self = .checked(
      Self.pressThreshold(pressThreshold), Self.releaseThreshold(releaseThreshold), Self.dwellTime(dwellTime),
      Self.tapTimeout(tapTimeout), Self.movementLimit(movementLimit), Self.rearm(rearm))
  }

  /// The configured values.
  public var parameters: ParameterValues {
    Self.descriptor.defaults.setting(Self.pressThreshold, to: pressThreshold)
      .setting(Self.releaseThreshold, to: releaseThreshold)
      .setting(Self.dwellTime, to: dwellTime)
      .setting(Self.tapTimeout, to: tapTimeout)
      .setting(Self.movementLimit, to: movementLimit)
      .setting(Self.rearm, to: rearm)
  }

  /// The press timer.
  @inlinable public static var usesTimers: Bool { true }

  /// The press deadline while armed.
  @inlinable public var timerDeadline: Double { deadline }

  @inlinable
  mutating func press(_ sample: TouchSample, _ context: inout GestureContext) {
    phase = 2
    deadline = .infinity
    everPressed = true
    context.setState(context.state == .possible ? .began : .changed, acting: .action, at: sample)
  }

  /// Evaluates a touch-down or moved sample.
  @inlinable @inline(__always)
  public mutating func handle(_ sample: TouchSample, _ context: inout GestureContext) {
    if !everPressed && !movementLimit.isNaN {
      if down.isFarther(sample, than: movementLimit) {
        deadline = .infinity
        context.setState(.failed, at: sample)
        return
      }
    }
    let n = sample.force / sample.maxForce
    switch phase {
    case 0:
      if n >= pressThreshold {
        let due = Swift.max(sample.t + dwellTime, downT + tapTimeout)
        if due <= sample.t {
          press(sample, &context)
        } else {
          phase = 1
          deadline = due
        }
      }
    case 1:
      if n < pressThreshold {
        phase = 0
        deadline = .infinity
      }
    case 2:
      if n < releaseThreshold {
        phase = rearm ? 0 : 3
        context.setState(.changed, acting: .release, at: sample)
      }
    default:
      break
    }
  }

  @inlinable
  public mutating func touchesBegan(_ sample: TouchSample, _ context: inout GestureContext) {
    downT = sample.t
    down.record(sample)
    phase = 0
    everPressed = false
    deadline = .infinity
    handle(sample, &context)
  }

  @inlinable
  public mutating func touchesEnded(_ sample: TouchSample, _ context: inout GestureContext) {
    deadline = .infinity
    context.setState(everPressed ? .ended : .failed, at: sample)
  }

  @inlinable
  public mutating func touchesCancelled(_ sample: TouchSample, _ context: inout GestureContext) {
    deadline = .infinity
    context.setState(everPressed ? .cancelled : .failed, at: sample)
  }

  @inlinable
  public mutating func timerFired(_ sample: TouchSample, _ context: inout GestureContext) {
    press(sample, &context)
  }

  @inlinable
  public mutating func reset() {
    phase = 0
    deadline = .infinity
    everPressed = false
  }
}
