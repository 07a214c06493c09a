/// `tap`: a single-tap recognizer with UITapGestureRecognizer's public defaults (one tap, one
/// touch) — recognized at lift if the finger stayed close to where it touched down.
///
/// UIKit's movement and duration limits for taps are private and undocumented; the defaults here
/// are our choices and say so: `allowableMovement` 10 pt (the documented long-press tolerance)
/// and no duration limit (`maximumTapDuration` NaN). Moving farther than `allowableMovement`
/// from the touch-down position (strict `>`, the lift sample included) fails it; so does holding longer than
/// `maximumTapDuration` when set (a timer). Lift → recognized (ended, the action); cancel →
/// failed. Combine it with a force recognizer through ``RequireToFail`` to measure what waiting
/// for the force recognizer to fail costs.
public struct TapRecognizer: ConfigurableRecognizer, HoldRecognizer {
  /// Movement allowed before the tap fails, points.
  public let allowableMovement: Double
  /// Longest contact that is still a tap, seconds; NaN: no limit.
  public let maximumTapDuration: Double
  /// The hold: touch-down position and the pending duration limit (none without one).
  public var hold = HoldGate()

  /// The `allowableMovement` parameter.
  public static let allowableMovement = Parameter<Double>.number(
    "allowableMovement", .points, default: 10, minimum: 0,
    "movement allowed before the tap fails (our choice: UIKit's limit is private)")
  /// The `maximumTapDuration` parameter.
  public static let maximumTapDuration = Parameter<Double>.number(
    "maximumTapDuration", .seconds, default: .nan, minimum: 0, inclusive: false, nan: "no limit",
    "longest contact that is still a tap (our choice: no limit)")

  /// The variant's description.
  public static let descriptor = RecognizerDescription(
    name: "tap", code: "tap", title: "Single tap (UITapGestureRecognizer defaults)",
    summary:
      "A single tap: lift within the movement limit (and duration limit, when set) before anything else recognizes.",
    source: RecognizerSource(
      library: "Apple UIKit", version: nil,
      link: "https://developer.apple.com/documentation/uikit/uitapgesturerecognizer",
      reference:
        "Apple UIKit UITapGestureRecognizer (numberOfTapsRequired 1, numberOfTouchesRequired 1; movement/duration limits undocumented)"
    ),
    style: .discrete,
    actionEvent: "recognized: the lift, if the finger stayed within allowableMovement (and maximumTapDuration)",
    rules:
      "Discrete. Fails on a move farther than allowableMovement from touch-down or when held longer than maximumTapDuration (when set); recognized at lift; cancel fails.",
    parameters: [Self.allowableMovement.spec, Self.maximumTapDuration.spec],
    sweptByDefault: Self.allowableMovement.name,
    canWaitForFailure: true)

  /// Builds from resolved parameter values.
  public init(parameters: ParameterValues) throws(ParameterError) {
    allowableMovement = parameters[Self.allowableMovement]
    maximumTapDuration = parameters[Self.maximumTapDuration]
  }

  /// Creates the recognizer; invalid values trap.
  public init(allowableMovement: Double = 10, maximumTapDuration: Double = .nan) {
    self = .checked(Self.allowableMovement(allowableMovement), Self.maximumTapDuration(maximumTapDuration))
  }

  /// The configured values.
  public var parameters: ParameterValues {
    Self.descriptor.defaults.setting(Self.allowableMovement, to: allowableMovement)
      .setting(Self.maximumTapDuration, to: maximumTapDuration)
  }

  @inlinable
  public mutating func touchesBegan(_ sample: TouchSample, _ context: inout GestureContext) {
    hold.touchDown(sample, deadline: maximumTapDuration.isNaN ? .infinity : sample.t + maximumTapDuration)
  }

  @inlinable
  public mutating func touchesMoved(_ sample: TouchSample, _ context: inout GestureContext) {
    hold.failIfFarther(sample, than: allowableMovement, &context)
  }

  @inlinable
  public mutating func touchesEnded(_ sample: TouchSample, _ context: inout GestureContext) {
    if !hold.failIfFarther(sample, than: allowableMovement, &context) {
      hold.stop(.ended, at: sample, &context)
      context.act(at: sample)
    }
  }

  @inlinable
  public mutating func timerFired(_ sample: TouchSample, _ context: inout GestureContext) {
    hold.stop(.failed, at: sample, &context)
  }
}
