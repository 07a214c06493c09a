import TouchIO

/// A JSON value for reports, written with keys in insertion order and numbers in their
/// shortest round-trip form, so the same report always gives the same bytes.
package indirect enum JSONValue: Sendable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByNilLiteral
{
  case null
  case bool(Bool)
  case int(Int)
  /// A finite number; non-finite numbers are written as `null`.
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])
  /// An array whose elements are made one by one as it is written (a list too long to hold as
  /// values, such as one record per trace): the same bytes as `.array` of the same elements.
  /// Its elements must not be scalars, empty arrays or empty objects.
  case lazyArray(LazyElements)

  /// The elements of a ``lazyArray(_:)``: how many, and how to make them in order.
  package struct LazyElements: Sendable {
    /// The number of elements.
    package let count: Int
    /// Makes the elements, in order (called once per writing).
    package let make: @Sendable () -> any IteratorProtocol<JSONValue>

    /// `count` elements that `make` gives in order.
    package init(count: Int, make: @escaping @Sendable () -> any IteratorProtocol<JSONValue>) {
      self.count = count
      self.make = make
    }
  }

  package init(stringLiteral value: String) { self = .string(value) }
  package init(integerLiteral value: Int) { self = .int(value) }
  package init(booleanLiteral value: Bool) { self = .bool(value) }
  package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
  package init(nilLiteral: ()) { self = .null }

  /// A number, or `null` when `value` is `nil` or not finite.
  package static func number(_ value: Double?) -> JSONValue {
    guard let value, value.isFinite else { return .null }
    return .number(value)
  }

  /// A string, or `null`.
  package static func string(_ value: String?) -> JSONValue {
    value.map { .string($0) } ?? .null
  }

  /// An integer, or `null`.
  package static func int(_ value: Int?) -> JSONValue {
    value.map { .int($0) } ?? .null
  }

  /// The encoded bytes: pretty-printed with two-space indentation (`pretty`), or on one line.
  package func encoded(pretty: Bool = true) -> [UInt8] {
    var out: [UInt8] = []
    write(to: &out, pretty: pretty, indent: 0)
    if pretty { out.append(0x0A) }
    return out
  }

  /// The encoded text.
  package func text(pretty: Bool = true) -> String {
    String(decoding: encoded(pretty: pretty), as: UTF8.self)
  }

  /// The encoded bytes (as ``encoded(pretty:)``) handed to `sink` in pieces of about 1 MiB, in
  /// order, so a document holding a long ``lazyArray(_:)`` is never whole in memory.
  ///
  /// - Parameters:
  ///   - pretty: pretty-printed with two-space indentation, or on one line.
  ///   - sink: receives each piece (a file's writer, which keeps its first failure).
  package func encode(pretty: Bool = true, into sink: @escaping ([UInt8]) -> Void) {
    let drain = Drain(sink)
    var out: [UInt8] = []
    write(to: &out, pretty: pretty, indent: 0, drain: drain)
    if pretty { out.append(0x0A) }
    drain.take(&out)
  }

  /// Where ``encode(pretty:into:)`` sends the bytes encoded so far, once there are enough.
  private final class Drain {
    let sink: ([UInt8]) -> Void
    static let threshold = 1 << 20

    init(_ sink: @escaping ([UInt8]) -> Void) { self.sink = sink }

    func take(_ out: inout [UInt8]) {
      sink(out)
      out.removeAll(keepingCapacity: true)
    }
  }

  private func write(to out: inout [UInt8], pretty: Bool, indent: Int, drain: Drain? = nil) {
    switch self {
    case .null: out.append(contentsOf: "null".utf8)
    case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
    case .int(let value): out.append(contentsOf: String(value).utf8)
    case .number(let value):
      if value.isFinite { NumberText.append(value, to: &out) } else { out.append(contentsOf: "null".utf8) }
    case .string(let value): JSONValue.appendString(value, to: &out)
    case .array(let elements):
      guard !elements.isEmpty else { return out.append(contentsOf: "[]".utf8) }
      let scalar = elements.allSatisfy(\.isScalar)
      out.append(UInt8(ascii: "["))
      for (k, element) in elements.enumerated() {
        if k > 0 { out.append(UInt8(ascii: ",")) }
        if pretty && !scalar { newline(&out, indent + 1) } else if pretty && k > 0 { out.append(0x20) }
        element.write(to: &out, pretty: pretty, indent: indent + 1, drain: drain)
        if let drain, out.count >= Drain.threshold { drain.take(&out) }
      }
      if pretty && !scalar { newline(&out, indent) }
      out.append(UInt8(ascii: "]"))
    case .lazyArray(let elements):
      guard elements.count > 0 else { return out.append(contentsOf: "[]".utf8) }
      out.append(UInt8(ascii: "["))
      var iterator = elements.make()
      var k = 0
      while let element = iterator.next() {
        precondition(!element.isScalar, "a lazy array's elements are not scalars")
        if k > 0 { out.append(UInt8(ascii: ",")) }
        if pretty { newline(&out, indent + 1) }
        element.write(to: &out, pretty: pretty, indent: indent + 1, drain: drain)
        if let drain, out.count >= Drain.threshold { drain.take(&out) }
        k += 1
      }
      precondition(k == elements.count, "a lazy array gave \(k) elements, not \(elements.count)")
      if pretty { newline(&out, indent) }
      out.append(UInt8(ascii: "]"))
    case .object(let members):
      guard !members.isEmpty else { return out.append(contentsOf: "{}".utf8) }
      if pretty, members.allSatisfy({ $0.1.isScalar }) {
        // Small flat records read best on one line: {"user": "u1", "traces": 12}.
        var line: [UInt8] = []
        write(to: &line, pretty: false, indent: 0)
        if line.count <= 100 {
          var spaced: [UInt8] = []
          var inString = false
          var escaped = false
          for byte in line {
            spaced.append(byte)
            if inString {
              if escaped {
                escaped = false
              } else if byte == UInt8(ascii: "\\") {
                escaped = true
              } else if byte == UInt8(ascii: "\"") {
                inString = false
              }
            } else if byte == UInt8(ascii: "\"") {
              inString = true
            } else if byte == UInt8(ascii: ",") || byte == UInt8(ascii: ":") {
              spaced.append(0x20)
            }
          }
          return out.append(contentsOf: spaced)
        }
      }
      out.append(UInt8(ascii: "{"))
      for (k, (key, value)) in members.enumerated() {
        if k > 0 { out.append(UInt8(ascii: ",")) }
        if pretty { newline(&out, indent + 1) }
        JSONValue.appendString(key, to: &out)
        out.append(UInt8(ascii: ":"))
        if pretty { out.append(0x20) }
        value.write(to: &out, pretty: pretty, indent: indent + 1, drain: drain)
      }
      if pretty { newline(&out, indent) }
      out.append(UInt8(ascii: "}"))
    }
  }

  private var isScalar: Bool {
    switch self {
    case .array(let a): a.isEmpty
    case .object(let o): o.isEmpty
    case .lazyArray(let a): a.count == 0
    default: true
    }
  }

  private func newline(_ out: inout [UInt8], _ indent: Int) {
    out.append(0x0A)
    out.append(contentsOf: repeatElement(0x20, count: indent * 2))
  }

  /// Appends `text` as a JSON string literal (RFC 8259 escapes).
  package static func appendString(_ text: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
      case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
      case 0x0A: out.append(contentsOf: "\\n".utf8)
      case 0x0D: out.append(contentsOf: "\\r".utf8)
      case 0x09: out.append(contentsOf: "\\t".utf8)
      case 0..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        out.append(contentsOf: "\\u00".utf8)
        out.append(hex[Int(byte >> 4)])
        out.append(hex[Int(byte & 15)])
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }
}

extension JSONValue {
  /// A pretty-printed document whose array member `key` is written element by element: the
  /// bytes of ``encoded(pretty:)`` before the array (`head`, ending with `"key": `) and after
  /// it (`tail`). Between them go each element's ``encodedElement(index:)``
  /// (the first opens the array with `[`), then ``arrayClose(count:)`` — together the same bytes as
  /// encoding the whole document with the array in place.
  ///
  /// - Parameter key: a member of this object (the top level), whose value is left out.
  /// - Precondition: this is an object with a member `key` and at least one member that is
  ///   not a scalar besides (so it is not written on one line).
  package func encodedAround(member key: String) -> (head: [UInt8], tail: [UInt8]) {
    guard case .object(let members) = self, let at = members.firstIndex(where: { $0.0 == key }) else {
      preconditionFailure("no member '\(key)'")
    }
    var head: [UInt8] = [UInt8(ascii: "{")]
    var tail: [UInt8] = []
    for (k, (name, value)) in members.enumerated() {
      var out: [UInt8] = []
      if k > 0 { out.append(UInt8(ascii: ",")) }
      newline(&out, 1)
      JSONValue.appendString(name, to: &out)
      out.append(contentsOf: ": ".utf8)
      if k != at { value.write(to: &out, pretty: true, indent: 1) }
      if k <= at { head += out } else { tail += out }
    }
    newline(&tail, 0)
    tail.append(contentsOf: "}\n".utf8)
    return (head, tail)
  }

  /// Element number `index` (from 0) of an array member of a top-level object written in
  /// pieces (``encodedAround(member:)``): `[` before the first, `,` before the others, then a
  /// line break and the element at the array's indentation.
  ///
  /// - Parameter index: the element's position in the array.
  /// - Precondition: the element is not a scalar (arrays of scalars are written on one line).
  package func encodedElement(index: Int) -> [UInt8] {
    var out: [UInt8] = [UInt8(ascii: index == 0 ? "[" : ",")]
    newline(&out, 2)
    write(to: &out, pretty: true, indent: 2)
    return out
  }

  /// The end of an array member written in pieces with `count` elements: `[]` when empty.
  ///
  /// - Parameter count: how many elements were written.
  package static func arrayClose(count: Int) -> [UInt8] {
    count == 0 ? Array("[]".utf8) : Array("\n  ]".utf8)
  }
}

extension JSONValue {
  /// This object with `member` inserted before the member named `key` (at the end when there
  /// is none, or when `key` is `nil`); any other value unchanged.
  func inserting(_ member: (String, JSONValue), before key: String?) -> JSONValue {
    guard case .object(var members) = self else { return self }
    let at = key.flatMap { key in members.firstIndex { $0.0 == key } } ?? members.count
    members.insert(member, at: at)
    return .object(members)
  }
}
