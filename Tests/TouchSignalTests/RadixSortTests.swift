import Testing
import TouchCore

@testable import TouchSignal

/// The interval counter's radix sort against the standard library's `sort()`.
@Suite struct RadixSortTests {
  /// `count` numbers from `make`, drawn from a seeded SplitMix64.
  func numbers(_ count: Int, seed: UInt64, _ make: (UInt64) -> Double) -> [Double] {
    var random = SplitMix64(seed: seed)
    return (0..<count).map { _ in make(random.next()) }
  }

  @Test func sortsAsTheStandardLibraryDoes() {
    let cases: [[Double]] = [
      [], [1], [2, 1], [1, 1, 1],
      // Intervals of one magnitude: the exponent bytes are shared and skipped.
      numbers(65_536, seed: 1) { 1.0 / 60 + Double($0 % 1000) * 1e-6 },
      // Any magnitude and sign, with repeats, infinities and subnormals (no −0: `sort()` leaves
      // −0 and +0 in input order, the radix sort puts −0 first).
      numbers(10_000, seed: 2) { bits in
        switch bits % 7 {
        case 0: -Double(bits % 100 + 1)
        case 1: Double(bits >> 40) * 1e-300
        case 2: .infinity
        case 3: -.infinity
        case 4: .leastNonzeroMagnitude * Double(bits % 5)
        default: Double(bitPattern: bits & ~(0x7FF << 52) | (UInt64(bits % 2046 + 1) << 52))
        }
      },
    ]
    var keys: [UInt64] = []
    var scratch: [UInt64] = []
    for values in cases {
      var sorted = values
      CountedValues.radixSort(&sorted, keys: &keys, scratch: &scratch)
      let expected = values.sorted()
      let wrong = zip(sorted, expected).filter { $0.bitPattern != $1.bitPattern }.count
      #expect(sorted.count == expected.count && wrong == 0, "\(values.count) values: \(wrong) out of place")
    }
  }

  @Test func negativeZeroComesFirst() {
    var values: [Double] = [1, 0, -0.0, -1]
    var keys: [UInt64] = []
    var scratch: [UInt64] = []
    CountedValues.radixSort(&values, keys: &keys, scratch: &scratch)
    #expect(values.map(\.bitPattern) == [-1, -0.0, 0, 1].map(\.bitPattern))
  }
}
