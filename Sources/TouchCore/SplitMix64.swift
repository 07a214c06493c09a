/// SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators", OOPSLA
/// 2014): 64 random bits per draw from a seed, the same stream on every platform and Swift version.
///
/// The one implementation of the generator in the project: the synthesizer draws from it, and so do
/// the capture page's prompt order, the shard hash (its finalizer, ``mix(_:)``), the test support
/// and the benchmarks' data. Not for cryptography. The sequence for a seed never
/// changes; tests and committed samples rely on it.
///
/// ```swift
/// var rng = SplitMix64(seed: 42)
/// let bits = rng.next()
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
  /// The generator's state: advanced by a fixed odd constant on every draw.
  @usableFromInline var state: UInt64

  /// Creates a generator whose sequence is determined by `seed`.
  @inlinable
  public init(seed: UInt64) {
    state = seed
  }

  /// The next 64 random bits.
  @inlinable
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    return Self.mix(state)
  }

  /// The generator's finalizer: 64 well-mixed bits from `z`, a bijection (so distinct inputs
  /// stay distinct). Used alone to spread a hash's bits, as the shard assignment does.
  @inlinable
  public static func mix(_ z: UInt64) -> UInt64 {
    var z = z
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
