import Testing
import TouchTestSupport

@testable import TouchEvaluation

/// The one-pass kernel with prepared levels (`CrossingLevels`, bucket index) against a plain
/// scan per level: level k is first crossed at the first position whose quantity crosses it.
@Suite("Prepared crossing levels")
struct CrossingLevelsTests {
  /// Quantities and levels on the exact 1/60 force grid (ties between quantities and levels),
  /// traces that rise, hold and fall (every phase of the kernel), with NaN, ±∞ and negatives.
  @Test(arguments: [11, 12, 13, 14, 15, 16] as [UInt64])
  func preparedLevelsMatchAPlainScanPerLevel(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for round in 0..<120 {
      let levels = Self.randomLevels(&rng, round: round)
      let prepared = CrossingLevels(levels)
      for _ in 0..<6 {
        let quantities = Self.randomQuantities(&rng)
        check(StrictlyAbove.self, quantities, prepared) { $0 > $1 }
        check(AtOrAbove.self, quantities, prepared) { $0 >= $1 }
      }
    }
  }

  /// The grids sweeps use are indexed (the O(1) path), and levels that no bucketing separates
  /// or that are not finite fall back to the search, with the same results (checked above).
  @Test func uniformGridsAreIndexedAndCrowdedLevelsSearched() {
    #expect(CrossingLevels((0...60).map { Double($0) / 60 }).layout.window == 1)
    #expect(CrossingLevels(Self.closePairs(100)).layout.window == 2)
    #expect(CrossingLevels((0..<1000).map { Double(Float(0.1 + 6.4 * Double($0) / 999)) }).layout.indexed)
    #expect(CrossingLevels([1]).layout.indexed)
    #expect(CrossingLevels([2, 2, 2, 3]).layout.indexed)
    // min(θ, maximum): many copies of the maximum.
    #expect(CrossingLevels((0...420).map { min(Double($0) / 60, 20.0 / 3) }).layout.indexed)
    // Three distinct levels closer together than 1/(64·K) of the range share a bucket.
    #expect(!CrossingLevels([0, 1e-9, 2e-9, 3e-9, 1]).layout.indexed)
    #expect(!CrossingLevels([0, .nan]).layout.indexed)
    #expect(!CrossingLevels([0, .infinity]).layout.indexed)
    #expect(!CrossingLevels([]).layout.indexed)
  }

  /// A NaN next to a crossing inside one block of eight must not hide the crossing (the block
  /// maximum keeps NaN as a possible crossing), whatever the NaN's and the crossing's places.
  @Test func nanBesideACrossingInABlockDoesNotHideIt() {
    let levels = CrossingLevels([0, 7.0 / 3, 14.0 / 3])
    for nanAt in 0..<8 {
      for crossingAt in 0..<8 where crossingAt != nanAt {
        for crossing in [Double.infinity, 5] {
          var quantities =
            [Double](repeating: 1, count: 16) + [Double](repeating: 2.5, count: 8) + [Double](repeating: 1, count: 8)
          quantities[16 + nanAt] = .nan
          quantities[16 + crossingAt] = crossing
          check(StrictlyAbove.self, quantities, levels) { $0 > $1 }
          check(AtOrAbove.self, quantities, levels) { $0 >= $1 }
        }
      }
    }
  }

  /// Steps never go past `min(n, K)` even when every level is crossed one at a time.
  @Test(arguments: [1, 2, 3, 7, 8, 9, 16, 64])
  func stepsStayWithinTheirRoom(levelCount k: Int) {
    let levels = CrossingLevels((0..<k).map { Double($0) })
    for n in [1, k - 1, k, k + 1, 3 * k + 5] where n >= 1 {
      // One level per position (quantity j crosses level j − 1 with `>`), then a plateau.
      let quantities = (0..<n).map { Double(min($0, k)) + 0.5 } + [Double](repeating: 0, count: 20)
      let room = min(n + 20, k)
      let guardValue = CrossingStep(lower: -7, upper: -7, position: -7)
      var buffer = [CrossingStep](repeating: guardValue, count: room + 4)
      let count = quantities.withUnsafeBufferPointer { q in
        levels.withUnsafeLevels { l in
          buffer.withUnsafeMutableBufferPointer { s in
            RunningMaxSweep.firstCrossings(
              StrictlyAbove.self, quantities: q, range: 0..<q.count, levels: l, into: s.baseAddress!)
          }
        }
      }
      #expect(count == min(n, k))
      #expect(buffer[room...].allSatisfy { $0 == guardValue }, "K = \(k), n = \(n)")
    }
  }

  /// The many-trace form with prepared levels equals the plain-buffer form, trace by trace.
  @Test func manyTracesWithPreparedLevels() {
    var rng = SplitMix64(seed: 99)
    var quantities: [Double] = []
    var offsets = [0]
    for _ in 0..<200 {
      quantities += Self.randomQuantities(&rng)
      offsets.append(quantities.count)
    }
    let grid60: [Double] = (0...60).map { Double($0) / 60 * 7 }
    let grid1000: [Double] = (0..<1000).map { Double($0) / 999 * 7 }
    let single: [Double] = [0.5]
    for levels in [grid60, single, grid1000] {
      var room = 0
      for j in 0..<(offsets.count - 1) { room += min(offsets[j + 1] - offsets[j], levels.count) }
      var fast = [CrossingStep](repeating: CrossingStep(lower: 0, upper: 0, position: 0), count: room)
      var plain = fast
      var fastOffsets = [Int](repeating: -1, count: offsets.count)
      var plainOffsets = fastOffsets
      let prepared = CrossingLevels(levels)
      let (a, b) = quantities.withUnsafeBufferPointer { q in
        offsets.withUnsafeBufferPointer { o in
          levels.withUnsafeBufferPointer { l in
            (
              fast.withUnsafeMutableBufferPointer { s in
                fastOffsets.withUnsafeMutableBufferPointer { so in
                  RunningMaxSweep.firstCrossings(
                    AtOrAbove.self, quantities: q, offsets: o, levels: prepared, steps: s, stepOffsets: so)
                }
              },
              plain.withUnsafeMutableBufferPointer { s in
                plainOffsets.withUnsafeMutableBufferPointer { so in
                  RunningMaxSweep.firstCrossings(
                    AtOrAbove.self, quantities: q, offsets: o, levels: l, steps: s, stepOffsets: so)
                }
              }
            )
          }
        }
      }
      #expect(a == b)
      #expect(a > 0)
      #expect(fastOffsets == plainOffsets)
      #expect(Array(fast[0..<a]) == Array(plain[0..<b]))
    }
  }

  // MARK: - Helpers

  /// Levels of one of several kinds (sorted, non-decreasing).
  static func randomLevels(_ rng: inout SplitMix64, round: Int) -> [Double] {
    let k = [1, 2, 3, Int.random(in: 4...70, using: &rng), Int.random(in: 100...1000, using: &rng)][round % 5]
    switch round % 8 {
    case 0, 1:
      // An exact grid k/60 from a random start (the sweeps' grids), as the CLI builds them.
      let start = Int.random(in: -10...120, using: &rng)
      return (0..<k).map { Double(start + $0) / 60 }
    case 2:
      // Random values on the 1/60 grid with duplicates.
      return (0..<k).map { _ in Double(Int.random(in: -30...420, using: &rng)) / 60 }.sorted()
    case 3:
      // Clamped at the maximum force: the tail repeats it.
      return (0..<k).map { min(Double($0) * 7 / Double(k), 20.0 / 3) }
    case 4:
      // Float32 thresholds widened (the benchmark's grid).
      return (0..<k).map { Float(0.1 + 6.4 * Double($0) / Double(max(k - 1, 1))) }.map(Double.init)
    case 5:
      // Crowded clusters and wide gaps (often searched, not indexed).
      return (0..<k).map { j in Double(j / 5) + Double(j % 5) * 1e-12 }
    case 6:
      return closePairs(k)
    default:
      // Scaled by a non-integer maximum (normalized × max), sometimes NaN (unknown maximum).
      let scale = Int.random(in: 0..<6, using: &rng) == 0 ? Double.nan : 20.0 / 3
      return (0..<k).map { Double($0) / Double(k) * scale }
    }
  }

  /// Close pairs on a 1/60 grid: two distinct levels per bucket.
  static func closePairs(_ k: Int) -> [Double] {
    (0..<k).map { (j: Int) -> Double in
      let grid = Double(j / 2 * 3) / 60
      return j % 2 == 0 ? grid : grid + 1e-9
    }
  }

  /// A trace: a rise in steps of the 1/60 grid, a hold with wobble and repeats, a fall; plus
  /// occasional NaN, ±∞, negatives and plain random values.
  static func randomQuantities(_ rng: inout SplitMix64) -> [Double] {
    let n = Int.random(in: 0...300, using: &rng)
    var k = Int.random(in: -20...40, using: &rng)
    let peak = Int.random(in: -10...440, using: &rng)
    var out: [Double] = []
    for i in 0..<n {
      let phase = Double(i) / Double(max(n - 1, 1))
      if phase < 0.3 {
        k += Int.random(in: -3...12, using: &rng)
      } else if phase < 0.7 {
        k += Int.random(in: -4...4, using: &rng)
      } else {
        k -= Int.random(in: 0...10, using: &rng)
      }
      k = min(k, peak + Int.random(in: 0...3, using: &rng))
      var x = Double(k) / 60
      switch Int.random(in: 0..<60, using: &rng) {
      case 0: x = .nan
      case 1: x = .infinity
      case 2: x = -.infinity
      case 3: x = -Double(Int.random(in: 0...100, using: &rng))
      case 4: x = Double(Int.random(in: 0...1_000_000, using: &rng)) / 100_000
      default: break
      }
      out.append(x)
    }
    return out
  }

  /// Runs the prepared kernel and compares with a plain scan per level, and with the plain-
  /// buffer kernel step by step; the gathering entry point gives the same steps and the
  /// companion column's value at each step's position.
  private func check<Test: CrossingTest>(
    _ test: Test.Type, _ quantities: [Double], _ levels: CrossingLevels, _ crosses: (Double, Double) -> Bool
  ) {
    let room = max(1, min(quantities.count, levels.count))
    var steps = [CrossingStep](repeating: CrossingStep(lower: 0, upper: 0, position: 0), count: room)
    var plain = steps
    let (count, plainCount) = quantities.withUnsafeBufferPointer { q in
      levels.withUnsafeLevels { l in
        (
          steps.withUnsafeMutableBufferPointer { s in
            RunningMaxSweep.firstCrossings(test, quantities: q, range: 0..<q.count, levels: l, into: s.baseAddress!)
          },
          plain.withUnsafeMutableBufferPointer { s in
            RunningMaxSweep.firstCrossings(
              test, quantities: q, range: 0..<q.count, levels: l.values, into: s.baseAddress!)
          }
        )
      }
    }
    var first = [Int?](repeating: nil, count: levels.count)
    for s in steps[0..<count] {
      for k in Int(s.lower)..<Int(s.upper) { first[k] = s.position }
    }
    for (k, level) in levels.values.enumerated() {
      let expected = quantities.firstIndex { crosses($0, level) }
      guard first[k] == expected else {
        Issue.record(
          "level \(k) = \(level): \(String(describing: first[k])) instead of \(String(describing: expected)); levels \(levels.values.prefix(12))…, quantities \(quantities)"
        )
        return
      }
    }
    #expect(count == plainCount)
    #expect(Array(steps[0..<count]) == Array(plain[0..<plainCount]))
    // A companion column that differs at every position (like times): 1000 + 0.25·i.
    let companion = quantities.indices.map { 1000 + 0.25 * Double($0) }
    var gatheredSteps = [CrossingStep](repeating: CrossingStep(lower: -1, upper: -1, position: -1), count: room)
    var gathered = [Double](repeating: .nan, count: room)
    let gatheredCount = quantities.withUnsafeBufferPointer { q in
      companion.withUnsafeBufferPointer { c in
        levels.withUnsafeLevels { l in
          gatheredSteps.withUnsafeMutableBufferPointer { s in
            gathered.withUnsafeMutableBufferPointer { g in
              RunningMaxSweep.firstCrossings(
                test, quantities: q, range: 0..<q.count, levels: l, into: s.baseAddress!,
                gathering: c.baseAddress!, gatheredInto: g.baseAddress!)
            }
          }
        }
      }
    }
    #expect(gatheredCount == count)
    #expect(Array(gatheredSteps[0..<gatheredCount]) == Array(steps[0..<count]))
    #expect(Array(gathered[0..<gatheredCount]) == steps[0..<count].map { 1000 + 0.25 * Double($0.position) })
    for (a, b) in zip(steps[0..<count], steps[0..<count].dropFirst()) {
      #expect(a.upper == b.lower && a.position < b.position)
    }
    if count > 0 { #expect(steps[0].lower == 0) }
  }
}
