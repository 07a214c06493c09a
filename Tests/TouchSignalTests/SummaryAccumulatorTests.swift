import Testing
import TouchCore
import TouchTestSupport

@testable import TouchSignal

/// `DatasetSummary.Accumulator`: the summary taken trace by trace, from the distinct sampling
/// intervals with their counts and the distinct forces, against hand-computed values.
@Suite("Summary accumulator")
struct SummaryAccumulatorTests {
  /// Intervals 1, 2, 3, 4 s: R type 7 gives p5 = 1 + 0.15 = 1.15, median 2.5, p95 = 3 + 0.85 =
  /// 3.85, the quartiles 1.75 and 3.25 (numpy.percentile([1, 2, 3, 4], [5, 25, 50, 75, 95])).
  @Test func intervalQuantilesInterpolate() {
    var accumulator = DatasetSummary.Accumulator()
    accumulator.add(Trace(metadata: TraceMetadata(id: "a"), t: [0, 1, 3], force: [0, 1, 0]))
    accumulator.add(Trace(metadata: TraceMetadata(id: "b"), t: [10, 13, 17], force: [0, 1, 0]))
    let summary = accumulator.summary(files: [], skipped: [], labelOverrides: 0)
    #expect(summary.interval.count == 4)
    #expect(summary.interval.min == 1 && summary.interval.max == 4)
    #expect(isClose(summary.interval.p5!, 1.15, relative: 1e-15))
    #expect(summary.interval.median == 2.5)
    #expect(isClose(summary.interval.p95!, 3.85, relative: 1e-15))
    #expect(isClose(summary.intervalJitter!, 1.5 / 1.348_979_500_392_163, relative: 1e-15))
    #expect(summary.interval.mean == 2.5)
  }

  /// 70 000 intervals (more than one merged run): 40 000 of 1 s, 29 999 of 2 s and one of
  /// 100 s. Ranks 0…39 999 are 1, 40 000…69 998 are 2: p5, the lower quartile and the median
  /// (rank 34 999.5) are 1; the upper quartile (52 499.25) and p95 (66 499.05) are 2.
  @Test func repeatedIntervalsAcrossRuns() {
    var t: [Double] = [0]
    for k in 0..<70_000 { t.append(t[k] + (k < 40_000 ? 1 : k < 69_999 ? 2 : 100)) }
    var accumulator = DatasetSummary.Accumulator()
    // Two traces: the first 30 000 samples, then the rest (the interval between them is not one).
    accumulator.add(
      Trace(metadata: TraceMetadata(id: "a"), t: Array(t[0..<30_001]), force: Array(repeating: 0, count: 30_001)))
    accumulator.add(
      Trace(metadata: TraceMetadata(id: "b"), t: Array(t[30_000...]), force: Array(repeating: 0, count: 40_001)))
    let s = accumulator.summary(files: [], skipped: [], labelOverrides: 0).interval
    #expect(s.count == 70_000)
    #expect(s.min == 1 && s.max == 100)
    #expect(s.p5 == 1 && s.median == 1 && s.p95 == 2)
  }

  /// 100 000 forces of 0.5 (a prefix too uniform to show the grid), then 0.25, 0.75 and 1:
  /// the estimate looks at every value and finds the 1/4 grid, every value on it.
  @Test func quantizationBeyondAUniformPrefix() {
    var accumulator = DatasetSummary.Accumulator()
    accumulator.add(
      Trace(
        metadata: TraceMetadata(id: "flat"), t: (0..<100_000).map(Double.init),
        force: Array(repeating: 0.5, count: 100_000)))
    accumulator.add(Trace(metadata: TraceMetadata(id: "steps"), t: [0, 1, 2], force: [0.25, 0.75, 1]))
    let step = accumulator.summary(files: [], skipped: [], labelOverrides: 0).quantization
    #expect(step?.reciprocal == 4)
    #expect(step?.fit == 1)
  }

  /// 150 000 forces on the 1/60 grid (k/60 for k = 0…59, cycling), in three traces: the
  /// prefix's step holds for the values after it too.
  @Test func quantizationAcrossThePrefix() {
    var accumulator = DatasetSummary.Accumulator()
    for part in 0..<3 {
      let forces = (0..<50_000).map { Double(($0 + part) % 60) / 60 }
      accumulator.add(
        Trace(
          metadata: TraceMetadata(id: "p\(part)", device: "d\(part % 2)"), t: (0..<50_000).map(Double.init),
          force: forces))
    }
    let summary = accumulator.summary(files: [], skipped: [], labelOverrides: 0)
    #expect(summary.quantization?.reciprocal == 60)
    #expect(summary.quantization?.fit == 1)
    #expect(summary.quantizationPerDevice.map(\.device) == ["d0", "d1"])
    #expect(summary.quantizationPerDevice.allSatisfy { $0.step?.reciprocal == 60 })
  }
}
