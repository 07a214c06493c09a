public import TouchCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small, fast, seeded random number generator, so randomized tests and synthetic data replay
/// exactly from their seed on every machine: TouchCore's ``TouchCore/SplitMix64``, named here so
/// that tests need only this module.
///
/// ```swift
/// var rng = SplitMix64(seed: 42)
/// let x = Double.random(in: 0..<1, using: &rng)
/// ```
public typealias SplitMix64 = TouchCore.SplitMix64

extension SplitMix64 {
  /// A draw from the normal distribution with mean 0 and standard deviation `sd` (Box–Muller).
  public mutating func normal(sd: Double) -> Double {
    let u1 = Double.random(in: Double.ulpOfOne..<1, using: &self)
    let u2 = Double.random(in: 0..<1, using: &self)
    return sd * (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
  }
}
