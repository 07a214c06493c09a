/// Scales and tick values of the plot toolkit (see `Plot`): a linear map from data to SVG
/// coordinates, and "nice" round tick values that cover a data range.
///
/// Everything is computed with the standard library only (no `Foundation`), so the same data
/// give the same bytes on every platform.

/// A linear map from a data interval (the domain) to an interval of SVG user units (the range).
///
/// `map(domainLower)` is `rangeLower` and `map(domainUpper)` is `rangeUpper`; a y scale usually
/// maps upwards data to downwards SVG coordinates, so its range runs from the bottom to the top.
struct LinearScale: Sendable, Hashable {
  /// The data value mapped to `rangeLower`, in the data's unit.
  var domainLower: Double
  /// The data value mapped to `rangeUpper`, in the data's unit.
  var domainUpper: Double
  /// The SVG coordinate of `domainLower`, user units (pixels at scale 1).
  var rangeLower: Double
  /// The SVG coordinate of `domainUpper`, user units.
  var rangeUpper: Double
  /// Whether the domain holds base-10 logarithms of the data: `map(x)` maps `log10(x)` linearly
  /// (and gives NaN for x ≤ 0, a point that is not drawn).
  var logarithmic = false

  /// The SVG coordinate of data value `x`; a zero-width domain maps everything to the middle
  /// of the range.
  func map(_ value: Double) -> Double {
    let x = logarithmic ? (value > 0 ? Logarithm.log10(value) : .nan) : value
    let width = domainUpper - domainLower
    guard width != 0 else { return (rangeLower + rangeUpper) / 2 }
    return rangeLower + (x - domainLower) / width * (rangeUpper - rangeLower)
  }

  /// The SVG coordinate of `x` clamped to the range (for values outside the domain).
  func clampedMap(_ x: Double) -> Double {
    let y = map(x)
    let low = min(rangeLower, rangeUpper)
    let high = max(rangeLower, rangeUpper)
    return min(max(y, low), high)
  }
}

/// Round tick values covering a data range: a step of 1, 2 or 5 times a power of ten, chosen so
/// that about `count` steps cover the range, and the range widened outwards to whole steps.
///
/// For the range 0…0.87 and 5 ticks: the raw step 0.174 lies between 0.1 and 1; 1.74 rounds up to
/// 2, so the step is 0.2 and the ticks are 0, 0.2, 0.4, 0.6, 0.8, 1.0.
struct NiceTicks: Sendable, Hashable {
  /// The distance between ticks, data units: 1, 2 or 5 × 10^k.
  let step: Double
  /// The first tick (at or below the range's lower end), data units.
  let lower: Double
  /// The last tick (at or above the range's upper end), data units.
  let upper: Double
  /// The tick values from `lower` to `upper`, ascending.
  let values: [Double]
  /// The decimals a label needs to show the step exactly (0 for steps ≥ 1).
  let decimals: Int

  /// Ticks covering `low…high` with about `count` steps (at least 1).
  ///
  /// A zero-width range is widened to ±0.5 around 0, or ±10 % of the value; non-finite ends, or
  /// a width beyond the largest Double, are replaced by 0…1.
  init(from low: Double, to high: Double, count: Int = 5) {
    var a = min(low, high)
    var b = max(low, high)
    if !a.isFinite || !b.isFinite { (a, b) = (0, 1) }
    if a == b {
      let pad = a == 0 ? 0.5 : abs(a) / 10
      (a, b) = (a - pad, b + pad)
    }
    // A range too wide for a Double (−1e308…1e308) falls back to 0…1 rather than looping.
    if !(b - a).isFinite { (a, b) = (0, 1) }
    let raw = (b - a) / Double(max(count, 1))
    // The power of ten at or below the raw step, and its exponent.
    var magnitude = 1.0
    var exponent = 0
    while magnitude > raw {
      magnitude /= 10
      exponent -= 1
    }
    while magnitude * 10 <= raw {
      magnitude *= 10
      exponent += 1
    }
    let residual = raw / magnitude
    let factor: Double = residual <= 1 ? 1 : residual <= 2 ? 2 : residual <= 5 ? 5 : 10
    if factor == 10 { exponent += 1 }
    let step = factor * magnitude
    // Ticks as whole multiples of the step, so no error accumulates across them.
    let first = (a / step).rounded(.down)
    let last = (b / step).rounded(.up)
    // Multiples of the step written through its power of ten (0.2 = 2 / 10), so 3 × 0.2 gives
    // 0.6 exactly as typed and not 0.6000000000000001.
    let unit = factor == 10 ? 1.0 : factor
    func tick(_ k: Double) -> Double {
      exponent >= 0 ? k * unit * Self.power(exponent) : k * unit / Self.power(-exponent)
    }
    self.step = step
    self.lower = tick(first)
    self.upper = tick(last)
    self.values = stride(from: first, through: last, by: 1).map(tick)
    self.decimals = max(0, -exponent)
  }

  /// 10^n for n ≥ 0, exact up to 10^22.
  static func power(_ n: Int) -> Double {
    var p = 1.0
    for _ in 0..<n { p *= 10 }
    return p
  }

  /// The label of tick `value`: the value with ``decimals`` decimals (`0.20` never, `0.2`).
  func label(_ value: Double) -> String {
    let text = TextFormat.decimal(value, decimals)
    return text == "-0" ? "0" : text
  }
}

/// Tick values of a logarithmic axis: every power of ten from the one at or below the lowest
/// value to the one at or above the highest; over fewer than three decades, also 2 and 5 times
/// each power (1, 2, 5, 10, 20, 50, …).
struct LogTicks: Sendable, Hashable {
  /// The lowest power of ten (at or below the data), data units.
  let lower: Double
  /// The highest power of ten (at or above the data), data units.
  let upper: Double
  /// The tick values, ascending, within `lower…upper`.
  let values: [Double]

  /// Ticks covering `low…high` (both > 0).
  /// - Precondition: 0 < low ≤ high, both finite.
  init(from low: Double, to high: Double) {
    precondition(low > 0 && high >= low && high.isFinite, "a logarithmic axis needs positive finite values")
    var first = 0
    while NiceTicks.power(abs(first)).inverted(if: first < 0) > low { first -= 1 }
    while NiceTicks.power(abs(first + 1)).inverted(if: first + 1 < 0) <= low { first += 1 }
    var last = first
    while NiceTicks.power(abs(last)).inverted(if: last < 0) < high { last += 1 }
    func decade(_ k: Int) -> Double { NiceTicks.power(abs(k)).inverted(if: k < 0) }
    lower = decade(first)
    upper = decade(last)
    var values: [Double] = []
    let factors: [Double] = last - first < 3 ? [1, 2, 5] : [1]
    for k in first...last {
      for f in factors {
        // 2 × 10^-1 written as 2 / 10, so the value is the decimal as typed.
        let value = k < 0 ? f / NiceTicks.power(-k) : f * NiceTicks.power(k)
        if value <= upper { values.append(value) }
      }
    }
    self.values = values
  }

  /// The label of tick `value`: its shortest decimal (`0.05`, `2`, `100`).
  func label(_ value: Double) -> String { TextFormat.compact(value) }
}

extension Double {
  /// 1 / self when `condition`, else self.
  fileprivate func inverted(if condition: Bool) -> Double { condition ? 1 / self : self }
}

/// Logarithms with the standard library only: the same bits on every platform.
enum Logarithm {
  /// ln 2.
  static let ln2 = 0.693147180559945309417232121458176568
  /// ln 10.
  static let ln10 = 2.302585092994045684017991454684364208

  /// The natural logarithm of `x` > 0: x = m · 2^e with m in [1, 2), ln m = 2 atanh((m − 1)/(m + 1))
  /// by its series (|z| ≤ 1/3, so 40 terms are far below a unit in the last place).
  static func ln(_ x: Double) -> Double {
    guard x > 0, x.isFinite else { return x == 0 ? -.infinity : .nan }
    let e = Double(x.exponent)
    let m = x.significand
    let z = (m - 1) / (m + 1)
    let z2 = z * z
    var term = z
    var sum = 0.0
    for k in 0..<40 {
      sum += term / Double(2 * k + 1)
      term *= z2
    }
    return e * ln2 + 2 * sum
  }

  /// The base-10 logarithm of `x` > 0; exact for powers of ten up to 10^±22.
  static func log10(_ x: Double) -> Double {
    // Exact powers of ten first, so decade ticks sit exactly on their gridlines.
    var p = 1.0
    for k in 0...22 {
      if x == p { return Double(k) }
      if x == 1 / p { return -Double(k) }
      p *= 10
    }
    return ln(x) / ln10
  }
}
