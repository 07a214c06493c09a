import Testing
import TouchEvaluation
import TouchTestSupport

@Suite("Event matching")
struct MatchingTests {
  @Test func windowIsInclusiveUpToFloatingPointError() {
    // 1.05 − 1.0 = 0.050000000000000044 in binary: a naive `<=` would reject it.
    #expect(1.05 - 1.0 > 0.05)
    #expect(EventMatching.isWithin(1.05, 1.0, tolerance: 0.05))
    #expect(EventMatching.isWithin(0.95, 1.0, tolerance: 0.05))
    #expect(EventMatching.isWithin(1.0000004, 1.0, tolerance: 0))  // 0.4 µs rounds to 0
    #expect(!EventMatching.isWithin(1.0000006, 1.0, tolerance: 0))  // 0.6 µs rounds to 1
    #expect(!EventMatching.isWithin(1.051, 1.0, tolerance: 0.05))
    #expect(EventMatching.isWithin(2.0, 2.0, tolerance: 0))
  }

  @Test func oneActionTakesTheNearestReferenceAndTheEarlierOnATie() {
    #expect(pairs([1.0], [0.9, 1.05], 0.2) == [[0, 1]])
    #expect(pairs([1.0], [0.75, 1.25], 0.25) == [[0, 0]])
    #expect(pairs([1.0], [0.5, 1.5], 0.25).isEmpty)
    #expect(pairs([0.75, 1.25], [1.0], 0.25) == [[0, 0]])
  }

  @Test func maximumMatchingBeatsNearestFirst() {
    // The nearest-first choice (1.2 ↔ 1.3) would leave 1.45 unmatched.
    #expect(pairs([1.2, 1.45], [1.0, 1.3], 0.2) == [[0, 0], [1, 1]])
    // Three presses, four actions: the extra action stays unmatched.
    #expect(pairs([1.1, 1.2, 2.05, 3.4], [1.0, 2.0, 3.0], 0.25) == [[0, 0], [2, 1]])
  }

  /// The dynamic programme against exhaustive search: the most pairs, then the least total
  /// |action − reference|, on small random instances.
  @Test(arguments: [11, 12, 13] as [UInt64])
  func agreesWithExhaustiveSearch(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for _ in 0..<400 {
      let n = Int.random(in: 0...5, using: &rng)
      let m = Int.random(in: 0...5, using: &rng)
      let actions = (0..<n).map { _ in Double(Int.random(in: 0...40, using: &rng)) / 8 }.sorted()
      let references = (0..<m).map { _ in Double(Int.random(in: 0...40, using: &rng)) / 8 }.sorted()
      let tolerance = Double(Int.random(in: 0...6, using: &rng)) / 8
      let found = EventMatching.match(actions: actions, references: references, tolerance: tolerance)
      let best = exhaustive(actions, references, tolerance)
      #expect(found.count == best.count)
      let cost = found.reduce(0.0) { $0 + abs(actions[$1.action] - references[$1.reference]) }
      #expect(cost == best.cost, "\(actions) \(references) ±\(tolerance)")
      #expect(Set(found.map(\.action)).count == found.count && Set(found.map(\.reference)).count == found.count)
      for pair in found { #expect(abs(actions[pair.action] - references[pair.reference]) <= tolerance) }
    }
  }

  private func pairs(_ a: [Double], _ r: [Double], _ tolerance: Double) -> [[Int]] {
    EventMatching.match(actions: a, references: r, tolerance: tolerance).map { [$0.action, $0.reference] }
  }

  /// Every one-to-one matching by recursion (times here are multiples of 1/8, so sums are exact).
  private func exhaustive(_ a: [Double], _ r: [Double], _ tolerance: Double) -> (count: Int, cost: Double) {
    var best = (count: 0, cost: 0.0)
    func visit(_ i: Int, _ used: Set<Int>, _ count: Int, _ cost: Double) {
      if i == a.count {
        if count > best.count || (count == best.count && cost < best.cost) { best = (count, cost) }
        return
      }
      visit(i + 1, used, count, cost)
      for j in r.indices where !used.contains(j) && abs(a[i] - r[j]) <= tolerance {
        visit(i + 1, used.union([j]), count + 1, cost + abs(a[i] - r[j]))
      }
    }
    visit(0, [], 0, 0)
    return best
  }
}
