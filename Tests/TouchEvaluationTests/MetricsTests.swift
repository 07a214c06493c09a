import Testing
import TouchCore
import TouchEvaluation
import TouchRecognizers
import TouchSignal
import TouchTestSupport

/// Hand-built datasets scored end to end (replay → matching → metrics), against counts and
/// latencies worked out by hand in the comments.
@Suite("Metrics on hand-built datasets")
struct MetricsTests {
  static let step = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1]

  /// deep-press at threshold 0.5 (maxForce 1), tolerance 0.25 s.
  static var singleStage: [Trace] {
    [
      // A press at 0.10: action at 0.10 (0.6 ≥ 0.5) → TP, latency 0, from down 0.10; release at 0.20.
      trace(
        "A", t: [0, 0.05, 0.10, 0.15, 0.20, 0.25], force: [0, 0.3, 0.6, 0.8, 0.4, 0.1], intent: .press, pressAt: [0.10]),
      // B press at 0.30: action at 0.2 → TP, early (latency −0.1), from down 0.2; release at 0.4.
      trace("B", t: Array(step[0..<6]), force: [0, 0.2, 0.55, 0.9, 0.2, 0.1], intent: .press, pressAt: [0.30]),
      // C pop (peek 0.2, pop 0.5): action at 0.5 is 0.3 s after the peek → FP + FN; release at 0.7.
      trace(
        "C", t: Array(step[0..<9]), force: [0, 0.2, 0.3, 0.35, 0.4, 0.7, 0.9, 0.1, 0.05], intent: .pop,
        pressAt: [0.2, 0.5]),
      // D tap hard enough: action at 0.05 → FP (tap); release at 0.1.
      trace("D", t: [0, 0.05, 0.1, 0.15], force: [0, 0.7, 0.2, 0], intent: .tap),
      // E hold below the threshold → TN.
      trace("E", t: Array(step[0..<5]), force: [0, 0.2, 0.3, 0.2, 0.1], intent: .hold),
      // F has no intent label → skipped.
      trace("F", t: [0, 0.1], force: [0, 0.9]),
      // H press at 0.40, action at 0.65: exactly at the tolerance edge → TP, latency 0.25; release at 0.8.
      trace(
        "H", t: [0, 0.2, 0.4, 0.65, 0.8, 0.9], force: [0, 0.1, 0.2, 0.6, 0.1, 0.05], intent: .press, pressAt: [0.40]),
      // I press at 0.40, action at 0.651: just outside → FP + FN; release at 0.8.
      trace(
        "I", t: [0, 0.2, 0.4, 0.651, 0.8, 0.9], force: [0, 0.1, 0.2, 0.6, 0.1, 0.05], intent: .press, pressAt: [0.40]),
    ]
  }

  @Test func singleStageCountsRatesAndLatencies() throws {
    let evaluation = Evaluation(dataset: dataset(Self.singleStage), options: EvaluationOptions(tolerance: 0.25))
    #expect(evaluation.dataset.total == 8)
    #expect(evaluation.traces.map(\.name) == ["A", "B", "C", "D", "E", "H", "I"])
    #expect(evaluation.dataset.skipped.map(\.reason) == ["no intent label"])
    let recognizer = try AnyForceRecognizer(variant: "deep-press", settings: [("threshold", "0.5")])
    let outcomes = try evaluation.outcomes(of: recognizer)
    let m = evaluation.metrics(of: outcomes, shape: OutcomeShape(recognizer: recognizer))
    let s = m.stage1
    #expect((s.truePositives, s.falsePositives, s.falseNegatives, s.trueNegatives) == (3, 3, 2, 1))
    #expect((s.positiveTraces, s.negativeTraces, s.falsePositiveTraces, s.references, s.actions) == (5, 2, 1, 5, 6))
    #expect(s.precision == 0.5)
    #expect(s.recall == 0.6)
    #expect(s.f1 == 6.0 / 11)
    #expect(s.accuracy == 4.0 / 9)
    #expect(s.falsePositiveRate == 0.5)
    #expect(
      s.falsePositivesByIntent[.pop] == 1 && s.falsePositivesByIntent[.tap] == 1
        && s.falsePositivesByIntent[.press] == 1)
    #expect(s.falsePositivesByIntent.total == 3)
    #expect(m.flaps == 6)
    #expect(m.stage2 == nil && m.confusion == nil && m.addedLatency == nil)
    // Latencies −0.1, 0, 0.25: R type 7 p90 = x₁ + 0.8·(x₂ − x₁) = 0.2, p99 = x₁ + 0.98·(x₂ − x₁) = 0.245; sd² = 0.065/2.
    let l = s.latency
    #expect(l.count == 3 && l.early == 1)
    #expect(close(l.minimum, -0.1) && close(l.maximum, 0.25) && close(l.mean, 0.05))
    #expect(close(l.p50, 0) && close(l.p90, 0.2) && close(l.p95, 0.225) && close(l.p99, 0.245))
    #expect(close(l.standardDeviation, (0.0325 as Double).squareRoot()))
    let d = s.latencyFromDown
    #expect(d.count == 3 && d.early == 0 && close(d.p50, 0.2) && close(d.mean, 0.95 / 3) && close(d.maximum, 0.65))
    // Per trace: H matched at the edge, I not.
    let h = outcomes[5].stage1
    #expect(h.matches.count == 1 && close(h.matches[0].latency, 0.25) && h.isCorrect)
    #expect(
      outcomes[6].stage1.truePositives == 0 && outcomes[6].stage1.falsePositives == 1
        && outcomes[6].stage1.falseNegatives == 1)
  }

  @Test func emptyCasesAreUndefinedNotZero() throws {
    // No positives, no actions: precision, recall, F1 undefined; FPR 0 over one negative.
    let evaluation = Evaluation(dataset: dataset([trace("E", t: [0, 0.1, 0.2], force: [0, 0.1, 0], intent: .hold)]))
    let recognizer = try AnyForceRecognizer(variant: "deep-press")
    let m = evaluation.metrics(of: try evaluation.outcomes(of: recognizer), shape: OutcomeShape(recognizer: recognizer))
    #expect(m.stage1.precision == nil && m.stage1.recall == nil && m.stage1.f1 == nil)
    #expect(m.stage1.accuracy == 1 && m.stage1.falsePositiveRate == 0)
    let l = m.stage1.latency
    #expect(l.count == 0 && l.mean == nil && l.standardDeviation == nil && l.minimum == nil && l.p50 == nil)
    #expect(l.p90 == nil && l.p95 == nil && l.p99 == nil && l.maximum == nil && l.early == 0)
    // Nothing at all.
    let none = ConfigurationMetrics(
      outcomes: [], truths: [], shape: OutcomeShape(twoStage: true, reportsFlaps: true, isComposition: true))
    #expect(none.stage1.accuracy == nil && none.stage1.falsePositiveRate == nil && none.stage2?.f1 == nil)
    #expect(none.flaps == 0 && none.waited == 0 && none.addedLatency?.count == 0)
    // One latency: no standard deviation.
    #expect(LatencySummary([0.1]).standardDeviation == nil && LatencySummary([0.1]).p99 == 0.1)
  }

  /// |action − reference| quantiles and the early rate, by hand (R type 7): the values −0.3,
  /// −0.1, 0, 0.05, 0.2 have absolute values 0, 0.05, 0.1, 0.2, 0.3 in order, so p50 = 0.1,
  /// p90 = 0.2 + 0.6 × 0.1 = 0.26, p99 = 0.2 + 0.96 × 0.1 = 0.296; two of five are early. The
  /// signed p90 (0.05 + 0.6 × 0.15 = 0.14) is lower than the absolute one: early actions pull it
  /// down.
  @Test func absoluteLatencyQuantilesAndEarlyRate() {
    let l = LatencySummary([0.2, -0.3, 0.05, 0, -0.1])
    func close(_ a: Double?, _ b: Double) -> Bool { a.map { Swift.abs($0 - b) < 1e-12 } ?? false }
    #expect(close(l.absoluteP50, 0.1) && close(l.absoluteP90, 0.26) && close(l.absoluteP99, 0.296))
    #expect(close(l.p90, 0.14))
    #expect(l.early == 2 && l.earlyRate == 0.4)
    // Nothing early: the absolute quantiles are the signed ones.
    let late = LatencySummary([0.02, 0.01, 0.04])
    #expect(late.absoluteP90 == late.p90 && late.absoluteP50 == late.p50 && late.earlyRate == 0)
    // Empty: undefined, not 0.
    let empty = LatencySummary([])
    #expect(empty.absoluteP90 == nil && empty.earlyRate == nil)
  }

  @Test func multiplePressesInOneContactMatchOneToOne() throws {
    let traces = [
      // Presses at 0.2 and 0.8 (references 0.15, 0.75) → 2 TP, latency 0.05 each; releases at 0.5, 1.0.
      trace(
        "M", t: Self.step, force: [0, 0.3, 0.6, 0.7, 0.3, 0.1, 0.3, 0.4, 0.6, 0.7, 0.1, 0.05], intent: .press,
        pressAt: [0.15, 0.75]),
      // One press at 0.2 for references 0.2 and 0.8 → 1 TP, 1 FN; release at 0.7.
      trace(
        "N", t: Array(Self.step[0..<9]), force: [0, 0.3, 0.6, 0.7, 0.6, 0.4, 0.3, 0.1, 0.05], intent: .press,
        pressAt: [0.2, 0.8]),
      // A drag that chatters: presses at 0.1 and 0.3 → one FP (a negative trace counts once); 2 releases.
      trace("G", t: Array(Self.step[0..<6]), force: [0, 0.6, 0.1, 0.6, 0.1, 0.05], intent: .drag),
    ]
    let evaluation = Evaluation(dataset: dataset(traces))
    let recognizer = try AnyForceRecognizer(
      variant: "hysteresis", settings: [("pressThreshold", "0.5"), ("releaseThreshold", "0.2")])
    let outcomes = try evaluation.outcomes(of: recognizer)
    #expect(outcomes.map(\.stage1.actions) == [2, 1, 2])
    #expect(outcomes.map(\.flaps) == [2, 1, 2])
    let m = evaluation.metrics(of: outcomes, shape: OutcomeShape(recognizer: recognizer))
    let s = m.stage1
    #expect((s.truePositives, s.falsePositives, s.falseNegatives, s.trueNegatives) == (3, 1, 1, 0))
    #expect(s.falsePositivesByIntent[.drag] == 1 && s.falsePositiveRate == 1)
    #expect(m.flaps == 5)
    #expect(outcomes[0].stage1.matches.map(\.reference) == [0.15, 0.75])
    #expect(s.latency.count == 3 && close(s.latency.maximum, 0.05) && close(s.latency.minimum, 0.0))
    // A subset (trace N twice, as a bootstrap resample would draw it).
    let resampled = evaluation.metrics(of: [outcomes[1], outcomes[1]], shape: OutcomeShape(recognizer: recognizer))
    #expect((resampled.stage1.truePositives, resampled.stage1.falseNegatives, resampled.traces) == (2, 2, 2))
  }

  @Test func twoStageScoresBothStagesAndTheConfusionMatrix() throws {
    let traces = [
      // P1 pop: peek at 0.2, pop at 0.5 — both TP.
      trace(
        "P1", t: Array(Self.step[0..<8]), force: [0, 0.1, 0.35, 0.4, 0.4, 0.75, 0.8, 0.1], intent: .pop,
        pressAt: [0.2, 0.5]),
      // P2 press: peek at 0.2, no pop → stage 1 TP, stage 2 TN; predicted press.
      trace("P2", t: Array(Self.step[0..<6]), force: [0, 0.1, 0.35, 0.5, 0.2, 0.05], intent: .press, pressAt: [0.2]),
      // P3 press too hard: peek TP, pop at 0.3 → stage 2 FP; predicted pop.
      trace("P3", t: Array(Self.step[0..<5]), force: [0, 0.1, 0.35, 0.8, 0.1], intent: .press, pressAt: [0.2]),
      // P4 tap: nothing → TN, TN; predicted none.
      trace("P4", t: Array(Self.step[0..<3]), force: [0, 0.2, 0.1], intent: .tap),
      // P5 weak pop: peek TP, no pop → stage 2 FN; predicted press.
      trace(
        "P5", t: Array(Self.step[0..<7]), force: [0, 0.1, 0.35, 0.4, 0.5, 0.55, 0.1], intent: .pop, pressAt: [0.2, 0.5]),
      // P6 hold: peek at 0.1 → stage 1 FP (hold); predicted press.
      trace("P6", t: Array(Self.step[0..<4]), force: [0, 0.35, 0.3, 0.1], intent: .hold),
    ]
    let evaluation = Evaluation(dataset: dataset(traces))
    #expect(evaluation.truths[0].references == [0.2] && evaluation.truths[0].stage2References == [0.5])
    let recognizer = try AnyForceRecognizer(
      variant: "peek-pop", settings: [("peekThreshold", "0.3"), ("popThreshold", "0.7")])
    let m = evaluation.metrics(of: try evaluation.outcomes(of: recognizer), shape: OutcomeShape(recognizer: recognizer))
    let s1 = m.stage1
    #expect((s1.truePositives, s1.falsePositives, s1.falseNegatives, s1.trueNegatives) == (4, 1, 0, 1))
    let s2 = try #require(m.stage2)
    #expect((s2.truePositives, s2.falsePositives, s2.falseNegatives, s2.trueNegatives) == (1, 1, 1, 3))
    #expect(s2.falsePositivesByIntent[.press] == 1 && s2.precision == 0.5 && s2.recall == 0.5)
    #expect(s2.latency.count == 1 && close(s2.latency.p50, 0))
    let c = try #require(m.confusion)
    #expect(c.counts == [[1, 1, 0], [0, 1, 1], [0, 1, 1]])
    #expect(m.flaps == nil)
  }

  @Test func aLongPressWaitingForAForcePressShowsTheAddedLatency() throws {
    // A still finger at force 0.3 for 1 s: the long press wants to begin at 0.5 s but waits for
    // deep-press (0.75) to fail, which happens at the lift (1.0 s) → 0.5 s added.
    let hold = trace(
      "H", t: Self.step[0..<11].map { $0 }, force: [0, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 0.3], intent: .hold)
    let evaluation = Evaluation(dataset: dataset([hold]))
    let longPress = try AnyForceRecognizer(variant: "long-press")
    let composed = try longPress.requiringFailure(of: AnyForceRecognizer(variant: "deep-press"))
    let outcome = try #require(evaluation.outcomes(of: composed).first)
    #expect(outcome.waited)
    #expect(close(outcome.addedLatency, 0.5))
    let m = evaluation.metrics(of: [outcome], shape: OutcomeShape(recognizer: composed))
    #expect(m.waited == 1 && close(m.addedLatency?.p50, 0.5))
    // Alone, the long press acts at 0.5 s and adds nothing.
    let alone = try #require(evaluation.outcomes(of: longPress).first)
    #expect(alone.addedLatency == nil && !alone.waited)
  }
}

/// Whether `value` is within 1e-12 of `expected`.
func close(_ value: Double?, _ expected: Double) -> Bool {
  guard let value else { return false }
  return abs(value - expected) <= 1e-12
}
