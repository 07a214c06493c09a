import Testing
import TouchCore
import TouchSignal

/// GSL-backed filters against NumPy/SciPy references (`Scripts/make-fixtures.py`): every point,
/// ends included, within 1e-9 relative to max(|reference|, 1) force units.
@Suite("Smoothing against SciPy references")
struct SmoothingFixtureTests {
  struct GaussianCase: Decodable {
    var signal: String, K: Int, alpha: Double, order: Int, ends: String, input: [Double], expected: [Double]
  }

  @Test func gaussianMatchesTheDocumentedKernel() throws {
    let fixture = try Fixture.load("gaussian.json", as: Fixture.Cases<GaussianCase>.self)
    #expect(fixture.cases.count == 24)
    for c in fixture.cases {
      let smoothing = GaussianSmoothing(
        window: .samples(c.K), alpha: c.alpha, derivative: c.order, ends: EndHandling(fixture: c.ends))
      let output = try smoothing.apply(to: c.input)
      expectAllClose(output, c.expected, "gaussian \(c.signal) K=\(c.K) alpha=\(c.alpha) order=\(c.order) \(c.ends)")
    }
  }

  struct SavitzkyGolayCase: Decodable {
    var K: Int, order: Int, derivative: Int, ends: String, delta: Double, input: [Double], expected: [Double]
  }

  @Test func savitzkyGolayMatchesScipy() throws {
    let fixture = try Fixture.load("savgol.json", as: Fixture.Cases<SavitzkyGolayCase>.self)
    #expect(fixture.cases.count == 30)
    for c in fixture.cases {
      let sg = SavitzkyGolay(
        window: .samples(c.K), order: c.order, derivative: c.derivative, ends: EndHandling(fixture: c.ends))
      let output = try sg.apply(to: c.input, interval: c.delta)
      expectAllClose(output, c.expected, "savgol K=\(c.K) order=\(c.order) deriv=\(c.derivative) \(c.ends)")
    }
  }

  struct MedianCase: Decodable {
    var signal: String, kind: String, K: Int, ends: String, input: [Double], expected: [Double]
  }

  @Test func medianAndRecursiveMedianMatchReferences() throws {
    let fixture = try Fixture.load("median.json", as: Fixture.Cases<MedianCase>.self)
    #expect(fixture.cases.count == 30)
    for c in fixture.cases {
      let ends = EndHandling(fixture: c.ends)
      let output =
        c.kind == "median"
        ? try MedianSmoothing(window: .samples(c.K), ends: ends).apply(to: c.input)
        : try RecursiveMedianSmoothing(window: .samples(c.K), ends: ends).apply(to: c.input)
      expectAllClose(output, c.expected, "\(c.kind) \(c.signal) K=\(c.K) \(c.ends)")
    }
  }

  struct MovingCase: Decodable {
    var signal: String, statistic: String, K: Int, alignment: String, ends: String, input: [Double], expected: [Double]
  }

  @Test func movingMeanAndMedianMatchNumpyWindows() throws {
    let fixture = try Fixture.load("movstat.json", as: Fixture.Cases<MovingCase>.self)
    #expect(fixture.cases.count == 72)
    for c in fixture.cases {
      let smoothing = MovingWindowSmoothing(
        MovingWindowSmoothing.Statistic(rawValue: c.statistic)!, window: .samples(c.K),
        alignment: WindowAlignment(rawValue: c.alignment)!, ends: EndHandling(fixture: c.ends))
      let output = try smoothing.apply(to: c.input)
      expectAllClose(output, c.expected, "moving \(c.statistic) \(c.signal) K=\(c.K) \(c.alignment) \(c.ends)")
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

  struct EMACase: Decodable {
    var alpha: Double, input: [Double], expected: [Double]
  }

  @Test func exponentialMovingAverageMatchesLfilter() throws {
    let fixture = try Fixture.load("ema.json", as: Fixture.Cases<EMACase>.self)
    #expect(fixture.cases.count == 3)
    for c in fixture.cases {
      let output = ExponentialMovingAverage(.alpha(c.alpha)).apply(to: c.input)
      expectAllClose(output, c.expected, "ema alpha=\(c.alpha)")
    }
    // span 7 ↔ alpha 2/(7+1), the third case
    let c = fixture.cases[2]
    expectAllClose(ExponentialMovingAverage(.span(7)).apply(to: c.input), c.expected, "ema span 7")
  }
}
