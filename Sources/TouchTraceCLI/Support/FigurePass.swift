import TouchEvaluation
import TouchRecognizers
import TouchReports
import TouchStudy
import TouchTuning

/// The figures of a sweep's HTML report when the sweep kept only its traces' summary: a second
/// read of the inputs replays each recognizer's marked configuration, and a
/// `SweepFigureData.Selector` keeps, as the traces pass, the latencies and the few traces the
/// example figures draw (the same ones a sweep keeping every trace chooses), so memory does not
/// grow with the traces' samples (`sweep` and `tune`; `compare`'s when merging,
/// ``comparison(_:columns:request:)``).
/// When merging partials, the second read is of the inputs the shards read, checked against the
/// SHA-256 they recorded.
enum FigurePass {
  /// The figures' data of `result`, whose traces `request` read.
  ///
  /// - Throws: `DataError` when the second read gives other traces or a replay fails, and what
  ///   reading throws.
  static func gather(_ result: SweepResult, request: ScoredStream.Request, marked: [String: Int] = [:]) throws
    -> SweepFigureData
  {
    final class Selection {
      var selector: SweepFigureData.Selector
      init(_ selector: SweepFigureData.Selector) { self.selector = selector }
    }
    let selection = Selection(SweepFigureData.Selector(result, marked: marked))
    let recognizers = selection.selector.configurations.map { result.configurations[$0].recognizer }
    try ScoredData.replayAgain(
      recognizers, request: request, evaluation: result.evaluation, for: "the HTML report's figures"
    ) { traces, truths, lists in
      selection.selector.add(batch: traces, truths: truths, outcomes: lists)
    }
    do throws(ReplayError) {
      return try selection.selector.finish(result)
    } catch {
      throw DataError.replay(error, command: request.command)
    }
  }
}

extension FigurePass {
  /// The figures' data of a comparison whose traces were not read here (merging partials): A's
  /// and B's outcomes kept as the shards read the traces (`columns`), and the few traces drawn
  /// where they disagree, chosen by a `ComparisonFigureData.Selector` in a second read of the
  /// inputs the shards read (checked against their SHA-256).
  ///
  /// - Throws: `DataError` when the second read gives other traces, `ReplayError` when a replay
  ///   fails, and what reading throws.
  static func comparison(
    _ run: ComparisonResult, columns: (a: OutcomeColumn, b: OutcomeColumn), request: ScoredStream.Request
  ) throws -> ComparisonFigureData {
    final class Selection { var selector = ComparisonFigureData.Selector() }
    let selection = Selection()
    try ScoredData.replayAgain(
      [run.a.recognizer, run.b.recognizer], request: request, evaluation: run.evaluation,
      for: "the HTML report's figures"
    ) { traces, truths, lists in
      selection.selector.add(batch: traces, truths: truths, outcomes: lists)
    }
    return try selection.selector.finish(run, a: columns.a, b: columns.b)
  }
}
