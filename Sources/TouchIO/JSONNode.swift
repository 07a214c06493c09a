public import TouchCore

/// A JSON value with the position where it starts: for JSON files that are not trace files
/// (device logs, browser recordings), read with the same strict RFC 8259 scanner and the same
/// positioned errors as trace documents.
public struct JSONNode: Sendable {
  /// The value.
  public indirect enum Kind: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONNode])
    case object([Member])
  }

  /// An object member: its key, where the key starts, its value.
  public struct Member: Sendable {
    /// The key.
    public var key: String
    /// Where the key starts.
    public var keyPosition: TextPosition
    /// The value.
    public var value: JSONNode
  }

  /// The value.
  public var kind: Kind
  /// Where the value starts (line and column, columns in Unicode scalars).
  public var position: TextPosition

  /// `null`, `a boolean`, `a number`, `a string`, `an array` or `an object`, for messages.
  public var typeName: String {
    switch kind {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }

  /// The member `key` of an object (the first when repeated); `nil` when absent or not an object.
  public func member(_ key: String) -> Member? {
    guard case .object(let members) = kind else { return nil }
    return members.first { $0.key == key }
  }

  /// Reads a whole file's bytes as one JSON value.
  ///
  /// - Parameters:
  ///   - bytes: the file's content (a leading byte order mark is skipped).
  ///   - file: the name errors use.
  /// - Throws: ``TraceLoadError`` with reason `.invalidJSON` and the position of the offending
  ///   character for malformed JSON, an empty file, text after the value, or a number too large
  ///   for a Double.
  public static func parse(_ bytes: [UInt8], file: String) throws(TraceLoadError) -> JSONNode {
    var steps = 0
    return try parse(bytes, file: file, columnSteps: &steps)
  }

  /// ``parse(_:file:)``, counting the bytes examined to find columns (`columnSteps`): linear in the
  /// input, whatever its lines (a test checks it).
  static func parse(_ bytes: [UInt8], file: String, columnSteps: inout Int) throws(TraceLoadError) -> JSONNode {
    var steps = 0
    defer { columnSteps = steps }
    let result: Result<JSONNode, TraceLoadError> = bytes.withUnsafeBufferPointer { buffer in
      var scanner = JSONScanner(buffer, file: file, lineMode: false)
      defer { steps = scanner.columns.steps }
      do throws(TraceLoadError) {
        scanner.skipWhitespace()
        guard scanner.offset < scanner.end else {
          throw scanner.syntaxError("the file is empty; expected a JSON value", at: scanner.offset)
        }
        let value = try node(&scanner, depth: 0)
        scanner.skipWhitespace()
        guard scanner.offset == scanner.end else { throw scanner.unexpected(expected: "the end of the input") }
        return .success(value)
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  private static func node(_ scanner: inout JSONScanner, depth: Int) throws(TraceLoadError) -> JSONNode {
    let position = scanner.position
    guard let kind = scanner.kindHere() else { throw scanner.invalidValue() }
    switch kind {
    case .string:
      return JSONNode(kind: .string(scanner.string(try scanner.readString())), position: position)
    case .number:
      if scanner.nonJSONNumberWord() != nil { throw scanner.invalidValue() }
      let start = scanner.offset
      switch try scanner.readNumber() {
      case .value(let value): return JSONNode(kind: .number(value), position: position)
      default:
        throw scanner.syntaxError(
          "number '\(scanner.sourceText(from: start, to: scanner.offset))' is too large", at: start)
      }
    case .boolean, .null:
      if let flag = try scanner.readBoolean() { return JSONNode(kind: .bool(flag), position: position) }
      _ = try scanner.readLiteral()
      return JSONNode(kind: .null, position: position)
    case .array, .object:
      guard depth < JSONScanner.maximumDepth else {
        throw scanner.syntaxError("values nested too deeply", at: scanner.offset)
      }
      let closing = kind == .array ? UInt8(ascii: "]") : UInt8(ascii: "}")
      scanner.offset += 1
      scanner.skipWhitespace()
      var elements: [JSONNode] = []
      var members: [Member] = []
      if scanner.peek == closing {
        scanner.offset += 1
      } else {
        while true {
          if kind == .array {
            elements.append(try node(&scanner, depth: depth + 1))
          } else {
            guard scanner.peek == UInt8(ascii: "\"") else {
              throw scanner.unexpected(expected: "a key in double quotes")
            }
            let keyPosition = scanner.position
            let key = scanner.string(try scanner.readString())
            scanner.skipWhitespace()
            try scanner.expect(UInt8(ascii: ":"), "':' after the key")
            scanner.skipWhitespace()
            members.append(Member(key: key, keyPosition: keyPosition, value: try node(&scanner, depth: depth + 1)))
          }
          scanner.skipWhitespace()
          if try scanner.endOfMember(closing: closing) { break }
        }
      }
      return JSONNode(kind: kind == .array ? .array(elements) : .object(members), position: position)
    }
  }
}
