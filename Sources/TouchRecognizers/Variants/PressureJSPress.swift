/// A Pressure.js adapter — ``PressureJSDeepPress`` (3D Touch) or ``PressureJSPointerDeepPress``
/// (Pointer Events): configured by the library's options, the parameters declared on
/// ``PressureJSDeepPress`` (`deepPressThreshold`, `polyfill`, `polyfillSpeedUp`): this protocol
/// reports them and takes them as arguments once for both; the polyfill's ticks are timer
/// firings.
public protocol PressureJSAdapter: ConfigurableRecognizer {
  /// Normalized force or pressure that starts a deep press (`>=`); below it ends one.
  var deepPressThreshold: Double { get }
  /// Whether the time-based polyfill replaces missing force.
  var polyfill: Bool { get }
  /// Polyfill ramp time from 0 to 1, milliseconds.
  var polyfillSpeedUp: Double { get }
}

extension PressureJSAdapter {
  /// Creates the adapter; invalid values trap.
  public init(deepPressThreshold: Double = 0.5, polyfill: Bool = true, polyfillSpeedUp: Double = 1000) {
    self = .checked(
      PressureJSDeepPress.deepPressThreshold(deepPressThreshold), PressureJSDeepPress.polyfill(polyfill),
      PressureJSDeepPress.polyfillSpeedUp(polyfillSpeedUp))
  }

  /// The configured values.
  public var parameters: ParameterValues {
    Self.descriptor.defaults.setting(PressureJSDeepPress.deepPressThreshold, to: deepPressThreshold)
      .setting(PressureJSDeepPress.polyfill, to: polyfill)
      .setting(PressureJSDeepPress.polyfillSpeedUp, to: polyfillSpeedUp)
  }

  /// Polyfill ticks (and the 3D Touch adapter's support probe).
  @inlinable public static var usesTimers: Bool { true }
}

/// What both Pressure.js adapters share (the base adapter, `src/adapters/adapter.js`): the press
/// and deep-press flags, the polyfill's force ramp and its tick clock, and the lift.
///
/// ``PressureJSDeepPress`` (3D Touch) and ``PressureJSPointerDeepPress`` (Pointer Events) differ
/// in what starts the press and the polyfill; each holds one of these.
@usableFromInline
struct PressureJSPress: Sendable {
  /// `start` ran and `end` has not.
  @usableFromInline var pressed = false
  /// `startDeepPress` ran and `endDeepPress` has not.
  @usableFromInline var deepPressed = false
  /// A native force or pressure event arrived.
  @usableFromInline var nativeSupport = false
  /// The polyfill started the press (the library's `runningPolyfill`).
  @usableFromInline var runningPolyfill = false
  /// The polyfill's force, normalized.
  @usableFromInline var polyfillForce: Double = 0
  /// The polyfill ticks so far.
  @usableFromInline var polyfillTicks = 0
  /// The touch-down time, whole microseconds.
  @usableFromInline var touchDownMicroseconds: Double = 0
  /// The next polyfill tick, seconds (`infinity`: none).
  @usableFromInline var tickDeadline = Double.infinity

  @inlinable init() {}

  /// A touch-down: nothing pressed, no tick, the time noted.
  @inlinable
  mutating func touchDown(_ sample: TouchSample) {
    pressed = false
    deepPressed = false
    nativeSupport = false
    runningPolyfill = false
    tickDeadline = .infinity
    touchDownMicroseconds = PressureJSClock.microseconds(sample.t)
  }

  /// The polyfill's `start`: the press begins on a force ramp from 0.
  @inlinable
  mutating func startPolyfill(_ sample: TouchSample, _ context: inout GestureContext) {
    pressed = true
    runningPolyfill = true
    context.setState(.began, at: sample)
    polyfillForce = 0
    polyfillTicks = 0
  }

  /// The library's `deepPress(force)`: `force >= threshold` starts a deep press (the action)
  /// when pressed and not deep-pressed; below it ends one (a release).
  @inlinable
  mutating func deepPress(
    _ force: Double, threshold: Double, _ sample: TouchSample, _ context: inout GestureContext
  ) {
    if force >= threshold {
      if pressed && !deepPressed {
        deepPressed = true
        context.setState(.changed, acting: .action, at: sample)
      }
    } else if pressed && deepPressed {
      deepPressed = false
      context.setState(.changed, acting: .release, at: sample)
    }
  }

  /// One polyfill tick: the force rises by 10 / `speedUp` and is tested; the next tick is
  /// `fromMilliseconds` plus 10 ms per tick after touch-down, none once deep-pressed (the force
  /// only rises: nothing can change any more) or after ``PressureJSDeepPress/maximumTicks``.
  @inlinable
  mutating func tick(
    threshold: Double, speedUp: Double, fromMilliseconds start: Double, _ sample: TouchSample,
    _ context: inout GestureContext
  ) {
    polyfillForce = PressureJSClock.nextPolyfillForce(polyfillForce, speedUp: speedUp)
    deepPress(polyfillForce, threshold: threshold, sample, &context)
    polyfillTicks += 1
    tickDeadline =
      deepPressed || polyfillTicks >= PressureJSDeepPress.maximumTicks
      ? .infinity
      : PressureJSClock.time(
        touchDownMicroseconds, plus: start + Double(polyfillTicks) * PressureJSClock.tickMilliseconds)
  }

  /// The lift: `endDeepPress` (not a flap) and `end`, ended; no more ticks. When native force
  /// took over a running polyfill, `_endPress` sees `runningPolyfill` and never ends the press.
  @inlinable
  mutating func lift(_ sample: TouchSample, _ context: inout GestureContext) {
    tickDeadline = .infinity
    if runningPolyfill && nativeSupport { return }
    if pressed {
      deepPressed = false
      context.setState(.ended, at: sample)
    }
  }

  /// Back to before any touch.
  @inlinable
  mutating func reset() {
    pressed = false
    deepPressed = false
    runningPolyfill = false
    nativeSupport = false
    tickDeadline = .infinity
  }
}

/// The browser's timer clock as Pressure.js sees it: `setTimeout` delays are whole milliseconds
/// after the touch-down event, and times are kept on a microsecond grid so that a timer and a
/// sample written with the same decimal time compare equal.
@usableFromInline
enum PressureJSClock {
  /// The polyfill's tick and the support probe's poll, milliseconds.
  @usableFromInline static var tickMilliseconds: Double { 10 }

  /// A time in seconds as whole microseconds (rounded to nearest).
  @inlinable static func microseconds(_ seconds: Double) -> Double { (seconds * 1e6).rounded() }

  /// `milliseconds` after the time `microseconds`, in seconds: one rounding, so the result is
  /// the double nearest the exact decimal time.
  @inlinable static func time(_ microseconds: Double, plus milliseconds: Double) -> Double {
    (microseconds + milliseconds * 1000) / 1e6
  }

  /// The polyfill's force after one more tick: + 10 / `speedUp` (all at once for 0), capped at 1,
  /// with the library's arithmetic.
  @inlinable static func nextPolyfillForce(_ force: Double, speedUp: Double) -> Double {
    let increment = speedUp == 0 ? 1 : 10 / speedUp
    return force + increment > 1 ? 1 : force + increment
  }
}
