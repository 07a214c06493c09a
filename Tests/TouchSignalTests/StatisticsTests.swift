import Testing
import TouchCore
import TouchTestSupport

@testable import TouchSignal

@Suite("Statistics")
struct StatisticsTests {
  @Test func quantilesInterpolateBetweenOrderStatistics() throws {
    // numpy.percentile([1, 2, 3, 5, 7, 8, 9], [25, 50, 90]) == [2.5, 5.0, 8.4]
    let d = Distribution([9, 1, 8, 2, 7, 3, 5])
    #expect(d.sorted == [1, 2, 3, 5, 7, 8, 9])
    #expect(try #require(d.quantile(0.25)) == 2.5)
    #expect(d.median == 5)
    #expect(abs(try #require(d.quantile(0.9)) - 8.4) < 1e-12)
    #expect(d.mean == 5)
    // Σ(x − 5)² = 58, divided by n − 1 = 6.
    #expect(abs(try #require(d.standardDeviation) - (58.0 / 6).squareRoot()) < 1e-12)
    #expect(Distribution([]).median == nil)
    #expect(Distribution([3]).standardDeviation == nil)
  }

  @Test(arguments: [1, 2, 3, 4])
  func selectionGivesTheSortedQuantiles(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let n = Int.random(in: 1...5000, using: &rng)
    // Many ties, as sampling intervals have.
    let values = (0..<n).map { _ in Double(Int.random(in: 0...40, using: &rng)) / 1000 }
    let probabilities = [0.05, 0.25, 0.5, 0.75, 0.95, 0, 1]
    var work = values
    let selected = Selection.quantiles(&work, probabilities)
    let sorted = Distribution(values)
    for (p, q) in zip(probabilities, selected) {
      #expect(q == sorted.quantile(p)!, "p = \(p), n = \(n)")
    }
  }

  @Test func quickSummaryOfHandComputedValues() throws {
    // Sorted: −1, 1, 2, 3. Mean 1.25; Σ(x − 1.25)² = 8.75, sd = √(8.75 / 3).
    // numpy.percentile([3, 1, 2, -1], [50, 90, 100]) == [1.5, 2.7, 3.0]
    let s = QuickSummary([3, 1, 2, -1], quantiles: [0.5, 0.9, 1])
    #expect(s.count == 4 && s.min == -1 && s.max == 3 && s.negative == 1)
    #expect(s.mean == 1.25)
    #expect(abs(try #require(s.standardDeviation) - (8.75 / 3).squareRoot()) < 1e-12)
    #expect(s.quantiles[0] == 1.5 && abs(s.quantiles[1] - 2.7) < 1e-12 && s.quantiles[2] == 3)
    let one = QuickSummary([0.25], quantiles: [0.5, 0.99])
    #expect(one.standardDeviation == nil && one.quantiles == [0.25, 0.25] && one.negative == 0)
    let empty = QuickSummary([], quantiles: [0.5])
    #expect(empty.count == 0 && empty.min == nil && empty.mean == nil && empty.quantiles.isEmpty)
  }

  @Test(arguments: [5, 6, 7])
  func quickSummaryAgreesWithTheSortedDistribution(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    let n = Int.random(in: 2...3000, using: &rng)
    let values = (0..<n).map { _ in Double(Int.random(in: -200...900, using: &rng)) / 3000 }
    let s = QuickSummary(values, quantiles: [0.5, 0.9, 0.95, 0.99])
    let d = Distribution(values)
    for (p, q) in zip([0.5, 0.9, 0.95, 0.99], s.quantiles) { #expect(q == d.quantile(p)!, "p = \(p)") }
    #expect(s.min == d.min && s.max == d.max && s.negative == d.sorted.filter { $0 < 0 }.count)
    // Summed in another order: equal to rounding.
    #expect(abs(try #require(s.mean) - d.mean!) < 1e-12)
    #expect(abs(try #require(s.standardDeviation) - d.standardDeviation!) < 1e-12)
  }

  @Test func selectionOnTinySamplesWhereRanksCoincide() {
    var rng = SplitMix64(seed: 9)
    for n in 1...9 {
      for _ in 0..<20 {
        let values = (0..<n).map { _ in Double(Int.random(in: 0...3, using: &rng)) }
        let probabilities = [0.05, 0.25, 0.5, 0.75, 0.95]
        var work = values
        let selected = Selection.quantiles(&work, probabilities)
        let sorted = Distribution(values)
        #expect(selected == probabilities.map { sorted.quantile($0)! }, "\(values)")
      }
    }
  }

  @Test func quantizationStepOfGridsAndContinuousValues() throws {
    let sixtieths = (0...400).map { Double($0) / 60 }
    let step = try #require(QuantizationStep.estimate(sixtieths))
    #expect(step.reciprocal == 60)
    #expect(step.text == "1/60")
    #expect(step.fit == 1)
    #expect(QuantizationStep.estimate([0, 3, 4, 17, 255, 12]).map(\.text) == "1")
    var rng = SplitMix64(seed: 5)
    #expect(QuantizationStep.estimate((0..<10_000).map { _ in Double.random(in: 0...1, using: &rng) }) == nil)
    #expect(QuantizationStep.estimate([1]) == nil)
  }

  @Test(
    "The iPhone 6s recording is quantized in steps of 1/60 and saturates at 20/3",
    .enabled(if: TestData.hasRealData, "needs ../shared/realdata beside the repository"))
  func realIPhoneForces() throws {
    var bytes = try readFile(
      TestData.realData + "/algal-3dtouch/data-60secondsVariedForce/04317CA4-3AD0-4776-861E-78040D8BC3E2.json")
    bytes.removeAll { $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "]") }
    let values = String(decoding: bytes, as: UTF8.self).split(whereSeparator: { $0 == "," || $0.isWhitespace })
      .map { Double($0)! }
    #expect(values.count == 2140)
    let step = try #require(QuantizationStep.estimate(values))
    #expect(step.reciprocal == 60)
    #expect(step.fit == 1)
    #expect(abs(values.max()! - 20.0 / 3) < 1e-5)
  }

  @Test func datasetSummaryOfHandBuiltTraces() throws {
    let a = Trace(
      metadata: TraceMetadata(
        id: "a", intent: .press, pressAt: [0.03], user: "u1", device: "iphone6s", maxForce: 20.0 / 3),
      t: [0, 0.01, 0.03, 0.03, 0.06], force: [0, 30.0 / 60, 31.0 / 60, 400.0 / 60, 60.0 / 60],
      phase: [.began, .moved, .moved, .moved, .cancelled])
    let b = Trace(
      metadata: TraceMetadata(id: "b", intent: TouchCore.Intent.none), t: [1, 1.02], force: [0, 0.5], x: [1, 2],
      y: [3, 4])
    let dataset = Dataset(
      traces: [a, b], origins: [TraceOrigin(file: "f.csv"), TraceOrigin(file: "f.csv")],
      skipped: [SkippedTrace(trace: "c", origin: TraceOrigin(file: "f.csv"), reason: "bad")], files: ["f.csv"])
    let s = DatasetSummary(dataset)
    #expect((s.total, s.analyzed, s.skipped.count, s.samples) == (3, 2, 1, 7))
    // Positive intervals 0.01, 0.02, 0.03 (a) and 0.02 (b); one repeated timestamp.
    #expect(s.repeatedTimestamps == 1)
    #expect(s.interval.count == 4)
    #expect(abs(try #require(s.interval.median) - 0.02) < 1e-12)
    #expect(abs(try #require(s.interval.p5) - 0.0115) < 1e-12, "\(s.interval)")
    #expect(abs(try #require(s.interval.p95) - 0.0285) < 1e-12)
    #expect(abs(try #require(s.interval.mean) - 0.02) < 1e-12)
    #expect(abs(try #require(s.interval.standardDeviation) - (2e-4 / 3).squareRoot()) < 1e-12)
    // p25 = 0.0175, p75 = 0.0225: IQR 0.005.
    #expect(abs(try #require(s.intervalJitter) - 0.005 / 1.348_979_500_392_163) < 1e-12, "\(s.intervalJitter!)")
    #expect(abs(try #require(s.duration.min) - 0.02) < 1e-12 && s.duration.max == 0.06)
    #expect(s.forceMin == 0 && s.forceMax == 400.0 / 60)
    #expect(s.quantization?.text == "1/60")
    #expect(s.quantizationPerDevice.map(\.device) == ["iphone6s", nil])
    #expect(s.quantizationPerDevice.map { $0.step?.text } == ["1/60", nil])  // b has one positive value
    #expect(s.saturatedSamples == 1 && s.samplesWithKnownMaximum == 5)
    #expect(s.saturatedShare == 0.2)
    #expect(s.maxForces == [.init(value: 20.0 / 3, traces: 1), .init(value: nil, traces: 1)])
    #expect(s.intents == [.init(value: .press, traces: 1), .init(value: TouchCore.Intent.none, traces: 1)])
    #expect(s.tracesPerUser == [.init(value: "u1", traces: 1), .init(value: nil, traces: 1)])
    #expect(s.tracesWithPressAt == 1)
    #expect(s.cancelledTraces == 1 && s.unterminatedTraces == 0)
    #expect(s.tracesWithPosition == 1)
  }
}

#if canImport(Glibc)
  import Glibc
#endif

/// Reads a whole file (test helper).
func readFile(_ path: String) throws -> [UInt8] {
  guard let file = fopen(path, "rb") else { throw FileMissing(path: path) }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 65536)
  while true {
    let n = fread(&chunk, 1, chunk.count, file)
    if n == 0 { break }
    bytes += chunk[0..<n]
  }
  return bytes
}

struct FileMissing: Error { var path: String }
