import Foundation
import Testing
import TouchCore
import TouchSignal
import TouchTestSupport

/// Analytic properties: constants stay constant, ramps have their slope as derivative, windows in
/// seconds convert by the documented rule, batch and single application agree.
@Suite("Smoothing properties")
struct SmoothingPropertyTests {
  static let constant = [Double](repeating: 2.35, count: 40)

  static let methods: [Smoothing] = [
    .gaussian(GaussianSmoothing(window: .samples(9), alpha: 2.5)),
    .gaussian(GaussianSmoothing(window: .samples(9), alpha: 2.5, ends: .padZero)),
    .median(MedianSmoothing(window: .samples(7))),
    .recursiveMedian(RecursiveMedianSmoothing(window: .samples(7))),
    .impulse(ImpulseRejection(window: .samples(7))),
    .moving(MovingWindowSmoothing(.mean, window: .samples(6), alignment: .trailing)),
    .moving(MovingWindowSmoothing(.median, window: .samples(5), alignment: .centered, ends: .truncate)),
    .savitzkyGolay(SavitzkyGolay(window: .samples(11), order: 3)),
    .exponential(ExponentialMovingAverage(.span(5))),
    .exponential(ExponentialMovingAverage(window: .seconds(0.05))),
  ]

  @Test(arguments: methods)
  func constantStaysConstant(_ method: Smoothing) throws {
    let trace = Trace.uniform(Self.constant)
    let output = try method.apply(to: trace)
    // Zero padding pulls the ends towards 0 by design; everything else is exact.
    let interior = method == Self.methods[1] ? 4..<36 : 0..<40
    for i in interior { #expect(isClose(output[i], 2.35, relative: 1e-12), "sample \(i): \(output[i])") }
  }

  @Test func gaussianDerivativeIsGSLsPerSampleValueAndRateIsTheExactSlope() throws {
    // A ramp of 3 force units per second at 120 Hz.
    let slope = 3.0
    let trace = Trace.uniform((0..<60).map { slope * Double($0) / 120 }, rate: 120)
    let perSample = try GaussianSmoothing(window: .samples(5), alpha: 2, derivative: 1).apply(to: trace)
    // GSL's discrete derivative-of-Gaussian kernel responds to a unit ramp with 0.92432 per sample
    // (K = 5, alpha = 2; computed by hand from the kernel 0.10898, 0.24420, 0, -0.24420, -0.10898).
    #expect(isClose(perSample[30], 0.924318 * slope / 120, relative: 1e-5))
    let rate = try ForceRate(.gaussian(window: .samples(5), alpha: 2)).apply(to: trace)
    for i in 2..<58 { #expect(isClose(rate[i], slope, relative: 1e-12), "sample \(i): \(rate[i])") }
    // The ends are padded with the end values, which flattens the ramp there.
    #expect(rate[0] < slope)
  }

  @Test(arguments: [(5, 1), (7, 2), (9, 3), (13, 4)])
  func savitzkyGolayDerivativeOfARampIsItsSlope(window: Int, order: Int) throws {
    let slope = -1.75
    let trace = Trace.uniform((0..<30).map { 4 + slope * Double($0) / 60 }, rate: 60)
    let sg = SavitzkyGolay(window: .samples(window), order: order, derivative: 1)
    let rate = try sg.apply(to: trace)
    // Polynomial-fit ends are exact too: the ramp is a polynomial of every order ≥ 1.
    for i in rate.indices { #expect(isClose(rate[i], slope, relative: 1e-9), "sample \(i): \(rate[i])") }
    let sgRate = try ForceRate(.savitzkyGolay(window: .samples(window), order: order)).apply(to: trace)
    for i in sgRate.indices { #expect(isClose(sgRate[i], slope, relative: 1e-9)) }
  }

  @Test func savitzkyGolayWeightsAreTheTextbookOnes() throws {
    let filter = try SavitzkyGolayFilter(length: 7, order: 2)
    let textbook = [-2.0, 3, 6, 7, 6, 3, -2].map { $0 / 21 }
    for (w, e) in zip(filter.coefficients, textbook) { #expect(isClose(w, e, relative: 1e-12)) }
    // First derivative, 5 points, quadratic: (-2, -1, 0, 1, 2) / 10 per sample.
    let derivative = try SavitzkyGolayFilter(length: 5, order: 2, derivative: 1)
    for (w, e) in zip(derivative.coefficients, [-0.2, -0.1, 0, 0.1, 0.2]) {
      #expect(abs(w - e) <= 1e-12)
    }
  }

  @Test func savitzkyGolayShrinksItsWindowOnShortTracesAndRefusesTooShortOnes() throws {
    let sg = SavitzkyGolay(window: .samples(9), order: 2)
    // 3 samples: the window shrinks to 3, where a quadratic passes through every point.
    let output = try sg.apply(to: [0.0, 1.0, 0.5])
    for (o, e) in zip(output, [0.0, 1.0, 0.5]) { #expect(abs(o - e) <= 1e-12) }
    let error = #expect(throws: SignalError.self) {
      try sg.apply(to: Trace.uniform([0.0, 1.0], id: "tap"))
    }
    #expect(error == .tooFewSamples(trace: "tap", operation: "Savitzky-Golay (degree 2)", needed: 3, available: 2))
  }

  @Test func windowsInSecondsUseTheMedianInterval() throws {
    // 100 Hz with jitter and a repeated timestamp: median positive interval 0.01 s.
    let t = [0, 0.01, 0.02, 0.02, 0.031, 0.04, 0.049, 0.06]
    let trace = Trace.sampled(t: t, force: [Double](repeating: 1, count: 8))
    #expect(trace.medianInterval.map { isClose($0, 0.01, relative: 1e-12) } == true)
    // K = round(S/Δ) + 1, then odd for centred windows.
    #expect(GaussianSmoothing(window: .seconds(0.05)).length(interval: 0.01) == 7)  // 5 + 1 = 6 → 7
    #expect(GaussianSmoothing(window: .seconds(0.04)).length(interval: 0.01) == 5)  // 4 + 1
    #expect(GaussianSmoothing(window: .seconds(0.045)).length(interval: 0.01) == 7)  // 4.5 → 5, + 1 = 6 → 7
    #expect(MovingWindowSmoothing(.mean, window: .seconds(0.05), alignment: .trailing).length(interval: 0.01) == 6)
    #expect(MedianSmoothing(window: .samples(4)).length(interval: nil) == 5)
    #expect(SavitzkyGolay(window: .seconds(0.001), order: 3).length(interval: 0.01) == 5)
  }

  @Test func aTraceWithoutTwoDistinctTimesCannotConvertSeconds() {
    let trace = Trace.sampled(t: [0.5, 0.5], force: [1, 2], id: "same")
    let error = #expect(throws: SignalError.self) {
      try GaussianSmoothing(window: .seconds(0.05)).apply(to: trace)
    }
    #expect(error == .noSamplingInterval(trace: "same"))
    #expect(error?.description.hasPrefix("trace 'same': no sampling interval") == true)
  }

  @Test func batchApplicationEqualsOneByOne() throws {
    var noise = SplitMix64(seed: 42)
    let traces = (0..<6).map { k in
      Trace.uniform((0..<(20 + 7 * k)).map { _ in abs(noise.normal(sd: 1)) }, rate: k < 3 ? 60 : 120, id: "t\(k)")
    }
    for method in Self.methods {
      let batch = try method.apply(to: traces)
      for (trace, output) in zip(traces, batch) { #expect(try method.apply(to: trace) == output) }
    }
  }

  @Test func smootherReusesItsWorkspaceAcrossSignals() throws {
    let smoother = try GaussianSmoother(length: 7, alpha: 3)
    var output: [Double] = []
    let a = [0.0, 1, 2, 3, 2, 1, 0, 0, 1]
    try smoother.apply(to: a, into: &output)
    #expect(output == (try GaussianSmoothing(window: .samples(7)).apply(to: a)))
    try smoother.apply(to: [], into: &output)
    #expect(output.isEmpty)
  }

  @Test func smoothedTracesKeepEverythingButForceAndStayValid() throws {
    let trace = Trace(
      metadata: TraceMetadata(id: "p", intent: .press, pressAt: [0.05], maxForce: 1),
      t: (0..<10).map { Double($0) / 60 }, force: [0, 0.1, 1, 1, 1, 1, 1, 1, 0.2, 0],
      x: (0..<10).map(Double.init), y: (0..<10).map { Double($0) * 2 })
    // Savitzky–Golay overshoots a saturated plateau and undershoots zero; the result is clamped.
    let raw = try SavitzkyGolay(window: .samples(5), order: 2).apply(to: trace)
    #expect(raw.contains { $0 > 1 } && raw.contains { $0 < 0 })
    let smoothed = try trace.smoothed(with: .savitzkyGolay(SavitzkyGolay(window: .samples(5), order: 2)))
    #expect(smoothed.force.allSatisfy { (0...1).contains($0) })
    #expect(smoothed.validate() == nil)
    #expect(smoothed.metadata == trace.metadata && smoothed.t == trace.t && smoothed.phase == trace.phase)
    #expect(smoothed.x == trace.x && smoothed.y == trace.y)
  }

  @Test func recursiveMedianReachesARootInOnePass() throws {
    var noise = SplitMix64(seed: 3)
    let x = (0..<80).map { _ in noise.normal(sd: 1) }
    let rmf = RecursiveMedianSmoothing(window: .samples(5))
    let once = try rmf.apply(to: x)
    #expect(try rmf.apply(to: once) == once)
  }

  @Test func impulseFloorKeepsQuantizationStepsThatGSLsImplosionRemoves() throws {
    // A plateau at 1 with one-step (1/60) wobbles and one real spike: every window on the
    // plateau has more equal samples than not, so its MAD is 0.
    let step = 1.0 / 60
    let force = [0, 1, 1, 1, 1 + step, 1, 1, 1, 1 - step, 1, 1, 2, 1, 1, 1, 1, 0.5, 0]
    let gsl = try ImpulseRejection(window: .samples(7), threshold: 3).detect(in: force)
    #expect(gsl.outliers == [4, 8, 11])
    #expect(gsl.values[4] == 1 && gsl.values[8] == 1 && gsl.values[11] == 1)
    #expect(gsl.zeroScaleWindows >= 10)
    let floored = try ImpulseRejection(window: .samples(7), threshold: 3, minimumScale: step).detect(in: force)
    #expect(floored.outliers == [11])
    #expect(floored.values[4] == 1 + step && floored.values[8] == 1 - step && floored.values[11] == 1)
  }

  @Test func exponentialTimeConstantWeighsElapsedTime() {
    // τ = 0.1 s: after Δt = 0.1 s a step is followed by 1 − e⁻¹.
    let ema = ExponentialMovingAverage(.timeConstant(0.1))
    let output = ema.apply(to: [0, 1, 1, 1], times: [0, 0.1, 0.1, 0.3])
    #expect(output[0] == 0)
    #expect(isClose(output[1], 1 - exp(-1), relative: 1e-15))
    #expect(output[2] == output[1])  // no time elapsed: no weight
    #expect(isClose(output[3], 1 - exp(-3), relative: 1e-15))
    #expect(ExponentialMovingAverage(window: .seconds(0.2)) == ExponentialMovingAverage(.timeConstant(0.1)))
  }

  @Test func causalityIsDeclared() {
    #expect(Smoothing.moving(MovingWindowSmoothing(.mean, window: .samples(3), alignment: .trailing)).isCausal)
    #expect(Smoothing.exponential(ExponentialMovingAverage(.alpha(0.3))).isCausal)
    #expect(!Smoothing.gaussian(GaussianSmoothing(window: .samples(3))).isCausal)
  }

  @Test func trailingMeanUsesOnlyThePast() throws {
    let x = [0.0, 0, 0, 3, 3, 3, 3]
    let trailing = try MovingWindowSmoothing(.mean, window: .samples(3), alignment: .trailing).apply(to: x)
    #expect(trailing == [0, 0, 0, 1, 2, 3, 3])
  }
}
