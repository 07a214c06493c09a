import TouchCore
import TouchIO

/// Writes the reports' CSV tables: a header row, then one row per record, fields separated by
/// commas, each row ending in a line feed.
///
/// Cells are scalars: `null` and non-finite numbers are empty cells (a missing value; pandas reads
/// them as NaN, R as NA), numbers are in their shortest round-trip form, booleans are `true` and
/// `false`, and text is quoted (RFC 4180) when it holds a comma, quote, line break or edge spaces,
/// or is empty (so an empty string does not read as a missing value). Control characters in text
/// (from ids and labels) are escaped as `\n`, `\t`, `\u{1B}`… (``Diagnostic/escaped(_:limit:)``),
/// so a cell is one printable line and a report cannot carry terminal escape sequences. With
/// `quotingCommentMarks`, text in the first column that starts with `#` is quoted too, so readers
/// that take such lines for comments (TouchIO's among them) keep the row.
enum CSVWriter {
  /// The table with `header` as its first row.
  /// - Precondition: every cell is a scalar (not an array or object).
  static func table(header: [String], rows: [[JSONValue]], quotingCommentMarks: Bool = false) -> [UInt8] {
    var out: [UInt8] = []
    appendRow(header.map { .string($0) }, quotingCommentMarks: quotingCommentMarks, to: &out)
    for row in rows { appendRow(row, quotingCommentMarks: quotingCommentMarks, to: &out) }
    return out
  }

  /// Rows without a header, each ending in a line feed (for a table written in pieces).
  /// - Precondition: every cell is a scalar.
  static func rows(_ rows: [[JSONValue]], quotingCommentMarks: Bool = false) -> [UInt8] {
    var out: [UInt8] = []
    for row in rows { appendRow(row, quotingCommentMarks: quotingCommentMarks, to: &out) }
    return out
  }

  /// Appends one row of scalar cells and its line feed.
  private static func appendRow(_ cells: [JSONValue], quotingCommentMarks: Bool, to out: inout [UInt8]) {
    for (k, cell) in cells.enumerated() {
      if k > 0 { out.append(UInt8(ascii: ",")) }
      switch cell {
      case .null: break
      case .string(let text):
        appendField(Diagnostic.escaped(text), quotingCommentMark: quotingCommentMarks && k == 0, to: &out)
      case .int(let value): out.append(contentsOf: String(value).utf8)
      case .number(let value): if value.isFinite { NumberText.append(value, to: &out) }
      case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
      case .array, .object, .lazyArray: preconditionFailure("CSV cells are scalars")
      }
    }
    out.append(0x0A)
  }

  /// Appends a text field, quoted when it holds a comma, quote, line break or edge spaces, is
  /// empty, or (`quotingCommentMark`) starts with `#`.
  private static func appendField(_ text: String, quotingCommentMark: Bool, to out: inout [UInt8]) {
    let bytes = Array(text.utf8)
    let quote = UInt8(ascii: "\"")
    let needsQuotes =
      bytes.isEmpty || bytes.first == 0x20 || bytes.last == 0x20
      || (quotingCommentMark && bytes.first == UInt8(ascii: "#"))
      || bytes.contains { $0 == UInt8(ascii: ",") || $0 == quote || $0 == 0x0A || $0 == 0x0D }
    guard needsQuotes else { return out.append(contentsOf: bytes) }
    out.append(quote)
    for byte in bytes {
      if byte == quote { out.append(quote) }
      out.append(byte)
    }
    out.append(quote)
  }
}
