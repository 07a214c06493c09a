/// V10 `peak-release`: Ashley Mills' ForceTouchGestureRecognizer v0.3 — began at the first moved
/// sample with `force / max > minimumValue`; ended (the quick-release commit, the action) when
/// the force drops below the lagged running maximum minus `tolerance`, or at lift.
///
/// Faithful details: the touch-down force is not read. At began the force value is not stored,
/// so the running maximum lags: on each later moved sample, if `n < maxValue - tolerance` →
/// ended; else `maxValue = max(previous forceValue ?? 0, maxValue)`, `forceValue = n`, changed.
/// With the default tolerance 1, `maxValue - 1 <= 0` and the drop test can never pass: the
/// gesture ends at lift. Lift: began/changed → ended (also the action); cancel → cancelled.
///
/// `endOnAnyDecrease` replays the earlier demo copy instead: ended when `n < previousValue`,
/// where `previousValue` is the force value stored one changed-update earlier (it lags by two
/// samples).
public struct PeakRelease: ConfigurableRecognizer {
  /// Normalized force to exceed before the gesture begins (strict `>`).
  public let minimumValue: Double
  /// Drop below the running maximum that ends the gesture, normalized force.
  public let tolerance: Double
  /// The demo copy's rule: end on any decrease below the two-samples-old value.
  public let endOnAnyDecrease: Bool
  @usableFromInline var forceValue: Double = .nan  // NaN = nil
  @usableFromInline var maxValue: Double = 0
  @usableFromInline var previousValue: Double = 0

  /// The `minimumValue` parameter.
  public static let minimumValue = Parameter<Double>.number(
    "minimumValue", .normalizedForce, default: 0, minimum: 0, maximum: 1,
    "normalized force to exceed before the gesture begins (>); the README example uses 0.1")
  /// The `tolerance` parameter.
  public static let tolerance = Parameter<Double>.number(
    "tolerance", .normalizedForce, default: 1, minimum: 0, maximum: 1,
    "drop below the running maximum that ends the gesture")
  /// The `endOnAnyDecrease` parameter.
  public static let endOnAnyDecrease = Parameter<Bool>.flag(
    "endOnAnyDecrease", default: false,
    "the demo copy's rule: end when the force drops below the value stored one update earlier")

  /// The variant's description.
  public static let descriptor = RecognizerDescription(
    name: "peak-release", code: "V10", title: "ForceTouchGestureRecognizer v0.3 (Ashley Mills)",
    summary:
      "Began above minimumValue; ended when force falls tolerance below its running peak (a quick release commits).",
    source: RecognizerSource(
      library: "ashleymills/ForceTouchGestureRecognizer.swift", version: "6ffd430",
      link: "https://github.com/ashleymills/ForceTouchGestureRecognizer.swift",
      reference:
        "ashleymills/ForceTouchGestureRecognizer.swift ForceTouchGestureRecognizer.swift @ 6ffd430 (demo: Force Touch demo/…/ForceTouchGestureRecognizer.swift @ 376605f)"
    ),
    style: .continuous,
    actionEvent: "ended: the first moved sample below (lagged running max − tolerance) after began, or the lift",
    rules:
      "Moved samples only. Possible: n > minimumValue → began. Began/changed: n < maxValue − tolerance → ended; else maxValue = max(forceValue ?? 0, maxValue), forceValue = n, changed. Lift → ended. Default tolerance 1 never ends by a drop.",
    parameters: [Self.minimumValue.spec.compared(as: .normalized), Self.tolerance.spec, Self.endOnAnyDecrease.spec],
    sweptByDefault: Self.minimumValue.name)

  /// `minimumValue` only in `value > minimumValue`.
  public func thresholdSide(of parameter: String) -> ThresholdSide? {
    parameter == Self.minimumValue.name ? .above : nil
  }

  /// Builds from resolved parameter values.
  public init(parameters: ParameterValues) throws(ParameterError) {
    minimumValue = parameters[Self.minimumValue]
    tolerance = parameters[Self.tolerance]
    endOnAnyDecrease = parameters[Self.endOnAnyDecrease]
  }

  /// Creates the recognizer; invalid values trap.
  public init(minimumValue: Double = 0, tolerance: Double = 1, endOnAnyDecrease: Bool = false) {
    self = .checked(Self.minimumValue(minimumValue), Self.tolerance(tolerance), Self.endOnAnyDecrease(endOnAnyDecrease))
  }

  /// The configured values.
  public var parameters: ParameterValues {
    Self.descriptor.defaults.setting(Self.minimumValue, to: minimumValue)
      .setting(Self.tolerance, to: tolerance)
      .setting(Self.endOnAnyDecrease, to: endOnAnyDecrease)
  }

  @inlinable
  public mutating func touchesBegan(_ sample: TouchSample, _ context: inout GestureContext) {}

  @inlinable
  public mutating func touchesMoved(_ sample: TouchSample, _ context: inout GestureContext) {
    let value = sample.force / sample.maxForce
    if context.state == .possible {
      if value > minimumValue { context.setState(.began, at: sample) }
      return
    }
    let stored = forceValue.isNaN ? 0 : forceValue
    if endOnAnyDecrease {
      if value < previousValue {
        context.setState(.ended, acting: .action, at: sample)
      } else {
        previousValue = stored
        forceValue = value
        context.setState(.changed, at: sample)
      }
    } else if value < maxValue - tolerance {
      context.setState(.ended, acting: .action, at: sample)
    } else {
      maxValue = Swift.max(stored, maxValue)
      forceValue = value
      context.setState(.changed, at: sample)
    }
  }

  @inlinable
  public mutating func touchesEnded(_ sample: TouchSample, _ context: inout GestureContext) {
    if context.state == .began || context.state == .changed {
      context.setState(.ended, acting: .action, at: sample)
    }
  }

  @inlinable
  public mutating func touchesCancelled(_ sample: TouchSample, _ context: inout GestureContext) {
    if context.state == .began || context.state == .changed {
      context.setState(.cancelled, at: sample)
    }
  }

  @inlinable
  public mutating func reset() {
    forceValue = .nan
    maxValue = 0
    previousValue = 0
  }
}
