/// A recognizer that evaluates the touch-down sample and every moved sample by the same rule,
/// ``handle(_:_:)``: the default ``ForceRecognizer/touchesBegan(_:_:)``,
/// ``ForceRecognizer/touchesMoved(_:_:)`` and ``ForceRecognizer/touchesStationary(_:_:)`` call it
/// (the harness delivers stationary samples only to a recognizer whose
/// ``ForceRecognizer/receivesStationary`` is `true`; a conformer that does more at touch-down
/// implements `touchesBegan` itself).
public protocol UniformSampleRecognizer: ForceRecognizer {
  /// Evaluates a touch-down or moved sample.
  mutating func handle(_ sample: TouchSample, _ context: inout GestureContext)
}

extension UniformSampleRecognizer {
  /// Evaluates the touch-down sample with ``handle(_:_:)``.
  @inlinable
  public mutating func touchesBegan(_ sample: TouchSample, _ context: inout GestureContext) {
    handle(sample, &context)
  }

  /// Evaluates a moved sample with ``handle(_:_:)``.
  @inlinable @inline(__always)
  public mutating func touchesMoved(_ sample: TouchSample, _ context: inout GestureContext) {
    handle(sample, &context)
  }

  /// Evaluates a stationary sample with ``handle(_:_:)`` (delivered only when
  /// ``ForceRecognizer/receivesStationary``).
  @inlinable @inline(__always)
  public mutating func touchesStationary(_ sample: TouchSample, _ context: inout GestureContext) {
    handle(sample, &context)
  }
}
