import Testing
import TouchCore
import TouchEvaluation
import TouchSignal
import TouchTuning

/// McNemar's test against p-values computed by hand (exact binomial sums) and by SciPy
/// (`scipy.stats.chi2.sf`, noted beside each), and the paired latency difference.
@Suite("Paired comparison")
struct ComparisonTests {
  @Test func exactBinomialForFewDiscordantPairs() throws {
    // b = 3, c = 9: 12 < 25 → exact. P(X ≤ 3), X ~ Bin(12, ½) = (1 + 12 + 66 + 220) / 4096 =
    // 299/4096; two-sided p = 598/4096 = 0.14599609375.
    let t = try McNemarTest(bothCorrect: 50, onlyA: 3, onlyB: 9, neither: 4)
    #expect(t.method == .exactBinomial && t.statistic == nil && t.discordant == 12 && t.total == 66)
    #expect(abs(t.pValue - 598.0 / 4096) < 1e-14)
    // b = 7, c = 17: 24 < 25 → exact. Σ_{i≤7} C(24, i) = 1 + 24 + 276 + 2024 + 10626 + 42504 +
    // 134596 + 346104 = 536155; p = 2 · 536155 / 2^24 = 0.06391465663909912.
    let u = try McNemarTest(bothCorrect: 0, onlyA: 7, onlyB: 17, neither: 0)
    #expect(u.method == .exactBinomial && abs(u.pValue - 2 * 536155.0 / 16_777_216) < 1e-14)
    // Symmetric in A and B.
    #expect(try McNemarTest(bothCorrect: 0, onlyA: 17, onlyB: 7, neither: 0).pValue == u.pValue)
    // b = c = 5: 2 · P(X ≤ 5), X ~ Bin(10, ½) = 2 · 638/1024 > 1 → p = 1.
    #expect(try McNemarTest(bothCorrect: 1, onlyA: 5, onlyB: 5, neither: 1).pValue == 1)
    // No discordant pair: nothing to tell them apart, p = 1.
    #expect(try McNemarTest(bothCorrect: 9, onlyA: 0, onlyB: 0, neither: 3).pValue == 1)
  }

  @Test func chiSquareFromTwentyFiveDiscordantPairs() throws {
    // b = 10, c = 25: 35 ≥ 25 → χ² = (|10 − 25| − 1)² / 35 = 196/35 = 5.6;
    // p = chi2.sf(5.6, 1) = 0.01796047752607879.
    let t = try McNemarTest(bothCorrect: 100, onlyA: 10, onlyB: 25, neither: 5)
    #expect(t.method == .chiSquareCorrected && t.statistic == 196.0 / 35)
    #expect(abs(t.pValue - 0.01796047752607879) < 1e-12)
    // Without the correction: χ² = 15² / 35 = 225/35; p = chi2.sf(225/35, 1) = 0.011229886652916672.
    let raw = try McNemarTest(bothCorrect: 100, onlyA: 10, onlyB: 25, neither: 5, continuityCorrection: false)
    #expect(raw.method == .chiSquare && raw.statistic == 225.0 / 35)
    #expect(abs(raw.pValue - 0.011229886652916672) < 1e-12)
    // The cutoff: b + c = 25 uses chi-square. b = 5, c = 20: χ² = 14² / 25 = 7.84;
    // p = chi2.sf(7.84, 1) = 0.005110260660855866.
    let edge = try McNemarTest(bothCorrect: 0, onlyA: 5, onlyB: 20, neither: 0)
    #expect(edge.method == .chiSquareCorrected && edge.statistic == 7.84)
    #expect(abs(edge.pValue - 0.005110260660855866) < 1e-12)
    // b = c with many pairs: the corrected statistic is 0, p = 1.
    #expect(try McNemarTest(bothCorrect: 0, onlyA: 20, onlyB: 20, neither: 0).pValue == 1)
  }

  /// Four traces (0 and 1 presses with one reference each, 2 a press with two references, 3 a
  /// tap) and two configurations' outcomes on them.
  static func fourTraces() -> (truths: [TraceTruth], a: [TraceOutcome], b: [TraceOutcome]) {
    let truths = [
      TraceTruth(intent: .press, isPositive: true, references: [1], referenceSource: .pressAt, touchDown: 0),
      TraceTruth(intent: .press, isPositive: true, references: [1], referenceSource: .pressAt, touchDown: 0),
      TraceTruth(intent: .press, isPositive: true, references: [1, 2], referenceSource: .pressAt, touchDown: 0),
      TraceTruth(intent: .tap, isPositive: false, references: [], referenceSource: nil, touchDown: 0),
    ]
    func press(_ k: Int, references: Int, _ actions: [(action: Double, reference: Double)]) -> TraceOutcome {
      TraceOutcome(
        trace: k,
        stage1: StageOutcome(
          isPositive: true, actions: actions.count, references: references,
          matches: actions.map { MatchedEvent(action: $0.action, reference: $0.reference, touchDown: 0) }))
    }
    func tap(_ fired: Bool) -> TraceOutcome {
      TraceOutcome(
        trace: 3, stage1: StageOutcome(isPositive: false, actions: fired ? 1 : 0, references: 0, matches: []))
    }
    // A: acts at 1.02 on trace 0, misses trace 1, acts at 1.03 and 2.01 on trace 2, fires on the tap.
    let a = [
      press(0, references: 1, [(1.02, 1)]), press(1, references: 1, []),
      press(2, references: 2, [(1.03, 1), (2.01, 2)]), tap(true),
    ]
    // B: acts at 1.06 on 0, at 1.1 on 1, only at 2.0 on 2, not on the tap.
    let b = [
      press(0, references: 1, [(1.06, 1)]), press(1, references: 1, [(1.1, 1)]), press(2, references: 2, [(2.0, 2)]),
      tap(false),
    ]
    return (truths, a, b)
  }

  @Test func decisionsAndLatencyDifferencesOfTwoConfigurations() throws {
    let (truths, a, b) = Self.fourTraces()
    let shape = OutcomeShape(twoStage: false, reportsFlaps: false, isComposition: false)
    var random = try RandomSource(seed: 1)
    let comparison = try PairedComparison(
      a: a, shapeA: shape, b: b, shapeB: shape, truths: truths, units: [[0], [1], [2], [3]],
      bootstrap: BootstrapOptions(resamples: 500), random: &random)
    // Correct: A on 0 and 2; B on 0, 1 and 3 → both 1 (trace 0), only A 1 (trace 2), only B 2
    // (traces 1 and 3), neither 0. Exact: 2 · P(X ≤ 1), X ~ Bin(3, ½) = 2 · 4/8 = 1.
    let t = comparison.mcnemar
    #expect(t.bothCorrect == 1 && t.onlyA == 1 && t.onlyB == 2 && t.neither == 0 && t.pValue == 1)
    // Pairs on references both matched: trace 0 (1.06 − 1.02 = 0.04), trace 2 reference 2
    // (2.0 − 2.01 = −0.01). Mean 0.015, median 0.015, sd = √((0.025² + 0.025²)/1) = 0.0353553….
    let d = comparison.latencyDifferences
    #expect(d.count == 2 && comparison.tracesBothDetect == 2)
    #expect(abs(d.values[0] - 0.04) < 1e-12 && abs(d.values[1] + 0.01) < 1e-12)
    #expect(abs(d.mean! - 0.015) < 1e-12 && abs(d.median! - 0.015) < 1e-12)
    #expect(abs(d.standardDeviation! - (2 * 0.025 * 0.025).squareRoot()) < 1e-12)
    #expect(d.negative == 1 && d.positive == 1 && d.zero == 0)
    // The interval's resample means lie between the two differences; resamples without traces 0
    // and 2 have no pair and are counted as undefined.
    let interval = try #require(comparison.meanDifferenceInterval)
    #expect(interval.resamples == 500 && interval.defined < 500 && interval.defined > 400)
    #expect(interval.lower! >= -0.01 - 1e-12 && interval.upper! <= 0.04 + 1e-12 && interval.estimate == d.mean)
    #expect(comparison.a.stage1.truePositives == 3 && comparison.b.stage1.truePositives == 3)
    #expect(comparison.a.stage1.falsePositives == 1 && comparison.b.stage1.falseNegatives == 1)
  }
  /// B acting first is not B being better timed: with A at +20 and +30 ms and B at −50 and
  /// +10 ms from the references, B − A is −70 and −20 ms (B first on both), while |B| − |A| is
  /// +30 ms (A nearer: B's early action is 50 ms off) and −20 ms (B nearer): mean +5 ms.
  @Test func timingErrorDifferencesDoNotRewardActingEarly() throws {
    let truths = (0..<2).map { _ in
      TraceTruth(intent: .press, isPositive: true, references: [1], referenceSource: .pressAt, touchDown: 0)
    }
    func press(_ k: Int, _ action: Double) -> TraceOutcome {
      TraceOutcome(
        trace: k,
        stage1: StageOutcome(
          isPositive: true, actions: 1, references: 1,
          matches: [MatchedEvent(action: action, reference: 1, touchDown: 0)]))
    }
    let shape = OutcomeShape(twoStage: false, reportsFlaps: false, isComposition: false)
    var random = try RandomSource(seed: 1)
    let comparison = try PairedComparison(
      a: [press(0, 1.02), press(1, 1.03)], shapeA: shape, b: [press(0, 0.95), press(1, 1.01)], shapeB: shape,
      truths: truths, units: [[0], [1]], bootstrap: BootstrapOptions(resamples: 200), random: &random)
    let d = comparison.latencyDifferences
    #expect(abs(d.values[0] + 0.07) < 1e-12 && abs(d.values[1] + 0.02) < 1e-12 && d.negative == 2)
    let e = comparison.timingErrorDifferences
    #expect(abs(e.values[0] - 0.03) < 1e-12 && abs(e.values[1] + 0.02) < 1e-12)
    #expect(e.negative == 1 && e.positive == 1 && abs(e.mean! - 0.005) < 1e-12)
    // Both intervals come from the same resamples: each lies between its two differences.
    let interval = try #require(comparison.meanTimingErrorDifferenceInterval)
    #expect(interval.lower! >= -0.02 - 1e-12 && interval.upper! <= 0.03 + 1e-12 && interval.estimate == e.mean)
    #expect(comparison.meanDifferenceInterval?.resamples == 200 && interval.resamples == 200)
  }

  /// Compared as the traces pass (the verdict's second read), the same four traces give the
  /// same hand-computed counts, differences and metrics, without a bootstrap interval.
  @Test func accumulatedAsTheTracesPassItIsTheSameComparison() throws {
    let (truths, a, b) = Self.fourTraces()
    let shape = OutcomeShape(twoStage: false, reportsFlaps: false, isComposition: false)
    var accumulator = PairedComparison.Accumulator(shapeA: shape, shapeB: shape)
    for (x, y) in zip(a, b) {
      accumulator.add(x, y, intent: truths[x.trace].intent, actualClass: truths[x.trace].actualClass)
    }
    #expect(accumulator.count == 4)
    let comparison = try accumulator.finish()
    let t = comparison.mcnemar
    #expect(t.bothCorrect == 1 && t.onlyA == 1 && t.onlyB == 2 && t.neither == 0 && t.pValue == 1)
    let d = comparison.latencyDifferences
    #expect(d.count == 2 && comparison.tracesBothDetect == 2)
    #expect(abs(d.values[0] - 0.04) < 1e-12 && abs(d.values[1] + 0.01) < 1e-12)
    let e = comparison.timingErrorDifferences
    // |1.06 − 1| − |1.02 − 1| = 0.04; |2.0 − 2| − |2.01 − 2| = −0.01.
    #expect(abs(e.values[0] - 0.04) < 1e-12 && abs(e.values[1] + 0.01) < 1e-12)
    #expect(comparison.meanDifferenceInterval == nil && comparison.meanTimingErrorDifferenceInterval == nil)
    #expect(comparison.a.stage1.truePositives == 3 && comparison.b.stage1.truePositives == 3)
    #expect(comparison.a.stage1.falsePositives == 1 && comparison.b.stage1.falseNegatives == 1)
    // Every metric as the whole lists give it.
    #expect(comparison.a == ConfigurationMetrics(outcomes: a, truths: truths, shape: shape))
    #expect(comparison.b == ConfigurationMetrics(outcomes: b, truths: truths, shape: shape))
  }
}
