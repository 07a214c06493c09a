#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small, fast, seeded random number generator (SplitMix64), so randomized tests and
/// synthetic data replay exactly from their seed on every machine.
///
/// Not for cryptography. The sequence for a seed never changes; tests may rely on it.
///
/// ```swift
/// var rng = SplitMix64(seed: 42)
/// let x = Double.random(in: 0..<1, using: &rng)
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
  /// The generator's state: advanced by a fixed odd constant on every draw.
  public private(set) var state: UInt64

  /// Creates a generator whose sequence is determined by `seed`.
  public init(seed: UInt64) {
    state = seed
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

extension SplitMix64 {
  /// A draw from the normal distribution with mean 0 and standard deviation `sd` (Box–Muller).
  public mutating func normal(sd: Double) -> Double {
    let u1 = Double.random(in: Double.ulpOfOne..<1, using: &self)
    let u2 = Double.random(in: 0..<1, using: &self)
    return sd * (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
  }
}
