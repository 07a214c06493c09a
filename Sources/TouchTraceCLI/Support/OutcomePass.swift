import TouchEvaluation
import TouchPartials
import TouchRecognizers
import TouchStudy

/// The `--outcomes` table of a sweep that kept only its traces' summary: a second read of the
/// inputs replays the chosen configurations, each batch's lines of each configuration go to a
/// spill file as they come, and the table is then copied from it configuration by configuration
/// (the table's order). Memory holds one batch's outcomes, not every trace's samples; the disk
/// holds the table once more until the command ends.
enum OutcomePass {
  /// Outcomes replayed per batch, at most (the batch shrinks as configurations grow, so a
  /// second read of hundreds of configurations holds as many outcomes as one of a few).
  static let outcomesPerBatch = 16 * ScoredStream.defaultBatch

  /// Writes the rows of `configurations` (index in the report, configuration) of the traces
  /// `request` read (whose `evaluation` kept their summary) to `writer`.
  ///
  /// - Throws: `DataError` when the second read gives other traces or a replay fails,
  ///   `LatencySpill.Failure` when the spill file fails, and what reading and writing throw.
  static func write(
    _ configurations: [(index: Int, configuration: Configuration)], to writer: OutcomeWriter,
    request: ScoredStream.Request, evaluation: Evaluation
  ) throws {
    try writer.writeHeader(labels: evaluation.summary.extraLabelNames.sorted())
    guard !configurations.isEmpty else { return }
    final class Spilled {
      let spill: LatencySpill
      var segments: [[LatencySpill.Ref]]
      var failure: (any Error)?
      init(configurations: Int) throws(LatencySpill.Failure) {
        spill = try LatencySpill()
        segments = Array(repeating: [], count: configurations)
      }
    }
    let spilled = try Spilled(configurations: configurations.count)
    // The batch shrinks as configurations grow: at most `outcomesPerBatch` replayed outcomes.
    let batch = max(64, min(request.batchTraces, outcomesPerBatch / configurations.count))
    try ScoredData.replayAgain(
      configurations.map(\.configuration.recognizer), request: request, evaluation: evaluation,
      for: "the outcomes table", batchTraces: batch
    ) { traces, truths, lists in
      guard spilled.failure == nil else { return }
      do {
        for (k, list) in lists.enumerated() {
          let (index, configuration) = configurations[k]
          let lines = writer.lines(list, truths: truths, traces: traces, index: index, configuration: configuration)
          spilled.segments[k].append(try spilled.spill.append(bitsOf: lines))
        }
      } catch {
        spilled.failure = error
      }
    }
    if let failure = spilled.failure { throw failure }
    for segments in spilled.segments {
      for segment in segments { try writer.stream.append(try spilled.spill.read(segment, as: UInt8.self)) }
    }
  }
}
