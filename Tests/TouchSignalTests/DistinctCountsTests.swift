import Testing
import TouchCore

@testable import TouchSignal

/// The counting hash table against the standard library's `Dictionary` of counts.
@Suite struct DistinctCountsTests {
  /// Counts `values` both ways and compares every count, the distinct values and the total.
  func agrees(_ values: [Double], capacity: Int = 512) -> Bool {
    var table = DistinctCounts(capacity: capacity)
    var reference: [Double: Int] = [:]
    var fresh = 0
    for value in values {
      if table.add(value) { fresh += 1 }
      reference[value, default: 0] += 1
    }
    var total = 0
    var visited = 0
    table.forEach { value, count in
      total += count
      visited += 1
      #expect(reference[value] == count, "\(value): \(count) against \(reference[value] ?? 0)")
    }
    return fresh == reference.count && table.distinct == reference.count && visited == reference.count
      && total == values.count && Set(table.values) == Set(reference.keys)
      && reference.allSatisfy { table.count(of: $0.key) == $0.value }
  }

  @Test func countsAsADictionaryDoes() {
    var random = SplitMix64(seed: 5)
    // Intervals on a microsecond clock (repeats), forces on a 1/60 grid, and any bit pattern.
    let intervals = (0..<200_000).map { _ in 1.0 / 60 + Double(random.next() % 3000) * 1e-6 }
    let forces = (0..<50_000).map { _ in Double(random.next() % 401) / 60 }
    let any = (0..<20_000).map { _ -> Double in
      let value = Double(bitPattern: random.next())
      return value.isNaN ? 1 : value
    }
    #expect(agrees([]))
    #expect(agrees([1, 1, 1]))
    #expect(agrees(intervals))
    #expect(agrees(forces, capacity: 1))  // grows many times
    #expect(agrees(any + [.infinity, -.infinity, .leastNonzeroMagnitude, -.greatestFiniteMagnitude]))
  }

  @Test func negativeZeroIsZero() {
    var table = DistinctCounts()
    let zeroIsNew = table.add(0)
    let negativeZeroIsNew = table.add(-0.0)
    #expect(zeroIsNew && !negativeZeroIsNew)
    table.add(-0.0, count: 3)
    #expect(table.distinct == 1 && table.count(of: 0) == 5 && table.count(of: -0.0) == 5)
    #expect(table.count(of: 1) == 0 && table.count(of: .nan) == 0)
  }

  /// The quantiles from the counted distinct values equal GSL's selection over all the values.
  @Test func quantilesAsBySelection() {
    var random = SplitMix64(seed: 9)
    let values = (0..<30_000).map { _ in 0.016 + Double(random.next() % 500) * 1e-6 }
    var counted = CountedValues()
    var moments = Moments()
    for value in values {
      counted.add(value)
      moments.add(value)
    }
    let (summary, spread) = counted.summary(moments: moments)
    var copy = values
    let (expected, expectedSpread) = SummaryStatistics.bySelection(&copy, moments: moments)
    #expect(summary == expected)
    #expect(spread == expectedSpread && spread != nil)
  }
}
