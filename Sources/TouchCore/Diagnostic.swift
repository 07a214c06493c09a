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

  /// `path:line:col: severity: message` (parts that are unknown are left out; control
  /// characters in the path and message escaped, see ``escaped(_:limit:)``).
  public var description: String {
    var prefix = ""
    if let file {
      prefix = Self.escaped(file)
      if let position { prefix += ":\(position.line):\(position.column)" }
      prefix += ": "
    }
    return "\(prefix)\(severity.rawValue): \(Self.escaped(message))"
  }

  /// How many characters of user text messages quote: 60.
  public static var quoteLimit: Int { 60 }

  /// User text as messages quote it: in single quotes, escaped by ``escaped(_:limit:)`` and cut
  /// after ``quoteLimit`` characters, e.g. `'0.4x'`, `'a\u{0}b'`,
  /// `'1111…' (10485760 bytes)`.
  public static func quoted(_ text: some StringProtocol) -> String {
    let body = escaped(text, limit: quoteLimit)
    return body.hasSuffix("…") ? "'\(body)' (\(text.utf8.count) bytes)" : "'\(body)'"
  }

  /// `text` safe to print on one line: tab, line feed and carriage return as `\t`, `\n`, `\r`,
  /// other control characters (U+0000–U+001F, U+007F–U+009F) and U+FFFD (which stands for
  /// bytes that were not UTF-8) as `\u{…}`; with a `limit`, text longer than `limit`
  /// characters is cut to `limit − 1` and ends in `…`.
  public static func escaped(_ text: some StringProtocol, limit: Int? = nil) -> String {
    let scalars = text.unicodeScalars
    if limit == nil, !scalars.contains(where: needsEscape) { return String(text) }
    var out = ""
    var count = 0
    var index = scalars.startIndex
    while index != scalars.endIndex {
      if let limit, count == limit - 1, scalars.index(after: index) != scalars.endIndex {
        out += "…"
        break
      }
      let scalar = scalars[index]
      switch scalar.value {
      case 0x09: out += "\\t"
      case 0x0A: out += "\\n"
      case 0x0D: out += "\\r"
      case _ where needsEscape(scalar): out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      default: out.unicodeScalars.append(scalar)
      }
      count += 1
      index = scalars.index(after: index)
    }
    return out
  }

  /// Whether ``escaped(_:limit:)`` writes `scalar` as an escape: a control character or U+FFFD.
  private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0xFFFD
  }
}
