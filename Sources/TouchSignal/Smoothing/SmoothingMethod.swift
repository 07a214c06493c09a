public import TouchCore

/// A smoothing method: a copyable, `Sendable` configuration that smooths the force column of
/// traces, one output per sample.
///
/// The one requirement is the core operation, smoothing a batch of traces (`apply(to: [Trace])`),
/// where a method can reuse its workspaces (GSL workspaces, Savitzky–Golay weights) from one
/// trace to the next. The single-trace entry point `apply(to: Trace)` is written once, in an
/// extension, as a batch of one.
///
/// Conforming types: ``GaussianSmoothing``, ``MedianSmoothing``, ``RecursiveMedianSmoothing``,
/// ``ImpulseRejection``, ``MovingWindowSmoothing`` (all ``WindowedSmoothing``),
/// ``SavitzkyGolay``, ``ExponentialMovingAverage``, and the closed enum ``Smoothing``.
///
/// Units: force units (`UITouch.force`) per sample, or the derivative's units for a method
/// configured as a derivative (see each method).
public protocol SmoothingMethod: Hashable, Sendable {
  /// Smooths the force column of every trace: one array per trace, in order, each with one value
  /// per sample (force units, or the units of a configured derivative); an empty trace gives an
  /// empty array.
  ///
  /// - Throws: ``SignalError`` naming the first trace that failed.
  func apply(to traces: [Trace]) throws(SignalError) -> [[Double]]
}

extension SmoothingMethod {
  /// Smooths the force column of `trace`: one value per sample (force units, or the units of a
  /// configured derivative).
  ///
  /// - Throws: ``SignalError`` naming the trace.
  public func apply(to trace: Trace) throws(SignalError) -> [Double] {
    try apply(to: [trace])[0]
  }
}
