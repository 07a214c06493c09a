/// Elementary functions written with IEEE arithmetic only, so the synthesizer gives the same bits
/// on every platform (the C library's `exp`, `log` and `sin` may differ in the last place between
/// systems, and the standard library has none of them).
///
/// Accuracy: a few units in the last place over the ranges the synthesizer uses (|x| ≤ 700 for
/// ``exp(_:)``, positive finite x for ``log(_:)``, |x| ≤ 1e5 for ``sin(_:)`` and ``cos(_:)``).
enum SynthMath {
  static let pi = 3.141592653589793
  static let twoPi = 6.283185307179586

  // ln 2 split so that k * ln2Hi is exact for |k| < 2^11.
  private static let ln2Hi = 6.93147180369123816490e-01
  private static let ln2Lo = 1.90821492927058770002e-10
  private static let ln2 = 0.6931471805599453

  /// e^x.
  static func exp(_ x: Double) -> Double {
    if x.isNaN { return x }
    if x > 709.78 { return .infinity }
    if x < -745.2 { return 0 }
    let k = (x / ln2).rounded()
    let r = (x - k * ln2Hi) - k * ln2Lo  // |r| ≤ ln 2 / 2
    // Taylor series of e^r to r^16 (remainder below 1e-19 for |r| ≤ 0.347), Horner form.
    var p = 1.0
    var n = 16.0
    while n >= 1 {
      p = 1 + r * p / n
      n -= 1
    }
    return scale(p, byPowerOfTwo: Int(exactly: k) ?? 0)  // |k| ≤ 1076 after the range checks
  }

  /// The natural logarithm of a positive number; NaN for negative input, −∞ for 0.
  static func log(_ x: Double) -> Double {
    if x.isNaN || x < 0 { return .nan }
    if x == 0 { return -.infinity }
    if x.isInfinite { return x }
    var e = Int(x.exponent)
    var m = x.significand  // [1, 2)
    if m > 1.4142135623730951 {
      m /= 2
      e += 1
    }
    // log m = 2 atanh(s), s = (m − 1)/(m + 1), |s| ≤ 0.1716.
    let s = (m - 1) / (m + 1)
    let s2 = s * s
    var sum = 0.0
    var k = 25.0
    while k >= 3 {
      sum = s2 * (1 / k + sum)
      k -= 2
    }
    let logM = 2 * s * (1 + sum)
    let fe = Double(e)
    return fe * ln2Hi + (logM + fe * ln2Lo)
  }

  /// x^y for x > 0 (e^(y log x)); 0 for x = 0 and y > 0.
  static func pow(_ x: Double, _ y: Double) -> Double {
    if x == 0 { return y > 0 ? 0 : .infinity }
    return exp(y * log(x))
  }

  /// sin x.
  static func sin(_ x: Double) -> Double {
    let (r, quadrant) = reduce(x)
    switch quadrant & 3 {
    case 0: return sinKernel(r)
    case 1: return cosKernel(r)
    case 2: return -sinKernel(r)
    default: return -cosKernel(r)
    }
  }

  /// cos x.
  static func cos(_ x: Double) -> Double {
    let (r, quadrant) = reduce(x)
    switch quadrant & 3 {
    case 0: return cosKernel(r)
    case 1: return -sinKernel(r)
    case 2: return -cosKernel(r)
    default: return sinKernel(r)
    }
  }

  // π/2 in three parts (Cody–Waite): the first two have trailing zero bits so k * part is exact.
  private static let halfPi1 = 1.57079632673412561417e+00
  private static let halfPi2 = 6.07710050650619224932e-11
  private static let halfPi3 = 2.02226624879595063154e-21

  /// x = r + k π/2 with |r| ≤ π/4.
  /// Beyond |x| = 2⁵² and for NaN or infinities the reduction means nothing: (NaN, 0).
  private static func reduce(_ x: Double) -> (Double, Int) {
    let k = (x / (pi / 2)).rounded()
    guard abs(k) < 0x1p52, let quadrant = Int(exactly: k) else { return (.nan, 0) }
    let r = ((x - k * halfPi1) - k * halfPi2) - k * halfPi3
    return (r, quadrant)
  }

  /// Taylor series of sin r to r^21 in Horner form, |r| ≤ π/4:
  /// sin r = r (1 − r²/(2·3) (1 − r²/(4·5) (1 − …))).
  private static func sinKernel(_ r: Double) -> Double {
    r * alternatingSeries(r * r, from: 21)
  }

  /// Taylor series of cos r to r^20 in Horner form, |r| ≤ π/4:
  /// cos r = 1 − r²/(1·2) (1 − r²/(3·4) (1 − …)).
  private static func cosKernel(_ r: Double) -> Double {
    alternatingSeries(r * r, from: 20)
  }

  /// The Horner form both kernels share, `1 − r²/((m−1)·m) (1 − r²/((m+1)(m+2)) (1 − … (1 −
  /// r²/((n−1)·n))))` for `m` = 2 (cosine, even `n`) or 3 (sine, odd `n`), evaluated from the
  /// innermost term `n` outwards.
  private static func alternatingSeries(_ r2: Double, from n: Double) -> Double {
    var t = 1.0
    var n = n
    while n >= 2 {
      t = 1 - r2 / (n * (n - 1)) * t
      n -= 2
    }
    return t
  }

  /// value · 2^k, exact while the result is a normal number.
  private static func scale(_ value: Double, byPowerOfTwo k: Int) -> Double {
    var result = value
    var k = k
    // Steps of at most 2^±1000 keep every factor representable.
    while k > 1000 {
      result *= Double(sign: .plus, exponent: 1000, significand: 1)
      k -= 1000
    }
    while k < -1000 {
      result *= Double(sign: .plus, exponent: -1000, significand: 1)
      k += 1000
    }
    return result * Double(sign: .plus, exponent: k, significand: 1)
  }
}
