import Testing
import TouchCore
import TouchEvaluation
import TouchIO
import TouchRecognizers
import TouchStudy
import TouchTestSupport

/// A study run from the library alone, without the command line: read in small batches, it scores
/// exactly as an `Evaluation` over the whole dataset loaded at once (an independent path: the
/// loader and the in-memory sweep), and accounts for every trace of the input.
@Suite struct ScoredStreamTests {
  static let samples = SharedData.repositoryRoot + "/samples"

  static func plan(_ forces: [Double]) throws -> SweepPlan {
    try SweepPlan(recognizers: RecognizerSpec.list("deep-press,stable-press,tap+deep-press"), maximumForces: forces)
  }

  static func request(batchTraces: Int) -> ScoredStream.Request {
    ScoredStream.Request(
      input: StudyInput(paths: [samples]), recognizers: [], options: EvaluationOptions(), threads: 2,
      command: "study", batchTraces: batchTraces)
  }

  @Test(arguments: [7, 100, Int.max])
  func batchesScoreAsTheWholeDatasetDoes(batchTraces: Int) throws {
    let whole = Evaluation(dataset: try TraceLoader.load([Self.samples]), options: EvaluationOptions(), threads: 2)
    let expected = try whole.sweep(try Self.plan(SweepPlan.maximumForces(of: whole.traces)), threads: 2)

    let stream = try ScoredStream.run(Self.request(batchTraces: batchTraces), plan: Self.plan, planFollowsData: true)
    let metrics = try #require(try stream.sweep?.metrics(threads: 2))
    #expect(metrics.count == expected.plan.configurations.count)
    #expect(metrics == expected.metrics)
    #expect(stream.traces.map(\.metadata.id) == whole.traces.map(\.metadata.id))
    #expect(stream.traces.count + stream.skipped.count == whole.dataset.total)
    #expect(stream.files == whole.dataset.files)
  }

  @Test func aFilterThatKeepsNothingIsReportedNotThrown() throws {
    var request = Self.request(batchTraces: 50)
    request.input.filters = [try #require(TraceFilter(parsing: "user=nobody"))]
    request.sweep = false
    let stream = try ScoredStream.run(request, plan: { _ in nil }, planFollowsData: false)
    let selection = try #require(stream.selection)
    #expect(selection.kept == 0)
    #expect(selection.leftOut == stream.skipped.count)
    #expect(selection.empty?.filter.description == "user=nobody")
  }

  @Test func eachBatchIsDescribedOnlyWhenAsked() throws {
    final class Lines: @unchecked Sendable { var all: [String] = [] }
    let lines = Lines()
    var request = Self.request(batchTraces: 100)
    request.sweep = false
    request.onBatch = { lines.all.append($0) }
    let stream = try ScoredStream.run(request, plan: { _ in nil }, planFollowsData: false)
    #expect(lines.all.count == (stream.traces.count + stream.skipped.count + 99) / 100)
    #expect(lines.all.first?.hasPrefix("note: batch 1: 100 traces, 0 skipped, from ") == true)
  }

  /// A read that keeps no traces (the verdict's second read) keeps each trace's name hashed and
  /// the outcomes asked for, numbered as a read that keeps the traces numbers them.
  @Test func aReadWithoutTracesKeepsTheirNamesAndOutcomes() throws {
    let plan = try Self.plan([1, 20.0 / 3])
    let replayed = [plan.configurations[0].recognizer, plan.configurations[1].recognizer]
    var keeping = Self.request(batchTraces: 7)
    keeping.sweep = false
    keeping.outcomes = .replays(replayed)
    var lean = keeping
    lean.keepsTraces = false
    let full = try ScoredStream.run(keeping, plan: { _ in nil }, planFollowsData: false)
    let names = try ScoredStream.run(lean, plan: { _ in nil }, planFollowsData: false)
    #expect(full.traces.count == 343)
    #expect(names.traces.isEmpty && names.origins.isEmpty && names.truths.isEmpty && names.ordinals.isEmpty)
    #expect(names.analyzed == 343 && full.analyzed == 343)
    #expect(names.nameDigests == full.traces.map { FNV1a.hash($0.name.utf8) })
    #expect(full.nameDigests.isEmpty)
    #expect(names.outcomes == full.outcomes)
    #expect(names.outcomes.map { $0.map(\.trace).sorted() } == [Array(0..<343), Array(0..<343)])
  }
}

extension ScoredStreamTests {
  /// `run --carry-state` streamed: each session's traces go through one instance carrying its
  /// state, a session cut by a batch's end waiting for the rest of it, so any batch size gives
  /// what replaying each whole session of the loaded dataset gives (an independent path: the
  /// loader and the recognizer's own replay), and carrying the state changes what it gives.
  @Test(arguments: [1, 3, 7, 100, Int.max])
  func sessionsCarryTheirStateWhateverTheBatches(batchTraces: Int) throws {
    let recognizer = AnyForceRecognizer(GTForceTouch())
    let whole = try TraceLoader.load([Self.samples]).traces
    var expected: [ReplayResult] = []
    var start = 0
    while start < whole.count {
      var end = start + 1
      while end < whole.count && whole[end].metadata.session == whole[start].metadata.session { end += 1 }
      expected += try recognizer.replay(traces: Array(whole[start..<end]), carryingState: true)
      start = end
    }
    #expect(Set(whole.map(\.metadata.session)).count > 2)
    #expect(try expected != recognizer.replay(traces: whole))

    var request = Self.request(batchTraces: batchTraces)
    request.truths = false
    request.sweep = false
    request.replay = recognizer
    request.carriesState = true
    let stream = try ScoredStream.run(request, plan: { _ in nil }, planFollowsData: false)
    #expect(stream.replays == expected)
    #expect(stream.traces.map(\.name) == whole.map(\.name))
  }
}
