import Testing
import TouchCore

@testable import TouchIO

/// JSON parsing is linear in the input however its lines are laid out: the work of finding every
/// value's line and column (the bytes the scanner examines for columns) is counted, not timed
/// (performance is measured in benchmarks, never in timed unit tests).
@Suite("JSON linearity")
struct JSONLinearityTests {
  /// `[v,v,…]` with `count` values, on one line or one value a line.
  static func array(_ count: Int, oneLine: Bool) -> [UInt8] {
    var text = "["
    text.reserveCapacity(count * 9)
    for k in 0..<count {
      if k > 0 { text += oneLine ? "," : ",\n" }
      text += k % 3 == 0 ? "1.2345" : (k % 3 == 1 ? "\"é\"" : "{\"f\":0.5}")
    }
    return Array((text + "]").utf8)
  }

  static func steps(_ bytes: [UInt8]) throws -> (steps: Int, node: JSONNode) {
    var steps = 0
    let node = try JSONNode.parse(bytes, file: "long.json", columnSteps: &steps)
    return (steps, node)
  }

  @Test func columnWorkOnOneLongLineIsLinear() throws {
    let small = Self.array(5_000, oneLine: true)
    let large = Self.array(20_000, oneLine: true)
    let a = try Self.steps(small).steps
    let b = try Self.steps(large).steps
    // Each byte is examined at most about once: not once per value before it.
    #expect(a <= small.count, "\(a) column steps for \(small.count) bytes")
    #expect(b <= large.count, "\(b) column steps for \(large.count) bytes")
    // 4× the input, about 4× the work (quadratic counting gave 16×).
    #expect(Double(b) / Double(a) < 4.5, "\(a) → \(b)")
  }

  @Test func positionsOnALongLineAreStillExact() throws {
    let bytes = Self.array(200_000, oneLine: true)
    let (steps, node) = try Self.steps(bytes)
    #expect(steps <= bytes.count)
    guard case .array(let items) = node.kind else {
      Issue.record("not an array")
      return
    }
    #expect(items.count == 200_000)
    // Independent reference: the column of each value, counted in scalars from the text.
    let text = String(decoding: bytes, as: UTF8.self)
    var columns: [Int] = []
    var column = 1
    var depth = 0
    var inString = false
    var expectValue = true
    for scalar in text.unicodeScalars {
      if !inString && depth == 1 && expectValue && scalar != "[" {
        columns.append(column)
        expectValue = false
      }
      switch scalar {
      case "\"": inString.toggle()
      case "[" where !inString, "{" where !inString: depth += 1
      case "]" where !inString, "}" where !inString: depth -= 1
      case "," where !inString && depth == 1: expectValue = true
      default: break
      }
      column += 1
    }
    #expect(columns.count == items.count)
    for k in [0, 1, 2, 3, 99_999, 199_998, 199_999] {
      #expect(items[k].position == TextPosition(line: 1, column: columns[k]), "value \(k)")
    }
    // An error far along a long line still names its exact column: the last value is "é", its
    // closing quote replaced, so the string is unterminated at its opening quote.
    var broken = bytes
    broken[broken.count - 2] = UInt8(ascii: "x")
    do {
      _ = try JSONNode.parse(broken, file: "long.json")
      Issue.record("an unterminated string was accepted")
    } catch {
      #expect(error.position == TextPosition(line: 1, column: columns[199_999]), "\(error)")
    }
  }

  @Test func prettyAndOneLineGiveTheSameValues() throws {
    let one = try JSONNode.parse(Self.array(3_000, oneLine: true), file: "a")
    let many = try JSONNode.parse(Self.array(3_000, oneLine: false), file: "b")
    guard case .array(let a) = one.kind, case .array(let b) = many.kind else { return }
    #expect(a.count == b.count)
    #expect(b[2_999].position == TextPosition(line: 3_000, column: 1))
  }
}
