import Testing
import TouchCore
import TouchEvaluation
import TouchSignal
import TouchTestSupport

@testable import TouchTuning

/// Percentile bootstrap intervals on simulated data whose population values are known.
@Suite("Bootstrap intervals")
struct BootstrapTests {
  /// One simulated sample of `n` traces: each is a press with probability ½ (else a tap); a press
  /// is detected with probability 0.8, at a latency drawn from Normal(0.05 s, 0.02 s); a tap
  /// draws a false positive with probability 0.1.
  ///
  /// Population values: recall = 0.8; F1 = 2πp / (2πp + (1 − π)q + π(1 − p)) with π = ½, p = 0.8,
  /// q = 0.1, i.e. 0.8 / 0.95 = 16/19; median latency = 0.05 s.
  static func sample(n: Int, rng: inout SplitMix64) -> (outcomes: [TraceOutcome], truths: [TraceTruth]) {
    var outcomes: [TraceOutcome] = []
    var truths: [TraceTruth] = []
    for k in 0..<n {
      if Bool.random(using: &rng) {
        truths.append(
          TraceTruth(intent: .press, isPositive: true, references: [1], referenceSource: .pressAt, touchDown: 0))
        let detected = Double.random(in: 0..<1, using: &rng) < 0.8
        let latency = 0.05 + rng.normal(sd: 0.02)
        let matches = detected ? [MatchedEvent(action: 1 + latency, reference: 1, touchDown: 0)] : []
        outcomes.append(
          TraceOutcome(
            trace: k, stage1: StageOutcome(isPositive: true, actions: matches.count, references: 1, matches: matches)))
      } else {
        truths.append(TraceTruth(intent: .tap, isPositive: false, references: [], referenceSource: nil, touchDown: 0))
        let fired = Double.random(in: 0..<1, using: &rng) < 0.1
        outcomes.append(
          TraceOutcome(
            trace: k, stage1: StageOutcome(isPositive: false, actions: fired ? 1 : 0, references: 0, matches: [])))
      }
    }
    return (outcomes, truths)
  }

  /// 200 repetitions, each a fresh sample of 100 traces and a 95 % interval from 200 resamples
  /// (sizes that keep the test to a few seconds in a debug build; it found 185, 190 and 180
  /// covering intervals for recall, F1 and the median latency).
  /// If the intervals covered at exactly the nominal rate, the number that cover the true value
  /// would be X ~ Binomial(200, 0.95). The acceptance band is 179 ≤ X ≤ 198: under that law
  /// P(X ≤ 178) = 0.00048 and P(X ≥ 199) = 0.000035 (scipy.stats.binom.cdf(178, 200, 0.95),
  /// binom.sf(198, 200, 0.95)), so a procedure at the nominal rate lands outside with
  /// probability 0.0005; percentile intervals at n = 200 are known to run slightly below nominal,
  /// which the lower end leaves room for.
  @Test func intervalsCoverTheTrueValueAtAboutTheNominalRate() throws {
    var rng = SplitMix64(seed: 2024)
    var random = try RandomSource(seed: 11)
    let truth: [(TuningStatistic, Double)] = [(.recall, 0.8), (.f1, 16.0 / 19), (.latencyP50, 0.05)]
    var covered = [Int](repeating: 0, count: truth.count)
    let repetitions = 200
    for _ in 0..<repetitions {
      let (outcomes, truths) = Self.sample(n: 100, rng: &rng)
      let intervals = Bootstrap.intervals(
        of: truth.map(\.0), outcomeLists: [outcomes], truths: truths, units: outcomes.indices.map { [$0] },
        options: BootstrapOptions(resamples: 200, confidence: 0.95), random: &random, threads: 2)[0]
      for (s, (_, value)) in truth.enumerated() where intervals[s].contains(value) { covered[s] += 1 }
    }
    for (s, (statistic, _)) in truth.enumerated() {
      #expect(
        (179...198).contains(covered[s]), "\(statistic): \(covered[s]) of \(repetitions) intervals cover the true value"
      )
    }
  }

  @Test func theSameSeedGivesTheSameIntervalsWhateverTheThreadCount() throws {
    var rng = SplitMix64(seed: 5)
    let (outcomes, truths) = Self.sample(n: 150, rng: &rng)
    func intervals(seed: UInt64, threads: Int) throws -> [ConfidenceInterval] {
      var random = try RandomSource(seed: seed)
      return Bootstrap.intervals(
        of: TuningStatistic.standard, outcomeLists: [outcomes], truths: truths, units: outcomes.indices.map { [$0] },
        options: BootstrapOptions(resamples: 300), random: &random, threads: threads)[0]
    }
    let one = try intervals(seed: 3, threads: 1)
    #expect(try intervals(seed: 3, threads: 3) == one)
    // 100 threads draw 100 resamples a batch, not 64: the same draws, in the same order.
    #expect(try intervals(seed: 3, threads: 100) == one)
    #expect(try intervals(seed: 4, threads: 1) != one)
    // The estimate is the statistic on the original sample, inside its interval here.
    let m = ConfigurationMetrics(
      outcomes: outcomes, truths: truths,
      shape: OutcomeShape(twoStage: false, reportsFlaps: false, isComposition: false))
    #expect(one[0].estimate == m.stage1.f1 && one[0].contains(m.stage1.f1!))
    #expect(one.allSatisfy { $0.resamples == 300 && $0.confidence == 0.95 })
  }

  /// A batch of resamples holds at most about four million drawn units (32 MB of indices), and
  /// at least one resample per thread.
  @Test func aBatchOfResamplesIsBoundedByTheUnitsDrawn() {
    #expect(Bootstrap.batch(units: 343, threads: 2) == 64)
    #expect(Bootstrap.batch(units: 240_000, threads: 2) == 16)  // 3.84 million units, 31 MB
    #expect(Bootstrap.batch(units: 10_000_000, threads: 2) == 2)
    #expect(Bootstrap.batch(units: 343, threads: 100) == 100)
  }

  @Test func groupsAreResampledWhole() throws {
    // Units of 1 and 10 positions: a resample of two units holds 2, 11 or 20 positions, and
    // each drawn unit's positions appear together.
    var random = try RandomSource(seed: 1)
    let units = [[0], Array(1...10)]
    let values = Bootstrap.resampledValues(
      units: units, options: BootstrapOptions(resamples: 200), random: &random, threads: 2
    ) {
      positions in [Double(positions.count), positions.contains(1) && !positions.contains(10) ? 1 : 0]
    }
    #expect(Set(values.map { $0[0]! }) == [2, 11, 20])
    #expect(values.allSatisfy { $0[1] == 0 })
  }

  @Test func undefinedResamplesAreCountedAndLeftOut() throws {
    // Percentile bounds by hand: values 1…5 and two undefined; 90 % → quantiles 0.05 and 0.95 of
    // [1, 2, 3, 4, 5] (R type 7): 1 + 0.05·4 = 1.2 and 1 + 0.95·4 = 4.8.
    let interval = Bootstrap.interval(of: [3, nil, 1, 5, nil, 2, 4], estimate: 3, confidence: 0.9)
    #expect(interval.defined == 5 && interval.resamples == 7)
    #expect(abs(interval.lower! - 1.2) < 1e-12 && abs(interval.upper! - 4.8) < 1e-12)
    let none = Bootstrap.interval(of: [nil, nil], estimate: nil, confidence: 0.95)
    #expect(none.lower == nil && none.upper == nil && none.defined == 0 && !none.contains(0))
  }
}
