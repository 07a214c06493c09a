import Foundation
import Testing
import TouchEvaluation

/// ``ProportionInterval/wilson(_:of:)`` against SciPy's
/// `binomtest(k, n).proportion_ci(method="wilson")` (`Scripts/make-interval-fixtures.py`).
@Suite("Wilson score intervals against SciPy")
struct ProportionIntervalTests {
  struct Fixture: Decodable {
    struct Pair: Decodable {
      var k, n: Int
      var low, high: Double
    }
    var pairs: [Pair]
  }

  @Test func wilsonMatchesSciPy() throws {
    let url = try #require(
      Bundle.module.url(forResource: "wilson-pairs", withExtension: "json", subdirectory: "Fixtures"))
    let fixture = try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
    #expect(fixture.pairs.count > 60)
    for pair in fixture.pairs {
      let interval = try #require(ProportionInterval.wilson(pair.k, of: pair.n))
      #expect(abs(interval.low - pair.low) <= 1e-9, "\(pair.k)/\(pair.n) low")
      #expect(abs(interval.high - pair.high) <= 1e-9, "\(pair.k)/\(pair.n) high")
    }
  }

  /// Hand-computed: 6/6 gives centre (6 + z²/2)/(6 + z²), half-width z/(6 + z²)·√(z²/4).
  @Test func edgesAreExactAndUndefinedIsNil() throws {
    #expect(ProportionInterval.wilson(0, of: 0) == nil)
    let z = 1.959963984540054
    let six = try #require(ProportionInterval.wilson(6, of: 6))
    #expect(six.high == 1)
    #expect(abs(six.low - (6 / (6 + z * z))) < 1e-15)
    #expect(try #require(ProportionInterval.wilson(0, of: 6)).low == 0)
  }
}

/// ``RateInterval/poisson(_:exposure:)`` against SciPy: `chi2.ppf(0.025, 2k) / 2 / exposure` and
/// `chi2.ppf(0.975, 2k + 2) / 2 / exposure`, the exact (Garwood) interval, values printed by
/// SciPy 1.x and written here.
@Suite("Poisson rate interval")
struct RateIntervalTests {
  @Test(arguments: [
    (0, 1.0, 0.0, 3.6888794541139354),
    (2, 1.0, 0.24220927854396496, 7.22468766772396),
    (5, 2.5, 0.6493945560473683, 4.667332831729068),
    (163, 62.19, 2.234073672439906, 3.055685979362141),
  ])
  func matchesSciPy(_ events: Int, _ exposure: Double, _ low: Double, _ high: Double) throws {
    let interval = try #require(try RateInterval.poisson(events, exposure: exposure))
    #expect(abs(interval.low - low) <= 1e-9 * max(1, low))
    #expect(abs(interval.high - high) <= 1e-9 * high)
    // k = 0: the upper end is −ln(0.025) exactly, in closed form.
    if events == 0 { #expect(abs(interval.high - (-log(0.025))) < 1e-12) }
  }

  @Test func noExposureHasNoRate() throws {
    #expect(try RateInterval.poisson(3, exposure: 0) == nil)
  }
}
