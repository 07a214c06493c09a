/// V7 `hysteresis`: a libinput-style press/release latch on normalized force — press at
/// `n >= pressThreshold`, release at `n < releaseThreshold`, any number of times per contact;
/// releases while touching are counted as flaps.
///
/// Defaults are libinput's touchpad ratios (down 12 %, up 10 % of the range). libinput's tablet
/// tip uses 5 % / 1 % with a `<=` release: set `pressThreshold=0.05`, `releaseThreshold=0.01`,
/// `inclusiveRelease=true`. `releaseThreshold == pressThreshold` reproduces the no-hysteresis
/// designs. `strictPress` uses `>` for the press, as `libinput measure touchpad-pressure` does.
/// Optional sticky palm rejection: `n > palmThreshold` → failed before any press, cancelled
/// after (NaN: off).
///
/// The touch-down and moved samples are evaluated (palm first, then press or release); the lift
/// ends the contact: ended when it ever pressed, else failed. States: possible → began (first
/// press) → changed (each later release or press) → ended.
public struct HysteresisLatch: ConfigurableRecognizer, UniformSampleRecognizer {
  /// Normalized force that presses (`>=`, or `>` with `strictPress`).
  public let pressThreshold: Double
  /// Normalized force below which a press releases (`<`, or `<=` with `inclusiveRelease`).
  public let releaseThreshold: Double
  /// Normalized force above which the contact is rejected for good (`>`); NaN: off.
  public let palmThreshold: Double
  /// Press with `>` instead of `>=`.
  public let strictPress: Bool
  /// Release with `<=` instead of `<`.
  public let inclusiveRelease: Bool
  @usableFromInline var pressed = false

  /// The `pressThreshold` parameter.
  public static let pressThreshold = Parameter<Double>.number(
    "pressThreshold", .normalizedForce, default: 0.12, minimum: 0, maximum: 1,
    "normalized force that presses (>=); libinput touchpad: 12 % of the range")
  /// The `releaseThreshold` parameter.
  public static let releaseThreshold = Parameter<Double>.number(
    "releaseThreshold", .normalizedForce, default: 0.10, minimum: 0, maximum: 1,
    "normalized force below which a press releases (<); at most pressThreshold; libinput touchpad: 10 %")
  /// The `palmThreshold` parameter.
  public static let palmThreshold = Parameter<Double>.number(
    "palmThreshold", .normalizedForce, default: .nan, minimum: 0, maximum: 1, nan: "off",
    "normalized force above which the contact is rejected for good (>, sticky)")
  /// The `strictPress` parameter.
  public static let strictPress = Parameter<Bool>.flag(
    "strictPress", default: false, "press with > (libinput measure tool) instead of >= (libinput core)")
  /// The `inclusiveRelease` parameter.
  public static let inclusiveRelease = Parameter<Bool>.flag(
    "inclusiveRelease", default: false, "release with <= (libinput tablet) instead of < (touchpad)")

  /// The variant's description.
  public static let descriptor = RecognizerDescription(
    name: "hysteresis", code: "V7", title: "Hysteresis latch (libinput-style)",
    summary:
      "libinput-style latch: pressed at force/max >= pressThreshold, released below releaseThreshold; counts flaps.",
    source: .github(
      "wayland-project/libinput", files: "src/evdev-mt-touchpad.c (tp_unhover_pressure), src/evdev-tablet.c",
      version: "c5d6b3f"),
    style: .continuous,
    actionEvent:
      "each press: a touch-down or moved sample with force/max >= pressThreshold while released (first press = began)",
    releaseEvent: "force/max < releaseThreshold while pressed (a flap when the finger still touches)",
    rules:
      "Touch-down and moved samples: palm (n > palmThreshold, sticky) → failed/cancelled; released and n >= pressThreshold → press (action); pressed and n < releaseThreshold → release. Lift: ended if it ever pressed, else failed.",
    parameters: [
      Self.pressThreshold.spec.compared(as: .normalized), Self.releaseThreshold.spec.compared(as: .normalized),
      Self.palmThreshold.spec.compared(as: .normalized), Self.strictPress.spec, Self.inclusiveRelease.spec,
    ],
    sweptByDefault: Self.pressThreshold.name)

  /// Builds from resolved parameter values.
  ///
  /// - Throws: ``ParameterError`` when `releaseThreshold > pressThreshold`.
  /// `pressThreshold` in `n >= pressThreshold` (`>` with `strictPress`), `releaseThreshold` in
  /// `n < releaseThreshold` (`<=` with `inclusiveRelease`), `palmThreshold` in `n > palmThreshold`
  /// (and the one-pass cut above it).
  public func thresholdSide(of parameter: String) -> ThresholdSide? {
    switch parameter {
    case Self.pressThreshold.name: strictPress ? .above : .atLeast
    case Self.releaseThreshold.name: inclusiveRelease ? .above : .atLeast
    case Self.palmThreshold.name: .above
    default: nil
    }
  }

  public init(parameters: ParameterValues) throws(ParameterError) {
    pressThreshold = parameters[Self.pressThreshold]
    releaseThreshold = parameters[Self.releaseThreshold]
    palmThreshold = parameters[Self.palmThreshold]
    strictPress = parameters[Self.strictPress]
    inclusiveRelease = parameters[Self.inclusiveRelease]
    try Self.require(Self.releaseThreshold, .atMost, Self.pressThreshold, in: parameters)
  }

  /// Creates the recognizer; invalid values trap.
  public init(
    pressThreshold: Double = 0.12, releaseThreshold: Double = 0.10, palmThreshold: Double = .nan,
    strictPress: Bool = false, inclusiveRelease: Bool = false
  ) {
    self = .checked(
      Self.pressThreshold(pressThreshold), Self.releaseThreshold(releaseThreshold), Self.palmThreshold(palmThreshold),
      Self.strictPress(strictPress), Self.inclusiveRelease(inclusiveRelease))
  }

  /// The configured values.
  public var parameters: ParameterValues {
    Self.descriptor.defaults.setting(Self.pressThreshold, to: pressThreshold)
      .setting(Self.releaseThreshold, to: releaseThreshold)
      .setting(Self.palmThreshold, to: palmThreshold)
      .setting(Self.strictPress, to: strictPress)
      .setting(Self.inclusiveRelease, to: inclusiveRelease)
  }

  /// Evaluates a touch-down or moved sample.
  @inlinable
  public mutating func handle(_ sample: TouchSample, _ context: inout GestureContext) {
    let n = sample.force / sample.maxForce
    if n > palmThreshold {  // false when palmThreshold is NaN
      context.finish(.cancelled, at: sample)
      return
    }
    if pressed {
      if inclusiveRelease ? n <= releaseThreshold : n < releaseThreshold {
        pressed = false
        context.setState(.changed, acting: .release, at: sample)
      }
    } else if strictPress ? n > pressThreshold : n >= pressThreshold {
      pressed = true
      context.setState(context.state == .possible ? .began : .changed, acting: .action, at: sample)
    }
  }

  @inlinable
  public mutating func touchesBegan(_ sample: TouchSample, _ context: inout GestureContext) {
    pressed = false
    handle(sample, &context)
  }

  @inlinable
  public mutating func touchesEnded(_ sample: TouchSample, _ context: inout GestureContext) {
    context.finish(.ended, at: sample)
  }

  @inlinable
  public mutating func touchesCancelled(_ sample: TouchSample, _ context: inout GestureContext) {
    context.finish(.cancelled, at: sample)
  }

  @inlinable
  public mutating func reset() { pressed = false }

  /// Fast path: only a press, a release or the palm test matters.
  @inlinable public static var skipsInertSamples: Bool { true }

  /// Skips to the first sample that presses (released), releases (pressed) or is a palm.
  @inlinable
  public mutating func skipInertSamples(
    force: UnsafeBufferPointer<Double>, from: Int, to: Int, maxForce: Double
  ) -> Int {
    // Raw-force bounds slightly widened (see ``FastPathBound``); the harness decides exactly.
    let palm = FastPathBound.atLeast(palmThreshold, maxForce: maxForce)  // NaN: never true
    if pressed {
      let release = FastPathBound.atMost(releaseThreshold, maxForce: maxForce)
      return palm.isNaN
        ? ForceScan.firstNotAbove(force, release, from: from, to: to)
        : ForceScan.firstOutside(force, atLeast: palm, atMost: release, from: from, to: to)
    }
    let press = FastPathBound.atLeast(pressThreshold, maxForce: maxForce)
    return ForceScan.firstNotBelow(force, palm.isNaN ? press : Swift.min(palm, press), from: from, to: to)
  }

  /// `pressThreshold`: the first press.
  public var thresholdSweeps: [ThresholdSweep] {
    [
      ThresholdSweep(
        Self.descriptor, Self.pressThreshold,
        comparison: strictPress ? .greaterThan : .greaterThanOrEqual, scale: .normalized,
        eligibleSamples:
          "the touch-down sample and moved samples (index 1…n−2), up to (not including) the first with force/max > palmThreshold",
        conditions:
          "releaseThreshold <= pressThreshold (the release does not affect the first press); palmThreshold and strictPress as in this instance",
        rule: .beganAndMovedUntilNormalizedAbove(limit: palmThreshold))
    ]
  }
}
