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
/// Results are correctly rounded: numbers of at most 19 digits whose digits form an integer
/// up to 2^53, with a power of ten within 10^±22, take Clinger's exact fast path (one IEEE
/// multiplication or division of two exact values); other numbers of up to 19 digits with a
/// power of ten within 10^±27 take the exact 128-bit path of ``exactProduct(_:exponent:)``;
/// everything else falls back to the standard
/// library's correctly rounded parser.
enum DecimalParser {
  @inline(__always)
  static func isDigit(_ c: UInt8) -> Bool { c &- 0x30 < 10 }

  /// Appends the decimal digits at `start[i..<end]` to `mantissa` (wrapping: callers count the
  /// digits and take another path past 19) and returns the index of the first non-digit.
  @inline(__always)
  static func accumulateDigits(
    _ start: UnsafePointer<UInt8>, from i: Int, to end: Int, into mantissa: inout UInt64
  ) -> Int {
    var i = i
    while i < end {
      let digit = start[i] &- 0x30
      if digit >= 10 { break }
      mantissa = mantissa &* 10 &+ UInt64(digit)
      i += 1
    }
    return i
  }

  /// Parses exactly the bytes `start..<start+count` as one number.
  @inline(__always)
  static func parse(_ start: UnsafePointer<UInt8>, count: Int, strictJSON: Bool = false)
    -> ParsedNumber
  {
    guard count > 0 else { return .invalid }
    var i = 0
    var negative = false
    var c = start[0]
    if c == UInt8(ascii: "-") {
      negative = true
      i = 1
    } else if c == UInt8(ascii: "+"), !strictJSON {
      i = 1
    }
    guard i < count else { return .invalid }
    c = start[i]
    if !isDigit(c) && c != UInt8(ascii: ".") {
      return parseWord(start + i, count: count - i, strictJSON: strictJSON)
    }

    // Accumulate every digit (leading zeros included) while there are at most 19: a UInt64
    // holds any 19-digit number. Longer inputs take the slow path.
    var mantissa: UInt64 = 0
    let integerStart = i
    i = accumulateDigits(start, from: i, to: count, into: &mantissa)
    let integerDigits = i - integerStart
    if strictJSON && (integerDigits == 0 || (integerDigits > 1 && start[integerStart] == UInt8(ascii: "0"))) {
      return .invalid
    }
    var fractionDigits = 0
    if i < count, start[i] == UInt8(ascii: ".") {
      i += 1
      let fractionStart = i
      i = accumulateDigits(start, from: i, to: count, into: &mantissa)
      fractionDigits = i - fractionStart
      if strictJSON && fractionDigits == 0 { return .invalid }
    }
    guard integerDigits + fractionDigits > 0 else { return .invalid }
    var exponent = -fractionDigits
    if i < count {
      guard start[i] | 0x20 == UInt8(ascii: "e") else { return .invalid }
      i += 1
      var exponentNegative = false
      if i < count, start[i] == UInt8(ascii: "-") || start[i] == UInt8(ascii: "+") {
        exponentNegative = start[i] == UInt8(ascii: "-")
        i += 1
      }
      guard i < count, isDigit(start[i]) else { return .invalid }
      var value = 0
      while i < count {
        let digit = start[i] &- 0x30
        guard digit < 10 else { return .invalid }
        if value < 100_000 { value = value * 10 + Int(digit) }
        i += 1
      }
      exponent += exponentNegative ? -value : value
    }

    if integerDigits + fractionDigits <= 19 {
      if mantissa == 0 { return .value(negative ? -0.0 : 0.0) }
      // Clinger's fast path: both operands exact, so one IEEE operation rounds correctly.
      if mantissa <= 1 << 53 && exponent >= -22 && exponent <= 22 {
        var result = Double(mantissa)
        if exponent < 0 {
          result /= exactPower(-exponent)
        } else {
          result *= exactPower(exponent)
        }
        return .value(negative ? -result : result)
      }
    }
    if integerDigits + fractionDigits <= 19, let result = exactProduct(mantissa, exponent: exponent) {
      return .value(negative ? -result : result)
    }
    // Slow path: the standard library's correctly rounded conversion.
    let text = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    guard let result = Double(text) else { return .invalid }
    return result.isFinite ? .value(result) : .infinity
  }

  /// 10^0 … 10^22, each exact in a Double. Allocated once and never freed; hot loops take the
  /// pointer once (reading a global on every call costs a lazy-initialization check).
  nonisolated(unsafe) static let powers: UnsafePointer<Double> = {
    let table = UnsafeMutablePointer<Double>.allocate(capacity: 23)
    var power = 1.0
    for k in 0..<23 {
      table[k] = power
      power *= 10
    }
    return UnsafePointer(table)
  }()

  /// 10^0 … 10^19 as integers (same allocation policy as ``powers``).
  nonisolated(unsafe) static let integerPowers: UnsafePointer<UInt64> = {
    let table = UnsafeMutablePointer<UInt64>.allocate(capacity: 20)
    var power: UInt64 = 1
    for k in 0..<20 {
      table[k] = power
      power &*= 10
    }
    return UnsafePointer(table)
  }()

  /// 10^k for k in 0…22.
  @inline(__always)
  static func exactPower(_ k: Int) -> Double { powers[k] }

  /// The number of leading ASCII digits (0…8) in the little-endian word `word`, and the
  /// word with every byte XOR `'0'` (digit bytes become their values 0…9).
  ///
  /// A byte is a digit exactly when `byte ^ 0x30 < 10`; the test runs on all eight lanes at
  /// once without carries between lanes.
  @inline(__always)
  static func leadingDigits(_ word: UInt64) -> (count: Int, values: UInt64) {
    let values = word ^ 0x3030_3030_3030_3030
    let notDigit = (((values & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7676_7676_7676_7676) | values) & 0x8080_8080_8080_8080
    return (notDigit.trailingZeroBitCount >> 3, values)
  }

  /// The integer formed by the first `n` (1…8) digit values of `values` (first digit in the
  /// lowest byte): shifting the digits to the top makes the rest leading zeros, then three
  /// multiply-shift steps combine pairs, quads and octets.
  @inline(__always)
  static func digitsValue(_ values: UInt64, count n: Int) -> UInt64 {
    var v = values << UInt64((8 - n) * 8)
    v = ((v & 0x0F0F_0F0F_0F0F_0F0F) &* 2561) >> 8
    v = ((v & 0x00FF_00FF_00FF_00FF) &* 6_553_601) >> 16
    return ((v & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) >> 32
  }

  /// Whether `start..<start+limit` begins with `-`, and the length of that sign (0 or 1).
  @inline(__always)
  static func leadingMinus(_ start: UnsafePointer<UInt8>, limit: Int) -> (negative: Bool, length: Int) {
    limit > 0 && start[0] == UInt8(ascii: "-") ? (true, 1) : (false, 0)
  }

  /// Reads a plain decimal number of at most 19 digits at the start of `start..<start+limit`
  /// (Clinger's fast path, or the exact 128-bit path for long mantissas): the value and the
  /// number of bytes it spans. `nil` for anything else (the caller then reads
  /// the field the general way, which also produces the right error message).
  ///
  /// Digits are read eight at a time while eight bytes can be loaded; near the end of the buffer,
  /// and for exponents, the byte loop takes over.
  @inline(__always)
  static func parsePrefix(
    _ start: UnsafePointer<UInt8>, limit: Int, powers: UnsafePointer<Double>, integerPowers: UnsafePointer<UInt64>
  ) -> (Double, Int)? {
    let (negative, signLength) = leadingMinus(start, limit: limit)
    var i = signLength
    var mantissa: UInt64 = 0
    var digits = 0
    var fractionDigits = 0
    let raw = UnsafeRawPointer(start)
    // Integer part, then fraction: runs of up to eight digits per load. A run of eight may go
    // on, so load again; at most 19 digits in all keep the mantissa exact in 64 bits.
    var inFraction = false
    while true {
      guard i + 9 <= limit else { return parsePrefixBytes(start, limit: limit) }
      let (n, values) = leadingDigits(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
      if n > 0 {
        digits += n
        guard digits <= 19 else { return nil }
        mantissa = mantissa &* integerPowers[n] &+ digitsValue(values, count: n)
        i += n
        if inFraction { fractionDigits += n }
      }
      if n == 8 { continue }
      if !inFraction && start[i] == UInt8(ascii: ".") {
        inFraction = true
        i += 1
        continue
      }
      break
    }
    guard digits > 0 else { return nil }
    if i < limit, start[i] | 0x20 == UInt8(ascii: "e") { return parsePrefixBytes(start, limit: limit) }
    let result: Double
    if mantissa <= 1 << 53 && fractionDigits <= 22 {
      // Both operands exact, so one IEEE division rounds correctly; below 2^53 the signed
      // conversion is exact.
      result = Double(Int64(bitPattern: mantissa)) / powers[fractionDigits]
    } else if let exact = exactProduct(mantissa, exponent: -fractionDigits) {
      result = exact  // 17–19 digits, e.g. the shortest form of 1/60
    } else {
      return nil
    }
    return (negative ? -result : result, i)
  }

  /// ``parsePrefix(_:limit:)`` one byte at a time (near the end of the buffer, long digit runs,
  /// exponents).
  static func parsePrefixBytes(_ start: UnsafePointer<UInt8>, limit: Int) -> (Double, Int)? {
    let (negative, signLength) = leadingMinus(start, limit: limit)
    var i = signLength
    var mantissa: UInt64 = 0
    let digitsStart = i
    i = accumulateDigits(start, from: i, to: limit, into: &mantissa)
    var digits = i - digitsStart
    var exponent = 0
    if i < limit, start[i] == UInt8(ascii: ".") {
      i += 1
      let fractionStart = i
      i = accumulateDigits(start, from: i, to: limit, into: &mantissa)
      digits += i - fractionStart
      exponent = fractionStart - i
    }
    guard digits > 0, digits <= 19 else { return nil }
    if i < limit, start[i] | 0x20 == UInt8(ascii: "e") {
      i += 1
      var exponentNegative = false
      if i < limit, start[i] == UInt8(ascii: "-") || start[i] == UInt8(ascii: "+") {
        exponentNegative = start[i] == UInt8(ascii: "-")
        i += 1
      }
      let exponentStart = i
      var value = 0
      while i < limit, i - exponentStart < 4 {
        let digit = start[i] &- 0x30
        if digit >= 10 { break }
        value = value * 10 + Int(digit)
        i += 1
      }
      guard i > exponentStart else { return nil }
      exponent += exponentNegative ? -value : value
    }
    var result: Double
    if mantissa <= 1 << 53 && exponent >= -22 && exponent <= 22 {
      result = Double(mantissa)
      if exponent < 0 {
        result /= exactPower(-exponent)
      } else if exponent > 0 {
        result *= exactPower(exponent)
      }
    } else if let exact = exactProduct(mantissa, exponent: exponent) {
      result = exact  // 17–19 digits, e.g. the shortest form of 1/60
    } else {
      return nil
    }
    return (negative ? -result : result, i)
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
