import Testing
import TouchCore
import TouchSignal
import TouchTestSupport

@Suite("Force features")
struct FeatureTests {
  /// 10 Hz, force 0, 1, 3, 4, 4, 2, 0 with max force 8; every value below is computed by hand.
  static let handBuilt = Trace.uniform([0, 1, 3, 4, 4, 2, 0], rate: 10, id: "h", maxForce: 8)

  @Test func handBuiltTraceGivesHandComputedFeatures() throws {
    let f = try FeatureExtraction.standard.features(of: Self.handBuilt)
    #expect(f.samples == 7)
    #expect(isClose(f.duration, 0.6, relative: 1e-12))
    #expect(f.peakForce == 4 && f.peakForceNormalized == 0.5)
    #expect(isClose(f.peakTime, 0.3, relative: 1e-12) && isClose(f.timeToPeak, 0.3, relative: 1e-12))
    // 90 % = 3.6 reached at 0.2 + 0.6/1·0.1 = 0.26 s; 10 % = 0.4 crossed at 0.04 s.
    #expect(isClose(try #require(f.riseTime), 0.22, relative: 1e-12))
    // Trapezoids: 0.05 + 0.2 + 0.35 + 0.4 + 0.3 + 0.1.
    #expect(isClose(f.impulse, 1.4, relative: 1e-12))
    // Level 2 (half the peak): from 0.15 s (1 → 3) to 0.5 s (2 → 0 starts at 2).
    #expect(f.level == 2)
    #expect(isClose(try #require(f.timeAboveLevel), 0.35, relative: 1e-12))
    #expect(f.peakCount == 1)
    #expect(f.saturatedSamples == 0)
    #expect(f.quantization?.step == 1)
    #expect(f.fit.samples == 5)
  }

  @Test func saturationCountsSamplesAtTheMaximum() throws {
    var trace = Self.handBuilt
    trace.metadata.maxForce = 4
    #expect(try FeatureExtraction.standard.features(of: trace).saturatedSamples == 2)
    trace.metadata.maxForce = nil
    let unknown = try FeatureExtraction.standard.features(of: trace)
    #expect(unknown.saturatedSamples == nil && unknown.peakForceNormalized == nil)
  }

  @Test func levelsResolveAgainstPeakOrMaximum() throws {
    let normalized = FeatureExtraction(level: .normalized(0.375))
    #expect(try normalized.features(of: Self.handBuilt).level == 3)
    var noMaximum = Self.handBuilt
    noMaximum.metadata.maxForce = nil
    let f = try normalized.features(of: noMaximum)
    #expect(f.level == nil && f.timeAboveLevel == nil)
    let absolute = try FeatureExtraction(level: .force(4)).features(of: Self.handBuilt)
    #expect(isClose(try #require(absolute.timeAboveLevel), 0.1, relative: 1e-12))
  }

  @Test func maxRateOfALinearRampIsItsSlope() throws {
    // 12 force units per second for 1 s, sampled irregularly around 60 Hz, then held.
    var noise = SplitMix64(seed: 11)
    var t: [Double] = [0]
    while t.last! < 1.5 { t.append(t.last! + 1.0 / 60 + noise.normal(sd: 0.001)) }
    let force = t.map { min($0, 1) * 12 }
    let f = try FeatureExtraction.standard.features(of: Trace.sampled(t: t, force: force))
    #expect(isClose(try #require(f.maxRate), 12, relative: 1e-9))
    #expect(try #require(f.maxRateTime) < 1)
  }

  struct PeaksCase: Decodable {
    var signal: String, minimumProminence: Double, input: [Double], indices: [Int], prominences: [Double]
  }

  @Test func peaksMatchScipyFindPeaks() throws {
    let fixture = try Fixture.load("peaks.json", as: Fixture.Cases<PeaksCase>.self)
    #expect(fixture.cases.count == 10)
    for c in fixture.cases {
      let peaks = ForcePeaks.find(in: c.input, minimumProminence: c.minimumProminence)
      #expect(peaks.map(\.index) == c.indices, "\(c.signal) prominence ≥ \(c.minimumProminence)")
      expectAllClose(peaks.map(\.prominence), c.prominences, "\(c.signal) prominences")
    }
  }

  struct Trapezoid: Decodable {
    var t: [Double], force: [Double], impulse: Double
  }

  @Test func impulseMatchesNumpyTrapezoid() throws {
    let reference = try Fixture.load("trapezoid.json", as: Trapezoid.self)
    let f = try FeatureExtraction.standard.features(of: Trace.sampled(t: reference.t, force: reference.force))
    #expect(isClose(f.impulse, reference.impulse, relative: 1e-12))
  }

  @Test func aRiseThatWasNotRecordedHasNoRiseTime() throws {
    // Starts above 10 % of the peak.
    let f = try FeatureExtraction.standard.features(of: Trace.uniform([2, 3, 4, 2]))
    #expect(f.riseTime == nil)
    let zero = try FeatureExtraction.standard.features(of: Trace.uniform([0, 0, 0]))
    #expect(zero.riseTime == nil && zero.level == nil && zero.peakCount == 0 && zero.fit.status == .tooFewSamples(3))
  }

  @Test func twoPressesCountTwoPeaks() throws {
    let force: [Double] = [0, 1, 2, 3, 2, 1.5, 2.5, 3.5, 2, 0]
    let f = try FeatureExtraction.standard.features(of: Trace.uniform(force))
    // Prominences 3 − 1.5 = 1.5 and 3.5: both above 20 % of the peak (0.7).
    #expect(f.peakCount == 2)
    let strict = try FeatureExtraction(minimumProminence: .force(2)).features(of: Trace.uniform(force))
    #expect(strict.peakCount == 1)
  }
}

@Suite("Force features with other settings")
struct FeatureSettingsTests {
  @Test func savitzkyGolayRateSkipsSegmentsTooShortForIt() throws {
    // Two 5 ms pieces 0.3 s apart: the gap is kept, each piece resamples to 2 grid samples at
    // 240 Hz, too few for a cubic.
    let extraction = FeatureExtraction(rate: ForceRate(.savitzkyGolay(window: .samples(7), order: 3)))
    let f = try extraction.features(of: Trace.sampled(t: [0, 0.005, 0.3, 0.305], force: [0, 1, 1, 2]))
    #expect(f.maxRate == nil)
    // A long linear ramp: the Savitzky-Golay rate is its slope.
    let ramp = Trace.uniform((0..<50).map { Double($0) * 0.1 }, rate: 60)
    #expect(isClose(try #require(try extraction.features(of: ramp).maxRate), 6, relative: 1e-9))
  }
}
