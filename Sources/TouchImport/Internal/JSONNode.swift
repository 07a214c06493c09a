import TouchCore

/// A JSON value with the position where it starts.
struct JSONNode {
  indirect enum Kind {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONNode])
    case object([Member])
  }

  /// An object member: key, where the key starts, value.
  struct Member {
    var key: String
    var keyPosition: TextPosition
    var value: JSONNode
  }

  var kind: Kind
  var position: TextPosition

  /// `null`, `true`, `a number`, … for messages.
  var typeName: String {
    switch kind {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }

  /// The member `key` of an object (the first if repeated); `nil` if absent or not an object.
  func member(_ key: String) -> Member? {
    guard case .object(let members) = kind else { return nil }
    return members.first { $0.key == key }
  }
}

/// Malformed JSON, with where.
struct JSONSyntaxError: Error {
  var message: String
  var position: TextPosition
}

/// A strict RFC 8259 parser that records where each value starts (line and column, columns in
/// Unicode scalars), so importers can point at the offending record.
struct JSONParser {
  private let bytes: [UInt8]
  private var i = 0
  private var line = 1
  private var lineStart = 0
  private var depth = 0
  /// Nesting deeper than this is rejected (protects the stack).
  static let maximumDepth = 256

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
      i = 3
      lineStart = 3
    }
  }

  /// Parses the whole input as one JSON value.
  mutating func parseDocument() throws(JSONSyntaxError) -> JSONNode {
    skipSpace()
    guard i < bytes.count else { throw error("the file is empty; expected a JSON value") }
    let value = try parseValue()
    skipSpace()
    guard i == bytes.count else { throw error("unexpected text after the JSON value") }
    return value
  }

  private var position: TextPosition {
    var column = 1
    var k = lineStart
    while k < i {
      if bytes[k] & 0xC0 != 0x80 { column += 1 }
      k += 1
    }
    return TextPosition(line: line, column: column)
  }

  private func error(_ message: String) -> JSONSyntaxError {
    JSONSyntaxError(message: message, position: position)
  }

  private mutating func skipSpace() {
    while i < bytes.count {
      switch bytes[i] {
      case 0x20, 0x09:
        i += 1
      case 0x0A:
        i += 1
        line += 1
        lineStart = i
      case 0x0D:
        i += 1
        if i < bytes.count, bytes[i] == 0x0A { i += 1 }
        line += 1
        lineStart = i
      default:
        return
      }
    }
  }

  private mutating func parseValue() throws(JSONSyntaxError) -> JSONNode {
    let start = position
    guard i < bytes.count else { throw error("unexpected end of the file; expected a value") }
    switch bytes[i] {
    case UInt8(ascii: "{"): return JSONNode(kind: try parseObject(), position: start)
    case UInt8(ascii: "["): return JSONNode(kind: try parseArray(), position: start)
    case UInt8(ascii: "\""): return JSONNode(kind: .string(try parseString()), position: start)
    case UInt8(ascii: "t"):
      try literal("true")
      return JSONNode(kind: .bool(true), position: start)
    case UInt8(ascii: "f"):
      try literal("false")
      return JSONNode(kind: .bool(false), position: start)
    case UInt8(ascii: "n"):
      try literal("null")
      return JSONNode(kind: .null, position: start)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return JSONNode(kind: .number(try parseNumber()), position: start)
    default:
      throw error("unexpected character '\(character(at: i))'; expected a value")
    }
  }

  private func character(at k: Int) -> String {
    var end = k + 1
    while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
    return String(decoding: bytes[k..<end], as: UTF8.self)
  }

  private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
    let ok = word.withUTF8Buffer { buffer in
      guard i + buffer.count <= bytes.count else { return false }
      for k in 0..<buffer.count where bytes[i + k] != buffer[k] { return false }
      return true
    }
    guard ok else { throw error("invalid literal; expected '\(word)'") }
    i += word.utf8CodeUnitCount
  }

  private mutating func enter() throws(JSONSyntaxError) {
    depth += 1
    if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
  }

  private mutating func parseArray() throws(JSONSyntaxError) -> JSONNode.Kind {
    try enter()
    defer { depth -= 1 }
    i += 1
    var items: [JSONNode] = []
    skipSpace()
    if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
      i += 1
      return .array(items)
    }
    while true {
      skipSpace()
      items.append(try parseValue())
      skipSpace()
      guard i < bytes.count else { throw error("unexpected end of the file; expected ',' or ']'") }
      if bytes[i] == UInt8(ascii: ",") {
        i += 1
      } else if bytes[i] == UInt8(ascii: "]") {
        i += 1
        return .array(items)
      } else {
        throw error("unexpected character '\(character(at: i))'; expected ',' or ']'")
      }
    }
  }

  private mutating func parseObject() throws(JSONSyntaxError) -> JSONNode.Kind {
    try enter()
    defer { depth -= 1 }
    i += 1
    var members: [JSONNode.Member] = []
    skipSpace()
    if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
      i += 1
      return .object(members)
    }
    while true {
      skipSpace()
      guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
        throw error(i < bytes.count ? "expected a member name in double quotes" : "unexpected end of the file; expected a member name")
      }
      let keyPosition = position
      let key = try parseString()
      skipSpace()
      guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected ':' after the member name") }
      i += 1
      skipSpace()
      let value = try parseValue()
      members.append(JSONNode.Member(key: key, keyPosition: keyPosition, value: value))
      skipSpace()
      guard i < bytes.count else { throw error("unexpected end of the file; expected ',' or '}'") }
      if bytes[i] == UInt8(ascii: ",") {
        i += 1
      } else if bytes[i] == UInt8(ascii: "}") {
        i += 1
        return .object(members)
      } else {
        throw error("unexpected character '\(character(at: i))'; expected ',' or '}'")
      }
    }
  }

  private mutating func parseString() throws(JSONSyntaxError) -> String {
    i += 1  // opening quote
    var out: [UInt8] = []
    while true {
      guard i < bytes.count else { throw error("unterminated string") }
      let c = bytes[i]
      switch c {
      case UInt8(ascii: "\""):
        i += 1
        return String(decoding: out, as: UTF8.self)
      case UInt8(ascii: "\\"):
        i += 1
        guard i < bytes.count else { throw error("unterminated string") }
        let escape = bytes[i]
        i += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
          var scalar = try hex4()
          if scalar >= 0xD800 && scalar < 0xDC00 {
            guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
              throw error("unpaired surrogate in \\u escape")
            }
            i += 2
            let low = try hex4()
            guard low >= 0xDC00 && low < 0xE000 else { throw error("unpaired surrogate in \\u escape") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          } else if scalar >= 0xDC00 && scalar < 0xE000 {
            throw error("unpaired surrogate in \\u escape")
          }
          out.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
        default:
          i -= 2
          throw error("invalid escape sequence in string")
        }
      case 0..<0x20:
        throw error("control character in string (escape it)")
      default:
        out.append(c)
        i += 1
      }
    }
  }

  private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
    guard i + 4 <= bytes.count else { throw error("incomplete \\u escape") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let c = bytes[i]
      let digit: UInt32
      switch c {
      case 0x30...0x39: digit = UInt32(c - 0x30)
      case 0x41...0x46: digit = UInt32(c - 0x41 + 10)
      case 0x61...0x66: digit = UInt32(c - 0x61 + 10)
      default: throw error("invalid hexadecimal digit in \\u escape")
      }
      value = value << 4 | digit
      i += 1
    }
    return value
  }

  private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
    let start = i
    func digit(_ k: Int) -> Bool { k < bytes.count && bytes[k] &- 0x30 < 10 }
    if bytes[i] == UInt8(ascii: "-") { i += 1 }
    guard digit(i) else { throw error("invalid number: expected a digit") }
    if bytes[i] == UInt8(ascii: "0") {
      i += 1
      if digit(i) { throw error("invalid number: leading zeros are not allowed") }
    } else {
      while digit(i) { i += 1 }
    }
    if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
      i += 1
      guard digit(i) else { throw error("invalid number: expected a digit after '.'") }
      while digit(i) { i += 1 }
    }
    if i < bytes.count, bytes[i] | 0x20 == UInt8(ascii: "e") {
      i += 1
      if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
      guard digit(i) else { throw error("invalid number: expected a digit in the exponent") }
      while digit(i) { i += 1 }
    }
    let text = String(decoding: bytes[start..<i], as: UTF8.self)
    guard let value = Double(text), value.isFinite else {
      i = start  // point at the number
      throw error("number out of range: \(text)")
    }
    return value
  }
}
