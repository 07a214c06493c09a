import Foundation
import Testing
import TouchEvaluation
import TouchIO
import TouchRecognizers
import TouchStudy
import TouchTestSupport

@testable import TouchTraceCLI

/// The verdict's paired comparison reads the traces again and keeps only their names' hashes:
/// a second read must give the traces of the first, name for name, or the verdict is not paired
/// and says why.
@Suite struct VerdictSecondReadTests {
  static let iphone = TestData.repositoryRoot + "/samples/synth-iphone6s.csv"

  @Test func theSecondReadMustGiveTheSameTraces() throws {
    try inTemporaryDirectory { directory in
      let first = Evaluation(dataset: try TraceLoader.load([Self.iphone]), options: EvaluationOptions())
      let plan = try SweepPlan(
        recognizers: RecognizerSpec.list("deep-press,stable-press"), maximumForces: [20.0 / 3])
      let (a, b) = (plan.configurations[0], plan.configurations[1])
      func request(_ path: String) -> ScoredStream.Request {
        ScoredStream.Request(
          input: StudyInput(paths: [path]), recognizers: [a.recognizer, b.recognizer], options: EvaluationOptions(),
          threads: 2, command: "sweep", batchTraces: 10)
      }
      let same = try VerdictPass.comparison(a, b, request: request(Self.iphone), evaluation: first)
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
      let other = try VerdictPass.comparison(a, b, request: request(renamed), evaluation: first)
      guard case .failure(let reason) = other else {
        Issue.record("other traces were paired")
        return
      }
      #expect(reason.text == "the second read gave other traces than the first")
    }
  }
}
