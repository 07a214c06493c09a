import Testing
import TouchSignal

/// `RandomSource` and the distributions against `Fixtures/random.json`, written by
/// `Scripts/make-tuning-fixtures.py` from NumPy's MT19937 (seeded as GSL seeds it, with GSL's
/// integer rules written out in Python; seeds of 2³² or more through `init_by_array`) and SciPy's
/// distributions.
@Suite("Random numbers and distributions")
struct RandomAndDistributionTests {
  struct RandomCase: Decodable {
    var seed: UInt64
    var uniform: [Double]
    var uniform_int: [String: [Int]]
    var sample: [Int]
    var shuffle: [Int]
  }
  struct BinomialCase: Decodable {
    var k: Int
    var n: Int
    var p: Double
    var cdf: Double
    var sf: Double
  }
  struct ChiSquareCase: Decodable {
    var x: Double
    var dof: Double
    var cdf: Double
    var sf: Double
  }
  struct Document: Decodable {
    var mt19937: [RandomCase]
    var binomial: [BinomialCase]
    var chisquare: [ChiSquareCase]
  }

  @Test func theStreamMatchesNumPysMersenneTwisterWithGSLsRules() throws {
    let document = try Fixture.load("random.json", as: Document.self)
    #expect(document.mt19937.count == 8)
    for c in document.mt19937 {
      // One stream per seed, drawn in the fixture's order: uniforms, integers by range, a sample,
      // a shuffle.
      var random = try RandomSource(seed: c.seed)
      #expect(random.seed == c.seed)
      #expect((0..<5).map { _ in random.uniform() } == c.uniform, "seed \(c.seed)")
      for n in [1, 2, 7, 343, 1_000_003] {
        #expect(
          (0..<6).map { _ in random.uniformInteger(below: n) } == c.uniform_int[String(n)], "seed \(c.seed), n \(n)")
      }
      #expect(random.sample(count: 12, withReplacementFrom: 343) == c.sample, "seed \(c.seed)")
      var values = Array(0..<10)
      random.shuffle(&values)
      #expect(values == c.shuffle, "seed \(c.seed)")
    }
  }

  @Test func seedZeroIsGSLsDefaultSeed() throws {
    var zero = try RandomSource(seed: 0)
    var standard = try RandomSource(seed: 4357)
    #expect((0..<10).map { _ in zero.uniform() } == (0..<10).map { _ in standard.uniform() })
  }

  @Test func samplesAreWithReplacementAndInRange() throws {
    var random = try RandomSource(seed: 7)
    let drawn = random.sample(count: 2000, withReplacementFrom: 10)
    #expect(drawn.allSatisfy { (0..<10).contains($0) })
    #expect(Set(drawn).count == 10)  // every value appears in 2000 draws (P(miss) ≈ 10 · 0.9^2000)
    #expect(random.sample(count: 0, withReplacementFrom: 5).isEmpty)
    var one = [4]
    random.shuffle(&one)
    #expect(one == [4])
  }

  @Test func binomialTailsMatchSciPy() throws {
    let document = try Fixture.load("random.json", as: Document.self)
    for c in document.binomial {
      let distribution = try BinomialDistribution(trials: c.n, probability: c.p)
      let cdf = try distribution.probability(atMost: c.k)
      let sf = try distribution.probability(above: c.k)
      #expect(abs(cdf - c.cdf) <= 1e-12 * max(c.cdf, 1e-300) + 1e-300, "P(X ≤ \(c.k)) for n \(c.n), p \(c.p)")
      #expect(abs(sf - c.sf) <= 1e-10 * max(c.sf, 1e-300) + 1e-300, "P(X > \(c.k)) for n \(c.n), p \(c.p)")
    }
    // Hand-computed: P(X ≤ 3) for Binomial(12, ½) = (1 + 12 + 66 + 220) / 4096 (GSL goes through
    // the incomplete beta function, so it agrees to rounding, not bit for bit).
    #expect(abs(try BinomialDistribution(trials: 12, probability: 0.5).probability(atMost: 3) - 299.0 / 4096) < 1e-15)
    let fair = try BinomialDistribution(trials: 5, probability: 0.5)
    #expect(try fair.probability(atMost: -1) == 0 && fair.probability(atMost: 5) == 1)
    #expect(try fair.probability(above: -1) == 1 && fair.probability(above: 5) == 0)
  }

  @Test func chiSquareTailsMatchSciPy() throws {
    let document = try Fixture.load("random.json", as: Document.self)
    for c in document.chisquare {
      let distribution = try ChiSquareDistribution(degreesOfFreedom: c.dof)
      #expect(abs(try distribution.probability(atMost: c.x) - c.cdf) <= 1e-12 + 1e-10 * c.cdf, "cdf(\(c.x), \(c.dof))")
      #expect(abs(try distribution.probability(above: c.x) - c.sf) <= 1e-12 + 1e-10 * c.sf, "sf(\(c.x), \(c.dof))")
    }
    let one = try ChiSquareDistribution(degreesOfFreedom: 1)
    #expect(try one.probability(above: 0) == 1 && one.probability(atMost: -2) == 0)
  }

  @Test func invalidArgumentsAreTypedErrors() {
    let trials = #expect(throws: GSLError.self) { _ = try BinomialDistribution(trials: -1, probability: 0.5) }
    #expect(trials?.status == 1 && trials?.function == "gsl_cdf_binomial_P")
    let probability = #expect(throws: GSLError.self) { _ = try BinomialDistribution(trials: 3, probability: 1.5) }
    #expect(probability?.reason == "probability must be in 0...1, got 1.5")
    #expect(throws: GSLError.self) { _ = try ChiSquareDistribution(degreesOfFreedom: 0) }
    #expect(throws: GSLError.self) { _ = try ChiSquareDistribution(degreesOfFreedom: 1).probability(above: .nan) }
  }
}
