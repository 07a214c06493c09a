import TouchCore

/// A place in the input the scanner can return to (to find array element `i` after the fact).
struct JSONMark {
  /// Byte offset.
  var offset: Int
  /// Line of that byte, from 1.
  var line: Int
  /// Offset where that line starts.
  var lineStart: Int
}

/// The kind of a JSON value, for messages ("found a string").
enum JSONKind {
  case object, array, string, number, boolean, null

  /// The kind with its article: "an object", "a number", "null".
  var phrase: String {
    switch self {
    case .object: "an object"
    case .array: "an array"
    case .string: "a string"
    case .number: "a number"
    case .boolean: "a boolean"
    case .null: "null"
    }
  }
}

/// A string value as read from the input: a byte range when it has no escapes (the common
/// case, no allocation), else the unescaped UTF-8 bytes.
struct JSONStringToken {
  /// Offset of the first content byte (after the opening quote).
  var start: Int
  /// Number of raw content bytes.
  var count: Int
  /// The unescaped bytes when the string has escapes; `nil` when the raw bytes are the content.
  var decoded: [UInt8]?
}

/// Where the last column was counted: a line's start, a byte offset on that line and its column.
final class ColumnCache {
  /// Offset where the line starts (`-1`: nothing counted yet).
  var lineStart = -1
  /// Byte offset counted up to.
  var offset = 0
  /// Column (in Unicode scalars, from 1) of that byte.
  var column = 1
  /// Bytes examined to count columns so far: linear in the input when positions are asked for in
  /// reading order (a test checks it).
  var steps = 0
}

/// A strict RFC 8259 JSON tokenizer over bytes, tracking line and column for error messages.
///
/// The scanner reads one token at a time and leaves structure to its caller. Whitespace is
/// space, tab, LF and CR; LF, CRLF and CR each end a line. In *line mode* (JSON Lines) the
/// whitespace skipper stops at line breaks, so a value cannot continue onto the next line and
/// a syntax error never moves the cursor past the end of its line.
///
/// Syntax errors are thrown as ``TraceLoadError`` with reason `.invalidJSON` and the position
/// of the offending character (for an unterminated string, its opening quote).
struct JSONScanner {
  let base: UnsafePointer<UInt8>
  /// Offset one past the last byte.
  let end: Int
  let file: String
  /// Whether line breaks end the input (JSON Lines).
  let lineMode: Bool
  /// Offset of the next unread byte.
  var offset = 0
  /// Line of the next unread byte, from 1.
  var line = 1
  /// Offset where that line starts.
  var lineStart = 0
  /// When the buffer starts part-way through a line (a later chunk of a streamed document): that
  /// line's number and the column of the buffer's first byte; `continuedLine` is 0 otherwise.
  var continuedLine = 0
  var continuedColumn = 1

  /// The column of the last position computed, so the next one on the same line continues from
  /// it (shared by copies of the scanner, which read the same bytes).
  let columns = ColumnCache()

  /// Nesting limit for skipped values, so hostile input cannot exhaust the stack.
  static let maximumDepth = 512

  /// `atFileStart`: whether the buffer starts the input (a UTF-8 byte order mark is skipped).
  init(_ buffer: UnsafeBufferPointer<UInt8>, file: String, lineMode: Bool, atFileStart: Bool = true) {
    self.base = buffer.baseAddress ?? UnsafePointer(Self.emptyStorage)
    self.end = buffer.baseAddress == nil ? 0 : buffer.count
    self.file = file
    self.lineMode = lineMode
    if atFileStart, end >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF {
      offset = 3
      lineStart = 3
    }
  }

  nonisolated(unsafe) private static let emptyStorage = UnsafeMutablePointer<UInt8>.allocate(
    capacity: 1)

  // MARK: Positions

  /// The current place.
  @inline(__always) var mark: JSONMark { JSONMark(offset: offset, line: line, lineStart: lineStart) }

  /// Returns to a place read before.
  @inline(__always) mutating func reset(to mark: JSONMark) {
    offset = mark.offset
    line = mark.line
    lineStart = mark.lineStart
  }

  /// Line and column (in Unicode scalars) of byte `at` on the current line.
  func position(at byteOffset: Int) -> TextPosition {
    position(of: JSONMark(offset: byteOffset, line: line, lineStart: lineStart))
  }

  /// Line and column (in Unicode scalars) of a mark.
  ///
  /// Columns are counted from the last position asked for when it is on the same line (forwards
  /// or backwards, whichever is shorter), else from the start of the line: a reader that asks for
  /// the position of every value of a long line, in order, counts each byte once, not once per
  /// value (linear, not quadratic, in the line's length).
  func position(of mark: JSONMark) -> TextPosition {
    let stop = min(mark.offset, end)
    let cache = columns
    var column: Int
    var k: Int
    if cache.lineStart == mark.lineStart && stop >= cache.offset {
      column = cache.column
      k = cache.offset
    } else if cache.lineStart == mark.lineStart && cache.offset - stop < stop - mark.lineStart {
      // Backwards from the cached place.
      column = cache.column
      var j = cache.offset
      while j > stop {
        j -= 1
        if base[j] & 0xC0 != 0x80 { column -= 1 }
      }
      cache.steps += cache.offset - stop
      k = stop
    } else {
      column = mark.line == continuedLine && mark.lineStart == 0 ? continuedColumn : 1
      k = mark.lineStart
    }
    cache.steps += stop - k
    while k < stop {
      if base[k] & 0xC0 != 0x80 { column += 1 }
      k += 1
    }
    cache.lineStart = mark.lineStart
    cache.offset = stop
    cache.column = column
    if mark.offset > end { column += mark.offset - end }
    return TextPosition(line: mark.line, column: column)
  }

  /// The current position.
  var position: TextPosition { position(at: offset) }

  // MARK: Errors

  /// A syntax error at byte `at` of the current line.
  func syntaxError(_ message: String, at byteOffset: Int) -> TraceLoadError {
    TraceLoadError(.invalidJSON(message), file: file, position: position(at: byteOffset))
  }

  /// A syntax error at the current byte, describing what was found there.
  func unexpected(expected: String) -> TraceLoadError {
    if offset < end, base[offset] == UInt8(ascii: "/") {
      return syntaxError("comments are not allowed in JSON", at: offset)
    }
    var message = "expected \(expected), found \(describeHere())"
    if lineMode, offset < end, base[offset] == 0x0A || base[offset] == 0x0D {
      message += " (in JSON Lines each trace object must be on one line)"
    }
    return syntaxError(message, at: offset)
  }

  /// What is at the current byte, for messages: `'x'`, `end of line`, `end of input`.
  func describeHere() -> String {
    guard offset < end else { return "the end of the input" }
    let c = base[offset]
    if c == 0x0A || c == 0x0D { return "the end of the line" }
    if c < 0x20 || c == 0x7F {
      return "control character U+\(hex4(UInt32(c)))"
    }
    // The whole scalar, for non-ASCII.
    var n = 1
    while offset + n < end, n < 4, base[offset + n] & 0xC0 == 0x80 { n += 1 }
    let text = String(decoding: UnsafeBufferPointer(start: base + offset, count: n), as: UTF8.self)
    return "'\(text)'"
  }

  /// A short description of a byte that is not printable ASCII, for messages.
  func describe(byte c: UInt8) -> String {
    if c == 0x20 { return "a space" }
    if c < 0x20 || c == 0x7F { return "control character U+\(hex4(UInt32(c)))" }
    return c >= 0x80 ? "a non-ASCII character" : "'\(Character(Unicode.Scalar(c)))'"
  }

  // MARK: Whitespace and simple tokens

  /// Whether the input is used up (in line mode: also at a line break).
  @inline(__always) var atEnd: Bool { offset >= end }

  /// The next byte, or 0 at the end of the input.
  @inline(__always) var peek: UInt8 { offset < end ? base[offset] : 0 }

  /// Enters an array or object (cursor on its opening bracket): consumes the bracket and the
  /// whitespace after it, and returns `true` when `closing` follows at once (the value is empty;
  /// the closing bracket is consumed too).
  @inline(__always)
  mutating func enter(closing: UInt8) -> Bool {
    offset += 1
    skipWhitespace()
    guard peek == closing else { return false }
    offset += 1
    return true
  }

  /// Skips whitespace; in line mode stops at a line break.
  @inline(__always)
  mutating func skipWhitespace() {
    while offset < end {
      let c = base[offset]
      if c == 0x20 || c == 0x09 {
        offset += 1
      } else if c == 0x0A || c == 0x0D {
        if lineMode { return }
        consumeLineBreak()
      } else {
        return
      }
    }
  }

  /// Consumes one LF, CRLF or CR at the cursor and starts a new line.
  @inline(__always)
  mutating func consumeLineBreak() {
    if base[offset] == 0x0D, offset + 1 < end, base[offset + 1] == 0x0A {
      offset += 2
    } else {
      offset += 1
    }
    line += 1
    lineStart = offset
  }

  /// Consumes `byte` (a structural character) or throws "expected …".
  @inline(__always)
  mutating func expect(_ byte: UInt8, _ description: @autoclosure () -> String) throws(TraceLoadError) {
    guard offset < end, base[offset] == byte else { throw unexpected(expected: description()) }
    offset += 1
  }

  /// The kind of the value starting at the cursor, or `nil` if no value can start here.
  func kindHere() -> JSONKind? {
    guard offset < end else { return nil }
    switch base[offset] {
    case UInt8(ascii: "{"): return .object
    case UInt8(ascii: "["): return .array
    case UInt8(ascii: "\""): return .string
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
    case UInt8(ascii: "t"), UInt8(ascii: "f"): return .boolean
    case UInt8(ascii: "n"): return .null
    default: return nil
    }
  }

  /// Reads `true`, `false` or `null` at the cursor.
  mutating func readLiteral() throws(TraceLoadError) -> JSONKind {
    if matches("true") || matches("false") { return .boolean }
    if matches("null") { return .null }
    throw invalidValue()
  }

  /// Reads `true` or `false`; `nil` (cursor unchanged) if another value is here.
  mutating func readBoolean() throws(TraceLoadError) -> Bool? {
    if matches("true") { return true }
    if matches("false") { return false }
    if kindHere() == nil { throw invalidValue() }
    return nil
  }

  /// Consumes `null` if it is at the cursor.
  @inline(__always)
  mutating func readNull() -> Bool { matches("null") }

  /// Consumes `word` if it is at the cursor and not followed by a letter or digit.
  mutating func matches(_ word: StaticString) -> Bool {
    let n = word.utf8CodeUnitCount
    guard offset + n <= end else { return false }
    let w = word.utf8Start
    for k in 0..<n where base[offset + k] != w[k] { return false }
    if offset + n < end, Self.isWordByte(base[offset + n]) { return false }
    offset += n
    return true
  }

  @inline(__always)
  static func isWordByte(_ c: UInt8) -> Bool {
    (c | 0x20) &- UInt8(ascii: "a") < 26 || c &- UInt8(ascii: "0") < 10 || c == UInt8(ascii: "_")
      || c >= 0x80
  }

  /// The error for a character that cannot start a value. Names the usual non-JSON spellings.
  func invalidValue() -> TraceLoadError {
    if let word = nonJSONNumberWord() {
      return syntaxError(
        "'\(word)' is not a JSON value; JSON has no NaN or infinity (write a finite number)",
        at: offset)
    }
    guard offset < end else { return unexpected(expected: "a value") }
    switch base[offset] {
    case UInt8(ascii: "/"):
      return syntaxError("comments are not allowed in JSON", at: offset)
    case UInt8(ascii: "'"):
      return syntaxError("strings must be in double quotes", at: offset)
    case UInt8(ascii: "]"), UInt8(ascii: "}"):
      return unexpected(expected: "a value")
    case UInt8(ascii: "+"), UInt8(ascii: "."):
      return syntaxError("malformed number '\(tokenText())'", at: offset)
    default:
      if Self.isWordByte(base[offset]) {
        return syntaxError("unexpected word '\(tokenText())'; expected a value", at: offset)
      }
      return unexpected(expected: "a value")
    }
  }

  /// `NaN`, `Infinity` or `-Infinity` (as some JSON writers emit them) at the cursor, without
  /// consuming it.
  func nonJSONNumberWord() -> String? {
    for word: StaticString in ["NaN", "Infinity", "-Infinity", "-NaN", "nan", "inf", "-inf"] {
      let n = word.utf8CodeUnitCount
      guard offset + n <= end else { continue }
      var same = true
      for k in 0..<n where base[offset + k] != word.utf8Start[k] {
        same = false
        break
      }
      if same, offset + n == end || !Self.isWordByte(base[offset + n]) {
        return word.description
      }
    }
    return nil
  }

  /// Consumes a `NaN`/`Infinity` word at the cursor; returns it, or `nil` if none is here.
  mutating func readNonJSONNumberWord() -> String? {
    guard let word = nonJSONNumberWord() else { return nil }
    offset += word.utf8.count
    return word
  }

  /// The run of non-delimiter bytes at the cursor, for messages (at most 40 scalars).
  func tokenText(from start: Int? = nil) -> String {
    let s = start ?? offset
    var e = s
    while e < end, !Self.endsToken(base[e]) { e += 1 }
    return Self.abbreviate(String(decoding: UnsafeBufferPointer(start: base + s, count: e - s), as: UTF8.self))
  }

  /// The source text of `start..<stop` for messages, shortened to 40 scalars.
  func sourceText(from start: Int, to stop: Int) -> String {
    Self.abbreviate(
      String(decoding: UnsafeBufferPointer(start: base + start, count: stop - start), as: UTF8.self))
  }

  /// Whether `c` ends the run of bytes that ``tokenText(from:)`` quotes.
  @inline(__always) static func endsToken(_ c: UInt8) -> Bool {
    c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == UInt8(ascii: ",") || c == UInt8(ascii: "]")
      || c == UInt8(ascii: "}") || c == UInt8(ascii: ":")
  }

  static func abbreviate(_ text: String) -> String {
    Diagnostic.escaped(text, limit: 40)
  }

  // MARK: Numbers

  /// Reads a number at the cursor (which is on `-` or a digit) through `DecimalParser` in
  /// strict JSON mode.
  ///
  /// - Returns: the parsed value; `.infinity` for a number too large for a Double.
  /// - Throws: a syntax error for text that is not a JSON number (`01`, `1.`, `-`, `1e`, `1.5x`).
  @inline(__always)
  mutating func readNumber() throws(TraceLoadError) -> ParsedNumber {
    let start = offset
    var i = offset
    while i < end, Self.isNumberByte(base[i]) { i += 1 }
    if i < end, Self.isWordByte(base[i]) || base[i] == UInt8(ascii: ".") {
      throw syntaxError("malformed number '\(tokenText(from: start))'", at: start)
    }
    let parsed = DecimalParser.parse(base + start, count: i - start, strictJSON: true)
    guard parsed != .invalid, parsed != .nan else {
      throw syntaxError(
        "malformed number '\(tokenText(from: start))'\(Self.numberHint(base + start, count: i - start))",
        at: start)
    }
    offset = i
    return parsed
  }

  /// Reads a plain decimal (`-?digits(.digits)?`, at most 19 digits, no exponent) in one pass,
  /// as written by TouchTrace and most JSON writers; `nil` (cursor unchanged) for anything else,
  /// which ``readNumber()`` then reads through `DecimalParser`, including every error.
  ///
  /// The result is correctly rounded: Clinger's exact path when the digits fit in 53 bits,
  /// else `DecimalParser.exactProduct(_:exponent:)`.
  @inline(__always)
  mutating func readPlainNumber() -> Double? {
    var i = offset
    let negative = i < end && base[i] == UInt8(ascii: "-")
    if negative { i += 1 }
    guard i < end else { return nil }
    var mantissa: UInt64 = 0
    var digits = 0
    var d = base[i] &- 0x30
    if d == 0 {
      i += 1  // A leading zero stands alone; "01" goes to the full parser and its error.
      digits = 1
    } else {
      guard d < 10 else { return nil }
      repeat {
        mantissa = mantissa &* 10 &+ UInt64(d)
        digits += 1
        i += 1
        guard i < end else { break }
        d = base[i] &- 0x30
      } while d < 10
    }
    var exponent = 0
    if i < end, base[i] == UInt8(ascii: ".") {
      i += 1
      let fractionStart = i
      while i < end {
        d = base[i] &- 0x30
        guard d < 10 else { break }
        mantissa = mantissa &* 10 &+ UInt64(d)
        i += 1
      }
      let fractionDigits = i - fractionStart
      guard fractionDigits > 0 else { return nil }
      digits += fractionDigits
      exponent = -fractionDigits
    }
    // Exponents, long mantissas and anything glued to the number take the full parser.
    guard digits <= 19 else { return nil }
    if i < end {
      let c = base[i]
      if c | 0x20 == UInt8(ascii: "e") || c == UInt8(ascii: ".") || Self.isWordByte(c) { return nil }
    }
    let magnitude: Double
    if mantissa <= 1 << 53 && exponent >= -22 {
      magnitude = Double(mantissa) / DecimalParser.exactPower(-exponent)
    } else if let exact = DecimalParser.exactProduct(mantissa, exponent: exponent) {
      magnitude = exact
    } else {
      return nil
    }
    offset = i
    return negative ? -magnitude : magnitude
  }

  /// Why a number-like token is not a JSON number, when a common mistake explains it.
  static func numberHint(_ p: UnsafePointer<UInt8>, count: Int) -> String {
    var k = 0
    if k < count, p[k] == UInt8(ascii: "-") { k += 1 }
    if k + 1 < count, p[k] == UInt8(ascii: "0"), DecimalParser.isDigit(p[k + 1]) {
      return " (JSON numbers have no leading zeros)"
    }
    for j in 0..<count where p[j] == UInt8(ascii: ".") {
      if j + 1 >= count || !DecimalParser.isDigit(p[j + 1]) {
        return " (a digit must follow the decimal point)"
      }
    }
    return ""
  }

  @inline(__always)
  static func isNumberByte(_ c: UInt8) -> Bool {
    c &- UInt8(ascii: "0") < 10 || c == UInt8(ascii: ".") || c == UInt8(ascii: "-")
      || c == UInt8(ascii: "+") || c | 0x20 == UInt8(ascii: "e")
  }

  /// Reads a non-negative integer literal (digits only) at the cursor; `nil` (cursor unchanged)
  /// when the number at the cursor has a sign, fraction or exponent or exceeds `Int.max`.
  mutating func readNonNegativeInteger() throws(TraceLoadError) -> Int? {
    let start = offset
    _ = try readNumber()
    for k in start..<offset where !DecimalParser.isDigit(base[k]) {
      return nil
    }
    return DecimalParser.parseInteger(base + start, count: offset - start)
  }

  // MARK: Strings

  /// Reads a string at the cursor (on its opening quote).
  ///
  /// - Throws: a syntax error for an unterminated string (at its opening quote), a raw control
  ///   character, an invalid escape, an unpaired surrogate or invalid UTF-8.
  @inline(__always)
  mutating func readString() throws(TraceLoadError) -> JSONStringToken {
    let quote = offset
    offset += 1
    let start = offset
    // Fast path: printable ASCII without escapes.
    while offset < end {
      let c = base[offset]
      if c == UInt8(ascii: "\"") {
        offset += 1
        return JSONStringToken(start: start, count: offset - 1 - start, decoded: nil)
      }
      if c == UInt8(ascii: "\\") || c < 0x20 || c >= 0x80 { break }
      offset += 1
    }
    return try readStringSlow(quote: quote, start: start)
  }

  private mutating func readStringSlow(quote: Int, start: Int) throws(TraceLoadError) -> JSONStringToken {
    var decoded: [UInt8]?
    while true {
      guard offset < end else {
        throw syntaxError("unterminated string", at: quote)
      }
      let c = base[offset]
      if c == UInt8(ascii: "\"") {
        offset += 1
        return JSONStringToken(start: start, count: offset - 1 - start, decoded: decoded)
      }
      if c == 0x0A || c == 0x0D {
        throw syntaxError(
          "unterminated string (a line break inside a string must be written \\n)", at: quote)
      }
      if c < 0x20 {
        throw syntaxError(
          "control character U+\(hex4(UInt32(c))) in a string must be escaped", at: offset)
      }
      if c == UInt8(ascii: "\\") {
        if decoded == nil {
          decoded = Array(UnsafeBufferPointer(start: base + start, count: offset - start))
        }
        try readEscape(into: &decoded!)
        continue
      }
      if c < 0x80 {
        decoded?.append(c)
        offset += 1
        continue
      }
      let n = try utf8Length(at: offset)
      if decoded != nil {
        decoded!.append(contentsOf: UnsafeBufferPointer(start: base + offset, count: n))
      }
      offset += n
    }
  }

  /// Reads one escape sequence (cursor on the backslash) and appends its UTF-8 bytes.
  private mutating func readEscape(into out: inout [UInt8]) throws(TraceLoadError) {
    let backslash = offset
    guard offset + 1 < end else { throw syntaxError("unterminated string", at: backslash) }
    let e = base[offset + 1]
    offset += 2
    switch e {
    case UInt8(ascii: "\""): out.append(0x22)
    case UInt8(ascii: "\\"): out.append(0x5C)
    case UInt8(ascii: "/"): out.append(0x2F)
    case UInt8(ascii: "b"): out.append(0x08)
    case UInt8(ascii: "f"): out.append(0x0C)
    case UInt8(ascii: "n"): out.append(0x0A)
    case UInt8(ascii: "r"): out.append(0x0D)
    case UInt8(ascii: "t"): out.append(0x09)
    case UInt8(ascii: "u"):
      var scalar = try hexQuad(escapeAt: backslash)
      if scalar >= 0xD800 && scalar < 0xDC00 {
        // A high surrogate must be followed by an escaped low surrogate.
        guard offset + 1 < end, base[offset] == UInt8(ascii: "\\"), base[offset + 1] == UInt8(ascii: "u")
        else {
          throw syntaxError("unpaired surrogate \\u\(hex4(scalar)) in string", at: backslash)
        }
        let second = offset
        offset += 2
        let low = try hexQuad(escapeAt: second)
        guard low >= 0xDC00 && low < 0xE000 else {
          throw syntaxError("unpaired surrogate \\u\(hex4(scalar)) in string", at: backslash)
        }
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
      } else if scalar >= 0xDC00 && scalar < 0xE000 {
        throw syntaxError("unpaired surrogate \\u\(hex4(scalar)) in string", at: backslash)
      }
      out.append(contentsOf: Unicode.UTF8.encode(Unicode.Scalar(scalar)!)!)
    default:
      if e == 0x0A || e == 0x0D {
        throw syntaxError("unterminated string", at: backslash)
      }
      let shown =
        e >= 0x21 && e < 0x7F ? "'\\\(Character(Unicode.Scalar(e)))'" : "a backslash before \(describe(byte: e))"
      throw syntaxError(
        "invalid escape \(shown) in string (valid escapes: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)",
        at: backslash)
    }
  }

  /// Reads the four hex digits after `\u` (the cursor is on the first).
  private mutating func hexQuad(escapeAt backslash: Int) throws(TraceLoadError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard offset < end else { throw syntaxError("unterminated string", at: backslash) }
      let c = base[offset]
      let digit: UInt32
      switch c {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - UInt8(ascii: "A") + 10)
      default:
        throw syntaxError("invalid \\u escape: expected four hexadecimal digits", at: backslash)
      }
      value = value << 4 | digit
      offset += 1
    }
    return value
  }

  /// The length of the valid UTF-8 sequence at `k` (whose first byte is ≥ 0x80).
  private func utf8Length(at k: Int) throws(TraceLoadError) -> Int {
    let c = base[k]
    let n: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch c {
    case 0xC2...0xDF: n = 2
    case 0xE0:
      n = 3
      low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: n = 3
    case 0xED:
      n = 3
      high = 0x9F
    case 0xF0:
      n = 4
      low = 0x90
    case 0xF1...0xF3: n = 4
    case 0xF4:
      n = 4
      high = 0x8F
    default: throw syntaxError("invalid UTF-8 byte 0x\(hex2(c)) in string", at: k)
    }
    for j in 1..<n {
      guard k + j < end else { throw syntaxError("truncated UTF-8 sequence in string", at: k) }
      let b = base[k + j]
      let lo = j == 1 ? low : 0x80
      let hi = j == 1 ? high : 0xBF
      guard b >= lo && b <= hi else { throw syntaxError("invalid UTF-8 sequence in string", at: k) }
    }
    return n
  }

  /// The content of a string token as a Swift string.
  func string(_ token: JSONStringToken) -> String {
    if let decoded = token.decoded { return String(decoding: decoded, as: UTF8.self) }
    return String(decoding: UnsafeBufferPointer(start: base + token.start, count: token.count), as: UTF8.self)
  }

  /// Whether a string token's content is exactly `word`.
  @inline(__always)
  func string(_ token: JSONStringToken, is word: StaticString) -> Bool {
    let n = word.utf8CodeUnitCount
    if let decoded = token.decoded {
      return decoded.count == n && decoded.elementsEqual(UnsafeBufferPointer(start: word.utf8Start, count: n))
    }
    guard token.count == n else { return false }
    let p = base + token.start
    let w = word.utf8Start
    for k in 0..<n where p[k] != w[k] { return false }
    return true
  }

  /// Calls `body` with the content bytes of a string token.
  @inline(__always)
  func withBytes<R>(of token: JSONStringToken, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    if let decoded = token.decoded { return decoded.withUnsafeBufferPointer(body) }
    return body(UnsafeBufferPointer(start: base + token.start, count: token.count))
  }

  // MARK: Skipping values

  /// Skips one value of any kind at the cursor, checking its syntax.
  mutating func skipValue(depth: Int = 0) throws(TraceLoadError) {
    guard offset < end else { throw unexpected(expected: "a value") }
    switch base[offset] {
    case UInt8(ascii: "\""):
      _ = try readString()
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      if nonJSONNumberWord() != nil { throw invalidValue() }
      _ = try readNumber()
    case UInt8(ascii: "{"):
      guard depth < Self.maximumDepth else { throw syntaxError("values nested too deeply", at: offset) }
      if enter(closing: UInt8(ascii: "}")) { return }
      while true {
        guard peek == UInt8(ascii: "\"") else { throw unexpected(expected: "a key in double quotes") }
        _ = try readString()
        skipWhitespace()
        try expect(UInt8(ascii: ":"), "':' after the key")
        skipWhitespace()
        try skipValue(depth: depth + 1)
        skipWhitespace()
        if try endOfMember(closing: UInt8(ascii: "}")) { return }
      }
    case UInt8(ascii: "["):
      guard depth < Self.maximumDepth else { throw syntaxError("values nested too deeply", at: offset) }
      if enter(closing: UInt8(ascii: "]")) { return }
      while true {
        try skipValue(depth: depth + 1)
        skipWhitespace()
        if try endOfMember(closing: UInt8(ascii: "]")) { return }
      }
    default:
      _ = try readLiteral()
    }
  }

  /// After an array element or object member (whitespace skipped): consumes `,` (and the
  /// whitespace after it) and returns `false`, or consumes the closing bracket and returns
  /// `true`. A comma right before the closing bracket is an error.
  @inline(__always)
  mutating func endOfMember(closing: UInt8) throws(TraceLoadError) -> Bool {
    guard offset < end else { throw unexpected(expected: "',' or '\(Character(Unicode.Scalar(closing)))'") }
    let c = base[offset]
    if c == UInt8(ascii: ",") {
      let comma = mark
      offset += 1
      skipWhitespace()
      if peek == closing {
        throw TraceLoadError(
          .invalidJSON("trailing comma before '\(Character(Unicode.Scalar(closing)))'"), file: file,
          position: position(of: comma))
      }
      return false
    }
    if c == closing {
      offset += 1
      return true
    }
    throw unexpected(expected: "',' or '\(Character(Unicode.Scalar(closing)))'")
  }
}

/// Four uppercase hex digits.
func hex4(_ value: UInt32) -> String {
  let digits = String(value, radix: 16, uppercase: true)
  return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

/// Two uppercase hex digits.
func hex2(_ value: UInt8) -> String {
  let digits = String(value, radix: 16, uppercase: true)
  return digits.count == 1 ? "0" + digits : digits
}
