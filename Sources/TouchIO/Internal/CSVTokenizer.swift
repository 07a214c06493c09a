import TouchCore

/// One field of a CSV row, as byte offsets into the tokenizer's buffer.
struct CSVField {
  /// Start offset of the content (after trimming and unquoting).
  var start: Int
  /// End offset (exclusive) of the content.
  var end: Int
  /// Offset of the field's first character in the file (its opening quote, if quoted).
  var origin: Int
  /// Line of the field's first character.
  var line: Int
  /// Offset of the start of that line.
  var lineStart: Int
  /// The field's number, when the tokenizer already read it (``hasValue``).
  var value: Double = 0
  /// Whether ``value`` holds the field's number.
  var hasValue = false
}

/// The fields of one CSV row. Storage is reused from row to row, so reading a row allocates
/// nothing; the owner calls ``deallocate()`` when done.
struct CSVRow {
  private(set) var fields: UnsafeMutablePointer<CSVField>
  private(set) var capacity: Int
  /// The number of fields in the row.
  var count = 0

  init(capacity: Int) {
    self.capacity = max(capacity, 1)
    fields = .allocate(capacity: self.capacity)
  }

  /// Frees the storage; the row must not be used afterwards.
  func deallocate() { fields.deallocate() }

  @inline(__always)
  mutating func append(start s: Int, end e: Int, origin o: Int, line l: Int, lineStart ls: Int) {
    if count == capacity { UnsafeMutablePointer.double(&fields, capacity: &capacity, keeping: count) }
    (fields + count).initialize(to: CSVField(start: s, end: e, origin: o, line: l, lineStart: ls))
    count += 1
  }

  @inline(__always)
  mutating func append(number: Double, start s: Int, end e: Int, line l: Int, lineStart ls: Int) {
    append(start: s, end: e, origin: s, line: l, lineStart: ls)
    fields[count - 1].value = number
    fields[count - 1].hasValue = true
  }

  @inline(__always) func start(_ k: Int) -> Int { fields[k].start }
  @inline(__always) func end(_ k: Int) -> Int { fields[k].end }
  @inline(__always) func length(_ k: Int) -> Int { fields[k].end - fields[k].start }
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
  /// For each field index, whether the field holds a number the tokenizer should read on the
  /// way (one pass over its bytes instead of two). Fields it cannot read fast are left to the
  /// caller.
  var numericFields: [Bool] = []
  let powers = DecimalParser.powers
  let integerPowers = DecimalParser.integerPowers
  /// Offset of the next unread byte.
  var position = 0
  /// Line of the next unread byte, from 1.
  var line = 1
  /// Offset where that line starts.
  var lineStart = 0
  /// Whether the buffer ends where the input ends. When `false` (a chunk of a longer input,
  /// cut after a line ending), a row that does not end inside the buffer (a quoted field with a
  /// line break goes on) sets ``incomplete`` and throws before anything is read or unescaped,
  /// so the row can be read again with more input.
  var final = true
  /// Set when a row could not be read because the buffer ends inside a quoted field.
  var incomplete = false

  /// - Parameters:
  ///   - buffer: the bytes; quoted fields are unescaped in place.
  ///   - file: the name errors use.
  ///   - atFileStart: whether the buffer starts the input (a UTF-8 byte order mark is skipped).
  init(_ buffer: UnsafeMutableBufferPointer<UInt8>, file: String, atFileStart: Bool = true) {
    // An empty array may have no base address; point at a dummy byte and read nothing.
    self.base = buffer.baseAddress ?? Self.emptyStorage
    self.count = buffer.baseAddress == nil ? 0 : buffer.count
    self.file = file
    if atFileStart, count >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF {
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
    let field = row.fields[k]
    return textPosition(offset: field.origin, line: field.line, lineStart: field.lineStart)
  }

  /// The position just after the last field of `row` (for "missing field" errors).
  func positionAfter(_ row: CSVRow) -> TextPosition {
    guard row.count > 0 else { return TextPosition(line: line, column: 1) }
    let field = row.fields[row.count - 1]
    return textPosition(offset: max(field.end, field.origin), line: field.line, lineStart: field.lineStart)
  }

  /// The text of field `k` (for messages and identifiers).
  func string(_ k: Int, in row: CSVRow) -> String {
    String(
      decoding: UnsafeBufferPointer(start: base + row.start(k), count: row.length(k)),
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
    if !final, !rowIsComplete(from: position) {
      incomplete = true
      throw TraceLoadError(.unterminatedQuote, file: file)
    }
    let delimiter = self.delimiter
    while position < count {
      let fieldOrigin = position
      let fieldLine = line
      let fieldLineStart = lineStart
      var c = base[position]
      if c == UInt8(ascii: "\"") {
        try readQuoted(into: &row, origin: fieldOrigin, line: fieldLine, lineStart: fieldLineStart)
      } else if row.count < numericFields.count, numericFields[row.count],
        let (value, end) = DecimalParser.parsePrefix(
          base + position, limit: count - position, powers: powers, integerPowers: integerPowers),
        position + end == count || base[position + end] == delimiter || base[position + end] == 0x0A
          || base[position + end] == 0x0D
      {
        row.append(number: value, start: position, end: position + end, line: fieldLine, lineStart: fieldLineStart)
        position += end
      } else {
        var s = position
        position = scanToFieldEnd(from: position, delimiter: delimiter)
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

  /// Whether the row at `start` ends inside the buffer (with a line ending outside quotes), by
  /// the rules of ``readRow(into:)``, which changes nothing when this holds: a row that
  /// continues past the end of a chunk is read again, whole, from the next one.
  func rowIsComplete(from start: Int) -> Bool {
    let quote = UInt8(ascii: "\"")
    var i = start
    while i < count {
      if base[i] == quote {
        i += 1
        while true {
          guard i + 1 < count else { return false }
          if base[i] == quote {
            if base[i + 1] == quote {
              i += 2
              continue
            }
            i += 1
            break
          }
          i += 1
        }
      }
      i = scanToFieldEnd(from: i, delimiter: delimiter)
      guard i < count else { return false }
      if base[i] != delimiter { return true }
      i += 1
    }
    return false
  }

  /// The offset of the first delimiter, CR or LF at or after `start` (or `count`).
  ///
  /// Looks at eight bytes at a time: a byte equal to one of the three makes its lane of
  /// `(x − 0x01…01) & ~x & 0x80…80` non-zero, where `x` is the word XOR the byte repeated, and the
  /// lowest such lane is always a true match.
  @inline(__always)
  func scanToFieldEnd(from start: Int, delimiter: UInt8) -> Int {
    var i = start
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let d = UInt64(delimiter) &* ones
    let lf = UInt64(0x0A) &* ones
    let cr = UInt64(0x0D) &* ones
    let raw = UnsafeRawPointer(base)
    while i + 8 <= count {
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self))
      let a = word ^ d
      let b = word ^ lf
      let c = word ^ cr
      let hits =
        ((a &- ones) & ~a | (b &- ones) & ~b | (c &- ones) & ~c) & highs
      if hits != 0 { return i + hits.trailingZeroBitCount >> 3 }
      i += 8
    }
    while i < count {
      let c = base[i]
      if c == delimiter || c == 0x0A || c == 0x0D { return i }
      i += 1
    }
    return count
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
