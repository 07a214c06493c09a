/// A message about an input, rendered like a compiler diagnostic: `path:line:col: warning: text`.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
  /// How serious the message is.
  public enum Severity: String, Hashable, Sendable {
    case warning, error, note
  }

  /// How serious the message is.
  public var severity: Severity
  /// The file the message is about, as the user named it; `nil` when not about a file.
  public var file: String?
  /// Where in the file; `nil` when the format cannot say.
  public var position: TextPosition?
  /// The message, without location or severity.
  public var message: String

  /// Creates a diagnostic.
  public init(
    _ severity: Severity, _ message: String, file: String? = nil, position: TextPosition? = nil
  ) {
    self.severity = severity
    self.message = message
    self.file = file
    self.position = position
  }

  /// `path:line:col: severity: message` (parts that are unknown are left out).
  public var description: String {
    var prefix = ""
    if let file {
      prefix = file
      if let position { prefix += ":\(position.line):\(position.column)" }
      prefix += ": "
    }
    return "\(prefix)\(severity.rawValue): \(message)"
  }
}
