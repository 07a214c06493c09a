import TouchEvaluation
import TouchPartials
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
    var second = request.replaying(recognizers)
    second.keepsReplays = false
    // Merging: the inputs the shards read, checked against their SHA-256.
    let merged = ScoredData.merged
    second.writesPartial = merged != nil
    second.onReplays = { traces, truths, lists in
      selection.selector.add(batch: traces, truths: truths, outcomes: lists)
    }
    try check(
      try ScoredData.readAgain(second), merged: merged, evaluation: result.evaluation, command: request.command)
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
    var second = request.replaying([run.a.recognizer, run.b.recognizer])
    second.keepsReplays = false
    let merged = ScoredData.merged
    second.writesPartial = merged != nil
    second.onReplays = { traces, truths, lists in selection.selector.add(batch: traces, truths: truths, outcomes: lists)
    }
    try check(try ScoredData.readAgain(second), merged: merged, evaluation: run.evaluation, command: request.command)
    return try selection.selector.finish(run, a: columns.a, b: columns.b)
  }

  /// Refuses a second read that read other inputs than the shards (merging) or other traces
  /// than the first read.
  static func check(_ data: ScoredData, merged: MergedStudy?, evaluation: Evaluation, command: String) throws {
    if let merged, data.stream?.inputs != merged.inputs {
      throw DataError(
        description:
          "touchtrace merge: error: the HTML report's figures replay the inputs the shards read, and they changed since (SHA-256 differs); merge to md, json or csv, or run the \(command) again"
      )
    }
    guard data.readsSameTraces(as: evaluation) else {
      throw DataError(
        description:
          "touchtrace \(command): error: the inputs changed while the HTML report's figures were drawn from them (a second read gave other traces)"
      )
    }
  }
}
