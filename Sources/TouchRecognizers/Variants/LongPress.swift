/// V9 `long-press`: UIKit's UILongPressGestureRecognizer (one touch, no taps) — began exactly
/// `minimumPressDuration` after touch-down if the finger stayed within `allowableMovement`.
///
/// Before it begins, a sample farther than `allowableMovement` (Euclidean, strict `>`) from the
/// touch-down position fails it, and a lift fails it. The timer fires at the exact deadline even
/// when no sample arrives (a resting finger sends none). After it begins, movement is free;
/// moves → changed; lift → ended; cancel → cancelled.
public struct IOSLongPress: ConfigurableRecognizer, HoldRecognizer {
  /// Hold time before the gesture begins, seconds.
  public let minimumPressDuration: Double
  /// Movement allowed before the gesture begins, points (fails when the distance is greater).
  public let allowableMovement: Double
  /// The hold: touch-down position and the pending long-press timer.
  public var hold = HoldGate()

  /// The `minimumPressDuration` parameter.
  public static let minimumPressDuration = Parameter<Double>.number(
    "minimumPressDuration", .seconds, default: 0.5, minimum: 0, inclusive: false,
    "hold time before the gesture begins")
  /// The `allowableMovement` parameter.
  public static let allowableMovement = Parameter<Double>.number(
    "allowableMovement", .points, default: 10, minimum: 0,
    "movement allowed before the gesture begins (fails when farther)")

  /// The variant's description.
  public static let descriptor = RecognizerDescription(
    name: "long-press", code: "V9", title: "UILongPressGestureRecognizer (UIKit)",
    summary:
      "UIKit long press: fires minimumPressDuration after touch-down unless the touch moved beyond allowableMovement.",
    source: RecognizerSource(
      library: "Apple UIKit", version: nil,
      link: "https://developer.apple.com/documentation/uikit/uilongpressgesturerecognizer",
      reference: "Apple UIKit UILongPressGestureRecognizer (minimumPressDuration 0.5 s, allowableMovement 10 pt)"),
    style: .continuous,
    actionEvent: "began: touch-down + minimumPressDuration, if the finger stayed within allowableMovement",
    rules:
      "A timer at touch-down + minimumPressDuration begins the gesture; before that, moving farther than allowableMovement from touch-down or lifting fails it. After began: changed on moves, ended at lift.",
    parameters: [Self.minimumPressDuration.spec, Self.allowableMovement.spec],
    sweptByDefault: Self.minimumPressDuration.name,
    canWaitForFailure: true)

  /// Builds from resolved parameter values.
  public init(parameters: ParameterValues) throws(ParameterError) {
    minimumPressDuration = parameters[Self.minimumPressDuration]
    allowableMovement = parameters[Self.allowableMovement]
  }

  /// Creates the recognizer; invalid values trap.
  public init(minimumPressDuration: Double = 0.5, allowableMovement: Double = 10) {
    self = .checked(Self.minimumPressDuration(minimumPressDuration), Self.allowableMovement(allowableMovement))
  }

  /// The configured values.
  public var parameters: ParameterValues {
    Self.descriptor.defaults.setting(Self.minimumPressDuration, to: minimumPressDuration)
      .setting(Self.allowableMovement, to: allowableMovement)
  }

  @inlinable
  public mutating func touchesBegan(_ sample: TouchSample, _ context: inout GestureContext) {
    hold.touchDown(sample, deadline: sample.t + minimumPressDuration)
  }

  @inlinable
  public mutating func touchesMoved(_ sample: TouchSample, _ context: inout GestureContext) {
    if context.state == .possible {
      hold.failIfFarther(sample, than: allowableMovement, &context)
    } else {
      context.setState(.changed, at: sample)
    }
  }

  @inlinable
  public mutating func timerFired(_ sample: TouchSample, _ context: inout GestureContext) {
    hold.stop(.began, at: sample, &context)
    context.act(at: sample)
  }
}

/// V9 `long-press-android`: Android's long press (GestureDetector / View) with the optional
/// deep-press acceleration.
///
/// The long press fires at touch-down + `longPressTimeout` if the finger never moved farther
/// than `touchSlop` (strict `>` on the squared distance, as GestureDetector). Deep press: the
/// vendor classifier (`CLASSIFICATION_DEEP_PRESS`) is emulated as a moved sample with
/// `force / max >= deepPressThreshold`; it fires the pending long press at once — and only when
/// `longPressTimeout <= 0.4 s`, the platform's enabling rule (`faithfulDeepPressGate`). NaN
/// disables it. Lift or slop before firing → failed; after firing: lift → ended.
public struct AndroidLongPress: ConfigurableRecognizer, HoldRecognizer {
  /// Hold time before the long press, seconds (`ViewConfiguration.getLongPressTimeout`).
  public let longPressTimeout: Double
  /// Movement that cancels the pending long press, points (dp).
  public let touchSlop: Double
  /// Normalized force emulating the deep-press classification (`>=`); NaN: off.
  public let deepPressThreshold: Double
  /// Deep press accelerates only when `longPressTimeout <= 0.4 s`.
  public let faithfulDeepPressGate: Bool
  /// The hold: touch-down position and the pending long-press timer.
  public var hold = HoldGate()

  /// The `longPressTimeout` parameter.
  public static let longPressTimeout = Parameter<Double>.number(
    "longPressTimeout", .seconds, default: 0.4, minimum: 0, inclusive: false,
    "hold time before the long press (400 ms; 500 ms before Android 12)")
  /// The `touchSlop` parameter.
  public static let touchSlop = Parameter<Double>.number(
    "touchSlop", .points, default: 8, minimum: 0, "movement that cancels the pending long press (dp)")
  /// The `deepPressThreshold` parameter.
  public static let deepPressThreshold = Parameter<Double>.number(
    "deepPressThreshold", .normalizedForce, default: .nan, minimum: 0, maximum: 1, nan: "off",
    "normalized force standing in for the deep-press classifier (>=)")
  /// The `faithfulDeepPressGate` parameter.
  public static let faithfulDeepPressGate = Parameter<Bool>.flag(
    "faithfulDeepPressGate", default: true,
    "deep press accelerates only when longPressTimeout <= 0.4 s")

  /// The variant's description.
  public static let descriptor = RecognizerDescription(
    name: "long-press-android", code: "V9-android", title: "Android long press (+ deep press)",
    summary: "Android long press after longPressTimeout within the touch slop, optionally accelerated by a deep press.",
    source: RecognizerSource(
      library: "Android (AOSP frameworks/base)", version: "ab9efea",
      link: "https://android.googlesource.com/platform/frameworks/base",
      reference:
        "AOSP ViewConfiguration (DEFAULT_LONG_PRESS_TIMEOUT 400 ms, TOUCH_SLOP 8 dp), GestureDetector / View.onTouchEvent CLASSIFICATION_DEEP_PRESS; frameworks/base ab9efea"
    ),
    style: .continuous,
    actionEvent:
      "long press: min(touch-down + longPressTimeout, first moved sample with deep press) if within the slop",
    rules:
      "A timer at touch-down + longPressTimeout fires the long press; a move beyond touchSlop or a lift first cancels it. A moved sample with force/max >= deepPressThreshold fires it at once (only when longPressTimeout <= 0.4 s).",
    parameters: [
      Self.longPressTimeout.spec, Self.touchSlop.spec, Self.deepPressThreshold.spec, Self.faithfulDeepPressGate.spec,
    ],
    sweptByDefault: Self.longPressTimeout.name,
    canWaitForFailure: true)

  /// Builds from resolved parameter values.
  public init(parameters: ParameterValues) throws(ParameterError) {
    longPressTimeout = parameters[Self.longPressTimeout]
    touchSlop = parameters[Self.touchSlop]
    deepPressThreshold = parameters[Self.deepPressThreshold]
    faithfulDeepPressGate = parameters[Self.faithfulDeepPressGate]
  }

  /// Creates the recognizer; invalid values trap.
  public init(
    longPressTimeout: Double = 0.4, touchSlop: Double = 8, deepPressThreshold: Double = .nan,
    faithfulDeepPressGate: Bool = true
  ) {
    self = .checked(
      Self.longPressTimeout(longPressTimeout), Self.touchSlop(touchSlop), Self.deepPressThreshold(deepPressThreshold),
      Self.faithfulDeepPressGate(faithfulDeepPressGate))
  }

  /// The configured values.
  public var parameters: ParameterValues {
    Self.descriptor.defaults.setting(Self.longPressTimeout, to: longPressTimeout)
      .setting(Self.touchSlop, to: touchSlop)
      .setting(Self.deepPressThreshold, to: deepPressThreshold)
      .setting(Self.faithfulDeepPressGate, to: faithfulDeepPressGate)
  }

  /// Whether deep press can accelerate the long press with these parameters.
  public var deepPressEnabled: Bool {
    !deepPressThreshold.isNaN && (!faithfulDeepPressGate || longPressTimeout <= 0.4)
  }

  /// The deep-press emulation compares normalized force.
  public var requiresMaximumForce: Bool { deepPressEnabled }

  @inlinable
  mutating func fire(_ sample: TouchSample, _ context: inout GestureContext) {
    hold.stop(.began, at: sample, &context)
    context.act(at: sample)
  }

  @inlinable
  public mutating func touchesBegan(_ sample: TouchSample, _ context: inout GestureContext) {
    hold.touchDown(sample, deadline: sample.t + longPressTimeout)
  }

  @inlinable
  public mutating func touchesMoved(_ sample: TouchSample, _ context: inout GestureContext) {
    guard context.state == .possible else {
      context.setState(.changed, at: sample)
      return
    }
    if hold.failIfFarther(sample, than: touchSlop, &context) { return }
    if deepPressEnabled && sample.force / sample.maxForce >= deepPressThreshold {
      fire(sample, &context)
    }
  }

  @inlinable
  public mutating func timerFired(_ sample: TouchSample, _ context: inout GestureContext) {
    fire(sample, &context)
  }
}
