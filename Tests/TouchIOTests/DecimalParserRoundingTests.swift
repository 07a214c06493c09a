import Testing
import TouchTestSupport

@testable import TouchIO

private func parseStrict(_ text: String, strictJSON: Bool = true) -> ParsedNumber {
  let bytes = Array(text.utf8)
  return bytes.withUnsafeBufferPointer { DecimalParser.parse($0.baseAddress!, count: $0.count, strictJSON: strictJSON) }
}

/// The standard library's correctly rounded conversion: the independent reference.
private func standardLibrary(_ text: String) -> Double? { Double(text) }

@Suite("Decimal parser: rounding and JSON grammar")
struct DecimalParserRoundingTests {
  @Test func halfwayCasesRoundToEven() {
    // 2^53 + 1 lies halfway between 2^53 and 2^53 + 2: the even significand wins.
    #expect(parseStrict("9007199254740993") == .value(9_007_199_254_740_992))
    // 2^53 + 3 lies halfway between 2^53 + 2 and 2^53 + 4: 2^53 + 4 has the even significand.
    #expect(parseStrict("9007199254740995") == .value(9_007_199_254_740_996))
    // Just above halfway rounds up.
    #expect(parseStrict("9007199254740993.0000001") == .value(9_007_199_254_740_994))
  }

  @Test func shortestFormsOfCommonValuesReadExactly() {
    #expect(parseStrict("0.016666666666666666") == .value(1.0 / 60.0))
    #expect(parseStrict("6.666666666666667") == .value(20.0 / 3.0))
    #expect(parseStrict("0.1") == .value(0.1))
    #expect(parseStrict("1e-05") == .value(0.00001))
    #expect(parseStrict("5e-324") == .value(Double.leastNonzeroMagnitude))
    #expect(parseStrict("1.7976931348623157e+308") == .value(Double.greatestFiniteMagnitude))
    #expect(parseStrict("2.2250738585072014e-308") == .value(Double.leastNormalMagnitude))
    #expect(parseStrict("18446744073709551615") == .value(18_446_744_073_709_551_615.0))
    guard case .value(let negativeZero) = parseStrict("-0.0") else {
      Issue.record("-0.0 did not parse")
      return
    }
    #expect(negativeZero == 0 && negativeZero.sign == .minus)
  }

  @Test func jsonGrammarIsEnforced() {
    for text in ["01", "-01", "1.", ".5", "+1", "-", "1e", "1e+", "--1", "1.e5", "0x10", ""] {
      #expect(parseStrict(text) == .invalid, "\(text)")
    }
    #expect(parseStrict("1e400") == .infinity)
    #expect(parseStrict("-1e400") == .infinity)
    #expect(parseStrict("1E+2") == .value(100))
    #expect(parseStrict("0.5e-3") == .value(0.0005))
  }

  @Test(arguments: [7, 8, 9] as [UInt64])
  func shortestDescriptionsOfRandomDoublesReadBackBitExactly(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    var failures = 0
    for _ in 0..<20_000 {
      let value = Double(bitPattern: rng.next())
      guard value.isFinite else { continue }
      let text = value.description
      guard case .value(let parsed) = parseStrict(text), parsed.bitPattern == value.bitPattern else {
        failures += 1
        if failures < 5 { Issue.record("\(text) did not read back") }
        continue
      }
    }
    #expect(failures == 0)
  }

  /// Random decimal texts with 1–19 significant digits and exponents around the exact paths'
  /// limits, against the standard library.
  @Test(arguments: [11, 12, 13] as [UInt64])
  func randomDecimalTextsMatchTheStandardLibrary(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    var failures = 0
    for _ in 0..<20_000 {
      let digitCount = Int.random(in: 1...19, using: &rng)
      var digits = String(Int.random(in: 1...9, using: &rng))
      for _ in 1..<digitCount { digits.append(String(Int.random(in: 0...9, using: &rng))) }
      let point = Int.random(in: 0...digitCount, using: &rng)
      var text =
        point == digitCount
        ? digits : "\(digits.prefix(point == 0 ? 1 : point)).\(digits.dropFirst(point == 0 ? 1 : point))"
      if text.hasSuffix(".") { text.removeLast() }
      if Bool.random(using: &rng) { text += "e\(Int.random(in: -40...40, using: &rng))" }
      if Bool.random(using: &rng) { text = "-" + text }
      guard let expected = standardLibrary(text) else {
        Issue.record("reference rejected \(text)")
        continue
      }
      guard case .value(let parsed) = parseStrict(text), parsed.bitPattern == expected.bitPattern else {
        failures += 1
        if failures < 5 { Issue.record("\(text): got \(parseStrict(text)), expected \(expected)") }
        continue
      }
    }
    #expect(failures == 0)
  }

  /// The JSON reader's own fast path for plain decimals and its fallback, through a whole file.
  @Test(arguments: [21, 22] as [UInt64])
  func numbersInJSONColumnsMatchTheStandardLibrary(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    var texts: [String] = [
      "0", "-0", "0.0", "-0.0", "1", "0.000001", "123456789012345678", "1234567890123456789",
      "12345678901234567890", "0.1234567890123456789", "9007199254740993", "1e-7", "1E+300", "-2.5e-310",
    ]
    for _ in 0..<5_000 {
      let intDigits = Int.random(in: 1...12, using: &rng)
      var text = String(Int.random(in: 1...9, using: &rng))
      for _ in 1..<intDigits { text.append(String(Int.random(in: 0...9, using: &rng))) }
      if Int.random(in: 0..<4, using: &rng) == 0 { text = "0" }
      if Bool.random(using: &rng) {
        text += "."
        for _ in 0..<Int.random(in: 1...14, using: &rng) { text.append(String(Int.random(in: 0...9, using: &rng))) }
      }
      if Int.random(in: 0..<5, using: &rng) == 0 { text += "e\(Int.random(in: -30...30, using: &rng))" }
      if Bool.random(using: &rng) { text = "-" + text }
      texts.append(text)
    }
    let column = texts.joined(separator: ",")
    let spaced = texts.joined(separator: " ,\n ")
    let zeros = Array(repeating: "0", count: texts.count).joined(separator: ",")
    for x in [column, spaced] {
      let line = #"{"id":"n","t":[\#(zeros)],"force":[\#(zeros)],"x":[\#(x)]}"#
      let trace = try #require(try loadJSON(document(line)).traces.first)
      let parsed = try #require(trace.x)
      var failures = 0
      for (text, value) in zip(texts, parsed) where value.bitPattern != standardLibrary(text)?.bitPattern {
        failures += 1
        if failures < 5 { Issue.record("\(text) read as \(value), expected \(standardLibrary(text) ?? .nan)") }
      }
      #expect(failures == 0)
    }
  }

  @Test func exactProductCoversTheWholeRangeOfItsInputs() {
    var rng = SplitMix64(seed: 5)
    for _ in 0..<20_000 {
      let mantissa = rng.next() >> UInt64.random(in: 0...63, using: &rng)
      let exponent = Int.random(in: -27...27, using: &rng)
      let expected = standardLibrary("\(mantissa)e\(exponent)")
      #expect(DecimalParser.exactProduct(mantissa, exponent: exponent) == expected, "\(mantissa)e\(exponent)")
    }
    #expect(DecimalParser.exactProduct(1, exponent: 28) == nil)
    #expect(DecimalParser.exactProduct(1, exponent: -28) == nil)
  }
}
