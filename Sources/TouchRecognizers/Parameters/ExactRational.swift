/// A rational number `numerator / denominator` in lowest terms, for exact sweep grids.
///
/// Grid points are computed from integers (`start + k·step` with exact fractions) and converted
/// to `Double` once, so `0:1:1/60` gives point 45 as exactly `45.0 / 60` and `180/60` as exactly
/// `3.0`: a threshold on the grid then compares with quantized force values (1/60 steps on 3D
/// Touch) the way the device's own `>=` or `>` does.
public struct ExactRational: Hashable, Sendable, Comparable, CustomStringConvertible {
  /// The numerator; carries the sign.
  public let numerator: Int64
  /// The denominator, ≥ 1.
  public let denominator: Int64

  /// The fraction `numerator / denominator` in lowest terms; `nil` when the denominator is 0 or
  /// a value does not fit in 64 bits.
  public init?(numerator: Int64, denominator: Int64) {
    guard denominator != 0, numerator != .min, denominator != .min else { return nil }
    var n = numerator
    var d = denominator
    if d < 0 {
      n = -n
      d = -d
    }
    let g = Self.gcd(n.magnitude, d.magnitude)
    self.numerator = n / Int64(g)
    self.denominator = d / Int64(g)
  }

  /// The integer `value`.
  public init(_ value: Int64) {
    numerator = value
    denominator = 1
  }

  /// Reads a decimal number (`3`, `-0.05`, `2.5e-3`) or a fraction of two decimals (`1/60`,
  /// `0.5/3`); `nil` for anything else, including a zero denominator and values whose exact
  /// fraction does not fit in 64-bit integers.
  public init?(_ text: some StringProtocol) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    switch parts.count {
    case 1:
      guard let value = Self.decimal(parts[0]) else { return nil }
      self = value
    case 2:
      guard let p = Self.decimal(parts[0]), let q = Self.decimal(parts[1]), q.numerator != 0,
        let value = p.dividing(by: q)
      else { return nil }
      self = value
    default:
      return nil
    }
  }

  /// The `Double` nearest to the fraction (one correctly rounded division of two exactly
  /// representable integers); `nil` when the numerator or the denominator exceeds 2⁵³, where
  /// that guarantee ends.
  public var nearestDouble: Double? {
    let limit: UInt64 = 1 << 53
    guard numerator.magnitude <= limit, denominator.magnitude <= limit else { return nil }
    return Double(numerator) / Double(denominator)
  }

  /// `p/q`, or `p` when the denominator is 1.
  public var description: String { denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)" }

  /// Orders by value (exactly, by cross-multiplication in 128 bits).
  public static func < (a: ExactRational, b: ExactRational) -> Bool {
    let left = a.numerator.multipliedFullWidth(by: b.denominator)
    let right = b.numerator.multipliedFullWidth(by: a.denominator)
    return (left.high, left.low) < (right.high, right.low)
  }

  /// `self + other`; `nil` on 64-bit overflow.
  public func adding(_ other: ExactRational) -> ExactRational? {
    guard let a = Self.multiply(numerator, other.denominator), let b = Self.multiply(other.numerator, denominator),
      let d = Self.multiply(denominator, other.denominator)
    else { return nil }
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? nil : ExactRational(numerator: sum, denominator: d)
  }

  /// `self − other`; `nil` on 64-bit overflow.
  public func subtracting(_ other: ExactRational) -> ExactRational? {
    guard other.numerator != .min else { return nil }
    return adding(ExactRational(numerator: -other.numerator, denominator: other.denominator)!)
  }

  /// `self × k`; `nil` on 64-bit overflow.
  public func multiplied(by k: Int64) -> ExactRational? {
    guard let n = Self.multiply(numerator, k) else { return nil }
    return ExactRational(numerator: n, denominator: denominator)
  }

  /// `self / other`; `nil` when `other` is 0 or on 64-bit overflow.
  public func dividing(by other: ExactRational) -> ExactRational? {
    guard other.numerator != 0, let n = Self.multiply(numerator, other.denominator),
      let d = Self.multiply(denominator, other.numerator)
    else { return nil }
    return ExactRational(numerator: n, denominator: d)
  }

  /// `⌊self⌋`.
  public var floor: Int64 {
    let q = numerator / denominator
    return numerator % denominator < 0 ? q - 1 : q
  }

  private static func multiply(_ a: Int64, _ b: Int64) -> Int64? {
    let (product, overflow) = a.multipliedReportingOverflow(by: b)
    return overflow || product == .min ? nil : product
  }

  private static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
    var (x, y) = (a, b)
    while y != 0 { (x, y) = (y, x % y) }
    return Swift.max(x, 1)
  }

  /// `[+-]digits[.digits][(e|E)[+-]digits]` as an exact fraction.
  private static func decimal(_ text: some StringProtocol) -> ExactRational? {
    var bytes = Array(text.utf8)[...]
    guard !bytes.isEmpty else { return nil }
    var negative = false
    if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") {
      negative = bytes.first == UInt8(ascii: "-")
      bytes = bytes.dropFirst()
    }
    var mantissa: Int64 = 0
    var scale = 0  // value = mantissa × 10^scale
    var digits = 0
    var seenPoint = false
    while let c = bytes.first, c != UInt8(ascii: "e") && c != UInt8(ascii: "E") {
      bytes = bytes.dropFirst()
      if c == UInt8(ascii: ".") {
        guard !seenPoint else { return nil }
        seenPoint = true
        continue
      }
      guard c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") else { return nil }
      guard let m = multiply(mantissa, 10) else { return nil }
      let (sum, overflow) = m.addingReportingOverflow(Int64(c - UInt8(ascii: "0")))
      guard !overflow else { return nil }
      mantissa = sum
      digits += 1
      if seenPoint { scale -= 1 }
    }
    guard digits > 0 else { return nil }
    if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
      bytes = bytes.dropFirst()
      var exponentNegative = false
      if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") {
        exponentNegative = bytes.first == UInt8(ascii: "-")
        bytes = bytes.dropFirst()
      }
      guard !bytes.isEmpty, bytes.count <= 4 else { return nil }
      var exponent = 0
      for c in bytes {
        guard c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") else { return nil }
        exponent = exponent * 10 + Int(c - UInt8(ascii: "0"))
      }
      scale += exponentNegative ? -exponent : exponent
    }
    if negative { mantissa = -mantissa }
    guard mantissa != 0 else { return ExactRational(0) }
    var power: Int64 = 1
    for _ in 0..<abs(scale) {
      guard let p = multiply(power, 10) else { return nil }
      power = p
    }
    if scale >= 0 {
      guard let n = multiply(mantissa, power) else { return nil }
      return ExactRational(n)
    }
    return ExactRational(numerator: mantissa, denominator: power)
  }
}
