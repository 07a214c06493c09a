/// V2 `deep-press`: FlexMonkey's DeepPressGestureRecognizer — a normalized threshold with `>=`,
/// same level for press and release.
///
/// Rules: began and moved samples with force 0 are ignored. Not deep-pressed and
/// `force / max >= threshold` → began (the action), deep-pressed. Deep-pressed and below the
/// threshold → ended (terminal: no re-arm within the contact; the release). Lift: ended when
/// deep-pressed, else failed; deep-pressed is cleared. `touchesCancelled` is not overridden, so a
/// cancelled deep press keeps `deepPressed` set and the next contact of a reused instance starts
/// deep-pressed (its first non-zero sample below the threshold ends it).
public struct FlexMonkeyDeepPress: ConfigurableRecognizer, UniformSampleRecognizer {
  /// Normalized force needed, compared with `>=`.
  public let threshold: Double
  @usableFromInline var deepPressed = false

  /// The `threshold` parameter.
  public static let threshold = Parameter<Double>.number(
    "threshold", .normalizedForce, default: 0.75, minimum: 0, maximum: 1,
    "fraction of the maximum possible force to reach (>=); a required init argument, 0.75 in the README")

  /// The variant's description.
  public static let descriptor = RecognizerDescription(
    name: "deep-press", code: "V2", title: "DeepPressGestureRecognizer (FlexMonkey)",
    summary: "Began at the first sample with force/max >= threshold, ended when it drops below; no hysteresis.",
    source: .github(
      "FlexMonkey/DeepPressGestureRecognizer",
      files: "DeepPressGestureRecognizer/deepPressGestureRecognizer/DeepPressGestureRecognizer.swift",
      version: "112e556"),
    style: .continuous,
    actionEvent: "began: the first began/moved sample with force ≠ 0 and force/max >= threshold",
    releaseEvent: "ended on the first later sample below the threshold (terminal, so at most one)",
    rules:
      "Ignores samples with force 0. Began when force/max >= threshold; ended when it drops below the same threshold (no hysteresis) or at lift; lift without crossing fails. touchesCancelled not overridden: a cancelled press leaves deepPressed set for the next contact.",
    parameters: [Self.threshold.spec.compared(as: .normalized)],
    sweptByDefault: Self.threshold.name)

  /// `threshold` only in `n >= threshold` and `n < threshold`.
  public func thresholdSide(of parameter: String) -> ThresholdSide? {
    parameter == Self.threshold.name ? .atLeast : nil
  }

  /// Builds from resolved parameter values.
  public init(parameters: ParameterValues) throws(ParameterError) {
    threshold = parameters[Self.threshold]
  }

  /// Creates the recognizer; invalid values trap.
  public init(threshold: Double = 0.75) {
    self = .checked(Self.threshold(threshold))
  }

  /// The configured values.
  public var parameters: ParameterValues {
    Self.descriptor.defaults.setting(Self.threshold, to: threshold)
  }

  /// Evaluates a touch-down or moved sample.
  @inlinable
  public mutating func handle(_ sample: TouchSample, _ context: inout GestureContext) {
    guard let n = sample.nonZeroNormalizedForce else { return }
    if !deepPressed && n >= threshold {
      context.setState(.began, acting: .action, at: sample)
      deepPressed = true
    } else if deepPressed && n < threshold {
      context.setState(.ended, acting: .release, at: sample)
      deepPressed = false
    }
  }

  @inlinable
  public mutating func touchesEnded(_ sample: TouchSample, _ context: inout GestureContext) {
    context.setState(deepPressed ? .ended : .failed, at: sample)
    deepPressed = false
  }

  /// Fast path: only a non-zero sample crossing the threshold matters.
  @inlinable public static var skipsInertSamples: Bool { true }

  /// Skips to the first non-zero sample that may cross the threshold (upward while not
  /// deep-pressed, downward while deep-pressed), comparing raw force with a slightly widened
  /// bound (see ``FastPathBound``); the harness decides the stopping sample exactly.
  @inlinable
  public mutating func skipInertSamples(
    force: UnsafeBufferPointer<Double>, from: Int, to: Int, maxForce: Double
  ) -> Int {
    if deepPressed {
      let bound = FastPathBound.atMost(threshold, maxForce: maxForce)
      return ForceScan.firstNonZero(force, atLeast: false, bound, from: from, to: to)
    }
    let bound = FastPathBound.atLeast(threshold, maxForce: maxForce)
    // f >= bound > 0 implies f != 0: one comparison per sample.
    return bound > 0
      ? ForceScan.firstNotBelow(force, bound, from: from, to: to)
      : ForceScan.firstNonZero(force, atLeast: true, bound, from: from, to: to)
  }

  /// `threshold`: the first began/moved sample with force ≠ 0 and `force / max >= threshold`.
  public var thresholdSweeps: [ThresholdSweep] {
    [
      ThresholdSweep(
        Self.descriptor, Self.threshold, comparison: .greaterThanOrEqual,
        scale: .normalized,
        eligibleSamples: "the touch-down sample and moved samples (index 1…n−2), skipping force == 0",
        conditions: "a fresh instance per trace (a cancelled press carries over)",
        rule: .touchDownAndMoved(skipZeroForce: true))
    ]
  }
}
