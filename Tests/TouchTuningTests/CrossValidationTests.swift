import Testing
import TouchCore
import TouchEvaluation
import TouchSignal
import TouchTestSupport
import TouchTuning

/// Grouped cross-validation on a dataset where leaking a group into its own training part
/// changes the answer.
///
/// Users u1…u4 each make presses peaking at levels {5, 6, 7} and taps at {2, 3}: alone they are
/// separated perfectly at levels 4 and 5 (F1 = 1; level 5 acts at the reference, 0.1 s, and
/// level 4 20 ms before it, so level 5 wins the tie on |action − reference|). User u5 presses hard (40 presses at level 9) and taps hard (40 taps at level 8): alone
/// only level 9 separates them. Over all users level 9 wins: TP 40, FP 0, FN 12, F1 = 80/92 ≈ 0.87,
/// against level 4's TP 52, FP 40, F1 = 104/144 ≈ 0.72.
///
/// With one fold per user, the fold that holds u5 out must choose level 5 (u5's traces would pull
/// the choice to level 9 if they leaked in) and then scores on u5: TP 40, FP 40, FN 0, F1 = 2/3.
/// Each fold holding out one of u1…u4 trains on u5 and three others: level 9 (TP 40, FN 9,
/// F1 = 80/89) beats level 4 (TP 49, FP 40, F1 = 98/138); on the held-out user it finds nothing:
/// TP 0, FN 3, FP 0, F1 = 0.
@Suite("Grouped cross-validation")
struct CrossValidationTests {
  static let traces: [Trace] = {
    var traces: [Trace] = []
    for u in 1...4 {
      for (k, peak) in [5, 6, 7].enumerated() {
        traces.append(ramp("u\(u)-p\(k)", peak: peak, intent: .press, user: "u\(u)"))
      }
      for (k, peak) in [2, 3].enumerated() {
        traces.append(ramp("u\(u)-n\(k)", peak: peak, intent: .tap, user: "u\(u)"))
      }
    }
    for k in 0..<40 {
      traces.append(ramp("u5-p\(k)", peak: 9, intent: .press, user: "u5"))
      traces.append(ramp("u5-n\(k)", peak: 8, intent: .tap, user: "u5"))
    }
    return traces
  }()

  static func run(folds: Int, threads: Int = 1, seed: UInt64 = 1) throws -> TuningResult {
    let evaluation = Evaluation(dataset: dataset(traces))
    let options = TuningOptions(
      rule: try OperatingPointRule(objective: .f1), groupBy: .user, folds: folds, bootstrap: nil, seed: seed)
    return try Tuning.run(evaluation, plan: levelGrid(), options: options, threads: threads)
  }

  @Test func theHeldOutUserNeverTrainsItsOwnFold() throws {
    let result = try Self.run(folds: 5)
    // Full data: level 9.
    #expect(threshold(result, result.chosen) == thresholdOfLevel(9))
    let cv = try #require(result.crossValidation)
    #expect(cv.assignment.isLeaveOneGroupOut && cv.folds.count == 5)
    let names = result.groups.names
    #expect(names == ["u1", "u2", "u3", "u4", "u5"])
    for fold in cv.folds {
      #expect(fold.groups.count == 1)
      let user = names[fold.groups[0]]
      let heldOut = try #require(fold.heldOut)
      #expect(fold.heldOutTraces == (user == "u5" ? 80 : 5) && fold.trainingTraces == 100 - fold.heldOutTraces)
      #expect(heldOut.traces == fold.heldOutTraces)
      if user == "u5" {
        #expect(threshold(result, fold.chosen) == thresholdOfLevel(5))
        #expect(
          heldOut.stage1.truePositives == 40 && heldOut.stage1.falsePositives == 40
            && heldOut.stage1.falseNegatives == 0)
        #expect(heldOut.stage1.f1 == 2.0 / 3)
        #expect(fold.training?.stage1.f1 == 1)
      } else {
        #expect(threshold(result, fold.chosen) == thresholdOfLevel(9))
        #expect(
          heldOut.stage1.truePositives == 0 && heldOut.stage1.falseNegatives == 3 && heldOut.stage1.falsePositives == 0)
        #expect(heldOut.stage1.f1 == 0)
        #expect(fold.training?.stage1.f1 == 80.0 / 89)
      }
    }
    // Held-out F1 over folds: four 0s and 2/3 → mean 2/15, sd = sqrt(((2/3 − 2/15)² + 4·(2/15)²)/4).
    let f1 = try #require(cv.summaries.first { $0.statistic == .f1 })
    #expect(f1.count == 5)
    #expect(abs(try #require(f1.mean) - 2.0 / 15) < 1e-15)
    let sd = ((2.0 / 3 - 2.0 / 15) * (2.0 / 3 - 2.0 / 15) + 4 * (2.0 / 15) * (2.0 / 15)) / 4
    #expect(abs(try #require(f1.standardDeviation) - sd.squareRoot()) < 1e-15)
    // Pooled: TP 40, FP 40, FN 12 over all 100 traces → F1 = 80 / (80 + 40 + 12) = 80 / 132.
    let pooled = try #require(cv.pooled)
    #expect(cv.pooledTraces == 100 && pooled.traces == 100)
    #expect(
      pooled.stage1.truePositives == 40 && pooled.stage1.falsePositives == 40 && pooled.stage1.falseNegatives == 12)
    #expect(pooled.stage1.f1 == 80.0 / 132)
  }

  @Test func foldsPartitionTheGroups() throws {
    let result = try Self.run(folds: 2, seed: 9)
    let cv = try #require(result.crossValidation)
    #expect(!cv.assignment.isLeaveOneGroupOut)
    var seen = Set<Int>()
    for fold in cv.folds {
      for g in fold.groups { #expect(seen.insert(g).inserted, "group \(g) is in two folds") }
      // Every trace of a held-out group is held out, and no other trace is.
      let heldOut = result.groups.members.enumerated().filter { fold.groups.contains($0.offset) }.reduce(0) {
        $0 + $1.element.count
      }
      #expect(heldOut == fold.heldOutTraces)
    }
    #expect(seen.count == 5)
    for (k, g) in result.groups.groupOfTrace.enumerated() {
      #expect(cv.assignment.foldOfTrace[k] == cv.assignment.foldOfGroup[g])
    }
  }

  @Test func fewerGroupsThanFoldsIsRefused() throws {
    let error = #expect(throws: TuningError.self) { try Self.run(folds: 6) }
    #expect(error == .tooFewGroups(by: "user", groups: 5, folds: 6))
    #expect(error?.description.contains("5 user groups, --folds 6 (use --folds 5 for leave-one-group-out") == true)
  }

  @Test func resultsDoNotDependOnTheThreadCount() throws {
    let one = try Self.run(folds: 3, threads: 1, seed: 4)
    let three = try Self.run(folds: 3, threads: 3, seed: 4)
    #expect(one.crossValidation?.assignment == three.crossValidation?.assignment)
    #expect(one.crossValidation?.folds.map(\.chosen) == three.crossValidation?.folds.map(\.chosen))
    #expect(one.crossValidation?.folds.map(\.heldOut) == three.crossValidation?.folds.map(\.heldOut))
    #expect(one.scores == three.scores)
  }

  @Test func theTuningMetricsAreTheSweeps() throws {
    // The tuner scores every configuration from the sweep's per-trace outcomes; on all traces
    // that must reproduce the sweep's own metrics exactly.
    let result = try Self.run(folds: 5)
    for c in result.sweep.configurations.indices {
      let rescored = try OperatingPointRule(objective: .f1).score(result.sweep.metrics[c], configuration: c)
      #expect(rescored == result.scores[c])
    }
  }
}

/// The fold assignment rule, by hand.
@Suite("Fold assignment")
struct FoldAssignmentTests {
  func groups(_ sizes: [Int]) throws -> TraceGroups {
    var traces: [Trace] = []
    for (g, size) in sizes.enumerated() {
      for k in 0..<size { traces.append(ramp("g\(g)-\(k)", peak: 3, intent: .tap, user: "g\(g)")) }
    }
    return try TraceGroups(traces: traces, key: .user)
  }

  @Test func largestGroupsFirstIntoTheLightestFold() throws {
    // Sizes 7, 5, 4, 3, 1 into 2 folds: 7 → A; 5 → B; 4 → B (5 < 7); 3 → A (7 < 9); 1 → A or B…
    // loads 10 / 9 → B. Folds: {7, 3} = 10 traces and {5, 4, 1} = 10 traces, whatever the seed
    // (the sizes are distinct, so the shuffle only matters for ties).
    let g = try groups([3, 7, 1, 5, 4])
    for seed: UInt64 in [1, 2, 3] {
      var random = try RandomSource(seed: seed)
      let assignment = try FoldAssignment(groups: g, folds: 2, random: &random)
      #expect(assignment.traceCounts == [10, 10])
      #expect(assignment.groups(inFold: 0) == [0, 1] && assignment.groups(inFold: 1) == [2, 3, 4])
    }
  }

  @Test func equalSizesAreShuffledBySeed() throws {
    let g = try groups([2, 2, 2, 2, 2, 2])
    var seen = Set<[Int]>()
    for seed: UInt64 in 1...8 {
      var random = try RandomSource(seed: seed)
      let assignment = try FoldAssignment(groups: g, folds: 3, random: &random)
      #expect(assignment.traceCounts == [4, 4, 4])
      seen.insert(assignment.foldOfGroup)
      // The same seed gives the same assignment.
      var again = try RandomSource(seed: seed)
      #expect(try FoldAssignment(groups: g, folds: 3, random: &again) == assignment)
    }
    #expect(seen.count > 1)
  }

  @Test func ungroupedTracesAreTheirOwnGroups() throws {
    let traces = (0..<4).map { ramp("t\($0)", peak: 2, intent: .tap) }
    let g = try TraceGroups(traces: traces, key: nil)
    #expect(g.count == 4 && g.unit == "trace" && g.members == [[0], [1], [2], [3]])
    let missing = #expect(throws: TuningError.self) { try TraceGroups(traces: traces, key: .session) }
    #expect(missing == .missingGroupLabel(trace: "t0", key: .session))
  }

  /// Groups made from labels alone (as a second read of a sweep that kept no trace gathers
  /// them): groups in label order, members in trace order, as written out by hand.
  @Test func labelsGroupAsTheirTraces() throws {
    let g = TraceGroups(labels: ["u2", "u1", "u2", "u3", "u1"], key: .user)
    #expect(g.names == ["u1", "u2", "u3"] && g.unit == "user")
    #expect(g.members == [[1, 4], [0, 2], [3]])
    #expect(g.groupOfTrace == [1, 0, 1, 2, 0])
    let names = TraceGroups(names: ["b", "a"])
    #expect(names.names == ["b", "a"] && names.members == [[0], [1]] && names.key == nil)
    let traces = (0..<4).map { ramp("t\($0)", peak: 2, intent: .tap) }
    #expect(try TraceGroups(traces: traces, key: nil) == TraceGroups(names: traces.map(\.name)))
  }

  /// Fed one configuration's outcome column at a time (as `tune` reads them back from disk),
  /// the tuning chooses and validates as when it sweeps the traces itself: level 9 overall,
  /// level 5 on the fold without u5, the same held-out scores and bootstrap intervals.
  @Test func fedColumnByColumnItTunesAsItsOwnSweep() throws {
    let evaluation = Evaluation(dataset: dataset(CrossValidationTests.traces))
    let plan = try levelGrid()
    let options = TuningOptions(
      rule: try OperatingPointRule(objective: .f1), groupBy: .user, folds: 5,
      bootstrap: BootstrapOptions(resamples: 50), seed: 3)
    let swept = try Tuning.run(evaluation, plan: plan, options: options)
    var incremental = try Tuning.Incremental(evaluation, plan: plan, options: options)
    var columns = [OutcomeColumn](repeating: OutcomeColumn(), count: plan.configurations.count)
    _ = try evaluation.sweep(
      plan, perConfiguration: { c, list in columns[c] = OutcomeColumn(list.sorted { $0.trace < $1.trace }) })
    // Any order of configurations.
    for c in plan.configurations.indices.reversed() { incremental.add(columns[c], of: c) }
    let fed = incremental.finish(sweep: swept.sweep)
    #expect(threshold(fed, fed.chosen) == thresholdOfLevel(9))
    #expect(fed.chosen == swept.chosen)
    #expect(fed.scores == swept.scores)
    #expect(fed.intervals == swept.intervals)
    let a: CrossValidation = try #require(fed.crossValidation)
    let b: CrossValidation = try #require(swept.crossValidation)
    let chosenA: [Int?] = a.folds.map { $0.chosen }
    let chosenB: [Int?] = b.folds.map { $0.chosen }
    #expect(chosenA == chosenB)
    #expect(a.summaries == b.summaries)
    #expect(a.pooledIntervals == b.pooledIntervals && a.pooledIntervals != nil)
    let names = fed.groups.names
    let withoutU5 = try #require(a.folds.first { fold in fold.groups.map { names[$0] } == ["u5"] })
    #expect(threshold(fed, withoutU5.chosen) == thresholdOfLevel(5))
  }
}
