import Testing
import TouchCore
import TouchSignal

/// GSL-backed filters against NumPy/SciPy references (`Scripts/make-fixtures.py`): every point,
/// ends included, within 1e-9 relative to max(|reference|, 1) force units.
@Suite("Smoothing against SciPy references")
struct SmoothingFixtureTests {
  struct GaussianCase: Decodable, ReferenceCase {
    var signal: String, K: Int, alpha: Double, order: Int, ends: String, input: [Double], expected: [Double]
  }

  @Test func gaussianMatchesTheDocumentedKernel() throws {
    try Fixture.expectCases("gaussian.json", count: 24) { (c: GaussianCase) in
      let smoothing = GaussianSmoothing(
        window: .samples(c.K), alpha: c.alpha, derivative: c.order, ends: EndHandling(fixture: c.ends))
      return (
        try smoothing.apply(to: c.input), "gaussian \(c.signal) K=\(c.K) alpha=\(c.alpha) order=\(c.order) \(c.ends)"
      )
    }
  }

  struct SavitzkyGolayCase: Decodable, ReferenceCase {
    var K: Int, order: Int, derivative: Int, ends: String, delta: Double, input: [Double], expected: [Double]
  }

  @Test func savitzkyGolayMatchesScipy() throws {
    try Fixture.expectCases("savgol.json", count: 30) { (c: SavitzkyGolayCase) in
      let sg = SavitzkyGolay(
        window: .samples(c.K), order: c.order, derivative: c.derivative, ends: EndHandling(fixture: c.ends))
      return (
        try sg.apply(to: c.input, interval: c.delta), "savgol K=\(c.K) order=\(c.order) deriv=\(c.derivative) \(c.ends)"
      )
    }
  }

  struct MedianCase: Decodable, ReferenceCase {
    var signal: String, kind: String, K: Int, ends: String, input: [Double], expected: [Double]
  }

  @Test func medianAndRecursiveMedianMatchReferences() throws {
    try Fixture.expectCases("median.json", count: 30) { (c: MedianCase) in
      let ends = EndHandling(fixture: c.ends)
      let output =
        c.kind == "median"
        ? try MedianSmoothing(window: .samples(c.K), ends: ends).apply(to: c.input)
        : try RecursiveMedianSmoothing(window: .samples(c.K), ends: ends).apply(to: c.input)
      return (output, "\(c.kind) \(c.signal) K=\(c.K) \(c.ends)")
    }
  }

  struct MovingCase: Decodable, ReferenceCase {
    var signal: String, statistic: String, K: Int, alignment: String, ends: String, input: [Double], expected: [Double]
  }

  @Test func movingMeanAndMedianMatchNumpyWindows() throws {
    try Fixture.expectCases("movstat.json", count: 72) { (c: MovingCase) in
      let smoothing = MovingWindowSmoothing(
        MovingWindowSmoothing.Statistic(rawValue: c.statistic)!, window: .samples(c.K),
        alignment: WindowAlignment(rawValue: c.alignment)!, ends: EndHandling(fixture: c.ends))
      return (try smoothing.apply(to: c.input), "moving \(c.statistic) \(c.signal) K=\(c.K) \(c.alignment) \(c.ends)")
    }
  }

  struct ImpulseCase: Decodable {
    var signal: String, K: Int, threshold: Double, minimumScale: Double, ends: String
    var input: [Double], expected: [Double], outliers: [Int], zeroScaleWindows: Int
  }

  @Test func impulseRejectionMatchesTheHampelRule() throws {
    let fixture = try Fixture.load("impulse.json", as: Fixture.Cases<ImpulseCase>.self)
    #expect(fixture.cases.count == 8)
    for c in fixture.cases {
      let filter = ImpulseRejection(
        window: .samples(c.K), threshold: c.threshold, scale: .mad, minimumScale: c.minimumScale,
        ends: EndHandling(fixture: c.ends))
      let result = try filter.detect(in: c.input)
      let context = "impulse \(c.signal) K=\(c.K) t=\(c.threshold) floor=\(c.minimumScale)"
      expectAllClose(result.values, c.expected, context)
      #expect(result.outliers == c.outliers, "\(context)")
      #expect(result.zeroScaleWindows == c.zeroScaleWindows, "\(context)")
    }
  }

  struct EMACase: Decodable, ReferenceCase {
    var alpha: Double, input: [Double], expected: [Double]
  }

  @Test func exponentialMovingAverageMatchesLfilter() throws {
    let cases = try Fixture.expectCases("ema.json", count: 3) { (c: EMACase) in
      (ExponentialMovingAverage(.alpha(c.alpha)).apply(to: c.input), "ema alpha=\(c.alpha)")
    }
    // span 7 ↔ alpha 2/(7+1), the third case
    let c = try #require(cases.count == 3 ? cases[2] : nil)
    expectAllClose(ExponentialMovingAverage(.span(7)).apply(to: c.input), c.expected, "ema span 7")
  }
}
