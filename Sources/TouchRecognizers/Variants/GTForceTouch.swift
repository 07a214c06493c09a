/// V3 `gt-deep-press`: GTForceTouchGestureRecognizer 1.1.2 (Giuseppe Travasoni) — began at the
/// first `force / max >= threshold`; the app's action fires at **ended**: on lift after a
/// crossing, or early on a sample with normalized force exactly 1.0 more than
/// `hardTriggerMinTime` after the crossing.
///
/// Samples with force 0 are ignored. The hard trigger is evaluated only when a sample arrives.
/// Lift: ended when deep-pressed, else failed; deep-pressed is cleared. **Quirk**
/// (`faithfulStaleState`): the hard-trigger end does not clear deep-pressed and UIKit delivers
/// nothing more of that contact, so the next contact of the same instance starts deep-pressed
/// and ends at its lift — a plain tap fires the action. Cancels are not handled (the flag also
/// survives them). With `faithfulStaleState` off, `reset()` clears it (as the 2017 version did).
public struct GTForceTouch: ConfigurableRecognizer, UniformSampleRecognizer {
  /// Normalized force needed, compared with `>=`.
  public let threshold: Double
  /// Minimum time over the threshold before saturation triggers, seconds (strict `>`).
  public let hardTriggerMinTime: Double
  /// Whether deep-pressed survives a hard-trigger end (and cancels) into the next contact.
  public let faithfulStaleState: Bool
  @usableFromInline var deepPressed = false
  @usableFromInline var deepPressedAt: Double = 0

  /// The `threshold` parameter.
  public static let threshold = Parameter<Double>.number(
    "threshold", .normalizedForce, default: 0.75, minimum: 0, maximum: 1,
    "fraction of the maximum possible force to reach (>=)")
  /// The `hardTriggerMinTime` parameter.
  public static let hardTriggerMinTime = Parameter<Double>.number(
    "hardTriggerMinTime", .seconds, default: 0.5, minimum: 0,
    "time over the threshold after which exact saturation ends the gesture early (strict >)")
  /// The `faithfulStaleState` parameter.
  public static let faithfulStaleState = Parameter<Bool>.flag(
    "faithfulStaleState", default: true,
    "deep-pressed survives a hard-trigger end into the next contact of the same instance")

  /// The variant's description.
  public static let descriptor = RecognizerDescription(
    name: "gt-deep-press", code: "V3", title: "GTForceTouchGestureRecognizer 1.1.2 (Travasoni)",
    summary:
      "Began at force/max >= threshold; ended on lift or at saturation held past hardTriggerMinTime; stale state carries over.",
    source: .github(
      "neobeppe/GTForceTouchGestureRecognizer", files: "Sources/GTForceTouchGestureRecognizer.swift", version: "8b4dc99"
    ),
    style: .continuous,
    actionEvent:
      "ended: the lift after a crossing, or a sample with force/max == 1.0 more than hardTriggerMinTime after the crossing",
    rules:
      "Ignores force 0. Began at the first force/max >= threshold; ended (the action) at lift if crossed, or on a sample with force/max exactly 1.0 when t − t_cross > hardTriggerMinTime; lift without crossing fails. Stale deepPressed after a hard-trigger end makes the next plain tap fire.",
    parameters: [
      Self.threshold.spec.compared(as: .normalized), Self.hardTriggerMinTime.spec, Self.faithfulStaleState.spec,
    ],
    sweptByDefault: Self.threshold.name)

  /// `threshold` only in `n >= threshold`.
  public func thresholdSide(of parameter: String) -> ThresholdSide? {
    parameter == Self.threshold.name ? .atLeast : nil
  }

  /// Builds from resolved parameter values.
  public init(parameters: ParameterValues) throws(ParameterError) {
    threshold = parameters[Self.threshold]
    hardTriggerMinTime = parameters[Self.hardTriggerMinTime]
    faithfulStaleState = parameters[Self.faithfulStaleState]
  }

  /// Creates the recognizer; invalid values trap.
  public init(threshold: Double = 0.75, hardTriggerMinTime: Double = 0.5, faithfulStaleState: Bool = true) {
    self = .checked(
      Self.threshold(threshold), Self.hardTriggerMinTime(hardTriggerMinTime),
      Self.faithfulStaleState(faithfulStaleState))
  }

  /// The configured values.
  public var parameters: ParameterValues {
    Self.descriptor.defaults.setting(Self.threshold, to: threshold)
      .setting(Self.hardTriggerMinTime, to: hardTriggerMinTime)
      .setting(Self.faithfulStaleState, to: faithfulStaleState)
  }

  /// Evaluates a touch-down or moved sample.
  @inlinable
  public mutating func handle(_ sample: TouchSample, _ context: inout GestureContext) {
    guard let n = sample.nonZeroNormalizedForce else { return }
    if !deepPressed && n >= threshold {
      deepPressed = true
      deepPressedAt = sample.t
      context.setState(.began, at: sample)
      return
    }
    if deepPressed && sample.t - deepPressedAt > hardTriggerMinTime && n == 1.0 {
      context.setState(.ended, acting: .action, at: sample)
    }
  }

  @inlinable
  public mutating func touchesEnded(_ sample: TouchSample, _ context: inout GestureContext) {
    if deepPressed {
      context.setState(.ended, acting: .action, at: sample)
    } else {
      context.setState(.failed, at: sample)
    }
    deepPressed = false
  }

  @inlinable
  public mutating func reset() {
    if !faithfulStaleState { deepPressed = false }
  }
}
