import TouchRecognizers

/// `example-first-crossing`: acts at the first delivered sample — the touch-down sample
/// included — whose force / maximum possible force is at least `threshold`.
///
/// A teaching example: every part a recognizer needs, in the order the harness uses them.
public struct ExampleFirstCrossing: ConfigurableRecognizer {
  // MARK: Parameters: each declared once, as a typed key.

  /// Normalized force to reach (`>=`), 0…1. Default 0.5.
  public static let threshold = Parameter<Double>.number(
    "threshold",  // the name `--set` and `--vary` use
    .normalizedForce,  // its unit: force / maximum possible force
    default: 0.5, minimum: 0, maximum: 1,  // `sweep` tries k/20 by default (the unit's grid)
    "normalized force to reach (>=) on a delivered sample")

  // MARK: Description: what `recognizers` prints and what `run`/`sweep`/`tune`/`compare` use.

  /// Name, summary, source, what the action is, the rules and the parameters.
  public static let descriptor = RecognizerDescription(
    name: "example-first-crossing",  // what `--recognizer` takes
    code: "example", title: "Example: first crossing of a level",
    summary: "Acts at the first delivered sample, touch-down included, with force/max >= threshold.",
    // Where the logic comes from: here, this file (no published library, version or page).
    source: RecognizerSource(
      library: "TouchTrace Examples/CustomRecognizer", version: nil, link: nil,
      reference: "Examples/CustomRecognizer/Sources/ExampleRecognizers/ExampleFirstCrossing.swift"),
    style: .discrete,  // possible → recognized or failed, no began/changed
    // The moment an app would act: what `sweep` scores and times.
    actionEvent: "recognized: the first touch-down, moved or lift sample with force/max >= threshold",
    rules:
      "Touch-down, moved and lift samples: force/max >= threshold → recognized (the action). A lift below it fails.",
    parameters: [Self.threshold.spec],
    sweptByDefault: Self.threshold.name)

  // MARK: Configuration: validated once, stored as plain values (nothing is looked up per sample).

  /// The level, normalized force.
  public let threshold: Double

  /// Builds the recognizer from resolved values (every parameter present and in range).
  public init(parameters: ParameterValues) throws(ParameterError) {
    threshold = parameters[Self.threshold]
  }

  /// The values it was built with (reports print them).
  public var parameters: ParameterValues { Self.descriptor.defaults.setting(Self.threshold, to: threshold) }

  /// It divides by the maximum possible force, so traces must carry one.
  public var requiresMaximumForce: Bool { true }

  // MARK: The per-sample step: `@inlinable`, no allocation, no existential.

  /// The one rule every delivered sample goes through.
  @inlinable @inline(__always)
  mutating func check(_ sample: TouchSample, _ context: inout GestureContext) {
    if sample.normalizedForce >= threshold { context.setState(.ended, acting: .action, at: sample) }
  }

  /// The touch-down sample.
  @inlinable
  public mutating func touchesBegan(_ sample: TouchSample, _ context: inout GestureContext) { check(sample, &context) }

  /// A sample whose force or position changed.
  @inlinable
  public mutating func touchesMoved(_ sample: TouchSample, _ context: inout GestureContext) { check(sample, &context) }

  /// The lift: a last check, then failed when still possible.
  @inlinable
  public mutating func touchesEnded(_ sample: TouchSample, _ context: inout GestureContext) {
    check(sample, &context)
    context.finish(.failed, at: sample)
  }

  // MARK: State between contacts: nothing to reset (no state is kept).

  /// Returns to the state for a new contact.
  @inlinable
  public mutating func reset() {}

  // MARK: Fast sweeps: the action is the first crossing of one level, so a sweep over
  // `threshold` runs in one pass per trace.

  /// `threshold`: the first touch-down, moved or lift sample with `force / max >= threshold`.
  public var thresholdSweeps: [ThresholdSweep] {
    [
      ThresholdSweep(
        variant: Self.descriptor.name, parameter: Self.threshold.name, comparison: .greaterThanOrEqual,
        scale: .normalized, eligibleSamples: "the touch-down, moved and lift samples", conditions: "none",
        rule: .delivered(began: true, moved: true, stationary: false, ended: true, skipZeroForce: false))
    ]
  }
}
