import TouchCore

/// A line of a text file: byte range (without the line break) and number.
struct TextLine {
  /// Line number, from 1.
  var number: Int
  /// Offset of the line's first byte.
  var start: Int
  /// Offset just past the line's last byte (before the line break).
  var end: Int

  var isEmpty: Bool { start == end }
}

/// A field of a line: a byte range.
struct TextField {
  var start: Int
  var end: Int
  var count: Int { end - start }
}

/// Splits text bytes into lines (LF, CRLF or CR) and fields, and turns byte offsets into
/// 1-based line and column numbers (columns count Unicode scalars).
struct TextLines {
  let bytes: [UInt8]

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// Every line, including empty ones; a leading UTF-8 byte order mark is skipped.
  func lines() -> [TextLine] {
    var result: [TextLine] = []
    var i = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    var start = i
    var number = 1
    while i < bytes.count {
      let byte = bytes[i]
      if byte == 0x0A || byte == 0x0D {
        result.append(TextLine(number: number, start: start, end: i))
        number += 1
        if byte == 0x0D, i + 1 < bytes.count, bytes[i + 1] == 0x0A { i += 1 }
        i += 1
        start = i
      } else {
        i += 1
      }
    }
    if start < bytes.count { result.append(TextLine(number: number, start: start, end: bytes.count)) }
    return result
  }

  /// The position of byte `offset` on `line`.
  func position(_ offset: Int, on line: TextLine) -> TextPosition {
    var column = 1
    var k = line.start
    while k < offset && k < bytes.count {
      if bytes[k] & 0xC0 != 0x80 { column += 1 }
      k += 1
    }
    // A continuation byte at `offset` itself belongs to the scalar already counted.
    return TextPosition(line: line.number, column: column)
  }

  /// The position of the start of `field` on `line`.
  func position(of field: TextField, on line: TextLine) -> TextPosition {
    position(field.start, on: line)
  }

  /// The fields of `line[from..<line.end]` separated by runs of spaces and tabs.
  func words(of line: TextLine, from: Int? = nil) -> [TextField] {
    var fields: [TextField] = []
    var i = from ?? line.start
    while i < line.end {
      while i < line.end, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
      guard i < line.end else { break }
      let start = i
      while i < line.end, bytes[i] != 0x20 && bytes[i] != 0x09 { i += 1 }
      fields.append(TextField(start: start, end: i))
    }
    return fields
  }

  /// The fields of `line` separated by `delimiter`, each trimmed of spaces and tabs.
  func fields(of line: TextLine, delimiter: UInt8) -> [TextField] {
    var fields: [TextField] = []
    var start = line.start
    var i = line.start
    while true {
      if i == line.end || bytes[i] == delimiter {
        var a = start
        var b = i
        while a < b, bytes[a] == 0x20 || bytes[a] == 0x09 { a += 1 }
        while b > a, bytes[b - 1] == 0x20 || bytes[b - 1] == 0x09 { b -= 1 }
        fields.append(TextField(start: a, end: b))
        if i == line.end { break }
        start = i + 1
      }
      i += 1
    }
    return fields
  }

  /// The text of a byte range.
  func string(_ field: TextField) -> String {
    String(decoding: bytes[field.start..<field.end], as: UTF8.self)
  }

  /// The text of a line.
  func string(_ line: TextLine) -> String {
    String(decoding: bytes[line.start..<line.end], as: UTF8.self)
  }

  /// Whether `field` holds exactly the ASCII text `word`.
  func field(_ field: TextField, equals word: StaticString) -> Bool {
    guard field.count == word.utf8CodeUnitCount else { return false }
    return word.withUTF8Buffer { buffer in
      for k in 0..<field.count where bytes[field.start + k] != buffer[k] { return false }
      return true
    }
  }

  /// Whether the line starts with the ASCII text `prefix`.
  func line(_ line: TextLine, hasPrefix prefix: StaticString) -> Bool {
    guard line.end - line.start >= prefix.utf8CodeUnitCount else { return false }
    return prefix.withUTF8Buffer { buffer in
      for k in 0..<buffer.count where bytes[line.start + k] != buffer[k] { return false }
      return true
    }
  }

  // MARK: Numbers

  /// A decimal integer with optional sign and leading zeros (`-001`, `0042`); `nil` if the
  /// field is anything else or out of `Int64`.
  func integer(_ field: TextField) -> Int64? {
    var i = field.start
    guard i < field.end else { return nil }
    var negative = false
    if bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
      negative = bytes[i] == UInt8(ascii: "-")
      i += 1
    }
    guard i < field.end else { return nil }
    var value: Int64 = 0
    while i < field.end {
      let digit = bytes[i] &- 0x30
      guard digit < 10 else { return nil }
      let (times, o1) = value.multipliedReportingOverflow(by: 10)
      let (sum, o2) = times.addingReportingOverflow(Int64(digit))
      guard !o1, !o2 else { return nil }
      value = sum
      i += 1
    }
    return negative ? -value : value
  }

  /// Hexadecimal digits (either case, optional `0x`), at most 16; `nil` otherwise.
  func hexadecimal(_ field: TextField) -> UInt64? {
    var i = field.start
    if field.count > 2, bytes[i] == UInt8(ascii: "0"), bytes[i + 1] | 0x20 == UInt8(ascii: "x") { i += 2 }
    guard i < field.end, field.end - i <= 16 else { return nil }
    var value: UInt64 = 0
    while i < field.end {
      let c = bytes[i]
      let digit: UInt8
      switch c {
      case 0x30...0x39: digit = c - 0x30
      case 0x41...0x46: digit = c - 0x41 + 10
      case 0x61...0x66: digit = c - 0x61 + 10
      default: return nil
      }
      value = value << 4 | UInt64(digit)
      i += 1
    }
    return value
  }

  /// A time `seconds.fraction` as whole microseconds (fraction digits beyond 6 are rounded);
  /// `nil` unless the field is digits, optionally one point and more digits.
  func microseconds(_ field: TextField) -> Int64? {
    var i = field.start
    var seconds: Int64 = 0
    var sawDigit = false
    while i < field.end, bytes[i] &- 0x30 < 10 {
      let (times, o1) = seconds.multipliedReportingOverflow(by: 10)
      let (sum, o2) = times.addingReportingOverflow(Int64(bytes[i] &- 0x30))
      guard !o1, !o2, sum < 1 << 43 else { return nil }
      seconds = sum
      sawDigit = true
      i += 1
    }
    var micro: Int64 = 0
    var digits = 0
    var roundUp = false
    if i < field.end, bytes[i] == UInt8(ascii: ".") {
      i += 1
      while i < field.end, bytes[i] &- 0x30 < 10 {
        let digit = Int64(bytes[i] &- 0x30)
        if digits < 6 {
          micro = micro * 10 + digit
        } else if digits == 6 {
          roundUp = digit >= 5
        }
        digits += 1
        sawDigit = true
        i += 1
      }
    }
    guard sawDigit, i == field.end else { return nil }
    while digits < 6 {
      micro *= 10
      digits += 1
    }
    return seconds * 1_000_000 + micro + (roundUp ? 1 : 0)
  }

  /// A decimal number (`12`, `-3.5`, `1e-3`); `nil` for anything else, NaN or infinity.
  func number(_ field: TextField) -> Double? {
    guard field.count > 0, field.count < 64 else { return nil }
    for k in field.start..<field.end {
      let c = bytes[k]
      let allowed =
        c &- 0x30 < 10 || c == UInt8(ascii: ".") || c == UInt8(ascii: "-") || c == UInt8(ascii: "+")
        || c | 0x20 == UInt8(ascii: "e")
      guard allowed else { return nil }
    }
    guard let value = Double(string(field)), value.isFinite else { return nil }
    return value
  }
}
