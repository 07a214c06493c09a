/// V8 `pressure-js`: Pressure.js (stuyam/pressure) with its iOS 3D-Touch adapter
/// (`touchforcechange`), support probe and time-based polyfill.
///
/// Rules:
/// - Force events: a moved sample whose force differs from the previous one is a
///   `touchforcechange` (`Touch.force` on iOS Safari is already normalized, so the force used is
///   `force / max`). The first one starts the press (`start`); every one runs the deep-press test
///   `n >= deepPressThreshold` (default 0.5): `startDeepPress` (the action) when not
///   deep-pressed, `endDeepPress` (a release, counted as a flap) when deep-pressed and below.
///   No hysteresis: both can repeat within one contact.
/// - Support probe: `touchstart` polls every 10 ms; at the 7th poll (70 ms after touch-down)
///   without any force event it fails: with `polyfill` on, the polyfill starts (`start`), else
///   `unsupported`, which changes no state: a later force event still starts the press. A force
///   event at exactly 70 ms loses to the poll (timers first).
/// - Polyfill: at the failure and every 10 ms after, force += 10 / `polyfillSpeedUp` (ms),
///   capped at 1, then the deep-press test. With the default 1000 ms, the 50th tick (force
///   0.5000000000000002 after 50 additions of 0.01) starts the deep press: 490 ms after the
///   polyfill starts, 560 ms after touch-down — Pressure.js degrades to a long press. A force
///   event during the polyfill stops it and native force takes over. The polyfill's force only
///   rises, so once it has started the deep press later ticks change nothing and are not
///   replayed; it also stops after ``maximumTicks`` ticks (1000 s) without a deep press, so a
///   contact costs at most that many timer firings whatever its span.
/// - Timer times are those of the browser's millisecond timers: touch-down plus a whole number
///   of milliseconds, computed on a microsecond grid ((round(t₀·10⁶) + 1000·ms) / 10⁶ s), so a
///   sample written as touch-down + 0.56 s meets the 50th tick at the same time at any
///   touch-down time (12.345 + 0.07 + 0.49 in floating point is one unit past 12.905).
/// - Lift (`touchend`): `endDeepPress` if deep-pressed (not a flap: the contact ends), then
///   `end`. While the polyfill runs, the library only marks the press released and its next
///   tick (at most 10 ms later) ends it; the replica ends it at the lift. When native force took
///   over a running polyfill, the library never calls `end` (its `runningPolyfill` flag stays
///   set): the press stays open and the end-of-sequence rule cancels it. A cancelled touch
///   calls nothing (only `touchend` is bound); the end-of-sequence rule closes it. In the
///   library the probe and the polyfill keep running after a cancellation, so a touch cancelled
///   in its first 560 ms still starts and deep-presses later, with no finger down; the replay
///   stops at the contact's last sample and does not report those.
///
/// Checked against the real library (2.2.0, run in Node with a virtual clock) on every sample
/// trace and on seeded adversarial traces: Scripts/make-pressurejs-fixtures.mjs.
///
/// States: possible → began (`start`) → changed (deep-press changes) → ended (lift); failed when
/// the contact ends before any start.
public struct PressureJSDeepPress: PressureJSAdapter {
  /// Normalized force that starts a deep press (`>=`); below it ends one.
  public let deepPressThreshold: Double
  /// Whether the time-based polyfill replaces missing force.
  public let polyfill: Bool
  /// Polyfill ramp time from 0 to 1, milliseconds.
  public let polyfillSpeedUp: Double
  /// The support probe's duration: 7 polls of 10 ms.
  @usableFromInline static var probeMilliseconds: Double { 70 }
  /// The most polyfill ticks replayed per contact: 100 000 (1000 s of 10 ms ticks).
  public static var maximumTicks: Int { 100_000 }

  @usableFromInline var press = PressureJSPress()
  @usableFromInline var probeDeadline = Double.infinity
  @usableFromInline var previousForce: Double = 0

  /// The `deepPressThreshold` parameter.
  public static let deepPressThreshold = Parameter<Double>.number(
    "deepPressThreshold", .normalizedForce, default: 0.5, minimum: 0, maximum: 1,
    "normalized force that starts a deep press (>=); hard-coded 0.5 in Pressure.js")
  /// The `polyfill` parameter.
  public static let polyfill = Parameter<Bool>.flag(
    "polyfill", default: true, "ramp a fake force over time when no force events arrive")
  /// The `polyfillSpeedUp` parameter.
  public static let polyfillSpeedUp = Parameter<Double>.number(
    "polyfillSpeedUp", .milliseconds, default: 1000, minimum: 0,
    "polyfill ramp time from 0 to 1; 0 jumps to 1 at once")

  /// The variant's description.
  public static let descriptor = RecognizerDescription(
    name: "pressure-js", code: "V8", title: "Pressure.js deep press (stuyam/pressure)",
    summary:
      "Pressure.js deep press: force/max >= 0.5 starts it, below ends it; a timed polyfill ramp when force never changes.",
    source: .github(
      "stuyam/pressure", files: "src/adapters/adapter.js, src/adapters/adapter_3d_touch.js", version: "f0a35fb"),
    style: .continuous,
    actionEvent:
      "startDeepPress: a force event (or polyfill tick) with n >= deepPressThreshold while not deep-pressed; can repeat",
    releaseEvent: "endDeepPress: a force event (or tick) below the threshold while deep-pressed",
    rules:
      "touchforcechange = moved sample with a force change: start press, deep-press test n >= 0.5 (start/end deep press, no hysteresis, repeatable). Support probe fails 70 ms after touch-down without force events → polyfill: force += 10/polyfillSpeedUp every 10 ms from the failure, deep press at the 50th tick (560 ms after touch-down). Native force stops the polyfill.",
    parameters: [Self.deepPressThreshold.spec, Self.polyfill.spec, Self.polyfillSpeedUp.spec],
    sweptByDefault: Self.deepPressThreshold.name)

  /// Builds from resolved parameter values.
  public init(parameters: ParameterValues) throws(ParameterError) {
    deepPressThreshold = parameters[Self.deepPressThreshold]
    polyfill = parameters[Self.polyfill]
    polyfillSpeedUp = parameters[Self.polyfillSpeedUp]
  }

  /// The earlier of the probe and the next polyfill tick.
  @inlinable public var timerDeadline: Double { Swift.min(probeDeadline, press.tickDeadline) }

  @inlinable
  public mutating func touchesBegan(_ sample: TouchSample, _ context: inout GestureContext) {
    press.touchDown(sample)
    previousForce = sample.force
    probeDeadline = PressureJSClock.time(press.touchDownMicroseconds, plus: Self.probeMilliseconds)
  }

  @inlinable
  public mutating func touchesMoved(_ sample: TouchSample, _ context: inout GestureContext) {
    guard sample.force != previousForce else { return }  // a position-only move: no force event
    previousForce = sample.force
    if !press.pressed {  // `start`
      press.runningPolyfill = false
      press.pressed = true
      context.setState(.began, at: sample)
    }
    press.deepPress(sample.force / sample.maxForce, threshold: deepPressThreshold, sample, &context)
    press.nativeSupport = true
    probeDeadline = .infinity
    press.tickDeadline = .infinity
  }

  @inlinable
  public mutating func touchesEnded(_ sample: TouchSample, _ context: inout GestureContext) {
    probeDeadline = .infinity
    press.lift(sample, &context)
  }

  /// Pressure.js binds `touchend` only: a cancelled touch never calls `end`, the press stays
  /// open and the end-of-sequence rule cancels it.
  @inlinable
  public mutating func touchesCancelled(_ sample: TouchSample, _ context: inout GestureContext) {
    probeDeadline = .infinity
    press.tickDeadline = .infinity
  }

  @inlinable
  public mutating func timerFired(_ sample: TouchSample, _ context: inout GestureContext) {
    if probeDeadline <= press.tickDeadline {
      probeDeadline = .infinity
      // `unsupported` without the polyfill: no state changes, a later force event still starts.
      guard !press.pressed, polyfill else { return }
      press.startPolyfill(sample, &context)
    }
    press.tick(
      threshold: deepPressThreshold, speedUp: polyfillSpeedUp, fromMilliseconds: Self.probeMilliseconds, sample,
      &context)
  }

  @inlinable
  public mutating func reset() {
    press.reset()
    probeDeadline = .infinity
  }
}
