/// V8-pointer `pressure-js-pointer`: Pressure.js (stuyam/pressure) with its Pointer Events
/// adapter, the one the library picks first in every browser that has Pointer Events: iOS
/// Safari 13 and later, Android Chrome, desktop browsers with pens. ``PressureJSDeepPress`` is
/// the 3D Touch adapter (iOS Safari 12 and earlier).
///
/// Rules (`src/adapters/adapter_pointer.js` and the base adapter `src/adapters/adapter.js`):
/// - `pressure` is `force / max` (a Pointer Event's normalized pressure).
/// - Touch-down (`pointerdown`): a pressure of exactly 0 or 0.5 (the specification's value for
///   hardware without pressure), or above 1, fails at once: with `polyfill` on, the polyfill
///   starts at touch-down (`start`); without it, `unsupported`, and the contact never starts
///   (only `pointerdown` can start it): failed. Any other pressure starts the press (`start`)
///   without a deep-press test.
/// - Every move (`pointermove`, position-only moves included) with a pressure above 0 and not
///   0.5 runs the deep-press test `pressure >= deepPressThreshold` (default 0.5):
///   `startDeepPress` (the action) when not deep-pressed, `endDeepPress` (a release, counted as
///   a flap) when deep-pressed and below; no hysteresis. A constant valid pressure never
///   polyfills. Moves at 0 or 0.5 are ignored.
/// - Polyfill: a tick at touch-down and every 10 ms after, force += 10 / `polyfillSpeedUp` (ms),
///   capped at 1, then the deep-press test: with the default 1000 ms the 50th tick deep-presses,
///   490 ms after touch-down (the 3D Touch adapter's probe adds 70 ms). A valid move stops it
///   and native pressure takes over. Tick times as in ``PressureJSDeepPress`` (the browser's
///   millisecond timers on a microsecond grid); ticks after a deep press change nothing and are
///   not replayed; at most ``PressureJSDeepPress/maximumTicks``.
/// - Lift (`pointerup`, or `pointercancel` then `pointerleave`, which browsers send after a
///   cancellation): `endDeepPress` if deep-pressed (not a flap), then `end`. While the polyfill
///   runs, its next tick (at most 10 ms later) ends the press; the replica ends it at the lift.
///   When native pressure took over a running polyfill, `end` is never called: the press stays
///   open and the end-of-sequence rule cancels it.
///
/// Checked against the real library (2.2.0, run in Node with a virtual clock) on every sample
/// trace and on seeded adversarial traces: Scripts/make-pressurejs-fixtures.mjs.
///
/// States: possible → began (`start`) → changed (deep-press changes) → ended (lift); failed when
/// unsupported without polyfill.
public struct PressureJSPointerDeepPress: PressureJSAdapter {
  /// Normalized pressure that starts a deep press (`>=`); below it ends one.
  public let deepPressThreshold: Double
  /// Whether the time-based polyfill replaces missing pressure.
  public let polyfill: Bool
  /// Polyfill ramp time from 0 to 1, milliseconds.
  public let polyfillSpeedUp: Double

  @usableFromInline var press = PressureJSPress()

  /// The variant's description.
  public static let descriptor = RecognizerDescription(
    name: "pressure-js-pointer", code: "V8-pointer",
    title: "Pressure.js deep press, Pointer Events adapter (stuyam/pressure)",
    summary:
      "Pressure.js as browsers with Pointer Events run it: pressure >= 0.5 on any move starts the deep press; pressure 0 or 0.5 at touch-down polyfills at once.",
    source: .github(
      "stuyam/pressure", files: "src/adapters/adapter_pointer.js, src/adapters/adapter.js", version: "f0a35fb"),
    style: .continuous,
    actionEvent:
      "startDeepPress: a move (or polyfill tick) with pressure >= deepPressThreshold while not deep-pressed; can repeat",
    releaseEvent: "endDeepPress: a move (or tick) below the threshold while deep-pressed",
    rules:
      "pointerdown with pressure 0, 0.5 or > 1 fails → polyfill from touch-down (deep press at the 50th tick, 490 ms); else start without a deep-press test. pointermove with pressure > 0 and != 0.5 (position-only moves too): deep-press test n >= 0.5, no hysteresis, repeatable; stops the polyfill.",
    parameters: [
      PressureJSDeepPress.deepPressThreshold.spec, PressureJSDeepPress.polyfill.spec,
      PressureJSDeepPress.polyfillSpeedUp.spec,
    ],
    sweptByDefault: PressureJSDeepPress.deepPressThreshold.name)

  /// Builds from resolved parameter values.
  public init(parameters: ParameterValues) throws(ParameterError) {
    deepPressThreshold = parameters[PressureJSDeepPress.deepPressThreshold]
    polyfill = parameters[PressureJSDeepPress.polyfill]
    polyfillSpeedUp = parameters[PressureJSDeepPress.polyfillSpeedUp]
  }

  /// The next polyfill tick.
  @inlinable public var timerDeadline: Double { press.tickDeadline }

  @inlinable
  public mutating func touchesBegan(_ sample: TouchSample, _ context: inout GestureContext) {
    press.touchDown(sample)
    let pressure = sample.force / sample.maxForce
    guard pressure == 0 || pressure == 0.5 || pressure > 1 else {
      press.pressed = true
      press.nativeSupport = true
      context.setState(.began, at: sample)
      return
    }
    guard polyfill else {
      context.setState(.failed, at: sample)  // `unsupported`: nothing later can start it
      return
    }
    press.startPolyfill(sample, &context)
    tick(sample, &context)
  }

  @inlinable
  public mutating func touchesMoved(_ sample: TouchSample, _ context: inout GestureContext) {
    let pressure = sample.force / sample.maxForce
    guard press.pressed, pressure > 0, pressure != 0.5 else { return }
    press.nativeSupport = true
    press.tickDeadline = .infinity
    press.deepPress(pressure, threshold: deepPressThreshold, sample, &context)
  }

  @inlinable
  public mutating func touchesEnded(_ sample: TouchSample, _ context: inout GestureContext) {
    press.lift(sample, &context)
  }

  /// Browsers follow `pointercancel` with `pointerleave`, which the adapter binds: a
  /// cancellation ends the press as a lift does.
  @inlinable
  public mutating func touchesCancelled(_ sample: TouchSample, _ context: inout GestureContext) {
    press.lift(sample, &context)
  }

  @inlinable
  public mutating func timerFired(_ sample: TouchSample, _ context: inout GestureContext) {
    tick(sample, &context)
  }

  @inlinable
  mutating func tick(_ sample: TouchSample, _ context: inout GestureContext) {
    press.tick(threshold: deepPressThreshold, speedUp: polyfillSpeedUp, fromMilliseconds: 0, sample, &context)
  }

  @inlinable
  public mutating func reset() {
    press.reset()
  }
}
