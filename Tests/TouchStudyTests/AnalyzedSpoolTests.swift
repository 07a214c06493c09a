import Testing
import TouchCore
import TouchEvaluation
import TouchIO
import TouchRecognizers
import TouchStudy
import TouchTestSupport

/// The spool of analyzed traces (`AnalyzedSpool`): a first read writes every trace it analyzes,
/// and a second read made from its request reads them back instead of the inputs. Checked
/// against the loader's whole dataset (an independent path) and against a second read of the
/// input files themselves.
@Suite struct AnalyzedSpoolTests {
  static let samples = SharedData.repositoryRoot + "/samples"

  static func plan(_ forces: [Double]) throws -> SweepPlan {
    try SweepPlan(recognizers: RecognizerSpec.list("deep-press,stable-press"), maximumForces: forces)
  }

  /// A first read of `samples/` that sweeps, summary only, in batches of `batchTraces`.
  static func request(batchTraces: Int, spool: AnalyzedSpool?) -> ScoredStream.Request {
    var request = ScoredStream.Request(
      input: StudyInput(paths: [samples]), recognizers: [], options: EvaluationOptions(), threads: 2,
      command: "study", batchTraces: batchTraces)
    request.summaryOnly = true
    request.spool = spool
    return request
  }

  /// Every analyzed trace comes back whole (samples, metadata, labels, origin) and in order,
  /// whatever the batches it was written and read in; a read that restarted (a default grid
  /// following a new maximum force) spools only its last pass.
  @Test(arguments: [(7, 5), (100, 1000), (Int.max, 3)])
  func theSpoolGivesBackEveryAnalyzedTraceBitForBit(written: Int, read: Int) throws {
    let whole = Evaluation(dataset: try TraceLoader.load([Self.samples]), options: EvaluationOptions(), threads: 2)
    let spool = AnalyzedSpool()
    let stream = try ScoredStream.run(
      Self.request(batchTraces: written, spool: spool), plan: Self.plan, planFollowsData: true)
    #expect(spool.isReadable && spool.failure == nil)
    #expect(spool.count == stream.analyzed)
    #expect(spool.count == whole.traces.count)
    var reader = spool.reader(command: "study")
    var traces: [Trace] = []
    var origins: [TraceOrigin] = []
    while let batch = try reader.next(upTo: read) {
      #expect(batch.traces.count <= read)
      traces += batch.traces
      origins += batch.origins
    }
    #expect(traces == whole.traces)
    #expect(origins == whole.dataset.origins)
    #expect(traces.contains { !$0.metadata.labels.isEmpty || $0.metadata.user != nil })
    // A second reader starts from the beginning again.
    var again = spool.reader(command: "study")
    #expect(try again.next(upTo: 1)?.traces == [whole.traces[0]])
  }

  /// A second read of a spooled first read reads the spool: the same traces, truths, units and
  /// replayed outcomes as a second read of the input files.
  @Test func aSecondReadFromTheSpoolIsASecondReadOfTheInputs() throws {
    let spool = AnalyzedSpool()
    var first = Self.request(batchTraces: 11, spool: spool)
    first.groupBy = .user
    _ = try ScoredStream.run(first, plan: Self.plan, planFollowsData: true)
    let plan = try Self.plan([1, 20.0 / 3])
    var second = first.replaying([plan.configurations[0].recognizer, plan.configurations[3].recognizer])
    second.keepsUnits = true
    second.batchTraces = 4
    var inputs = second
    inputs.spool = nil
    let fromSpool = try ScoredStream.run(second, plan: { _ in nil }, planFollowsData: false)
    let fromInputs = try ScoredStream.run(inputs, plan: { _ in nil }, planFollowsData: false)
    #expect(fromSpool.analyzed == fromInputs.analyzed && fromSpool.analyzed > 100)
    #expect(fromSpool.nameDigests == fromInputs.nameDigests)
    #expect(fromSpool.truths == fromInputs.truths)
    #expect(fromSpool.units == fromInputs.units && Set(fromSpool.units).count > 1)
    #expect(fromSpool.outcomes == fromInputs.outcomes && fromSpool.outcomes.count == 2)
    // The spool's read opens no file.
    #expect(fromSpool.files.isEmpty && !fromInputs.files.isEmpty)
  }

  /// A spool that would pass its limit stops and says why; a second read then reads the input
  /// files again, and standard input could not be read again.
  @Test func aSpoolPastItsLimitLeavesTheInputsToReadAgain() throws {
    let spool = AnalyzedSpool(limit: 10_000)
    let first = Self.request(batchTraces: 50, spool: spool)
    let stream = try ScoredStream.run(first, plan: Self.plan, planFollowsData: true)
    #expect(spool.isComplete && !spool.isReadable)
    #expect(spool.failure?.contains("limit of 10000 bytes") == true)
    #expect(spool.size == 0)
    #expect(first.canReadAgain)
    let plan = try Self.plan([1, 20.0 / 3])
    let second = try ScoredStream.run(
      first.replaying([plan.configurations[0].recognizer]), plan: { _ in nil }, planFollowsData: false)
    #expect(second.analyzed == stream.analyzed && !second.files.isEmpty)

    var standardInput = first
    standardInput.input.paths = [TraceFiles.standardInput]
    #expect(!standardInput.canReadAgain)
    #expect(standardInput.willReadAgain == false)
    standardInput.spool = AnalyzedSpool()
    #expect(standardInput.willReadAgain && !standardInput.canReadAgain)
  }
}
