public import TouchCore

/// One of TouchSignal's smoothing methods with its parameters: a closed set, so callers such as
/// the command line dispatch statically.
///
/// | case | causal | ends |
/// |---|---|---|
/// | ``gaussian(_:)`` | no (centred) | pad-value, pad-zero |
/// | ``median(_:)`` | no | pad-value, pad-zero, truncate |
/// | ``recursiveMedian(_:)`` | no | pad-value, pad-zero, truncate |
/// | ``impulse(_:)`` | no | pad-value, pad-zero, truncate |
/// | ``moving(_:)`` | trailing windows only | pad-value, pad-zero, truncate |
/// | ``savitzkyGolay(_:)`` | no | polynomial-fit, pad-value, pad-zero |
/// | ``exponential(_:)`` | yes | none needed |
public enum Smoothing: SmoothingMethod {
  /// Gaussian kernel (`gsl_filter_gaussian`).
  case gaussian(GaussianSmoothing)
  /// Standard median (`gsl_filter_median`).
  case median(MedianSmoothing)
  /// Recursive median (`gsl_filter_rmedian`).
  case recursiveMedian(RecursiveMedianSmoothing)
  /// Hampel-type impulse rejection (`gsl_filter_impulse`).
  case impulse(ImpulseRejection)
  /// Moving mean or median over a centred or trailing window (`gsl_movstat`).
  case moving(MovingWindowSmoothing)
  /// Savitzky–Golay polynomial smoothing (weights by `gsl_multifit_linear`).
  case savitzkyGolay(SavitzkyGolay)
  /// Exponential moving average.
  case exponential(ExponentialMovingAverage)

  /// Whether each output depends only on the current and earlier samples.
  public var isCausal: Bool {
    switch self {
    case .moving(let m): m.alignment == .trailing
    case .exponential: true
    default: false
    }
  }

  /// Smooths the force column of every trace with the wrapped method, reusing GSL workspaces (and
  /// Savitzky–Golay weights) across traces that need the same window length: force units (per
  /// second for a Savitzky–Golay derivative, per sample for a Gaussian derivative).
  /// - Throws: ``SignalError`` naming the first trace that failed.
  public func apply(to traces: [Trace]) throws(SignalError) -> [[Double]] {
    switch self {
    case .gaussian(let s): try s.apply(to: traces)
    case .median(let s): try s.apply(to: traces)
    case .recursiveMedian(let s): try s.apply(to: traces)
    case .impulse(let s): try s.apply(to: traces)
    case .moving(let s): try s.apply(to: traces)
    case .savitzkyGolay(let s): try s.apply(to: traces)
    case .exponential(let s): s.apply(to: traces)
    }
  }
}

extension Trace {
  /// The trace with its force replaced by smoothed force; every other column and all metadata
  /// are kept (phases included).
  ///
  /// The smoothed force is clamped to `[0, maxForce]` (to `[0, ∞)` when the maximum is unknown),
  /// so the result is again a valid trace: methods that can overshoot (Savitzky–Golay, a Gaussian
  /// with zero padding near a saturated end) or a median of padded zeros never produce a negative
  /// force or one above the device maximum. Clamping changes nothing for methods whose outputs are
  /// averages or order statistics of the inputs.
  ///
  /// - Precondition: `smoothing` produces force, not a derivative.
  /// - Throws: ``SignalError`` naming the trace.
  public func smoothed(with smoothing: Smoothing) throws(SignalError) -> Trace {
    var copy = self
    copy.force = Self.clamped(try smoothing.apply(to: self), maxForce: metadata.maxForce, producedBy: smoothing)
    return copy
  }

  /// Clamps smoothed force to the valid range.
  static func clamped(_ values: [Double], maxForce: Double?, producedBy smoothing: Smoothing) -> [Double] {
    switch smoothing {
    case .gaussian(let g): precondition(g.derivative == 0, "a derivative is not a force")
    case .savitzkyGolay(let s): precondition(s.derivative == 0, "a derivative is not a force")
    default: break
    }
    let upper = maxForce ?? .infinity
    return values.map { Swift.min(Swift.max($0, 0), upper) }
  }
}

extension Smoothing {
  /// Smooths every trace (see `Trace.smoothed(with:)`), reusing workspaces.
  /// - Throws: ``SignalError`` naming the first trace that failed.
  public func smoothed(_ traces: [Trace]) throws(SignalError) -> [Trace] {
    let forces = try apply(to: traces)
    return zip(traces, forces).map { trace, force in
      var copy = trace
      copy.force = Trace.clamped(force, maxForce: trace.metadata.maxForce, producedBy: self)
      return copy
    }
  }
}
