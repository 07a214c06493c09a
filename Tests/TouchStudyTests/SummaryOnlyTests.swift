import Testing
import TouchCore
import TouchEvaluation
import TouchIO
import TouchPartials
import TouchRecognizers
import TouchReports
import TouchStudy
import TouchTestSupport

/// A sweep read keeping only its traces' summary (`ScoredStream.Request.summaryOnly`) reports
/// exactly what the whole dataset loaded at once reports (an independent path: the loader, the
/// in-memory evaluation and its sweep), in every format, with and without `--by`.
@Suite struct SummaryOnlyTests {
  static let samples = SharedData.repositoryRoot + "/samples"

  static func plan(_ forces: [Double]) throws -> SweepPlan {
    try SweepPlan(recognizers: RecognizerSpec.list("deep-press,stable-press,tap+deep-press"), maximumForces: forces)
  }

  static func stream(batchTraces: Int, by: TraceFilter.Field?) throws -> (ScoredStream, Evaluation) {
    var request = ScoredStream.Request(
      input: StudyInput(paths: [samples]), recognizers: [], options: EvaluationOptions(), threads: 2,
      command: "study", by: by, batchTraces: batchTraces)
    request.summaryOnly = true
    let stream = try ScoredStream.run(request, plan: Self.plan, planFollowsData: true)
    let summary = try #require(stream.summary).summary
    return (stream, Evaluation(summary: summary, dataset: stream.dataset(), options: EvaluationOptions()))
  }

  @Test(arguments: [7, 100, Int.max])
  func theSummaryIsTheWholeDatasets(batchTraces: Int) throws {
    let whole = Evaluation(dataset: try TraceLoader.load([Self.samples]), options: EvaluationOptions(), threads: 2)
    let (stream, evaluation) = try Self.stream(batchTraces: batchTraces, by: .device)
    #expect(stream.traces.isEmpty && stream.truths.isEmpty && stream.origins.isEmpty)
    #expect(!evaluation.keepsTraces)
    #expect(evaluation.analyzedCount == whole.traces.count)
    #expect(evaluation.totalCount == whole.dataset.total)
    var expected = EvaluationSummary(traces: whole.traces, truths: whole.truths, by: .device)
    #expect(evaluation.summary == expected)
    // Counted by hand from the whole dataset's truths.
    #expect(expected.positives == whole.truths.count(where: \.isPositive))
    #expect(expected.stage1References == whole.truths.reduce(0) { $0 + $1.references.count })
    #expect(expected.references.count == whole.truths.count(where: { $0.referenceSource != nil }))
    let records = Array(expected.references)
    let listed = zip(whole.traces, whole.truths).filter { $0.1.referenceSource != nil }
    #expect(records.map(\.trace) == listed.map(\.0.name))
    #expect(records.map(\.references) == listed.map(\.1.references))
    #expect(records.map(\.stage2References) == listed.map(\.1.stage2References))
    expected.groups = nil
    #expect(whole.summary == expected)
    // The groups, sorted as the breakdown of the kept traces sorts them.
    let fromTraces = GroupBreakdown(whole, by: .device)
    let fromSummary = GroupBreakdown(evaluation, by: .device)
    #expect(fromSummary.names == fromTraces.names)
    #expect(fromSummary.traceCounts == fromTraces.members.map(\.count))
    #expect(fromSummary.contactTime == fromTraces.contactTime)
  }

  @Test(arguments: [nil, TraceFilter.Field.device, .user] as [TraceFilter.Field?])
  func everyFormatIsTheWholeDatasets(by: TraceFilter.Field?) throws {
    let whole = Evaluation(dataset: try TraceLoader.load([Self.samples]), options: EvaluationOptions(), threads: 2)
    let expected = try whole.sweep(try Self.plan(SweepPlan.maximumForces(of: whole.traces)), threads: 2)
    let (stream, evaluation) = try Self.stream(batchTraces: 50, by: by)
    let spilled = try #require(stream.sweep)
    let result = SweepResult(
      evaluation: evaluation, plan: try #require(stream.plan), metrics: try spilled.metrics(threads: 2),
      methods: spilled.methods)
    let outcomes = try expected.configurations.map { try whole.outcomes(of: $0.recognizer, threads: 2) }
    func grouped(_ result: SweepResult, _ partials: GroupPartials?) -> GroupedMetrics? {
      guard let by else { return nil }
      let breakdown = GroupBreakdown(result.evaluation, by: by)
      let configurations = Array(result.configurations.indices)
      let metrics: [[ConfigurationMetrics]]
      if let partials {
        metrics = partials.configurations.map { list in
          breakdown.names.map { name in list.first { $0.name == name }!.partial.finish() }
        }
      } else {
        metrics = configurations.map { c in
          breakdown.metrics(of: outcomes[c], shape: result.configurations[c].shape)
        }
      }
      return GroupedMetrics(breakdown: breakdown, configurations: configurations, metrics: metrics)
    }
    let a = grouped(result, stream.groups)
    let b = grouped(expected, nil)
    #expect(SweepReport.json(result, by: a).encoded() == SweepReport.json(expected, by: b).encoded())
    #expect(SweepReport.csv(result, by: a) == SweepReport.csv(expected, by: b))
    #expect(SweepReport.markdown(result, by: a) == SweepReport.markdown(expected, by: b))
  }

  /// The HTML report's figures chosen as the traces pass, batch by batch (what `sweep` does
  /// when it keeps only a summary), are those chosen with every trace in memory, and follow the
  /// documented rule: the first two traces by name with a false positive, then the first two
  /// other ones with a miss.
  @Test func figuresChosenAsTracesPassAreTheWholeDatasets() throws {
    let whole = Evaluation(dataset: try TraceLoader.load([Self.samples]), options: EvaluationOptions(), threads: 2)
    let result = try whole.sweep(try Self.plan(SweepPlan.maximumForces(of: whole.traces)), threads: 2)
    let expected = try SweepFigureData.gather(result, threads: 2)

    final class Selection: @unchecked Sendable {
      var selector: SweepFigureData.Selector
      init(_ selector: SweepFigureData.Selector) { self.selector = selector }
    }
    let selection = Selection(SweepFigureData.Selector(result))
    let recognizers = selection.selector.configurations.map { result.configurations[$0].recognizer }
    var request = ScoredStream.Request(
      input: StudyInput(paths: [Self.samples]), recognizers: [], options: EvaluationOptions(), threads: 2,
      command: "study", outcomes: .replays(recognizers), sweep: false, batchTraces: 7)
    request.keepsReplays = false
    request.keepsTraces = false
    request.onReplays = { traces, truths, lists in
      selection.selector.add(batch: traces, truths: truths, outcomes: lists)
    }
    let stream = try ScoredStream.run(request, plan: { _ in nil }, planFollowsData: false)
    #expect(stream.outcomes.allSatisfy { $0.isEmpty })
    let streamed = try selection.selector.finish(result)

    #expect(streamed.marked.map(\.configuration) == expected.marked.map(\.configuration))
    #expect(streamed.marked.map(\.latencies) == expected.marked.map(\.latencies))
    for (a, b) in zip(streamed.marked, expected.marked) {
      #expect(a.examples.map(\.trace.name) == b.examples.map(\.trace.name))
      #expect(a.examples.map(\.kind) == b.examples.map(\.kind))
      #expect(a.examples.map(\.actions) == b.examples.map(\.actions))
      #expect(a.examples.map(\.trace.force) == b.examples.map(\.trace.force))
    }
    // The rule, applied by hand to each entry's outcomes over the whole dataset.
    for entry in streamed.marked {
      let outcomes = try whole.outcomes(of: result.configurations[entry.configuration].recognizer, threads: 2)
      let byName = outcomes.sorted { whole.traces[$0.trace].name < whole.traces[$1.trace].name }
      let falsePositives = byName.filter { $0.stage1.falsePositives > 0 }.prefix(2).map { whole.traces[$0.trace].name }
      let misses = byName.filter { $0.stage1.falseNegatives > 0 }.map { whole.traces[$0.trace].name }
        .filter { !falsePositives.contains($0) }.prefix(2)
      var names = falsePositives + misses
      if names.isEmpty, let first = byName.first(where: { $0.stage1.truePositives > 0 }) {
        names = [whole.traces[first.trace].name]
      }
      #expect(entry.examples.map(\.trace.name) == names)
      #expect(entry.latencies == outcomes.flatMap { $0.stage1.matches.map { $0.latency * 1000 } }.sorted())
    }
  }

  @Test func recordsReadBackAsWritten() throws {
    let long = String(repeating: "é", count: 100)  // 200 bytes: a two-byte length
    let truths = [
      TraceTruth(intent: .press, isPositive: true, references: [0.25, -0.0], referenceSource: .pressAt, touchDown: 0),
      TraceTruth(intent: .tap, isPositive: false, references: [], referenceSource: nil, touchDown: 0),
      TraceTruth(
        intent: .pop, isPositive: true, references: [1e-300], stage2References: [2.5, 3], referenceSource: .rule,
        touchDown: 0),
    ]
    let traces = [
      Trace(metadata: TraceMetadata(id: "a", intent: .press), t: [0, 1], force: [0, 1]),
      Trace(metadata: TraceMetadata(id: "b", intent: .tap), t: [0, 1], force: [0, 1]),
      Trace(metadata: TraceMetadata(id: long, touch: 3, intent: .pop), t: [0, 1], force: [0, 1]),
    ]
    let summary = EvaluationSummary(traces: traces, truths: truths)
    let records = Array(summary.references)
    #expect(records.count == 2 && summary.references.count == 2)
    #expect(records[0].trace == "a" && records[0].intent == .press && records[0].source == .pressAt)
    #expect(records[0].references.map(\.bitPattern) == [0.25, -0.0].map(\.bitPattern))
    #expect(records[0].stage2References.isEmpty)
    #expect(records[1].trace == traces[2].name && records[1].intent == .pop && records[1].source == .rule)
    #expect(records[1].references == [1e-300] && records[1].stage2References == [2.5, 3])
    #expect(summary.positives == 2 && summary.stage2Positives == 1 && summary.stage1References == 3)
    #expect(summary.pressAtTraces == 1 && summary.ruleTraces == 1 && summary.ruleReferences == 1)
    #expect(summary.ruleReferencesNearTouchDown == 1)
  }
}
