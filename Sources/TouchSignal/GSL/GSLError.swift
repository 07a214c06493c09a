/// An error reported by a GSL routine, as a Swift value.
///
/// TouchSignal switches GSL's default error handler (which prints and aborts the process) off
/// before its first GSL call, checks every returned status and turns each failure into a
/// `GSLError` naming the GSL function, the status and, when known, the trace.
public struct GSLError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The GSL status code (`GSL_EDOM` = 1, `GSL_EINVAL` = 4, `GSL_ENOMEM` = 8, …).
  public var status: Int32
  /// The GSL function that failed, e.g. `gsl_spline_init`.
  public var function: String
  /// GSL's text for the status (`gsl_strerror`), or a more precise reason.
  public var reason: String
  /// The name of the trace being processed, when known.
  public var trace: String?

  /// Creates an error.
  public init(status: Int32, function: String, reason: String, trace: String? = nil) {
    self.status = status
    self.function = function
    self.reason = reason
    self.trace = trace
  }

  /// The same error attributed to a trace.
  public func inTrace(_ name: String) -> GSLError {
    var copy = self
    copy.trace = name
    return copy
  }

  /// `gsl_spline_init: input domain error (GSL status 1) in trace 'p3'`.
  public var description: String {
    var text = "\(function): \(reason) (GSL status \(status))"
    if let trace { text += " in trace '\(trace)'" }
    return text
  }
}
