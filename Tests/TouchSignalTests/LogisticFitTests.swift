import Testing
import TouchCore
import TouchSignal
import TouchTestSupport

@Suite("Logistic ramp fit")
struct LogisticFitTests {
  struct Reference: Decodable {
    var truth: [Double], t: [Double], clean: [Double], noisy: [Double], scipy_fit: [Double], scipy_rms: Double
  }

  static func values(_ p: LogisticFit.Parameters?) -> [Double]? {
    p.map { [$0.base, $0.amplitude, $0.midpoint, $0.slope] }
  }

  /// Fits the reference's `force` column with the default fitting, expecting convergence: the
  /// reference, the fit and its parameters as `[base, amplitude, midpoint, slope]`.
  static func fitReference(
    _ force: KeyPath<Reference, [Double]>, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> (reference: Reference, fit: LogisticFit, found: [Double]) {
    let reference = try Fixture.load("logistic.json", as: Reference.self)
    let fit = LogisticFitting().fit(t: reference.t, force: reference[keyPath: force])
    #expect(fit.isConverged, "\(fit.status)", sourceLocation: sourceLocation)
    let found = try #require(values(fit.parameters), sourceLocation: sourceLocation)
    return (reference, fit, found)
  }

  @Test func recoversTheParametersOfANoiselessRamp() throws {
    let (reference, fit, found) = try Self.fitReference(\.clean)
    for (value, truth) in zip(found, reference.truth) { #expect(isClose(value, truth, relative: 1e-6), "\(found)") }
    #expect(try #require(fit.rmsResidual) < 1e-9)
  }

  @Test func agreesWithScipyOnANoisyRampAndStaysNearTheTruth() throws {
    let (reference, fit, found) = try Self.fitReference(\.noisy)
    // The same least-squares minimum as scipy.optimize.curve_fit.
    for (value, scipy) in zip(found, reference.scipy_fit) { #expect(isClose(value, scipy, relative: 1e-6), "\(found)") }
    #expect(isClose(try #require(fit.rmsResidual), reference.scipy_rms, relative: 1e-9))
    Self.expectNearTruth(found, reference.truth)
  }

  @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
  func recoversSeededNoisyRampsWithinTheStatedTolerance(seed: UInt64) throws {
    // Noise sd 0.05 force units on a 3.2-unit ramp, 40 samples at 120 Hz.
    let truth = LogisticFit.Parameters(base: 0.05, amplitude: 3.2, midpoint: 0.21, slope: 35)
    var noise = SplitMix64(seed: seed)
    let t = (0..<40).map { 0.1 + Double($0) / 120 }
    let y = t.map { truth.value(at: $0) + noise.normal(sd: 0.05) }
    let fit = LogisticFitting().fit(t: t, force: y)
    #expect(fit.isConverged, "\(fit.status)")
    Self.expectNearTruth(try #require(Self.values(fit.parameters)), [0.05, 3.2, 0.21, 35])
  }

  /// The stated tolerance for noise sd 0.05 on this ramp: base ±0.08, amplitude ±4 %, midpoint
  /// ±3 ms, slope ±20 %.
  static func expectNearTruth(_ p: [Double], _ truth: [Double], sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(abs(p[0] - truth[0]) <= 0.08, "base \(p[0])", sourceLocation: sourceLocation)
    #expect(abs(p[1] - truth[1]) <= 0.04 * truth[1], "amplitude \(p[1])", sourceLocation: sourceLocation)
    #expect(abs(p[2] - truth[2]) <= 0.003, "midpoint \(p[2])", sourceLocation: sourceLocation)
    #expect(abs(p[3] - truth[3]) <= 0.2 * truth[3], "slope \(p[3])", sourceLocation: sourceLocation)
  }

  @Test func aFitThatDoesNotConvergeCarriesNoNumbers() throws {
    let reference = try Fixture.load("logistic.json", as: Reference.self)
    let fit = LogisticFitting(maximumIterations: 1).fit(t: reference.t, force: reference.noisy)
    #expect(!fit.isConverged)
    #expect(fit.status.key == "max_iterations")
    #expect(fit.parameters == nil && fit.rmsResidual == nil)
    guard case .didNotConverge(let error) = fit.status else {
      Issue.record("expected didNotConverge, got \(fit.status)")
      return
    }
    #expect(error.function == "gsl_multifit_nlinear_driver")
    #expect(error.status == 11)  // GSL_EMAXITER
  }

  @Test func flatAndShortInputsAreReported() {
    let flat = LogisticFitting().fit(t: [0, 1, 2, 3, 4, 5], force: [1, 1, 1, 1, 1, 1])
    #expect(flat.status == .flat && flat.status.key == "flat")
    let short = LogisticFitting().fit(t: [0, 1, 2, 3], force: [0, 1, 2, 3])
    #expect(short.status == .tooFewSamples(4) && short.status.key == "too_few_samples")
  }

  @Test func theRampIsTheRiseThroughThePlateau() {
    // Peak 4 first at index 3; the plateau at ≥ 3.6 runs through index 5; release after.
    #expect(LogisticFitting.rampRange(of: [0, 1, 3, 4, 3.8, 3.9, 2, 0]) == 0..<6)
    #expect(LogisticFitting.rampRange(of: []) == 0..<0)
  }

  @Test func fitsTheRiseOfATraceOnItsOwnClock() throws {
    let truth = LogisticFit.Parameters(base: 0, amplitude: 2, midpoint: 10.25, slope: 40)
    let t = (0..<30).map { 10 + Double($0) / 60 }
    let rise = t.map { truth.value(at: $0) }
    let trace = Trace.sampled(t: t + [t.last! + 1.0 / 60, t.last! + 2.0 / 60], force: rise + [1, 0])
    let fit = LogisticFitting().fitRamp(of: trace)
    #expect(fit.samples == 30)
    let p = try #require(fit.parameters)
    #expect(isClose(p.midpoint, 10.25, relative: 1e-6) && isClose(p.slope, 40, relative: 1e-6))
  }
}
