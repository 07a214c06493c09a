import Foundation
import Testing
import TouchCore
import TouchEvaluation
import TouchIO
import TouchPartials
import TouchRecognizers
import TouchStudy
import TouchTestSupport

/// The verdict's paired comparison reads the traces again and keeps only their names' hashes:
/// a second read must give the traces of the first, name for name, or the verdict is not paired
/// and says why.
@Suite struct VerdictSecondReadTests {
  static let iphone = TestData.repositoryRoot + "/samples/synth-iphone6s.csv"

  @Test func theSecondReadMustGiveTheSameTraces() throws {
    let directory = TestData.temporaryDirectory()
    defer { TestData.remove(directory) }
    let first = Evaluation(dataset: try TraceLoader.load([Self.iphone]), options: EvaluationOptions())
    let plan = try SweepPlan(
      recognizers: RecognizerSpec.list("deep-press,stable-press"), maximumForces: [20.0 / 3])
    let (a, b) = (plan.configurations[0], plan.configurations[1])
    func request(_ path: String) -> ScoredStream.Request {
      ScoredStream.Request(
        input: StudyInput(paths: [path]), recognizers: [a.recognizer, b.recognizer], options: EvaluationOptions(),
        threads: 2, command: "sweep", batchTraces: 10)
    }
    let same = try StudyVerdict.comparison(a, b, request: request(Self.iphone), evaluation: first)
    guard case .success(let paired) = same else {
      Issue.record("the same file was not paired: \(same)")
      return
    }
    let table = paired.comparison.mcnemar
    #expect(table.bothCorrect + table.onlyA + table.onlyB + table.neither == first.traces.count)
    // As many traces, but other names.
    let renamed = directory + "/renamed.csv"
    let text = try String(contentsOfFile: Self.iphone, encoding: .utf8)
    try text.replacingOccurrences(of: "iphone6s-s8-", with: "iphone6s-s9-")
      .write(toFile: renamed, atomically: true, encoding: .utf8)
    let other = try StudyVerdict.comparison(a, b, request: request(renamed), evaluation: first)
    guard case .failure(let reason) = other else {
      Issue.record("other traces were paired")
      return
    }
    #expect(reason.text == "the second read gave other traces than the first")
  }

  /// Merging, the second read must find the inputs the shards hashed: a file whose content
  /// differs gives no comparison (the verdict says why), and the same content pairs.
  @Test func mergingTheInputsMustBeThoseTheShardsRead() throws {
    let first = Evaluation(dataset: try TraceLoader.load([Self.iphone]), options: EvaluationOptions())
    let plan = try SweepPlan(
      recognizers: RecognizerSpec.list("deep-press,stable-press"), maximumForces: [20.0 / 3])
    let (a, b) = (plan.configurations[0], plan.configurations[1])
    let request = ScoredStream.Request(
      input: StudyInput(paths: [Self.iphone]), recognizers: [a.recognizer, b.recognizer], options: EvaluationOptions(),
      threads: 2, command: "sweep", batchTraces: 10)
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: Self.iphone)))
    let recorded = [StudyPartial.InputHash(file: Self.iphone, sha256: SHA256.hash(bytes))]
    let same = try StudyVerdict.comparison(a, b, request: request, evaluation: first, mergedInputs: recorded)
    guard case .success = same else {
      Issue.record("the inputs the shards read were not paired: \(same)")
      return
    }
    let changed = [StudyPartial.InputHash(file: Self.iphone, sha256: SHA256.hash(bytes + [10]))]
    let other = try StudyVerdict.comparison(a, b, request: request, evaluation: first, mergedInputs: changed)
    guard case .failure(let reason) = other else {
      Issue.record("changed inputs were paired")
      return
    }
    #expect(reason.text == "the inputs changed since the shards read them (SHA-256 differs)")
  }
}
