import Testing
import TouchCore
import TouchIO
import TouchRecognizers
import TouchTestSupport

@testable import TouchEvaluation

/// A column gives back, element by element, exactly the outcomes it was made from.
@Suite struct OutcomeColumnTests {
  /// Outcomes of every shape: negatives with and without events, positives with matched pairs
  /// (one with a latency that is not its action − reference, as a partial may carry), stage 2,
  /// flaps, compositions' added latency and waiting, and counts too large for a byte.
  func outcomes() -> [TraceOutcome] {
    var odd = MatchedEvent(action: 0.3, reference: 0.1, touchDown: 0)
    odd.latency = 0.25
    let wide = StageOutcome(
      isPositive: true, actions: 300, references: 1000,
      matches: (0..<256).map { MatchedEvent(action: Double($0) + 0.01, reference: Double($0), touchDown: -1) },
      events: (0..<300).map { Double($0) * 0.5 })
    return [
      TraceOutcome(trace: 0, stage1: StageOutcome(isPositive: false, actions: 0, references: 0, matches: [])),
      TraceOutcome(
        trace: 1, stage1: StageOutcome(isPositive: false, actions: 2, references: 0, matches: [], events: [0.1, 0.7])),
      TraceOutcome(
        trace: 2,
        stage1: StageOutcome(
          events: [0.2, 0.5], references: [0.25], isPositive: true, touchDown: 0.01, tolerance: 0.1),
        flaps: 3),
      TraceOutcome(
        trace: 3, stage1: StageOutcome(isPositive: true, actions: 1, references: 1, matches: [odd]),
        stage2: StageOutcome(
          events: [0.6], references: [0.62, 0.9], isPositive: true, touchDown: 0, tolerance: 0.25)),
      TraceOutcome(
        trace: 4, stage1: StageOutcome(isPositive: true, actions: 0, references: 2, matches: []),
        stage2: StageOutcome(isPositive: false, actions: 1, references: 0, matches: [], events: [1.5]),
        addedLatency: 0.125, waited: true),
      TraceOutcome(trace: 5, stage1: wide, stage2: wide, flaps: 70_000),
      TraceOutcome(
        trace: 6, stage1: StageOutcome(isPositive: false, actions: 0, references: 0, matches: []), addedLatency: -0.0,
        waited: false),
    ]
  }

  @Test func givesBackEveryOutcomeExactly() {
    let original = outcomes()
    let column = OutcomeColumn(original)
    #expect(column.count == original.count)
    for (k, outcome) in original.enumerated() {
      let back = column[k]
      #expect(back == outcome, "outcome \(k)")
      // Bit for bit, −0 included (== takes −0 for +0).
      #expect(back.addedLatency?.bitPattern == outcome.addedLatency?.bitPattern)
      #expect(back.stage1.matches.map(\.latency.bitPattern) == outcome.stage1.matches.map(\.latency.bitPattern))
    }
    #expect(Array(column) == original)
  }

  /// The outcomes replays give on the bundled samples (one- and two-stage, with flaps).
  @Test func keepsASweepsOutcomes() throws {
    let evaluation = Evaluation(dataset: try TraceLoader.load([TestData.samples]))
    for name in ["deep-press", "peek-pop", "hysteresis", "long-press"] {
      let recognizer = try AnyForceRecognizer(variant: name)
      let outcomes = try evaluation.outcomes(of: recognizer).sorted { $0.trace < $1.trace }
      #expect(Array(OutcomeColumn(outcomes)) == outcomes, "\(name)")
    }
  }
}
