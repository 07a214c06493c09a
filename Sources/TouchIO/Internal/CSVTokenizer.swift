import TouchCore

/// The fields of one CSV row, as byte ranges into the tokenizer's buffer.
struct CSVRow {
  /// Start offset of each field's content (after trimming and unquoting).
  var start: [Int] = []
  /// End offset (exclusive) of each field's content.
  var end: [Int] = []
  /// Offset of each field's first character in the file (its opening quote, if quoted).
  var origin: [Int] = []
  /// Line of each field's first character.
  var line: [Int] = []
  /// Offset of the start of that line.
  var lineStart: [Int] = []
  /// The number of fields in the row.
  var count = 0

  init(capacity: Int) {
    start = [Int](repeating: 0, count: capacity)
    end = start
    origin = start
    line = start
    lineStart = start
  }

  @inline(__always)
  mutating func append(start s: Int, end e: Int, origin o: Int, line l: Int, lineStart ls: Int) {
    if count == start.count {
      start.append(0)
      end.append(0)
      origin.append(0)
      line.append(0)
      lineStart.append(0)
    }
    start[count] = s
    end[count] = e
    origin[count] = o
    line[count] = l
    lineStart[count] = ls
    count += 1
  }

  @inline(__always) func length(_ k: Int) -> Int { end[k] - start[k] }
}

/// Splits CSV bytes into rows and fields without copying them.
///
/// RFC 4180 quoting (`""` inside quotes is a quote; quoted fields may hold delimiters and line
/// breaks) is undone in place, so the buffer must be mutable and owned by the reader. Line
/// endings may be LF, CRLF or CR alone; a leading UTF-8 byte order mark is skipped; lines whose
/// first character is `#` are comments and blank lines are skipped. Unquoted fields lose
/// leading and trailing spaces.
struct CSVTokenizer {
  let base: UnsafeMutablePointer<UInt8>
  let count: Int
  let file: String
  var delimiter: UInt8 = UInt8(ascii: ",")
  /// Offset of the next unread byte.
  var position = 0
  /// Line of the next unread byte, from 1.
  var line = 1
  /// Offset where that line starts.
  var lineStart = 0

  init(_ buffer: UnsafeMutableBufferPointer<UInt8>, file: String) {
    // An empty array may have no base address; point at a dummy byte and read nothing.
    self.base = buffer.baseAddress ?? Self.emptyStorage
    self.count = buffer.baseAddress == nil ? 0 : buffer.count
    self.file = file
    if count >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF {
      position = 3
      lineStart = 3
    }
  }

  nonisolated(unsafe) private static let emptyStorage = UnsafeMutablePointer<UInt8>.allocate(
    capacity: 1)

  var atEnd: Bool { position >= count }

  /// The position (line, column in Unicode scalars) of byte `offset` on a line starting at
  /// `lineStartOffset`.
  func textPosition(offset: Int, line: Int, lineStart lineStartOffset: Int) -> TextPosition {
    var column = 1
    var k = lineStartOffset
    while k < offset {
      if base[k] & 0xC0 != 0x80 { column += 1 }
      k += 1
    }
    return TextPosition(line: line, column: column)
  }

  /// The position of field `k` of `row`.
  func position(of k: Int, in row: CSVRow) -> TextPosition {
    textPosition(offset: row.origin[k], line: row.line[k], lineStart: row.lineStart[k])
  }

  /// The position just after the last field of `row` (for "missing field" errors).
  func positionAfter(_ row: CSVRow) -> TextPosition {
    guard row.count > 0 else { return TextPosition(line: line, column: 1) }
    let k = row.count - 1
    return textPosition(
      offset: max(row.end[k], row.origin[k]), line: row.line[k], lineStart: row.lineStart[k])
  }

  /// The text of field `k` (for messages and identifiers).
  func string(_ k: Int, in row: CSVRow) -> String {
    String(
      decoding: UnsafeBufferPointer(start: base + row.start[k], count: row.length(k)),
      as: UTF8.self)
  }

  /// Skips comment lines and blank lines.
  @inline(__always)
  mutating func skipIgnorableLines() {
    while position < count {
      let c = base[position]
      if c == UInt8(ascii: "#") {
        while position < count, base[position] != 0x0A, base[position] != 0x0D { position += 1 }
        consumeLineEnd()
      } else if c == 0x0A || c == 0x0D {
        consumeLineEnd()
      } else {
        return
      }
    }
  }

  /// Consumes one line ending (LF, CRLF or CR) at `position`, if there is one.
  @inline(__always)
  mutating func consumeLineEnd() {
    guard position < count else { return }
    if base[position] == 0x0D {
      position += 1
      if position < count, base[position] == 0x0A { position += 1 }
    } else if base[position] == 0x0A {
      position += 1
    } else {
      return
    }
    line += 1
    lineStart = position
  }

  /// Picks the delimiter that occurs most often, outside quotes, on the line at `position`:
  /// `,` unless `;` or a tab is more frequent.
  func detectDelimiter() -> UInt8 {
    var commas = 0
    var semicolons = 0
    var tabs = 0
    var quoted = false
    var k = position
    while k < count {
      let c = base[k]
      if c == UInt8(ascii: "\"") {
        quoted.toggle()
      } else if !quoted {
        if c == 0x0A || c == 0x0D { break }
        if c == UInt8(ascii: ",") { commas += 1 }
        if c == UInt8(ascii: ";") { semicolons += 1 }
        if c == 0x09 { tabs += 1 }
      }
      k += 1
    }
    if semicolons > commas && semicolons >= tabs { return UInt8(ascii: ";") }
    if tabs > commas && tabs > semicolons { return 0x09 }
    return UInt8(ascii: ",")
  }

  /// Reads the row at `position` into `row` and consumes its line ending.
  /// Call ``skipIgnorableLines()`` first; at the end of the input this reads zero fields.
  @inline(__always)
  mutating func readRow(into row: inout CSVRow) throws(TraceLoadError) {
    row.count = 0
    let delimiter = self.delimiter
    while position < count {
      let fieldOrigin = position
      let fieldLine = line
      let fieldLineStart = lineStart
      var c = base[position]
      if c == UInt8(ascii: "\"") {
        try readQuoted(into: &row, origin: fieldOrigin, line: fieldLine, lineStart: fieldLineStart)
      } else {
        var s = position
        while position < count {
          c = base[position]
          if c == delimiter || c == 0x0A || c == 0x0D { break }
          position += 1
        }
        var e = position
        while s < e, base[s] == 0x20 { s += 1 }
        while e > s, base[e - 1] == 0x20 { e -= 1 }
        row.append(start: s, end: e, origin: fieldOrigin, line: fieldLine, lineStart: fieldLineStart)
      }
      guard position < count else { return }
      c = base[position]
      if c == delimiter {
        position += 1
        if position == count || base[position] == 0x0A || base[position] == 0x0D {
          // A trailing delimiter ends the row with one more, empty field.
          row.append(
            start: position, end: position, origin: position, line: line, lineStart: lineStart)
          consumeLineEnd()
          return
        }
        continue
      }
      consumeLineEnd()
      return
    }
  }

  /// Reads a quoted field starting at `position` (on its opening quote), unescaping in place.
  private mutating func readQuoted(
    into row: inout CSVRow, origin: Int, line fieldLine: Int, lineStart fieldLineStart: Int
  ) throws(TraceLoadError) {
    position += 1
    let contentStart = position
    var write = position
    while true {
      guard position < count else {
        throw TraceLoadError(
          .unterminatedQuote, file: file,
          position: textPosition(offset: origin, line: fieldLine, lineStart: fieldLineStart))
      }
      let c = base[position]
      if c == UInt8(ascii: "\"") {
        if position + 1 < count, base[position + 1] == UInt8(ascii: "\"") {
          base[write] = c
          write += 1
          position += 2
          continue
        }
        position += 1
        break
      }
      base[write] = c
      write += 1
      position += 1
      if c == 0x0D || c == 0x0A {
        if c == 0x0D, position < count, base[position] == 0x0A {
          base[write] = 0x0A
          write += 1
          position += 1
        }
        line += 1
        lineStart = position
      }
    }
    if position < count {
      let c = base[position]
      if c != delimiter && c != 0x0A && c != 0x0D {
        throw TraceLoadError(
          .textAfterQuote, file: file,
          position: textPosition(offset: position, line: line, lineStart: lineStart))
      }
    }
    row.append(
      start: contentStart, end: write, origin: origin, line: fieldLine, lineStart: fieldLineStart)
  }
}
