// The steps several built-in recognizers share, each written once: the "state change with an
// action" step and the normalized force the FlexMonkey lineage reads. They are `@inlinable` and
// concrete (no existential, no closure), so a recognizer that uses them compiles to the same
// loop as if it spelled them out. The other shared pieces have files of their own: the hold
// (HoldGate.swift), the fast path's scans (ForceScan.swift), the one-pass sweep declarations
// (ThresholdSweep+Declarations.swift), the rules between parameters (ParameterOrder.swift) and
// the uniform-sample protocol (UniformSampleRecognizer.swift).

extension GestureContext {
  /// Sets the state and records an action of `kind` at `sample`: ``setState(_:at:)`` then
  /// ``act(_:at:detail:)`` — the step a recognizer takes when its condition is met (a threshold
  /// crossed, a timer fired).
  @inlinable
  public mutating func setState(_ new: GestureState, acting kind: ActionKind, at sample: TouchSample) {
    setState(new, at: sample)
    act(kind, at: sample)
  }
}

extension TouchSample {
  /// `force / maxForce`, or `nil` for a sample with force 0 or maximum 0 (the FlexMonkey lineage
  /// ignores those samples).
  @inlinable
  var nonZeroNormalizedForce: Double? {
    guard force != 0, maxForce != 0 else { return nil }
    return force / maxForce
  }
}
