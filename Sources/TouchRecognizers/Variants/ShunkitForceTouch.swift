/// V1 `shunkit`: the ForceTouchGestureRecognizer of shunkit/ForceTouchGesture (the
/// "milkit/ForceTouchGesture" of the seed article) — a raw-force threshold with a strict `>`,
/// checked only on moved samples.
///
/// Rules (faithful defaults):
/// - touch-down: `minimumForce = min(minimumForce, maxForce)` (the clamp **persists** in the
///   instance), the last force is set to the touch-down force, state → began (began means
///   touch-down, not a threshold crossing).
/// - moved: the last force is updated; `force > minimumForce` → ended (the action).
/// - lift: last force (from the last began/moved sample, not the lift sample) `> minimumForce`
///   → ended, else cancelled. So the touch-down sample never fires by itself, but a contact
///   without any moved sample whose touch-down force is over the threshold ends at lift.
/// - cancel: cancelled. `reset()` sets the last force to 0 (not `minimumForce`).
public struct ShunkitForceTouch: ConfigurableRecognizer {
  /// The threshold in force units; clamped at every touch-down when `faithfulClamp`.
  public var minimumForce: Double
  /// The threshold as configured (before any clamp).
  public let configuredMinimumForce: Double
  /// Whether the touch-down clamp `min(minimumForce, maxForce)` is applied and persists.
  public let faithfulClamp: Bool
  /// The force of the last began/moved sample, device units.
  @usableFromInline var force: Double = 0

  /// The `minimumForce` parameter.
  public static let minimumForce = Parameter<Double>.number(
    "minimumForce", .force, default: 3.0, minimum: 0,
    "raw force the touch must exceed (strict >); 3.0 is about 0.45 of the iPhone 6s maximum")
  /// The `faithfulClamp` parameter.
  public static let faithfulClamp = Parameter<Bool>.flag(
    "faithfulClamp", default: true,
    "clamp minimumForce to the maximum possible force at every touch-down, permanently (needs the trace's max force)")

  /// The variant's description.
  public static let descriptor = RecognizerDescription(
    name: "shunkit", code: "V1", title: "ForceTouchGestureRecognizer (shunkit, \"milkit\")",
    summary: "Raw force above minimumForce (strict >) on a moved sample ends the gesture; began at touch-down.",
    source: .github(
      "shunkit/ForceTouchGesture", files: "ForceTouchGesture/ForceTouchGestureRecognizer.swift", version: "3e377de"),
    style: .continuous,
    actionEvent:
      "ended: the first moved sample with force > minimumForce (or the lift, when the touch-down force is over it and no sample moved)",
    rules:
      "Began at touch-down; ended on the first moved sample with raw force > minimumForce (strict); at lift ended if the last began/moved force > minimumForce, else cancelled. minimumForce = min(minimumForce, maxForce) at each touch-down, and the clamp persists.",
    parameters: [Self.minimumForce.spec, Self.faithfulClamp.spec],
    sweptByDefault: Self.minimumForce.name)

  /// Builds from resolved parameter values.
  public init(parameters: ParameterValues) throws(ParameterError) {
    minimumForce = parameters[Self.minimumForce]
    configuredMinimumForce = minimumForce
    faithfulClamp = parameters[Self.faithfulClamp]
  }

  /// Creates the recognizer; invalid values trap.
  public init(minimumForce: Double = 3.0, faithfulClamp: Bool = true) {
    self = .checked(Self.minimumForce(minimumForce), Self.faithfulClamp(faithfulClamp))
  }

  /// The configured values.
  public var parameters: ParameterValues {
    Self.descriptor.defaults.setting(Self.minimumForce, to: configuredMinimumForce)
      .setting(Self.faithfulClamp, to: faithfulClamp)
  }

  /// The clamp reads the maximum possible force.
  public var requiresMaximumForce: Bool { faithfulClamp }

  @inlinable
  public mutating func touchesBegan(_ sample: TouchSample, _ context: inout GestureContext) {
    if faithfulClamp { minimumForce = Swift.min(minimumForce, sample.maxForce) }
    force = sample.force
    context.setState(.began, at: sample)
  }

  @inlinable
  public mutating func touchesMoved(_ sample: TouchSample, _ context: inout GestureContext) {
    force = sample.force
    if force > minimumForce {
      context.setState(.ended, acting: .action, at: sample)
    }
  }

  @inlinable
  public mutating func touchesEnded(_ sample: TouchSample, _ context: inout GestureContext) {
    if force > minimumForce {
      context.setState(.ended, acting: .action, at: sample)
    } else {
      context.setState(.cancelled, at: sample)
    }
  }

  @inlinable
  public mutating func touchesCancelled(_ sample: TouchSample, _ context: inout GestureContext) {
    context.setState(.cancelled, at: sample)
  }

  @inlinable
  public mutating func reset() { force = 0 }

  /// Fast path: samples at or below `minimumForce` only update the last force.
  @inlinable public static var skipsInertSamples: Bool { true }

  /// Skips to the first sample with `force > minimumForce`; the last force becomes the last
  /// skipped sample's (a stationary sample repeats the previous one, so it equals the last
  /// delivered force).
  @inlinable
  public mutating func skipInertSamples(
    force column: UnsafeBufferPointer<Double>, from: Int, to: Int, maxForce: Double
  ) -> Int {
    let i = ForceScan.firstAbove(column, minimumForce, from: from, to: to)
    if i > from { force = column[i - 1] }
    return i
  }

  /// `minimumForce`: the first moved sample with `force > min(minimumForce, maxForce)`.
  public var thresholdSweeps: [ThresholdSweep] {
    [
      ThresholdSweep(
        Self.descriptor, Self.minimumForce, comparison: .greaterThan,
        scale: faithfulClamp ? .clampedRaw : .raw,
        eligibleSamples:
          "moved samples (index 1…n−2, force or x/y differs from the previous sample); when there is none and the trace ends by lift, the lift sample compared with the touch-down force",
        conditions: "a fresh instance per trace (the persistent clamp does not carry over)",
        rule: .movedElseLiftAtTouchDownForce)
    ]
  }
}
