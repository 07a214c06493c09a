extension ThresholdSweep {
  /// Declares a sweep of `recognizer`'s `parameter` (the names taken from the typed keys).
  init(
    _ recognizer: RecognizerDescription, _ parameter: Parameter<Double>, event: Event = .action,
    comparison: Comparison, scale: Scale, eligibleSamples: String, conditions: String, rule: Rule
  ) {
    self.init(
      variant: recognizer.name, parameter: parameter.name, event: event, comparison: comparison, scale: scale,
      eligibleSamples: eligibleSamples, conditions: conditions, rule: rule)
  }

  /// The sweep of a recognizer that compares only moved samples, with no other condition: the
  /// event is the first moved sample that crosses.
  static func firstMovedSample(
    _ recognizer: RecognizerDescription, _ parameter: Parameter<Double>, comparison: Comparison, scale: Scale
  ) -> ThresholdSweep {
    ThresholdSweep(
      recognizer, parameter, comparison: comparison, scale: scale,
      eligibleSamples: "moved samples (index 1…n−2)", conditions: "none", rule: .movedSamples)
  }
}

extension ThresholdSweep.Rule {
  /// Moved samples only (not the touch-down, stationary or lift samples).
  static var movedSamples: Self {
    .delivered(began: false, moved: true, stationary: false, ended: false, skipZeroForce: false)
  }

  /// The touch-down sample and moved samples, optionally skipping force 0.
  static func touchDownAndMoved(skipZeroForce: Bool = false) -> Self {
    .delivered(began: true, moved: true, stationary: false, ended: false, skipZeroForce: skipZeroForce)
  }
}
