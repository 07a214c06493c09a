/// `stable-press` (ours): a force press that tries to keep the latency of a plain threshold while
/// rejecting the two classic false positives — hard taps and accidental force during drags — and
/// the press/release chatter of single-threshold designs.
///
/// Per delivered sample (touch-down and moved samples):
/// 1. **Causal smoothing**: `s += α (n − s)` with `α = Δt / (smoothingTime + Δt)` (a first-order
///    low-pass with time constant `smoothingTime`, for uneven sampling, where Δt is the time since the
///    previous delivered sample; `s` starts at the touch-down's normalized force; a sample at the
///    same time as the previous one does not move `s`; 0 disables smoothing).
/// 2. **Drag gate**: before the first press, moving farther than `movementLimit` from the
///    touch-down position fails the contact (it is a scroll or drag; NaN: off).
/// 3. **Dwell**: when `s >= pressThreshold` the press arms and a timer is set `dwellTime` later;
///    a sample with `s < pressThreshold` before then disarms it; when the timer fires (at its
///    exact deadline, with no new sample needed: the force has not changed) the press is
///    recognized — the action. A lift before the dwell ends is a hard tap: no press.
/// 4. **Hysteresis**: a press releases when `s < releaseThreshold` (a flap when the finger still
///    touches) and can press again (`rearm`).
///
/// States: possible → began (first press) → changed (later releases and presses) → ended at
/// lift; a contact without a press fails. See the StablePress article for the reasoning behind
/// the defaults (chosen a priori, not fitted to any dataset).
public struct StablePress: ConfigurableRecognizer {
  /// Smoothed normalized force that arms a press (`>=`).
  public let pressThreshold: Double
  /// Smoothed normalized force below which a press releases (`<`).
  public let releaseThreshold: Double
  /// Time constant of the low-pass filter, seconds (0: no smoothing).
  public let smoothingTime: Double
  /// How long the smoothed force must stay at or above the press threshold, seconds.
  public let dwellTime: Double
  /// Movement from touch-down that marks the contact as a drag before any press, points; NaN: off.
  public let movementLimit: Double
  /// Whether a released press can press again within the contact.
  public let rearm: Bool

  @usableFromInline var smoothed: Double = 0
  @usableFromInline var lastT: Double = 0
  @usableFromInline var downX: Double = 0
  @usableFromInline var downY: Double = 0
  @usableFromInline var phase: UInt8 = 0  // 0 idle, 1 arming, 2 pressed, 3 done (no rearm)
  @usableFromInline var deadline = Double.infinity
  @usableFromInline var everPressed = false

  /// The variant's description.
  public static let descriptor = VariantDescriptor(
    name: "stable-press", code: "ours", title: "Stable press (smoothing + dwell + hysteresis + drag gate)",
    source: "TouchTrace (this package); see the StablePress article",
    style: .continuous,
    actionEvent: "press: dwellTime after the smoothed force reached pressThreshold, if it stayed there",
    releaseEvent: "the smoothed force fell below releaseThreshold (a flap when the finger still touches)",
    rules:
      "Smooth n with a first-order low-pass (smoothingTime). Before the first press, moving farther than movementLimit fails the contact. s >= pressThreshold arms a dwell timer; it presses at the deadline unless s fell below first. Release at s < releaseThreshold; re-press allowed (rearm). Lift: ended if it pressed, else failed.",
    parameters: [
      .number(
        "pressThreshold", .normalizedForce, default: 0.45, minimum: 0, maximum: 1,
        "smoothed normalized force that arms a press (>=); about three times an average touch"),
      .number(
        "releaseThreshold", .normalizedForce, default: 0.3, minimum: 0, maximum: 1,
        "smoothed normalized force below which a press releases (<); at most pressThreshold"),
      .number(
        "smoothingTime", .seconds, default: 0.016, minimum: 0,
        "time constant of the causal low-pass filter (0: none)"),
      .number(
        "dwellTime", .seconds, default: 0.05, minimum: 0,
        "time the smoothed force must stay at or above pressThreshold (0: press at the crossing)"),
      .number(
        "movementLimit", .points, default: 10, minimum: 0, nan: "off",
        "movement before the first press that marks the contact as a drag"),
      .flag("rearm", default: true, "a released press can press again in the same contact"),
    ])

  /// Builds from resolved parameter values.
  ///
  /// - Throws: ``ParameterError`` when `releaseThreshold > pressThreshold`.
  public init(parameters: ParameterValues) throws(ParameterError) {
    pressThreshold = parameters.number("pressThreshold")
    releaseThreshold = parameters.number("releaseThreshold")
    smoothingTime = parameters.number("smoothingTime")
    dwellTime = parameters.number("dwellTime")
    movementLimit = parameters.number("movementLimit")
    rearm = parameters.flag("rearm")
    guard releaseThreshold <= pressThreshold else {
      throw ParameterError(
        variant: Self.descriptor.name, parameter: "releaseThreshold",
        .invalid("must not exceed pressThreshold (\(ParameterValue.text(pressThreshold))), got \(ParameterValue.text(releaseThreshold))"))
    }
  }

  /// Creates the recognizer; invalid values trap.
  public init(
    pressThreshold: Double = 0.45, releaseThreshold: Double = 0.3, smoothingTime: Double = 0.016,
    dwellTime: Double = 0.05, movementLimit: Double = 10, rearm: Bool = true
  ) {
    self = .checked([
      "pressThreshold": .number(pressThreshold), "releaseThreshold": .number(releaseThreshold),
      "smoothingTime": .number(smoothingTime), "dwellTime": .number(dwellTime),
      "movementLimit": .number(movementLimit), "rearm": .flag(rearm),
    ])
  }

  /// The configured values.
  public var parameters: ParameterValues {
    Self.descriptor.defaults.setting("pressThreshold", to: .number(pressThreshold))
      .setting("releaseThreshold", to: .number(releaseThreshold))
      .setting("smoothingTime", to: .number(smoothingTime))
      .setting("dwellTime", to: .number(dwellTime))
      .setting("movementLimit", to: .number(movementLimit))
      .setting("rearm", to: .flag(rearm))
  }

  /// Normalized comparison.
  public var requiresMaximumForce: Bool { true }

  /// The dwell timer.
  @inlinable public static var usesTimers: Bool { true }

  /// The dwell deadline while arming.
  @inlinable public var timerDeadline: Double { deadline }

  @inlinable
  mutating func press(_ sample: TouchSample, _ context: inout GestureContext) {
    phase = 2
    deadline = .infinity
    everPressed = true
    context.setState(context.state == .possible ? .began : .changed, at: sample)
    context.act(at: sample)
  }

  @inlinable
  mutating func evaluate(_ sample: TouchSample, _ context: inout GestureContext) {
    if !everPressed && !movementLimit.isNaN {
      let dx = sample.x - downX
      let dy = sample.y - downY
      if dx * dx + dy * dy > movementLimit * movementLimit {
        deadline = .infinity
        context.setState(.failed, at: sample)
        return
      }
    }
    switch phase {
    case 0:
      if smoothed >= pressThreshold {
        if dwellTime == 0 {
          press(sample, &context)
        } else {
          phase = 1
          deadline = sample.t + dwellTime
        }
      }
    case 1:
      if smoothed < pressThreshold {
        phase = 0
        deadline = .infinity
      }
    case 2:
      if smoothed < releaseThreshold {
        phase = rearm ? 0 : 3
        context.setState(.changed, at: sample)
        context.act(.release, at: sample)
      }
    default:
      break
    }
  }

  @inlinable
  public mutating func touchesBegan(_ sample: TouchSample, _ context: inout GestureContext) {
    smoothed = sample.normalizedForce
    lastT = sample.t
    downX = sample.x
    downY = sample.y
    phase = 0
    everPressed = false
    deadline = .infinity
    evaluate(sample, &context)
  }

  @inlinable
  public mutating func touchesMoved(_ sample: TouchSample, _ context: inout GestureContext) {
    let dt = sample.t - lastT
    lastT = sample.t
    let n = sample.normalizedForce
    if smoothingTime == 0 {
      smoothed = n
    } else if dt > 0 {
      smoothed += dt / (smoothingTime + dt) * (n - smoothed)
    }
    evaluate(sample, &context)
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
