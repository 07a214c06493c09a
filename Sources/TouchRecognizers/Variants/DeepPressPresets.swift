/// V2 preset `deep-press-yusuga`: yusuga's ForceTouchGestureRecognizer — discrete, recognizes on
/// the first moved sample with `force >= maxForce * forceSensitivity`.
///
/// Only moved samples are checked; there is no `touchesEnded` override, so a contact that never
/// reaches the level stays possible and is failed by the system when it ends. With the default
/// 1.0 it needs sensor saturation.
public struct YusugaForceTouch: ConfigurableRecognizer {
  /// Fraction of the maximum possible force, compared as `force >= max * forceSensitivity`.
  public let forceSensitivity: Double

  /// The `forceSensitivity` parameter.
  public static let forceSensitivity = Parameter<Double>.number(
    "forceSensitivity", .normalizedForce, default: 1.0, minimum: 0, maximum: 1,
    "fraction of the maximum possible force to reach, compared as force >= max * forceSensitivity")

  /// The variant's description.
  public static let descriptor = RecognizerDescription(
    name: "deep-press-yusuga", code: "V2-yusuga", title: "ForceTouchGestureRecognizer (yusuga)",
    summary: "Recognized on the first moved sample with force >= max × forceSensitivity (default needs saturation).",
    source: .github(
      "yusuga/ForceTouchGestureRecognizer", files: "Classes/ForceTouchGestureRecognizer/ForceTouchGestureRecognizer.m",
      version: "d5022a0"),
    style: .discrete,
    actionEvent: "recognized: the first moved sample with force >= max * forceSensitivity",
    rules:
      "Discrete. Only moved samples: force >= maxForce * forceSensitivity (and maxForce > 0) → recognized. No touchesEnded: a contact below the level is never failed by the recognizer (the system fails it at the end). Default 1.0 needs saturation.",
    parameters: [Self.forceSensitivity.spec],
    sweptByDefault: Self.forceSensitivity.name)

  /// Builds from resolved parameter values.
  public init(parameters: ParameterValues) throws(ParameterError) {
    forceSensitivity = parameters[Self.forceSensitivity]
  }

  /// Creates the recognizer; invalid values trap.
  public init(forceSensitivity: Double = 1.0) {
    self = .checked(Self.forceSensitivity(forceSensitivity))
  }

  /// The configured values.
  public var parameters: ParameterValues {
    Self.descriptor.defaults.setting(Self.forceSensitivity, to: forceSensitivity)
  }

  @inlinable
  public mutating func touchesBegan(_ sample: TouchSample, _ context: inout GestureContext) {}

  @inlinable
  public mutating func touchesMoved(_ sample: TouchSample, _ context: inout GestureContext) {
    if sample.maxForce > 0 && sample.force >= sample.maxForce * forceSensitivity {
      context.setState(.ended, acting: .action, at: sample)
    }
  }

  @inlinable
  public mutating func touchesEnded(_ sample: TouchSample, _ context: inout GestureContext) {}

  /// `forceSensitivity`: the first moved sample with `force >= max * forceSensitivity`.
  public var thresholdSweeps: [ThresholdSweep] {
    [
      ThresholdSweep.firstMovedSample(
        Self.descriptor, Self.forceSensitivity, comparison: .greaterThanOrEqual, scale: .scaledThreshold)
    ]
  }
}

/// V2 preset `deep-press-alg-squeeze`: Alexis Gallagher's ALGSqueezeGestureRecognizer — discrete,
/// recognizes when `force / max >= squeezeThreshhold` on the touch-down, moved, stationary or
/// lift sample.
///
/// It checks the touch-down and lift samples too (unlike most). A cancelled touch fails; a lift
/// below the level leaves it possible (the system fails it). UIKit has no stationary callback,
/// so the stationary branch of the original never runs on a device; the harness still delivers
/// stationary samples to it, which cannot change the outcome (a stationary sample repeats the
/// previous force).
public struct ALGSqueeze: ConfigurableRecognizer, UniformSampleRecognizer {
  /// Normalized force needed, compared with `>=`.
  public let squeezeThreshhold: Double

  /// The `squeezeThreshhold` parameter.
  public static let squeezeThreshhold = Parameter<Double>.number(
    "squeezeThreshhold", .normalizedForce, default: 0.5, minimum: 0, maximum: 1,
    "fraction of the maximum possible force to reach (>=); the original's spelling")

  /// The variant's description.
  public static let descriptor = RecognizerDescription(
    name: "deep-press-alg-squeeze", code: "V2-ALGSqueeze", title: "ALGSqueezeGestureRecognizer (Gallagher)",
    summary: "Recognized when force/max >= squeezeThreshhold on touch-down, moved, stationary or lift samples.",
    source: .github(
      "algal/TouchVisualizer", files: "TouchVisualizer/ALGSqueezeGestureRecognizer.swift", version: "f18068a"),
    style: .discrete,
    actionEvent: "recognized: the first began/moved/stationary/ended sample with force/max >= squeezeThreshhold",
    rules:
      "Discrete. While possible, every began, moved, stationary and ended sample: force/max >= squeezeThreshhold → recognized. Cancel → failed. A lift below the level leaves it possible (the system fails it).",
    parameters: [Self.squeezeThreshhold.spec],
    sweptByDefault: Self.squeezeThreshhold.name)

  /// Builds from resolved parameter values.
  public init(parameters: ParameterValues) throws(ParameterError) {
    squeezeThreshhold = parameters[Self.squeezeThreshhold]
  }

  /// Creates the recognizer; invalid values trap.
  public init(squeezeThreshhold: Double = 0.5) {
    self = .checked(Self.squeezeThreshhold(squeezeThreshhold))
  }

  /// The configured values.
  public var parameters: ParameterValues {
    Self.descriptor.defaults.setting(Self.squeezeThreshhold, to: squeezeThreshhold)
  }

  /// Stationary samples are checked too.
  @inlinable public static var receivesStationary: Bool { true }

  /// Evaluates a touch-down, moved, stationary or lift sample.
  @inlinable
  public mutating func handle(_ sample: TouchSample, _ context: inout GestureContext) {
    if sample.force / sample.maxForce >= squeezeThreshhold {
      context.setState(.ended, acting: .action, at: sample)
    }
  }

  @inlinable
  public mutating func touchesEnded(_ sample: TouchSample, _ context: inout GestureContext) {
    handle(sample, &context)
  }

  @inlinable
  public mutating func touchesCancelled(_ sample: TouchSample, _ context: inout GestureContext) {
    context.setState(.failed, at: sample)
  }

  /// `squeezeThreshhold`: the first sample with `force / max >= squeezeThreshhold`, lift included.
  public var thresholdSweeps: [ThresholdSweep] {
    [
      ThresholdSweep(
        Self.descriptor, Self.squeezeThreshhold, comparison: .greaterThanOrEqual,
        scale: .normalized,
        eligibleSamples: "every sample, including the touch-down and the lift (not a cancelled last sample)",
        conditions: "none",
        rule: .delivered(began: true, moved: true, stationary: true, ended: true, skipZeroForce: false))
    ]
  }
}

/// V2 preset `deep-press-frosty`: James Frost's ForceTouchGestureRecognizer — continuous, began at
/// touch-down, ended on the first moved sample with `force > maxForce * forceThreshold` (strict).
///
/// A moved sample whose force differs from the last one seen → changed. The lift → cancelled.
/// With the default 1.0 the strict test can never pass (force never exceeds the maximum), so the
/// default instance never recognizes.
public struct FrostyForceTouch: ConfigurableRecognizer, LiftCancelsRecognizer {
  /// Fraction of the maximum possible force, compared as `force > max * forceThreshold`.
  public let forceThreshold: Double
  @usableFromInline var lastForce: Double = 0

  /// The `forceThreshold` parameter.
  public static let forceThreshold = Parameter<Double>.number(
    "forceThreshold", .normalizedForce, default: 1.0, minimum: 0, maximum: 1,
    "fraction of the maximum possible force to exceed, compared as force > max * forceThreshold")

  /// The variant's description.
  public static let descriptor = RecognizerDescription(
    name: "deep-press-frosty", code: "V2-frosty", title: "ForceTouchGestureRecognizer (frosty)",
    summary: "Began when force/max > forceThreshold on a moved sample; the default 1.0 never fires.",
    source: .github(
      "frosty/ForceTouchGestureRecognizer", files: "ForceTouchGestureRecognizer.swift", version: "139a76a"),
    style: .continuous,
    actionEvent: "ended: the first moved sample with force > max * forceThreshold",
    rules:
      "Began at touch-down; changed on a moved sample whose force changed; ended when force > maxForce * forceThreshold (strict); lift → cancelled. The default 1.0 never recognizes.",
    parameters: [Self.forceThreshold.spec],
    sweptByDefault: Self.forceThreshold.name)

  /// Builds from resolved parameter values.
  public init(parameters: ParameterValues) throws(ParameterError) {
    forceThreshold = parameters[Self.forceThreshold]
  }

  /// Creates the recognizer; invalid values trap.
  public init(forceThreshold: Double = 1.0) {
    self = .checked(Self.forceThreshold(forceThreshold))
  }

  /// The configured values.
  public var parameters: ParameterValues {
    Self.descriptor.defaults.setting(Self.forceThreshold, to: forceThreshold)
  }

  @inlinable
  public mutating func touchesBegan(_ sample: TouchSample, _ context: inout GestureContext) {
    lastForce = sample.force
    context.setState(.began, at: sample)
  }

  @inlinable
  public mutating func touchesMoved(_ sample: TouchSample, _ context: inout GestureContext) {
    if sample.force != lastForce {
      lastForce = sample.force
      context.setState(.changed, at: sample)
    }
    if sample.force > sample.maxForce * forceThreshold {
      context.setState(.ended, acting: .action, at: sample)
    }
  }

  /// `forceThreshold`: the first moved sample with `force > max * forceThreshold`.
  public var thresholdSweeps: [ThresholdSweep] {
    [
      ThresholdSweep.firstMovedSample(
        Self.descriptor, Self.forceThreshold, comparison: .greaterThan, scale: .scaledThreshold)
    ]
  }
}

/// V2 preset `deep-press-ps`: Paraset's PSForceTouchGestureRecognizer — continuous, began at
/// touch-down, every moved sample → changed, then ended when `force / max >= minimumForce`.
///
/// The lift or a cancel → cancelled. With the default 0.0 it ends at the first moved sample: in
/// effect a touch detector. (The original checks `numberOfTouchesRequired` against the began
/// set; every trace here is one touch.)
public struct PSForceTouch: ConfigurableRecognizer, LiftCancelsRecognizer {
  /// Normalized force needed, compared with `>=`.
  public let minimumForce: Double

  /// The `minimumForce` parameter.
  public static let minimumForce = Parameter<Double>.number(
    "minimumForce", .normalizedForce, default: 0.0, minimum: 0, maximum: 1,
    "normalized force to reach (>=); 0 recognizes any moved sample")

  /// The variant's description.
  public static let descriptor = RecognizerDescription(
    name: "deep-press-ps", code: "V2-PS", title: "PSForceTouchGestureRecognizer (Paraset)",
    summary: "Began on the first moved sample with force/max >= minimumForce (0: the first move).",
    source: .github(
      "nolanbrown/PSForceTouchGestureRecognizer", files: "PSForceTouchGestureRecognizer.m", version: "2c5a16f"),
    style: .continuous,
    actionEvent: "ended: the first moved sample with force/max >= minimumForce",
    rules:
      "Began at touch-down; every moved sample → changed, then ended when force/max >= minimumForce; lift or cancel → cancelled. The default 0.0 ends at the first moved sample.",
    parameters: [Self.minimumForce.spec],
    sweptByDefault: Self.minimumForce.name)

  /// Builds from resolved parameter values.
  public init(parameters: ParameterValues) throws(ParameterError) {
    minimumForce = parameters[Self.minimumForce]
  }

  /// Creates the recognizer; invalid values trap.
  public init(minimumForce: Double = 0.0) {
    self = .checked(Self.minimumForce(minimumForce))
  }

  /// The configured values.
  public var parameters: ParameterValues {
    Self.descriptor.defaults.setting(Self.minimumForce, to: minimumForce)
  }

  @inlinable
  public mutating func touchesBegan(_ sample: TouchSample, _ context: inout GestureContext) {
    context.setState(.began, at: sample)
  }

  @inlinable
  public mutating func touchesMoved(_ sample: TouchSample, _ context: inout GestureContext) {
    context.setState(.changed, at: sample)
    if sample.force / sample.maxForce >= minimumForce {
      context.setState(.ended, acting: .action, at: sample)
    }
  }

  /// `minimumForce`: the first moved sample with `force / max >= minimumForce`.
  public var thresholdSweeps: [ThresholdSweep] {
    [
      ThresholdSweep.firstMovedSample(
        Self.descriptor, Self.minimumForce, comparison: .greaterThanOrEqual, scale: .normalized)
    ]
  }
}
