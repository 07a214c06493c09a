internal import CGSL

/// The single place where TouchSignal talks to GSL's global state and translates statuses.
enum GSL {
  /// Switches GSL's default handler off exactly once per process (a lazily initialized global,
  /// so the first use from any thread does it before any GSL routine runs). GSL's default handler
  /// prints a message and calls `abort()`; with it off, routines return status codes instead.
  private static let handlerSwitchedOff: Bool = {
    _ = gsl_set_error_handler_off()
    return true
  }()

  /// Makes sure the aborting default handler is off. Every entry point calls this before GSL.
  @inline(__always)
  static func prepare() {
    _ = handlerSwitchedOff
  }

  /// The GSL library version, e.g. `2.7.1`.
  static var version: String {
    prepare()
    return String(cString: cgsl_version())
  }

  /// Throws a ``GSLError`` unless `status` is `GSL_SUCCESS`.
  @inline(__always)
  static func check(_ status: Int32, _ function: StaticString) throws(GSLError) {
    guard status == GSL_SUCCESS else { throw error(status, function) }
  }

  /// A ``GSLError`` for `status` from `function`, with GSL's own text.
  static func error(_ status: Int32, _ function: StaticString, reason: String? = nil) -> GSLError {
    GSLError(
      status: status, function: "\(function)",
      reason: reason ?? String(cString: gsl_strerror(status)))
  }

  /// The error for a `*_alloc` that returned NULL.
  static func allocationFailed(_ function: StaticString, reason: String? = nil) -> GSLError {
    error(Int32(GSL_ENOMEM), function, reason: reason ?? "allocation failed")
  }
}

/// The version of the GNU Scientific Library TouchSignal is linked against, e.g. `2.7.1`.
public var gslVersion: String { GSL.version }
