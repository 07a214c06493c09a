import Foundation
import Testing
import TouchSignal

/// `ExactSum` against Python's `math.fsum` (fixture from Scripts/make-partial-fixtures.py), and
/// `QuickSummary`'s statistics independent of the order of the values.
@Suite("Correctly rounded sums")
struct ExactSumTests {
  struct Case: Decodable {
    var values: [Double]
    var sum: Double
  }

  @Test func equalsPythonFsumInAnyOrder() throws {
    let cases = try Fixture.load("exact-sum.json", as: Fixture.Cases<Case>.self).cases
    #expect(cases.count == 11)
    for c in cases {
      #expect(ExactSum.of(c.values) == c.sum)
      #expect(ExactSum.of(c.values.reversed()) == c.sum)
      #expect(ExactSum.of(c.values.sorted()) == c.sum)
      #expect(c.values.withUnsafeBufferPointer { ExactSum.of($0) } == c.sum)  // the stack path
      #expect(c.values.reversed().withUnsafeBufferPointer { ExactSum.of($0) } == c.sum)
    }
  }

  @Test func handComputedCases() {
    #expect(ExactSum.of([1e100, 1.0, -1e100]) == 1.0)  // a running sum gives 0
    #expect(ExactSum.of(Array(repeating: 0.1, count: 10)) == 1.0)  // a running sum gives 0.9999999999999999
    #expect(ExactSum.of([]) == 0)
    #expect(ExactSum.of([.infinity, 1]) == .infinity)
    #expect(ExactSum.of([.infinity, -.infinity]).isNaN)
    #expect(ExactSum.of([1, .nan]).isNaN)
    // Round half to even across partials: 2^53 + 1 + tiny rounds up, 2^53 + 1 alone to even.
    let big = 9_007_199_254_740_992.0
    #expect(ExactSum.of([big, 1.0]) == big)
    #expect(ExactSum.of([big, 1.0, 1e-10]) == big + 2)
  }

  /// The statistics of a latency list do not depend on its order (what lets batches and shards
  /// merge exactly); values are checked against hand-computed ones.
  @Test func summaryIsOrderIndependent() {
    let values = [0.03, -0.01, 0.25, 0.1, 0.1, 0.2, 0.0, 0.05]
    let forward = QuickSummary(values, quantiles: [0.5, 0.9])
    for shuffled in [values.reversed(), values.sorted(), [0.2, 0.1, 0.0, 0.03, 0.25, -0.01, 0.1, 0.05]] {
      #expect(QuickSummary(Array(shuffled), quantiles: [0.5, 0.9]) == forward)
    }
    #expect(forward.count == 8)
    #expect(abs(forward.mean! - 0.09) < 1e-15)  // 0.72 / 8
    #expect(forward.negative == 1)
    #expect(abs(forward.quantiles[0] - 0.075) < 1e-15)  // between 0.05 and 0.1
  }
}
