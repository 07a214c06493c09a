internal import CGSL

/// A seeded stream of pseudo-random numbers from GSL's Mersenne Twister (`gsl_rng_mt19937`),
/// for resampling and shuffling that replays exactly from its seed.
///
/// It owns one `gsl_rng`, freed when the value goes away. A GSL generator holds state and must
/// not be shared between threads, so the type is `~Copyable` and not `Sendable`: one owner on one
/// thread; pass it `inout` to the code that draws. To keep results independent of the thread
/// count, draw on one thread in a fixed order and hand the drawn indices to parallel work.
///
/// MT19937 is specified exactly, so a seed gives the same numbers on every platform GSL runs on.
/// A seed below 2³² seeds it as GSL does (`gsl_rng_set`: the reference `init_genrand`, except
/// that seed 0 is replaced by GSL's default seed 4357, so seeds 0 and 4357 give the same stream).
/// GSL keeps only 32 bits of a seed, so a larger seed is given to the reference `init_by_array`
/// as the key [low 32 bits, high 32 bits] (the state NumPy's `MT19937` legacy seeding makes from
/// that array), written into the generator's state: every seed in 0 … 2⁶⁴ − 1 has its own stream.
///
/// ```swift
/// var random = try RandomSource(seed: 1)
/// let resample = random.sample(count: 5, withReplacementFrom: 10)   // e.g. [4, 1, 9, 4, 0]
/// ```
///
/// The corresponding C functions are `gsl_rng_alloc`, `gsl_rng_set`, `gsl_rng_uniform`,
/// `gsl_rng_uniform_int`, `gsl_ran_sample`, `gsl_ran_shuffle` and `gsl_rng_free`.
public struct RandomSource: ~Copyable {
  /// The seed the generator started from.
  public let seed: UInt64
  private let generator: UnsafeMutablePointer<gsl_rng>

  /// Allocates an MT19937 generator and seeds it.
  ///
  /// - Parameter seed: the seed, 0 … 2⁶⁴ − 1 (0 behaves like 4357, GSL's default seed).
  /// - Throws: ``GSLError`` when `gsl_rng_alloc` returns NULL, or when GSL's MT19937 state is
  ///   not laid out as 624 words and an index (a GSL this type does not know) for a seed of 2³²
  ///   or more.
  public init(seed: UInt64) throws(GSLError) {
    GSL.prepare()
    guard let generator = gsl_rng_alloc(cgsl_rng_mt19937()) else {
      throw GSL.allocationFailed("gsl_rng_alloc")
    }
    if let small = UInt32(exactly: seed) {
      gsl_rng_set(generator, UInt(small))
    } else {
      let n = Self.stateWords
      guard gsl_rng_size(generator) == n * MemoryLayout<UInt>.stride + MemoryLayout<UInt>.stride,
        let state = gsl_rng_state(generator)
      else {
        gsl_rng_free(generator)
        throw GSLError(status: Int32(GSL_EINVAL), function: "gsl_rng_state", reason: "unexpected mt19937 state size")
      }
      let words = Self.initByArray([UInt32(truncatingIfNeeded: seed), UInt32(truncatingIfNeeded: seed >> 32)])
      let mt = state.bindMemory(to: UInt.self, capacity: n)
      for i in 0..<n { mt[i] = UInt(words[i]) }
      // `mti = N`: the next draw regenerates the whole block, as after GSL's own seeding.
      (state + n * MemoryLayout<UInt>.stride).bindMemory(to: Int32.self, capacity: 1).pointee = Int32(n)
    }
    self.seed = seed
    self.generator = generator
  }

  /// MT19937's state length in 32-bit words.
  static let stateWords = 624

  /// The state the reference MT19937 `init_by_array` makes from `key` (Matsumoto and Nishimura,
  /// 2002 revision).
  static func initByArray(_ key: [UInt32]) -> [UInt32] {
    let n = stateWords
    var mt = [UInt32](repeating: 0, count: n)
    mt[0] = 19_650_218
    for i in 1..<n { mt[i] = 1_812_433_253 &* (mt[i - 1] ^ (mt[i - 1] >> 30)) &+ UInt32(i) }
    var i = 1
    var j = 0
    for _ in 0..<max(n, key.count) {
      mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) &* 1_664_525)) &+ key[j] &+ UInt32(j)
      i += 1
      j += 1
      if i >= n {
        mt[0] = mt[n - 1]
        i = 1
      }
      if j >= key.count { j = 0 }
    }
    for _ in 0..<(n - 1) {
      mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) &* 1_566_083_941)) &- UInt32(i)
      i += 1
      if i >= n {
        mt[0] = mt[n - 1]
        i = 1
      }
    }
    mt[0] = 0x8000_0000
    return mt
  }

  deinit { gsl_rng_free(generator) }

  /// The largest count ``uniformInteger(below:)`` and the sampling functions accept: 2³² − 1
  /// (GSL rejects larger ranges for MT19937).
  public static let maximumRange = Int(UInt32.max)

  /// A uniform double in [0, 1) (`gsl_rng_uniform`).
  public mutating func uniform() -> Double {
    gsl_rng_uniform(generator)
  }

  /// A uniform integer in `0 ..< n`, without modulo bias (`gsl_rng_uniform_int`).
  ///
  /// - Precondition: `1 <= n <= RandomSource.maximumRange`.
  public mutating func uniformInteger(below n: Int) -> Int {
    precondition(n >= 1 && n <= Self.maximumRange, "the range must hold 1...4294967295 values, got \(n)")
    return Int(gsl_rng_uniform_int(generator, UInt(n)))
  }

  /// `count` indices drawn uniformly **with replacement** from `0 ..< n` (`gsl_ran_sample`): a
  /// bootstrap resample of `n` items when `count == n`.
  ///
  /// - Precondition: `count >= 0`; `1 <= n <= RandomSource.maximumRange`.
  public mutating func sample(count: Int, withReplacementFrom n: Int) -> [Int] {
    precondition(count >= 0, "the sample size must not be negative, got \(count)")
    precondition(n >= 1 && n <= Self.maximumRange, "the population must hold 1...4294967295 items, got \(n)")
    guard count > 0 else { return [] }
    var source = Array(0..<n)
    var drawn = [Int](repeating: 0, count: count)
    let generator = self.generator
    source.withUnsafeMutableBytes { src in
      drawn.withUnsafeMutableBytes { dest in
        gsl_ran_sample(generator, dest.baseAddress, count, src.baseAddress, n, MemoryLayout<Int>.stride)
      }
    }
    return drawn
  }

  /// Puts `values` in a uniformly random order (`gsl_ran_shuffle`, a Fisher–Yates shuffle).
  public mutating func shuffle(_ values: inout [Int]) {
    guard values.count > 1 else { return }
    precondition(values.count <= Self.maximumRange, "too many values to shuffle")
    let generator = self.generator
    values.withUnsafeMutableBytes { base in
      gsl_ran_shuffle(generator, base.baseAddress, base.count / MemoryLayout<Int>.stride, MemoryLayout<Int>.stride)
    }
  }
}
