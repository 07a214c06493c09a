extension DecimalParser {
  /// 5^0 … 5^27: every one fits in 64 bits.
  static let powersOfFive: [UInt64] = {
    var powers = [UInt64](repeating: 1, count: 28)
    for i in 1..<28 { powers[i] = powers[i - 1] * 5 }
    return powers
  }()

  /// The correctly rounded value of `mantissa × 10^exponent`, computed with exact 128-bit integer
  /// arithmetic, for any 64-bit mantissa and `exponent` in −27…27; `nil` outside that range.
  ///
  /// This covers what Clinger's fast path cannot: 17–19 significant digits (the shortest form of
  /// most doubles, for example `0.016666666666666666`), without falling back to text parsing.
  ///
  /// Method: 10^e = 5^e · 2^e, and 5^e < 2^64 for e ≤ 27. For e ≥ 0 the product
  /// `mantissa · 5^e` is exact in 128 bits; for e < 0 the quotient `mantissa / 5^-e` is taken to
  /// 62–63 significant bits with a sticky bit for a non-zero remainder. Either way a single
  /// round-to-nearest-even conversion of at most 63 bits gives the double, and the power of two
  /// is applied exactly afterwards (results stay far from the subnormal and overflow ranges).
  static func exactProduct(_ mantissa: UInt64, exponent: Int) -> Double? {
    guard exponent >= -27, exponent <= 27 else { return nil }
    guard mantissa != 0 else { return 0 }
    if exponent >= 0 {
      let (high, low) = mantissa.multipliedFullWidth(by: powersOfFive[exponent])
      if high == 0 {
        if low >> 63 == 0 { return Double(sign: .plus, exponent: exponent, significand: Double(Int64(low))) }
        let sticky = low & 1
        return Double(
          sign: .plus, exponent: exponent + 1, significand: Double(Int64(low >> 1 | sticky)))
      }
      // The top 64 bits of the product, then 63 of them with the rest as a sticky bit.
      let shift = high.leadingZeroBitCount
      let top = shift == 0 ? high : high << shift | low >> (64 - shift)
      let rest = low << shift
      let significand = top >> 1 | (top & 1) | (rest != 0 ? 1 : 0)
      return Double(
        sign: .plus, exponent: exponent + 65 - shift, significand: Double(Int64(significand)))
    }
    let k = -exponent
    let five = powersOfFive[k]
    let mantissaShift = mantissa.leadingZeroBitCount
    let fiveShift = five.leadingZeroBitCount
    let m = mantissa << mantissaShift  // in [2^63, 2^64)
    let d = five << fiveShift  // in [2^63, 2^64)
    // q = floor(m · 2^62 / d), in (2^61, 2^63); the high word m >> 2 < d, so it cannot overflow.
    let (q, r) = d.dividingFullWidth((high: m >> 2, low: m << 62))
    let significand = q | (r != 0 ? 1 : 0)
    // mantissa / 5^k = q · 2^(fiveShift − mantissaShift − 62), then · 2^-k.
    return Double(
      sign: .plus, exponent: fiveShift - mantissaShift - 62 - k,
      significand: Double(Int64(significand)))
  }
}
