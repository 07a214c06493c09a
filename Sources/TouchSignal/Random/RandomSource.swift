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
/// GSL seeds it with the 32-bit seed as given, except that seed 0 is replaced by GSL's default
/// seed 4357 (so seeds 0 and 4357 give the same stream).
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
  public let seed: UInt32
  private let generator: UnsafeMutablePointer<gsl_rng>

  /// Allocates an MT19937 generator and seeds it.
  ///
  /// - Parameter seed: the seed (0 behaves like 4357, GSL's default seed).
  /// - Throws: ``GSLError`` when `gsl_rng_alloc` returns NULL.
  public init(seed: UInt32) throws(GSLError) {
    GSL.prepare()
    guard let generator = gsl_rng_alloc(cgsl_rng_mt19937()) else {
      throw GSL.allocationFailed("gsl_rng_alloc")
    }
    gsl_rng_set(generator, UInt(seed))
    self.seed = seed
    self.generator = generator
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
