import Testing
import TouchCore
import TouchEvaluation
import TouchIO
import TouchPartials
import TouchRecognizers
import TouchTestSupport

/// Outcomes written to disk batch by batch come back as one column per configuration, equal to
/// the outcomes of the whole input in trace order.
@Suite struct OutcomeSpillTests {
  /// `outcomes` (trace order) cut into batches of `size`, each numbered from its first trace.
  func batches(_ outcomes: [TraceOutcome], size: Int) -> [OutcomeColumn] {
    stride(from: 0, to: outcomes.count, by: size).map { start in
      OutcomeColumn(
        outcomes[start..<min(start + size, outcomes.count)].map { outcome in
          var local = outcome
          local.trace -= start
          return local
        })
    }
  }

  @Test func givesBackEachConfigurationsOutcomesWhateverTheBatches() throws {
    let evaluation = Evaluation(dataset: try TraceLoader.load([TestData.samples]))
    // One stage, two stages, and releases counted as flaps.
    let lists = try ["deep-press", "peek-pop", "hysteresis"].map { name in
      try evaluation.outcomes(of: try AnyForceRecognizer(variant: name)).sorted { $0.trace < $1.trace }
    }
    for size in [1, 7, 1000] {
      let spill = try OutcomeSpill(configurations: lists.count)
      let perConfiguration = lists.map { batches($0, size: size) }
      for b in perConfiguration[0].indices {
        for c in lists.indices { try spill.append(perConfiguration[c][b], to: c) }
      }
      #expect(spill.count == lists.count && spill.size > 0)
      for c in lists.indices {
        #expect(Array(try spill.column(c)) == lists[c], "configuration \(c), batches of \(size)")
      }
    }
  }

  @Test func anEmptySpillGivesEmptyColumns() throws {
    let spill = try OutcomeSpill(configurations: 2)
    #expect(try spill.column(1).isEmpty)
  }

  /// A column appended to another continues its trace numbers, stage 2 included where only one
  /// of them has it.
  @Test func columnsConcatenate() {
    let plain = TraceOutcome(trace: 0, stage1: StageOutcome(isPositive: false, actions: 1, references: 0, matches: []))
    var twoStage = plain
    twoStage.stage2 = StageOutcome(events: [0.5], references: [0.5], isPositive: true, touchDown: 0, tolerance: 0.1)
    var first = OutcomeColumn([plain])
    first.append(contentsOf: OutcomeColumn([twoStage]))
    var second = twoStage
    second.trace = 1
    #expect(Array(first) == [plain, second])
  }
}
