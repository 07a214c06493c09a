import Testing
import TouchCore
import TouchEvaluation
import TouchSignal
import TouchTestSupport

@Suite("Ground truth")
struct GroundTruthTests {
  @Test func everyTraceIsAnalyzedOrSkippedWithAReason() {
    let traces = [
      trace("unlabelled", t: [0, 0.1], force: [0, 1]),
      trace("odd-pop", t: [0, 0.1, 0.2], force: [0, 1, 0], intent: .pop, pressAt: [0.1]),
      trace("flat-press", t: [0, 0.1, 0.2], force: [0, 0, 0], intent: .press),
      trace("tap", t: [0, 0.1], force: [0, 0.5], intent: .tap),
      trace("pop", t: [0, 0.1, 0.2, 0.3, 0.4], force: [0, 0.3, 0.4, 0.9, 0], intent: .pop, pressAt: [0.1, 0.3]),
    ]
    let evaluation = Evaluation(dataset: dataset(traces))
    #expect(evaluation.dataset.total == 5)
    #expect(evaluation.traces.map(\.name) == ["tap", "pop"])
    #expect(evaluation.dataset.skipped.map(\.trace) == ["unlabelled", "odd-pop", "flat-press"])
    #expect(
      evaluation.dataset.skipped.map(\.reason) == [
        "no intent label", "intent pop needs press_at as (peek, pop) pairs; found 1 time",
        "no reference time: no press_at and the reference rule finds no press",
      ])
    #expect(evaluation.truths.count == 2)
    #expect(evaluation.truths[0].referenceSource == nil && !evaluation.truths[0].isPositive)
    #expect(evaluation.truths[1].references == [0.1] && evaluation.truths[1].stage2References == [0.3])
    #expect(evaluation.truths[1].actualClass == .pop)
  }

  @Test func tracesWithoutPressAtUseTheReferenceRule() throws {
    // A smooth ramp: the standard rule marks its half-rise.
    let t = (0..<61).map { Double($0) / 60 }
    let force = t.map { min(1, max(0, ($0 - 0.2) / 0.4)) * 4 }
    let press = trace("ramp", t: t, force: force, intent: .press, maxForce: nil)
    let evaluation = Evaluation(dataset: dataset([press]))
    let truth = try #require(evaluation.truths.first)
    #expect(truth.referenceSource == .rule)
    #expect(truth.references == (try ReferenceTimeRule.standard.referenceTimes(for: press)))
    #expect(truth.references.count == 1 && abs(truth.references[0] - 0.4) < 0.02)
    #expect(evaluation.referenceSources.rule == 1 && evaluation.referenceSources.pressAt == 0)
  }

  @Test func positivesAreConfigurable() {
    let traces = [
      trace("p", t: [0, 0.1], force: [0, 1], intent: .press, pressAt: [0.1]),
      trace("h", t: [0, 0.1], force: [0, 1], intent: .hold, pressAt: [0.05]),
      trace("q", t: [0, 0.1], force: [0, 1], intent: .pop, pressAt: [0.05, 0.1]),
    ]
    let evaluation = Evaluation(dataset: dataset(traces), options: EvaluationOptions(positives: [.hold, .press]))
    #expect(evaluation.options.positives == [.press, .hold])
    #expect(evaluation.truths.map(\.isPositive) == [true, true, false])
    // A pop outside the positives is a stage-1 negative but still stage 2's positive.
    #expect(evaluation.truths[2].references.isEmpty && evaluation.truths[2].stage2References == [0.1])
    #expect(evaluation.truths.map(\.actualClass) == [.press, .press, .pop])
  }
}
