/// Why a force-curve analysis could not be done on a trace.
///
/// GSL failures arrive as ``gsl(_:)`` with the GSL function and status; the other cases are
/// properties of the data that make an operation impossible. Every case names the trace when it
/// is known.
public enum SignalError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A GSL routine reported a failure (or a `*_alloc` returned NULL).
  case gsl(GSLError)
  /// A window or rate given in seconds needs the trace's sampling interval, but the trace has no
  /// two samples with different times.
  case noSamplingInterval(trace: String?)
  /// The operation needs more samples than the trace (or segment) has.
  case tooFewSamples(trace: String?, operation: String, needed: Int, available: Int)
  /// A level or feature defined relative to the maximum possible force, on a trace whose maximum
  /// possible force is unknown.
  case noMaximumForce(trace: String?, operation: String)
  /// A uniform grid (resampling) would need more than `limit` points (`rate` in hertz).
  case gridTooLarge(trace: String?, rate: Double, limit: Int)

  /// The trace the error concerns, when known.
  public var trace: String? {
    switch self {
    case .gsl(let error): error.trace
    case .noSamplingInterval(let trace), .tooFewSamples(let trace, _, _, _),
      .noMaximumForce(let trace, _), .gridTooLarge(let trace, _, _):
      trace
    }
  }

  /// The same error attributed to the trace named `name` (kept when already attributed).
  public func inTrace(_ name: String) -> SignalError {
    switch self {
    case .gsl(let error): .gsl(error.trace == nil ? error.inTrace(name) : error)
    case .noSamplingInterval(let trace): .noSamplingInterval(trace: trace ?? name)
    case .tooFewSamples(let trace, let operation, let needed, let available):
      .tooFewSamples(trace: trace ?? name, operation: operation, needed: needed, available: available)
    case .noMaximumForce(let trace, let operation):
      .noMaximumForce(trace: trace ?? name, operation: operation)
    case .gridTooLarge(let trace, let rate, let limit):
      .gridTooLarge(trace: trace ?? name, rate: rate, limit: limit)
    }
  }

  /// The message, e.g. `trace 'p3': Savitzky-Golay (degree 2) needs at least 3 samples, has 2`.
  public var description: String {
    (trace.map { "trace '\($0)': " } ?? "") + message
  }

  /// The message without the trace name, e.g. `Savitzky-Golay (degree 2) needs at least 3
  /// samples, has 2` (what a skip record gives as its reason).
  public var message: String {
    switch self {
    case .gsl(let error):
      var copy = error
      copy.trace = nil
      return copy.description
    case .noSamplingInterval:
      return
        "no sampling interval (fewer than two distinct sample times), so a window or rate in seconds cannot be converted to samples"
    case .tooFewSamples(_, let operation, let needed, let available):
      return "\(operation) needs at least \(needed) samples, has \(available)"
    case .noMaximumForce(_, let operation):
      return "\(operation) needs the maximum possible force (max_force), which is unknown"
    case .gridTooLarge(_, let rate, let limit):
      return "resampling at \(rate) Hz would need more than \(limit) grid points (lower the rate or set a maximum gap)"
    }
  }
}
