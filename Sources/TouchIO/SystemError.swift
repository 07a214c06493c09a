#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The C library's words for an `errno` value: the one place the package turns a system error
/// code into text for a message.
package enum SystemError {
  /// `strerror(code)`, as the C library writes it ("No such file or directory"), or
  /// "error CODE" when it has no text for the code.
  package static func text(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text)
  }

  /// The text of the calling thread's current `errno`; read it right after the failing call.
  package static var current: String { text(errno) }
}
