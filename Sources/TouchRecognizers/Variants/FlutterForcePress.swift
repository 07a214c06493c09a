/// V4 `flutter-force-press`: Flutter's ForcePressGestureRecognizer — two stages: `onStart` when
/// the interpolated pressure exceeds `startPressure`, `onPeak` when it exceeds `peakPressure`
/// (both strict `>`).
///
/// Rules: a device whose maximum pressure is ≤ 1 is rejected at touch-down (no pressure
/// hardware). Pressure is `clamp(force / maxForce, 0, 1)` (the inverse lerp with minimum 0 that
/// iOS reports). On the down and every move while possible: pressure > start → started
/// (`onStart`, the action); otherwise a move whose squared per-event displacement exceeds
/// `touchSlop` (18 logical px, compared unsquared — in effect a 4.24 px move) rejects it
/// (`faithfulSlopTest`; off: the distance from the touch-down position must exceed `touchSlop`).
/// Once started, `onPeak` fires once when pressure > peak (possibly on the same event). Lift:
/// started → `onEnd`; still possible → rejected.
///
/// Modeled as competing in a gesture arena with other recognizers (as in a text field); a
/// recognizer alone in its arena is accepted after the down event and no slop test applies —
/// set `aloneInArena`. Other arena members winning (a long press after its timeout, a tap at
/// lift) are not modeled.
///
/// States: possible → began (`onStart`) → changed (`onPeak`) → ended (`onEnd`); rejection →
/// failed.
public struct FlutterForcePress: ConfigurableRecognizer {
  /// Interpolated pressure to exceed for `onStart` (strict `>`).
  public let startPressure: Double
  /// Interpolated pressure to exceed for `onPeak` (strict `>`); greater than `startPressure`.
  public let peakPressure: Double
  /// Hit slop, logical pixels (points); 18 for touch (`kTouchSlop`).
  public let touchSlop: Double
  /// Per-event squared delta against the unsquared slop (faithful); off: cumulative distance.
  public let faithfulSlopTest: Bool
  /// Whether the recognizer is alone in its gesture arena (then no slop test after the down).
  public let aloneInArena: Bool
  @usableFromInline var stage: UInt8 = 0  // 0 possible, 1 accepted (alone), 2 started, 3 peaked
  @usableFromInline var last = TouchOrigin()  // the previous event's position
  @usableFromInline var down = TouchOrigin()

  /// The `startPressure` parameter.
  public static let startPressure = Parameter<Double>.number(
    "startPressure", .normalizedForce, default: 0.4, minimum: 0, maximum: 1,
    "interpolated pressure to exceed for onStart (strict >)")
  /// The `peakPressure` parameter.
  public static let peakPressure = Parameter<Double>.number(
    "peakPressure", .normalizedForce, default: 0.85, minimum: 0, maximum: 1,
    "interpolated pressure to exceed for onPeak (strict >); must be greater than startPressure")
  /// The `touchSlop` parameter.
  public static let touchSlop = Parameter<Double>.number(
    "touchSlop", .points, default: 18, minimum: 0,
    "hit slop for touch (kTouchSlop), logical pixels")
  /// The `faithfulSlopTest` parameter.
  public static let faithfulSlopTest = Parameter<Bool>.flag(
    "faithfulSlopTest", default: true,
    "compare the squared per-event delta with the unsquared slop; off: distance from touch-down > touchSlop")
  /// The `aloneInArena` parameter.
  public static let aloneInArena = Parameter<Bool>.flag(
    "aloneInArena", default: false,
    "the recognizer is alone in its gesture arena: accepted after the down event, no slop test")

  /// The variant's description.
  public static let descriptor = RecognizerDescription(
    name: "flutter-force-press", code: "V4", title: "ForcePressGestureRecognizer (Flutter)",
    summary:
      "Flutter's two-stage press: start above startPressure, peak above peakPressure, rejected by movement before starting.",
    source: .github("flutter/flutter", files: "packages/flutter/lib/src/gestures/force_press.dart", version: "016580d"),
    style: .continuous,
    actionEvent: "onStart: the first down/move with clamp(force/max) > startPressure (peek-like)",
    stage2Event: "onPeak: the first event after or at onStart with pressure > peakPressure (pop-like)",
    rules:
      "Rejects devices with max pressure <= 1. While possible: pressure > startPressure → started (onStart); else a move with squared per-event delta > touchSlop rejects. onPeak once at pressure > peakPressure. Lift: started → onEnd, possible → rejected.",
    parameters: [
      Self.startPressure.spec.compared(as: .clampedNormalized), Self.peakPressure.spec.compared(as: .clampedNormalized),
      Self.touchSlop.spec, Self.faithfulSlopTest.spec, Self.aloneInArena.spec,
    ],
    sweptByDefault: Self.startPressure.name)

  /// Builds from resolved parameter values.
  ///
  /// - Throws: ``ParameterError`` when `peakPressure <= startPressure`.
  /// Both pressures only in `p > pressure` (and the one-pass rule's `startedAbove`).
  public func thresholdSide(of parameter: String) -> ThresholdSide? {
    parameter == Self.startPressure.name || parameter == Self.peakPressure.name ? .above : nil
  }

  public init(parameters: ParameterValues) throws(ParameterError) {
    startPressure = parameters[Self.startPressure]
    peakPressure = parameters[Self.peakPressure]
    touchSlop = parameters[Self.touchSlop]
    faithfulSlopTest = parameters[Self.faithfulSlopTest]
    aloneInArena = parameters[Self.aloneInArena]
    try Self.require(Self.peakPressure, .greaterThan, Self.startPressure, in: parameters)
  }

  /// Creates the recognizer; invalid values trap.
  public init(
    startPressure: Double = 0.4, peakPressure: Double = 0.85, touchSlop: Double = 18,
    faithfulSlopTest: Bool = true, aloneInArena: Bool = false
  ) {
    self = .checked(
      Self.startPressure(startPressure), Self.peakPressure(peakPressure), Self.touchSlop(touchSlop),
      Self.faithfulSlopTest(faithfulSlopTest), Self.aloneInArena(aloneInArena))
  }

  /// The configured values.
  public var parameters: ParameterValues {
    Self.descriptor.defaults.setting(Self.startPressure, to: startPressure)
      .setting(Self.peakPressure, to: peakPressure)
      .setting(Self.touchSlop, to: touchSlop)
      .setting(Self.faithfulSlopTest, to: faithfulSlopTest)
      .setting(Self.aloneInArena, to: aloneInArena)
  }

  @inlinable @inline(__always)
  mutating func handle(_ sample: TouchSample, isDown: Bool, _ context: inout GestureContext) {
    var p = sample.force / sample.maxForce
    if !p.isNaN { p = Swift.min(Swift.max(p, 0), 1) }
    let from = faithfulSlopTest ? last : down
    let dx = sample.x - from.x
    let dy = sample.y - from.y
    last.record(sample)
    if stage == 0 {
      if p > startPressure {
        stage = 2
        context.setState(.began, acting: .action, at: sample)
      } else if !isDown {
        let d2 = dx * dx + dy * dy
        if faithfulSlopTest ? d2 > touchSlop : d2 > touchSlop * touchSlop {
          context.setState(.failed, at: sample)
          return
        }
      }
    }
    if stage == 1 && p > startPressure {
      stage = 2
      context.setState(.began, acting: .action, at: sample)
    }
    if stage == 2 && p > peakPressure {
      stage = 3
      context.setState(.changed, acting: .stage2, at: sample)
    }
  }

  @inlinable
  public mutating func touchesBegan(_ sample: TouchSample, _ context: inout GestureContext) {
    guard sample.maxForce > 1 else {
      context.setState(.failed, at: sample)
      return
    }
    down.record(sample)
    last.record(sample)
    handle(sample, isDown: true, &context)
    if aloneInArena && stage == 0 { stage = 1 }
  }

  @inlinable
  public mutating func touchesMoved(_ sample: TouchSample, _ context: inout GestureContext) {
    handle(sample, isDown: false, &context)
  }

  @inlinable
  public mutating func touchesEnded(_ sample: TouchSample, _ context: inout GestureContext) {
    context.setState(stage >= 2 ? .ended : .failed, at: sample)
  }

  @inlinable
  public mutating func touchesCancelled(_ sample: TouchSample, _ context: inout GestureContext) {
    context.setState(stage >= 2 ? .cancelled : .failed, at: sample)
  }

  @inlinable
  public mutating func reset() { stage = 0 }

  /// `startPressure` (action, `onStart`) and `peakPressure` (stage 2, `onPeak`).
  public var thresholdSweeps: [ThresholdSweep] {
    let slop = aloneInArena ? Double.infinity : touchSlop
    let cumulative = aloneInArena || !faithfulSlopTest
    let moves =
      aloneInArena
      ? "the down event and moved samples (index 1…n−2)"
      : "the down event and moved samples (index 1…n−2) up to and including the first move whose displacement exceeds the slop"
    return [
      ThresholdSweep(
        Self.descriptor, Self.startPressure, comparison: .greaterThan,
        scale: .clampedNormalized, eligibleSamples: moves + "; nothing when maxForce <= 1",
        conditions: "startPressure < peakPressure; touchSlop, faithfulSlopTest and aloneInArena as in this instance",
        rule: .beganAndMovedUntilSlop(slop: slop, cumulative: cumulative, startedAbove: .nan)),
      ThresholdSweep(
        Self.descriptor, Self.peakPressure, event: .stage2,
        comparison: .greaterThan, scale: .clampedNormalized,
        eligibleSamples: moves
          + " — the slop cut applies only while this instance's startPressure has not been exceeded; nothing when maxForce <= 1",
        conditions:
          "peakPressure > startPressure (the peak sample is at or after onStart); startPressure as in this instance",
        rule: .beganAndMovedUntilSlop(slop: slop, cumulative: cumulative, startedAbove: startPressure)),
    ]
  }
}
