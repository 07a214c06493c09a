/// A continuous recognizer that ends only by recognizing: the lift cancels it, as a cancel does —
/// the default ``ForceRecognizer/touchesEnded(_:_:)`` and ``ForceRecognizer/touchesCancelled(_:_:)``
/// both set ``GestureState/cancelled`` (frosty's and Paraset's deep presses).
public protocol LiftCancelsRecognizer: ForceRecognizer {}

extension LiftCancelsRecognizer {
  /// Lift: cancelled.
  @inlinable
  public mutating func touchesEnded(_ sample: TouchSample, _ context: inout GestureContext) {
    context.setState(.cancelled, at: sample)
  }

  /// Cancel: cancelled.
  @inlinable
  public mutating func touchesCancelled(_ sample: TouchSample, _ context: inout GestureContext) {
    context.setState(.cancelled, at: sample)
  }
}
