import TouchCore

/// The synthesizer's random numbers: TouchCore's `SplitMix64`, with every conversion to floating point
/// written out here, so a seed gives the same numbers on every platform and Swift version.
///
/// The standard library's `Double.random(in:using:)` and `shuffle(using:)` are not used: their
/// algorithms are not specified and could change between releases.
public struct SynthRandom: RandomNumberGenerator, Sendable {
  private var bits: SplitMix64

  /// A generator started from `seed`.
  public init(seed: UInt64) {
    bits = SplitMix64(seed: seed)
  }

  /// An independent generator for one `stream` of a seed (for example one trace), so that
  /// what one stream draws does not depend on how many numbers another stream drew.
  public init(seed: UInt64, stream: UInt64) {
    var mixer = SplitMix64(seed: seed ^ 0x6A09_E667_F3BC_C909)
    let a = mixer.next()
    var streamMixer = SplitMix64(seed: stream &* 0x9E37_79B9_7F4A_7C15 ^ a)
    bits = SplitMix64(seed: streamMixer.next() ^ mixer.next())
  }

  /// The next 64 random bits (TouchCore's `SplitMix64`).
  public mutating func next() -> UInt64 {
    bits.next()
  }

  /// A uniform number in [0, 1) with 53 random bits.
  public mutating func unit() -> Double {
    Double(next() >> 11) * 0x1p-53
  }

  /// A uniform number in [a, b).
  public mutating func uniform(_ a: Double, _ b: Double) -> Double {
    a + (b - a) * unit()
  }

  /// A uniform integer in 0..<n.
  /// - Precondition: n > 0.
  public mutating func integer(below n: Int) -> Int {
    precondition(n > 0, "the range must not be empty")
    // Lemire's multiply-shift with rejection: unbiased.
    let bound = UInt64(n)
    var product = next().multipliedFullWidth(by: bound)
    if product.low < bound {
      let threshold = (0 &- bound) % bound
      while product.low < threshold {
        product = next().multipliedFullWidth(by: bound)
      }
    }
    return Int(product.high)
  }

  /// A standard normal number (mean 0, standard deviation 1), by the Box–Muller transform.
  public mutating func normal() -> Double {
    let u1 = 1 - unit()  // (0, 1]
    let u2 = unit()
    return (-2 * SynthMath.log(u1)).squareRoot() * SynthMath.cos(SynthMath.twoPi * u2)
  }

  /// A normal number with the given mean and standard deviation, limited to mean ± 3 sd.
  public mutating func normal(mean: Double, sd: Double) -> Double {
    let z = Swift.min(Swift.max(normal(), -3), 3)
    return mean + sd * z
  }

  /// A log-normal factor e^(σ z), z standard normal limited to ±3: median 1.
  public mutating func logNormalFactor(sigma: Double) -> Double {
    SynthMath.exp(sigma * Swift.min(Swift.max(normal(), -3), 3))
  }

  /// Shuffles `array` in place (Fisher–Yates).
  public mutating func shuffle<Element>(_ array: inout [Element]) {
    guard array.count > 1 else { return }
    for i in stride(from: array.count - 1, to: 0, by: -1) {
      let j = integer(below: i + 1)
      if i != j { array.swapAt(i, j) }
    }
  }
}

/// FNV-1a, 64 bits: a stable hash of a string (Swift's `Hasher` is seeded per process).
func stableHash(_ text: String) -> UInt64 {
  FNV1a.hash(text.utf8)
}
