public import TouchCore

/// A delimiter-separated text table read with the same rules as trace CSV files (delimiter
/// detection, LF/CRLF/CR line endings, BOM, RFC 4180 quoting, `#` comments), for files that are
/// not in the trace format: calibration tables, device logs, labels.
public struct CSVTable: Sendable {
  /// One row: its fields' text and the position of each field.
  public struct Row: Hashable, Sendable {
    /// The fields, unquoted, edge spaces of unquoted fields removed.
    public var fields: [String]
    /// Where each field starts.
    public var positions: [TextPosition]
  }

  /// The file name used in errors.
  public var file: String
  /// The first row, when ``read(_:file:hasHeader:delimiter:)`` was asked for a header.
  public var header: Row?
  /// The data rows, in order.
  public var rows: [Row]

  /// Reads a table from bytes (quoting is undone in place).
  ///
  /// - Parameters:
  ///   - bytes: the table's text.
  ///   - file: the name errors use.
  ///   - hasHeader: whether the first row is a header.
  ///   - delimiter: `nil` detects it from the first row.
  /// - Throws: ``TraceLoadError`` for an unterminated quote or text after a closing quote.
  public static func read(
    _ bytes: inout [UInt8], file: String, hasHeader: Bool = true, delimiter: LoadOptions.Delimiter? = nil
  ) throws(TraceLoadError) -> CSVTable {
    let result: Result<CSVTable, TraceLoadError> = bytes.withUnsafeMutableBufferPointer { buffer in
      do throws(TraceLoadError) {
        var tokenizer = CSVTokenizer(buffer, file: file)
        var table = CSVTable(file: file, header: nil, rows: [])
        var row = CSVRow(capacity: 16)
        defer { row.deallocate() }
        tokenizer.skipIgnorableLines()
        tokenizer.delimiter = delimiter?.byte ?? tokenizer.detectDelimiter()
        while true {
          tokenizer.skipIgnorableLines()
          if tokenizer.atEnd { break }
          try tokenizer.readRow(into: &row)
          let fields = (0..<row.count).map { tokenizer.string($0, in: row) }
          let positions = (0..<row.count).map { tokenizer.position(of: $0, in: row) }
          let item = Row(fields: fields, positions: positions)
          if hasHeader && table.header == nil { table.header = item } else { table.rows.append(item) }
        }
        return .success(table)
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// Reads a table from a file.
  public static func read(
    _ path: String, hasHeader: Bool = true, delimiter: LoadOptions.Delimiter? = nil
  ) throws(TraceLoadError) -> CSVTable {
    var bytes = try TraceFiles.read(path)
    return try read(&bytes, file: path, hasHeader: hasHeader, delimiter: delimiter)
  }
}
