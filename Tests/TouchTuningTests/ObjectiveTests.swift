import Testing
import TouchCore
import TouchEvaluation
import TouchTestSupport
import TouchTuning

/// Tuning on a dataset built so every count is known by hand returns the hand-derived optimum
/// for each objective.
///
/// Ten positives peak at levels {4, 5, 6, 6, 7, 7, 8, 9, 9, 10} and ten taps at
/// {1, 2, 2, 3, 3, 3, 4, 5, 6, 7} (see `ramp`). At threshold level L (grid point L − 1):
///
/// | L  | TP | FN | FP | precision | recall | FPR | F1          | p90 latency | p90 abs |
/// |----|----|----|----|-----------|--------|-----|-------------|-------------|---------|
/// | 1  | 10 | 0  | 10 | 0.5       | 1      | 1   | 20/30       | −0.08 s     | 0.08 s  |
/// | 2  | 10 | 0  | 9  | 0.526     | 1      | 0.9 | 20/29       | −0.06       | 0.06    |
/// | 3  | 10 | 0  | 7  | 0.588     | 1      | 0.7 | 20/27       | −0.04       | 0.04    |
/// | 4  | 10 | 0  | 4  | 0.714     | 1      | 0.4 | 20/24 = .833| −0.02       | 0.02    |
/// | 5  | 9  | 1  | 3  | 0.75      | 0.9    | 0.3 | 18/22 = .818| 0           | 0       |
/// | 6  | 8  | 2  | 2  | 0.8       | 0.8    | 0.2 | 16/20 = .8  | 0.02        | 0.02    |
/// | 7  | 6  | 4  | 1  | 0.857     | 0.6    | 0.1 | 12/17       | 0.04        | 0.04    |
/// | 8  | 4  | 6  | 0  | 1         | 0.4    | 0   | 8/14        | 0.06        | 0.06    |
/// | 9  | 3  | 7  | 0  | 1         | 0.3    | 0   | 6/13        | 0.08        | 0.08    |
/// | 10 | 1  | 9  | 0  | 1         | 0.1    | 0   | 2/11        | 0.1         | 0.1     |
///
/// (latency = 0.02·L − 0.1 s for every true positive: levels 1…4 act before the press, by
/// 80 … 20 ms; the timing error |latency| is lowest at level 5.)
@Suite("Operating points on a dataset with a known optimum")
struct ObjectiveTests {
  static let evaluation: Evaluation = {
    let positives = [4, 5, 6, 6, 7, 7, 8, 9, 9, 10].enumerated().map { ramp("p\($0)", peak: $1, intent: .press) }
    let negatives = [1, 2, 2, 3, 3, 3, 4, 5, 6, 7].enumerated().map { ramp("n\($0)", peak: $1, intent: .tap) }
    return Evaluation(dataset: dataset(positives + negatives))
  }()

  func tune(_ objective: TuningObjective, _ constraints: TuningConstraints = TuningConstraints()) throws -> TuningResult
  {
    let rule = try OperatingPointRule(objective: objective, constraints: constraints)
    return try Tuning.run(
      Self.evaluation, plan: levelGrid(), options: TuningOptions(rule: rule, folds: 0, bootstrap: nil))
  }

  @Test func theCountsAreTheHandDerivedOnes() throws {
    let result = try tune(.f1)
    let tp = [10, 10, 10, 10, 9, 8, 6, 4, 3, 1]
    let fp = [10, 9, 7, 4, 3, 2, 1, 0, 0, 0]
    for level in 1...10 {
      let m = result.metrics(level - 1).stage1
      #expect(
        m.truePositives == tp[level - 1] && m.falsePositives == fp[level - 1] && m.falseNegatives == 10 - tp[level - 1],
        "level \(level)")
      let p90 = try #require(m.latency.p90)
      #expect(abs(p90 - (0.02 * Double(level) - 0.1)) < 1e-12, "level \(level)")
    }
  }

  @Test func maximumF1() throws {
    let result = try tune(.f1)
    #expect(threshold(result, result.chosen) == thresholdOfLevel(4))  // F1 20/24
    #expect(result.scores[3].value == 20.0 / 24)
  }

  @Test func minimumLatencyUnderBounds() throws {
    // precision ≥ 0.85: levels 7…10; the lowest p90 latency is level 7's.
    let precise = try tune(.latency, TuningConstraints(minimumPrecision: 0.85))
    #expect(threshold(precise, precise.chosen) == thresholdOfLevel(7))
    // precision ≥ 0.75 and recall ≥ 0.8: levels 5 and 6; level 5 is faster.
    let both = try tune(.latency, TuningConstraints(minimumPrecision: 0.75, minimumRecall: 0.8))
    #expect(threshold(both, both.chosen) == thresholdOfLevel(5))
    #expect(
      both.scores[4].isEligible && both.scores[5].isEligible && !both.scores[3].isEligible && !both.scores[6].isEligible
    )
    // recall ≥ 0.9: levels 1…5. Signed p90 would choose level 1 (80 ms before the press); the
    // timing error chooses level 5, at the press.
    let recall = try tune(.latency, TuningConstraints(minimumRecall: 0.9))
    #expect(threshold(recall, recall.chosen) == thresholdOfLevel(5))
    #expect(recall.scores[0].value.map { abs($0 - 0.08) < 1e-12 } == true)
  }

  @Test func maximumRecallUnderAFalsePositiveRate() throws {
    let tight = try tune(.fpr, TuningConstraints(maximumFalsePositiveRate: 0.2))
    #expect(threshold(tight, tight.chosen) == thresholdOfLevel(6))  // recall 0.8 at FPR 0.2
    let loose = try tune(.fpr, TuningConstraints(maximumFalsePositiveRate: 0.3))
    #expect(threshold(loose, loose.chosen) == thresholdOfLevel(5))  // recall 0.9 at FPR 0.3
  }

  @Test func minimumCost() throws {
    // FP + 3·FN: 10, 9, 7, 4, 6, 8, 13, 18, 21, 27 → level 4.
    let misses = try tune(.cost(falsePositive: 1, falseNegative: 3))
    #expect(threshold(misses, misses.chosen) == thresholdOfLevel(4))
    #expect(misses.scores[3].value == 4.0 / 20)  // per trace
    // 3·FP + FN: 30, 27, 21, 12, 10, 8, 7, 6, 7, 9 → level 8.
    let alarms = try tune(.cost(falsePositive: 3, falseNegative: 1))
    #expect(threshold(alarms, alarms.chosen) == thresholdOfLevel(8))
    #expect(alarms.statistics.last == .cost(falsePositive: 3, falseNegative: 1))
  }

  @Test func unmetBoundsChooseNothingAndSaySo() throws {
    let result = try tune(.latency, TuningConstraints(minimumPrecision: 0.99, minimumRecall: 0.9))
    #expect(result.chosen == nil && result.intervals == nil)
    let reason = try #require(result.noChoiceReason)
    #expect(
      reason.contains(
        "no configuration meets the rule (minimum p90 |action − reference| subject to precision ≥ 0.99, recall ≥ 0.9)"))
    #expect(
      reason.contains("the highest precision reached is 1.0") && reason.contains("the highest recall reached is 1.0"))
    #expect(reason.contains("none meets all of them"))
    #expect(result.scores.allSatisfy { !$0.isEligible })
  }

  @Test func aReachedValueThatMeetsItsBoundIsNotReportedAsFailingIt() throws {
    // FPR ≤ 0.1 holds at levels 7…10 (recall ≤ 0.6); recall ≥ 0.7 at levels 1…6 (FPR ≥ 0.2):
    // each bound is reachable, both together are not. The lowest FPR (0, level 8) and the
    // highest recall (1, levels 1…4) both meet their bounds and are said to.
    let result = try tune(.fpr, TuningConstraints(minimumRecall: 0.7, maximumFalsePositiveRate: 0.1))
    #expect(result.chosen == nil)
    let reason = try #require(result.noChoiceReason)
    #expect(reason.contains("the highest recall reached is 1.0, which meets the bound"), "\(reason)")
    #expect(reason.contains("the lowest FPR reached is 0.0, which meets the bound"), "\(reason)")
    #expect(reason.contains("each bound is met by some configuration, but none meets all of them"))
  }

  @Test func tiesGoToHigherF1ThenLowerLatencyThenTheEarlierConfiguration() throws {
    // 0.31 and 0.35 both act at level 4: same counts, same latencies → the earlier one (0.31).
    let rule = try OperatingPointRule(objective: .f1)
    let plan = try SweepPlan(
      recognizers: [RecognizerSpec(parsing: "deep-press")], axes: [SweepAxis(parsing: "threshold=0.45,0.31,0.35")])
    let result = try Tuning.run(
      Self.evaluation, plan: plan, options: TuningOptions(rule: rule, folds: 0, bootstrap: nil))
    #expect(threshold(result, result.chosen) == 0.31)
    // Hand-made scores: equal objective → higher F1; equal F1 → lower p90; all equal → earlier.
    let fpr = try OperatingPointRule(objective: .fpr, constraints: TuningConstraints(maximumFalsePositiveRate: 1))
    let a = OperatingPointScore(configuration: 5, value: 0.9, f1: 0.8, absoluteLatencyP90: 0.05, violations: [])
    var b = a
    b.configuration = 2
    b.f1 = 0.7
    #expect(fpr.prefers(a, over: b) && !fpr.prefers(b, over: a))
    b.f1 = 0.8
    b.absoluteLatencyP90 = 0.06
    #expect(fpr.prefers(a, over: b))
    b.absoluteLatencyP90 = nil
    #expect(fpr.prefers(a, over: b))
    b.absoluteLatencyP90 = 0.05
    #expect(fpr.prefers(b, over: a))
    // Lower is better for latency and cost.
    let cost = try OperatingPointRule(objective: .cost(falsePositive: 1, falseNegative: 1))
    var c = a
    c.value = 0.1
    #expect(cost.prefers(c, over: a) && !cost.prefers(a, over: c))
  }

  @Test func rulesThatDefineNoOperatingPointAreRefused() {
    #expect(throws: TuningRuleError.self) { try OperatingPointRule(objective: .latency) }
    #expect(throws: TuningRuleError.self) { try OperatingPointRule(objective: .fpr) }
    #expect(throws: TuningRuleError.self) {
      try OperatingPointRule(objective: .f1, constraints: TuningConstraints(minimumPrecision: 1.5))
    }
    #expect(throws: TuningRuleError.self) {
      try OperatingPointRule(objective: .cost(falsePositive: 0, falseNegative: 0))
    }
    #expect(throws: TuningRuleError.self) {
      try OperatingPointRule(objective: .cost(falsePositive: -1, falseNegative: 1))
    }
  }

  @Test func paretoFrontOfF1AgainstLatency() throws {
    let result = try tune(.f1)
    // Level 5 acts at the press (|latency| 0, F1 .818) and level 4 20 ms before it (0.02,
    // F1 .833): both on the front. Levels 1…3 act earlier still with a lower F1 than level 4, and
    // levels 6…10 later with a lower F1: none is on the front (under signed p90, levels 1…4
    // were, for acting early).
    #expect(result.paretoFront.map(\.configuration) == [4, 3])
    #expect(result.paretoFronts.count == 1 && result.paretoFronts[0].points == result.paretoFront)
    // Hand-built candidates: dominated, tied and undefined points.
    let front = ParetoFront.front(of: [
      (0, 0.5, 0.10), (1, 0.7, 0.10), (2, 0.7, 0.10), (3, 0.6, 0.05), (4, 0.9, 0.20), (5, nil, 0.01), (6, 0.9, 0.30),
      (7, 0.2, nil),
    ])
    #expect(
      front == [
        ParetoPoint(configuration: 3, f1: 0.6, absoluteLatencyP90: 0.05),
        ParetoPoint(configuration: 1, f1: 0.7, absoluteLatencyP90: 0.10, ties: 1),
        ParetoPoint(configuration: 4, f1: 0.9, absoluteLatencyP90: 0.20),
      ])
  }
  /// An early action never ranks above the same action at its reference: the latency objective,
  /// the tie rule and the Pareto front read |action − reference|, and --max-early bounds the
  /// share of early true positives.
  @Test func earlyFiringIsNeverFaster() throws {
    // The same 10 true positives acting d seconds from their references, for d from −0.2 to
    // +0.1 s: signed p90 would rank d = −0.2 best; |d| ranks d = 0 best.
    let offsets = [-0.2, -0.15, -0.1, -0.05, 0, 0.05, 0.1]
    func metrics(_ d: Double) -> ConfigurationMetrics {
      var m = ConfigurationMetrics(
        outcomes: [], truths: [], shape: OutcomeShape(twoStage: false, reportsFlaps: false, isComposition: false))
      m.traces = 12
      m.stage1.truePositives = 10
      m.stage1.trueNegatives = 2
      m.stage1.positiveTraces = 10
      m.stage1.negativeTraces = 2
      m.stage1.references = 10
      m.stage1.actions = 10
      m.stage1.latency = LatencySummary(Array(repeating: d, count: 10))
      return m
    }
    let rule = try OperatingPointRule(objective: .latency, constraints: TuningConstraints(minimumRecall: 0.8))
    let scores = offsets.enumerated().map { rule.score(metrics($1), configuration: $0) }
    #expect(rule.best(of: scores)?.configuration == 4)
    for (k, d) in offsets.enumerated() where d < 0 {
      // Against the same action exactly at the reference (k = 4): never preferred.
      #expect(!rule.prefers(scores[k], over: scores[4]))
      #expect(scores[k].value == -d)
    }
    let front = ParetoFront.front(
      of: offsets.indices.map {
        (configuration: $0, f1: 1.0, absoluteLatencyP90: metrics(offsets[$0]).stage1.latency.absoluteP90)
      })
    #expect(front.map(\.configuration) == [4])
    // --max-early 0.5: every early configuration breaks it; the rate is 1 of 1 there, 0 elsewhere.
    let bounded = try OperatingPointRule(objective: .f1, constraints: TuningConstraints(maximumEarlyRate: 0.5))
    for (k, d) in offsets.enumerated() {
      let violations = bounded.score(metrics(d), configuration: k).violations
      #expect(violations == (d < 0 ? ["early rate 1.0 > 0.5"] : []), "offset \(d)")
    }
    #expect(throws: TuningRuleError.self) {
      try OperatingPointRule(objective: .f1, constraints: TuningConstraints(maximumEarlyRate: 1.5))
    }
  }
}
