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
    let url = try #require(Bundle.module.url(forResource: "wilson-pairs", withExtension: "json", subdirectory: "Fixtures"))
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
