/// `peek-pop`: a two-stage press in the style of iOS peek and pop — stage 1 (peek, the action)
/// at `force / max >= peekThreshold`, stage 2 (pop) at `force / max >= popThreshold`.
///
/// Apple does not publish its peek and pop thresholds; the defaults are the community figures
/// (peek at force 1.33 = 0.20 normalized, pop at 5.0 = 0.75), not ground truth. Touch-down and
/// moved samples are evaluated; both stages can happen on the same sample. Reducing force does
/// not undo a peek (as on iOS, only lifting dismisses it). States: possible → began (peek) →
/// ended (pop, terminal); lift after a peek without pop → cancelled; lift without a peek →
/// failed.
public struct PeekPop: ConfigurableRecognizer, UniformSampleRecognizer {
  /// Normalized force for stage 1 (`>=`).
  public let peekThreshold: Double
  /// Normalized force for stage 2 (`>=`), at least `peekThreshold`.
  public let popThreshold: Double

  /// The `peekThreshold` parameter.
  public static let peekThreshold = Parameter<Double>.number(
    "peekThreshold", .normalizedForce, default: 0.2, minimum: 0, maximum: 1,
    "normalized force for the peek (>=); community figure 0.20")
  /// The `popThreshold` parameter.
  public static let popThreshold = Parameter<Double>.number(
    "popThreshold", .normalizedForce, default: 0.75, minimum: 0, maximum: 1,
    "normalized force for the pop (>=); at least peekThreshold; community figure 0.75")

  /// The variant's description.
  public static let descriptor = RecognizerDescription(
    name: "peek-pop", code: "peek/pop", title: "Two-stage peek and pop",
    summary: "Two-stage press: peek at force/max >= peekThreshold, pop at force/max >= popThreshold.",
    source: RecognizerSource(
      library: "community figures", version: nil, link: "https://stackoverflow.com/questions/35097830",
      reference:
        "community peek/pop figures (StackOverflow q. 35097830); UIPreviewInteraction's thresholds are undocumented"),
    style: .continuous,
    actionEvent: "peek (stage 1): the first touch-down/moved sample with force/max >= peekThreshold",
    stage2Event: "pop: the first touch-down/moved sample with force/max >= popThreshold (at or after the peek)",
    rules:
      "Touch-down and moved samples: force/max >= peekThreshold → began (peek); force/max >= popThreshold after (or at) the peek → ended (pop). Lift after a peek → cancelled, before → failed.",
    parameters: [Self.peekThreshold.spec.compared(as: .normalized), Self.popThreshold.spec.compared(as: .normalized)],
    sweptByDefault: Self.peekThreshold.name)

  /// Builds from resolved parameter values.
  ///
  /// - Throws: ``ParameterError`` when `popThreshold < peekThreshold`.
  /// Both thresholds only in `n >= threshold`.
  public func thresholdSide(of parameter: String) -> ThresholdSide? {
    parameter == Self.peekThreshold.name || parameter == Self.popThreshold.name ? .atLeast : nil
  }

  public init(parameters: ParameterValues) throws(ParameterError) {
    peekThreshold = parameters[Self.peekThreshold]
    popThreshold = parameters[Self.popThreshold]
    try Self.require(Self.popThreshold, .atLeast, Self.peekThreshold, in: parameters)
  }

  /// Creates the recognizer; invalid values trap.
  public init(peekThreshold: Double = 0.2, popThreshold: Double = 0.75) {
    self = .checked(Self.peekThreshold(peekThreshold), Self.popThreshold(popThreshold))
  }

  /// The configured values.
  public var parameters: ParameterValues {
    Self.descriptor.defaults.setting(Self.peekThreshold, to: peekThreshold)
      .setting(Self.popThreshold, to: popThreshold)
  }

  /// Evaluates a touch-down or moved sample.
  @inlinable
  public mutating func handle(_ sample: TouchSample, _ context: inout GestureContext) {
    let n = sample.force / sample.maxForce
    if context.state == .possible && n >= peekThreshold {
      context.setState(.began, acting: .action, at: sample)
    }
    if context.state == .began && n >= popThreshold {
      context.setState(.ended, acting: .stage2, at: sample)
    }
  }

  @inlinable
  public mutating func touchesEnded(_ sample: TouchSample, _ context: inout GestureContext) {
    context.finish(.cancelled, at: sample)
  }

  @inlinable
  public mutating func touchesCancelled(_ sample: TouchSample, _ context: inout GestureContext) {
    context.finish(.cancelled, at: sample)
  }

  /// `peekThreshold` (action) and `popThreshold` (stage 2).
  public var thresholdSweeps: [ThresholdSweep] {
    let rule = ThresholdSweep.Rule.touchDownAndMoved()
    let eligible = "the touch-down sample and moved samples (index 1…n−2)"
    return [
      ThresholdSweep(
        Self.descriptor, Self.peekThreshold, comparison: .greaterThanOrEqual,
        scale: .normalized, eligibleSamples: eligible, conditions: "peekThreshold <= popThreshold",
        rule: rule),
      ThresholdSweep(
        Self.descriptor, Self.popThreshold, event: .stage2,
        comparison: .greaterThanOrEqual, scale: .normalized, eligibleSamples: eligible,
        conditions: "popThreshold >= peekThreshold (the pop sample is at or after the peek)", rule: rule),
    ]
  }
}
