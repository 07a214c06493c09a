import Testing
import TouchTestSupport

@testable import TouchIO

/// The decimal parsers against the standard library's correctly rounded `Double(String)`.
@Suite("Decimal parsing")
struct DecimalParserTests {
  func parse(_ text: String, strictJSON: Bool = false) -> ParsedNumber {
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBufferPointer {
      DecimalParser.parse($0.baseAddress!, count: bytes.count, strictJSON: strictJSON)
    }
  }

  /// `parsePrefix` over `text` followed by padding (so the eight-byte path is taken) and, with
  /// `short`, without padding (the byte path).
  func prefix(_ text: String, padded: Bool) -> (Double, Int)? {
    let bytes = Array(text.utf8) + (padded ? Array(",xxxxxxxxxxxxxxxxx".utf8) : [])
    return bytes.withUnsafeBufferPointer {
      DecimalParser.parsePrefix(
        $0.baseAddress!, limit: bytes.count, powers: DecimalParser.powers, integerPowers: DecimalParser.integerPowers)
    }
  }

  @Test(arguments: [
    "0", "-0", "1", "+1", ".5", "5.", "0.1", "0.016666666666666666", "6.666666666666667", "1e-5", "1E+22",
    "123456789012345678", "1234567890123456789012", "0.000000000000000000000001", "2.2250738585072014e-308",
    "4.9e-324", "1.7976931348623157e308", "9007199254740993", "3.14159265358979323846264338327950288",
  ])
  func matchesTheStandardLibrary(text: String) throws {
    let expected = try #require(Double(text))
    guard case .value(let value) = parse(text) else {
      Issue.record("\(text) did not parse")
      return
    }
    #expect(value.bitPattern == expected.bitPattern, "\(text)")
  }

  @Test func wordsAndErrors() {
    #expect(parse("nan") == .nan)
    #expect(parse("-NaN") == .nan)
    #expect(parse("inf") == .infinity)
    #expect(parse("Infinity") == .infinity)
    #expect(parse("1e400") == .infinity)
    for bad in ["", "-", ".", "1.2.3", "1e", "1e+", "abc", "1,5", "0x10", " 1", "1 ", "e5"] {
      #expect(parse(bad) == .invalid, "\(bad)")
    }
  }

  @Test func strictJSONGrammar() {
    #expect(parse("+1", strictJSON: true) == .invalid)
    #expect(parse("01", strictJSON: true) == .invalid)
    #expect(parse(".5", strictJSON: true) == .invalid)
    #expect(parse("5.", strictJSON: true) == .invalid)
    #expect(parse("-0.5e-3", strictJSON: true) == .value(-0.0005))
  }

  @Test(arguments: [1, 2, 3])
  func randomNumbersRoundTripBitForBit(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for _ in 0..<20_000 {
      // Values of every magnitude, printed in shortest form and in fixed forms with few digits.
      let value = Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF)
      let candidates = [
        value.description, "\(Double(Int.random(in: -999_999...999_999, using: &rng)) / 1000)",
        "\(Int.random(in: 0...400, using: &rng))e-2",
        "-\(Int.random(in: 0...99, using: &rng)).\(Int.random(in: 0...9_999_999, using: &rng))",
      ]
      for text in candidates {
        guard let expected = Double(text), case .value(let value) = parse(text) else {
          Issue.record("\(text) did not parse")
          continue
        }
        #expect(value.bitPattern == expected.bitPattern, "\(text)")
        // The CSV fast path either agrees or declines (never a different value).
        for padded in [true, false] {
          if let (fast, length) = prefix(text, padded: padded) {
            #expect(fast.bitPattern == expected.bitPattern, "\(text)")
            #expect(length == text.utf8.count, "\(text)")
          }
        }
      }
    }
  }

  @Test func fastPathCoversTypicalSensorText() throws {
    for text in ["0", "3.0", "0.016667", "-12.5", "6.6667", "1234567.1234567", "0.0333333"] {
      let (value, length) = try #require(prefix(text, padded: true))
      #expect(value == Double(text)!)
      #expect(length == text.utf8.count)
    }
  }
}
