/// V5 `rngh-force`: react-native-gesture-handler's RNForceTouchGestureRecognizer — activates
/// (began) on the first **moved** sample with `force / max >= minForce`; fails when the force
/// passes `maxForce`.
///
/// The touch-down force is recorded but never checked. Every moved sample first applies
/// RNGH's `TEST_MAX_IF_NOT_NAN`: with `maxForce` not NaN, `n > maxForce` (or `n < maxForce`
/// when `maxForce` is negative) → failed, even after activation. Lift: began → ended, else
/// failed. Cancel: forwarded to UIKit (the end-of-sequence rule applies).
public struct RNGHForceTouch: ConfigurableRecognizer {
  /// Normalized force needed to activate, compared with `>=`.
  public let minForce: Double
  /// Normalized force above which the handler fails; NaN for no limit.
  public let maxForce: Double
  /// Whether the handler activated in this contact (mirrors the began state for the fast path).
  @usableFromInline var activated = false

  /// The `minForce` parameter.
  public static let minForce = Parameter<Double>.number(
    "minForce", .normalizedForce, default: 0.2, minimum: 0, maximum: 1,
    "minimal normalized force to activate (>=)")
  /// The `maxForce` parameter.
  public static let maxForce = Parameter<Double>.number(
    "maxForce", .normalizedForce, default: .nan, minimum: -1, maximum: 1, nan: "no limit",
    "normalized force above which the handler fails (below it when negative)")

  /// The variant's description.
  public static let descriptor = RecognizerDescription(
    name: "rngh-force", code: "V5", title: "ForceTouchGestureHandler (react-native-gesture-handler)",
    summary: "Active on the first moved sample with force/max >= minForce, optionally failing above maxForce.",
    source: .github(
      "software-mansion/react-native-gesture-handler", files: "apple/Handlers/RNForceTouchHandler.m", version: "04e7898"
    ),
    style: .continuous,
    actionEvent: "began (activation): the first moved sample with force/max >= minForce",
    rules:
      "Only moved samples: TEST_MAX_IF_NOT_NAN(n, maxForce) → failed (also after activation); possible and n >= minForce → began. Lift: active → ended, else failed. The touch-down sample is never checked.",
    parameters: [Self.minForce.spec, Self.maxForce.spec],
    sweptByDefault: Self.minForce.name)

  /// Builds from resolved parameter values.
  public init(parameters: ParameterValues) throws(ParameterError) {
    minForce = parameters[Self.minForce]
    maxForce = parameters[Self.maxForce]
  }

  /// Creates the recognizer; invalid values trap.
  public init(minForce: Double = 0.2, maxForce: Double = .nan) {
    self = .checked(Self.minForce(minForce), Self.maxForce(maxForce))
  }

  /// The configured values.
  public var parameters: ParameterValues {
    Self.descriptor.defaults.setting(Self.minForce, to: minForce)
      .setting(Self.maxForce, to: maxForce)
  }

  @inlinable
  public mutating func touchesBegan(_ sample: TouchSample, _ context: inout GestureContext) {
    activated = false
  }

  @inlinable
  public mutating func touchesMoved(_ sample: TouchSample, _ context: inout GestureContext) {
    let n = sample.force / sample.maxForce
    if !maxForce.isNaN && ((maxForce < 0 && n < maxForce) || (maxForce >= 0 && n > maxForce)) {
      context.setState(.failed, at: sample)
      return
    }
    if context.state == .possible && n >= minForce {
      activated = true
      context.setState(.began, acting: .action, at: sample)
    }
  }

  @inlinable
  public mutating func touchesEnded(_ sample: TouchSample, _ context: inout GestureContext) {
    context.finish(.ended, at: sample)
  }

  @inlinable
  public mutating func reset() { activated = false }

  /// Fast path: only the maxForce test and (while possible) the activation matter.
  @inlinable public static var skipsInertSamples: Bool { true }

  /// Skips to the first sample that fails the maxForce test or (while possible) activates.
  @inlinable
  public mutating func skipInertSamples(
    force: UnsafeBufferPointer<Double>, from: Int, to: Int, maxForce limit: Double
  ) -> Int {
    // Before activation both tests matter; after it only the maxForce test. Raw-force bounds
    // are slightly widened (see ``FastPathBound``); the harness decides exactly.
    let activation = activated ? Double.infinity : FastPathBound.atLeast(minForce, maxForce: limit)
    let above = maxForce >= 0 ? FastPathBound.atLeast(maxForce, maxForce: limit) : Double.infinity
    let below = maxForce < 0 ? FastPathBound.atMost(maxForce, maxForce: limit) : -Double.infinity
    let upper = Swift.min(activation, above)
    return below == -Double.infinity
      ? ForceScan.firstNotBelow(force, upper, from: from, to: to)
      : ForceScan.firstOutside(force, atLeast: upper, atMost: below, from: from, to: to)
  }

  /// `minForce`: the first moved sample with `force / max >= minForce`.
  public var thresholdSweeps: [ThresholdSweep] {
    [
      ThresholdSweep(
        Self.descriptor, Self.minForce, comparison: .greaterThanOrEqual,
        scale: .normalized,
        eligibleSamples: "moved samples (index 1…n−2), up to (not including) the first that fails the maxForce test",
        conditions: "maxForce as in this instance (NaN by default: no cut)",
        rule: .movedUntilNormalizedBeyond(limit: maxForce))
    ]
  }
}
