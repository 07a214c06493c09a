import Testing

@testable import TouchSynth

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite struct SynthMathTests {
  /// |a − b| relative to |b|, with an absolute floor for values near 0.
  func relativeError(_ a: Double, _ b: Double) -> Double {
    abs(a - b) / max(abs(b), 1e-300)
  }

  @Test func expMatchesTheCLibrary() {
    var worst = 0.0
    var x = -700.0
    while x <= 700 {
      worst = max(worst, relativeError(SynthMath.exp(x), Glibc.exp(x)))
      x += 0.37
    }
    for x in [-1e-10, 0, 1e-10, 0.5, 1, -1, 0.3465, -0.3466, 10.5] {
      worst = max(worst, relativeError(SynthMath.exp(x), Glibc.exp(x)))
    }
    #expect(worst < 4e-16 * 8, "worst relative error \(worst)")
    #expect(SynthMath.exp(0) == 1)
    #expect(SynthMath.exp(800) == .infinity)
    #expect(SynthMath.exp(-800) == 0)
  }

  @Test func logMatchesTheCLibrary() {
    var worst = 0.0
    var x = 1e-300
    while x < 1e300 {
      worst = max(worst, relativeError(SynthMath.log(x), Glibc.log(x)))
      x *= 3.7
    }
    for x in [0.5, 0.9999999, 1.0000001, 1.5, 2, 2.718281828459045, 1.4142135623730951, 1.4142135623730954] {
      worst = max(worst, abs(SynthMath.log(x) - Glibc.log(x)) / max(abs(Glibc.log(x)), 1e-7))
    }
    #expect(worst < 1e-15, "worst relative error \(worst)")
    #expect(SynthMath.log(1) == 0)
    #expect(SynthMath.log(0) == -.infinity)
    #expect(SynthMath.log(-1).isNaN)
  }

  @Test func sineAndCosineMatchTheCLibrary() {
    var worst = 0.0
    var x = -1000.0
    while x <= 1000 {
      worst = max(worst, abs(SynthMath.sin(x) - Glibc.sin(x)))
      worst = max(worst, abs(SynthMath.cos(x) - Glibc.cos(x)))
      x += 0.0731
    }
    #expect(worst < 1e-15, "worst absolute error \(worst)")
    #expect(SynthMath.sin(0) == 0)
    #expect(SynthMath.cos(0) == 1)
    #expect(abs(SynthMath.sin(SynthMath.pi / 6) - 0.5) < 1e-16)
  }

  @Test func power() {
    #expect(abs(SynthMath.pow(2, 10) - 1024) < 1e-12)
    #expect(abs(SynthMath.pow(8, 2.0 / 3.0) - 4) < 1e-14)
    #expect(SynthMath.pow(0, 2) == 0)
  }
}

@Suite struct SynthRandomTests {
  @Test func splitMix64ReferenceOutputs() {
    // The published SplitMix64 sequence (Vigna's splitmix64.c) for state 0, and for 1234567
    // (computed with an independent Python transcription of the algorithm).
    var zero = SynthRandom(seed: 0)
    #expect(
      [zero.next(), zero.next(), zero.next()] == [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F])
    var other = SynthRandom(seed: 1_234_567)
    #expect(
      [other.next(), other.next(), other.next()] == [
        0x599E_D017_FB08_FC85, 0x2C73_F084_5854_0FA5, 0x883E_BCE5_A3F2_7C77,
      ])
  }

  @Test func unitNumbersAreUniform() {
    var rng = SynthRandom(seed: 42)
    let n = 100_000
    var sum = 0.0
    var sumSquares = 0.0
    var bins = [Int](repeating: 0, count: 10)
    for _ in 0..<n {
      let u = rng.unit()
      #expect(u >= 0 && u < 1)
      sum += u
      sumSquares += u * u
      bins[Int(u * 10)] += 1
    }
    // Mean 1/2 and variance 1/12, within about 5 standard errors.
    #expect(abs(sum / Double(n) - 0.5) < 5 * (1.0 / 12 / Double(n)).squareRoot())
    #expect(abs(sumSquares / Double(n) - sum * sum / Double(n * n) - 1.0 / 12) < 0.002)
    // Each decile holds 10 % ± 5 sd (sd = √(n·0.1·0.9) = 95).
    #expect(bins.allSatisfy { abs($0 - n / 10) < 475 })
  }

  @Test func normalNumbers() {
    var rng = SynthRandom(seed: 7)
    let n = 100_000
    var values: [Double] = []
    for _ in 0..<n { values.append(rng.normal()) }
    let mean = values.reduce(0, +) / Double(n)
    let variance = values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(n - 1)
    #expect(abs(mean) < 0.016)
    #expect(abs(variance - 1) < 0.02)
    // P(|z| < 1) = 0.6827.
    let inside = Double(values.filter { abs($0) < 1 }.count) / Double(n)
    #expect(abs(inside - 0.6827) < 0.01)
    var limited = SynthRandom(seed: 8)
    for _ in 0..<10_000 { #expect(abs(limited.normal(mean: 5, sd: 2) - 5) <= 6) }
  }

  @Test func integersAndShuffles() {
    var rng = SynthRandom(seed: 3)
    var seen = Set<Int>()
    for _ in 0..<1000 {
      let k = rng.integer(below: 7)
      #expect((0..<7).contains(k))
      seen.insert(k)
    }
    #expect(seen.count == 7)
    var items = Array(0..<50)
    rng.shuffle(&items)
    #expect(items.sorted() == Array(0..<50))
    #expect(items != Array(0..<50))
  }

  @Test func streamsAreIndependentAndRepeatable() {
    var a = SynthRandom(seed: 9, stream: 1)
    var b = SynthRandom(seed: 9, stream: 2)
    var c = SynthRandom(seed: 9, stream: 1)
    var d = SynthRandom(seed: 10, stream: 1)
    let xa = (0..<4).map { _ in a.next() }
    #expect(xa == (0..<4).map { _ in c.next() })
    #expect(xa != (0..<4).map { _ in b.next() })
    #expect(xa != (0..<4).map { _ in d.next() })
  }

  @Test func stableHashIsFNV1a() {
    // FNV-1a 64 reference values: "" → offset basis, "a" → 0xaf63dc4c8601ec8c.
    #expect(stableHash("") == 0xCBF2_9CE4_8422_2325)
    #expect(stableHash("a") == 0xAF63_DC4C_8601_EC8C)
  }
}
