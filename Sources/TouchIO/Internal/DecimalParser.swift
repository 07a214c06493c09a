/// The outcome of reading a decimal number from bytes.
enum ParsedNumber: Equatable {
  /// A finite value.
  case value(Double)
  /// Not a number at all.
  case invalid
  /// The word `nan` (any case, optional sign).
  case nan
  /// The words `inf`/`infinity`, or a number too large for a Double.
  case infinity
}

/// Reads decimal numbers from bytes without creating strings.
///
/// Grammar (`strictJSON` off): optional sign (`+` or `-`), digits with an optional fraction, or
/// a fraction alone (`.5`, `5.`), then an optional exponent (`e`/`E`, optional sign, digits).
/// With `strictJSON` the JSON number grammar applies: no `+`, no leading zeros, digits on both
/// sides of the point. `nan`, `inf` and `infinity` are recognized (so errors can say so).
///
/// Results are correctly rounded: up to 19 significant digits and a power of ten within
/// 10^±22 take Clinger's exact fast path (one IEEE multiplication or division of two exact
/// values); other mantissas of up to 19 digits with a power of ten within 10^±27 take the exact
/// 128-bit path of ``exactProduct(_:exponent:)``; everything else falls back to the standard
/// library's correctly rounded parser.
enum DecimalParser {
  /// 10^0 … 10^22: every one is exactly representable as a Double.
  @usableFromInline static let exactPowers: [Double] = {
    var powers = [Double](repeating: 1, count: 23)
    for i in 1..<23 { powers[i] = powers[i - 1] * 10 }
    return powers
  }()

  @inline(__always)
  static func isDigit(_ c: UInt8) -> Bool { c &- 0x30 < 10 }

  /// Parses exactly the bytes `start..<start+count` as one number.
  static func parse(_ start: UnsafePointer<UInt8>, count: Int, strictJSON: Bool = false)
    -> ParsedNumber
  {
    guard count > 0 else { return .invalid }
    var i = 0
    var negative = false
    if start[0] == UInt8(ascii: "-") {
      negative = true
      i = 1
    } else if start[0] == UInt8(ascii: "+"), !strictJSON {
      i = 1
    }
    guard i < count else { return .invalid }
    if !isDigit(start[i]) && start[i] != UInt8(ascii: ".") {
      return parseWord(start + i, count: count - i, strictJSON: strictJSON)
    }

    var mantissa: UInt64 = 0
    var significantDigits = 0  // digits accumulated into `mantissa` (after leading zeros)
    var droppedDigits = 0  // integer-part digits beyond 19 (scale by 10 each)
    var truncated = false  // a non-zero digit was dropped
    var exponent = 0
    var sawDigit = false

    let integerStart = i
    while i < count, isDigit(start[i]) {
      let digit = UInt64(start[i] &- 0x30)
      sawDigit = true
      if significantDigits < 19 {
        if mantissa != 0 || digit != 0 {
          mantissa = mantissa &* 10 &+ digit
          significantDigits += 1
        }
      } else {
        droppedDigits += 1
        if digit != 0 { truncated = true }
      }
      i += 1
    }
    if strictJSON {
      let integerDigits = i - integerStart
      if integerDigits == 0 { return .invalid }
      if integerDigits > 1 && start[integerStart] == UInt8(ascii: "0") { return .invalid }
    }
    exponent += droppedDigits
    if i < count, start[i] == UInt8(ascii: ".") {
      i += 1
      let fractionStart = i
      while i < count, isDigit(start[i]) {
        let digit = UInt64(start[i] &- 0x30)
        sawDigit = true
        if significantDigits < 19 {
          if mantissa != 0 || digit != 0 {
            mantissa = mantissa &* 10 &+ digit
            significantDigits += 1
          }
          exponent -= 1
        } else if digit != 0 {
          truncated = true
        }
        i += 1
      }
      if strictJSON && i == fractionStart { return .invalid }
    }
    guard sawDigit else { return .invalid }
    if i < count, start[i] | 0x20 == UInt8(ascii: "e") {
      i += 1
      var exponentNegative = false
      if i < count, start[i] == UInt8(ascii: "-") || start[i] == UInt8(ascii: "+") {
        exponentNegative = start[i] == UInt8(ascii: "-")
        i += 1
      }
      guard i < count, isDigit(start[i]) else { return .invalid }
      var value = 0
      while i < count, isDigit(start[i]) {
        if value < 100_000 { value = value * 10 + Int(start[i] &- 0x30) }
        i += 1
      }
      exponent += exponentNegative ? -value : value
    }
    guard i == count else { return .invalid }

    if mantissa == 0 && !truncated { return .value(negative ? -0.0 : 0.0) }
    if !truncated && mantissa <= 1 << 53 && exponent >= -22 && exponent <= 22 {
      var result = Double(mantissa)
      if exponent < 0 {
        result /= exactPowers[-exponent]
      } else {
        result *= exactPowers[exponent]
      }
      return .value(negative ? -result : result)
    }
    if !truncated, let result = exactProduct(mantissa, exponent: exponent) {
      return .value(negative ? -result : result)
    }
    // Slow path: the standard library's correctly rounded conversion.
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    guard let result = Double(text) else { return .invalid }
    return result.isFinite ? .value(result) : .infinity
  }

  /// `nan`, `inf`, `infinity` in any case (after an optional sign).
  private static func parseWord(_ start: UnsafePointer<UInt8>, count: Int, strictJSON: Bool)
    -> ParsedNumber
  {
    var word: [UInt8] = []
    word.reserveCapacity(count)
    for k in 0..<count { word.append(start[k] | 0x20) }
    switch word {
    case Array("nan".utf8): return .nan
    case Array("inf".utf8), Array("infinity".utf8): return .infinity
    default: return .invalid
    }
  }

  /// Parses a non-negative decimal integer (no sign, no fraction); `nil` for anything else or
  /// a value above `Int.max`.
  static func parseInteger(_ start: UnsafePointer<UInt8>, count: Int) -> Int? {
    guard count > 0, count <= 18 else {
      guard count > 0 else { return nil }
      let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
      return text.utf8.allSatisfy(isDigit) ? Int(text) : nil
    }
    var value = 0
    for k in 0..<count {
      guard isDigit(start[k]) else { return nil }
      value = value * 10 + Int(start[k] &- 0x30)
    }
    return value
  }
}
