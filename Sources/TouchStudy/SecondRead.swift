public import TouchCore
public import TouchEvaluation
public import TouchPartials
public import TouchRecognizers

/// Second reads: the traces of a first read, read again (from its spool or its inputs) to
/// replay the configurations a report chose.
extension StudyData {
  /// Reads `second` (a ``ScoredStream/Request/replaying(_:)`` of a first read) again: from the
  /// first read's spool, or from its inputs.
  ///
  /// - Throws: ``StudyError`` when the traces came from standard input and no spool holds them;
  ///   what reading and replaying throw.
  public static func readAgain(_ second: ScoredStream.Request) throws -> StudyData {
    guard second.canReadAgain else {
      let reason = second.spool?.failure.map { ", and its traces could not be spooled: \($0)" } ?? ""
      throw StudyError(
        description:
          "touchtrace \(second.command): error: standard input is read once\(reason); save the traces to a file")
    }
    let stream = try ScoredStream.run(second, plan: { _ in nil }, planFollowsData: false)
    return StudyData(stream: stream, request: second)
  }

  /// Reads `request`'s inputs again, replaying `recognizers` and handing each batch's replays to
  /// `onReplays` without keeping them (`what` the read is for names it in messages). Merging
  /// (`mergedInputs`: the inputs' SHA-256 as the shards recorded them), they must be the inputs
  /// the shards read.
  ///
  /// - Throws: ``StudyError`` when the inputs changed since the shards read them or the read
  ///   gives other traces than `evaluation`'s, and what reading throws.
  public static func replayAgain(
    _ recognizers: [AnyForceRecognizer], request: ScoredStream.Request, evaluation: Evaluation, for what: String,
    batchTraces: Int? = nil, mergedInputs: [StudyPartial.InputHash]? = nil,
    onReplays: @escaping (_ traces: [Trace], _ truths: [TraceTruth], _ outcomes: [[TraceOutcome]]) -> Void
  ) throws {
    var second = request.replaying(recognizers)
    second.keepsReplays = false
    if let batchTraces { second.batchTraces = batchTraces }
    second.writesPartial = mergedInputs != nil
    second.onReplays = onReplays
    let data = try readAgain(second)
    if let mergedInputs, data.stream?.inputs != mergedInputs {
      throw StudyError(
        description:
          "touchtrace merge: error: \(what) replay the inputs the shards read, and they changed since (SHA-256 differs); merge to md, json or csv, or run the \(request.command) again"
      )
    }
    guard data.readsSameTraces(as: evaluation) else {
      throw StudyError(
        description:
          "touchtrace \(request.command): error: the inputs changed while \(what) came from them (a second read gave other traces)"
      )
    }
  }
}
