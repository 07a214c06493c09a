import TouchCore
import TouchEvaluation
import TouchExport
import TouchIO
import TouchRecognizers
import TouchStudy

/// The conformance vectors of `tune --export` when the tuning kept only its traces' summary: a
/// second read of the inputs (from the spool of analyzed traces where there is one) replays the
/// chosen configuration, and each batch's records go to a temporary file as the traces pass, so
/// memory does not grow with the vectors (about the size of the CSV they come from). The bytes
/// are those `ConformanceVectors.text` gives for every trace at once.
enum VectorsPass {
  /// Traces replayed and written at a time: about 0.1–1 MB of text for touch-screen contacts.
  static let chunk = 256

  /// A new spool of vectors in `$TMPDIR`, holding the header that names `recognizer`.
  ///
  /// - Throws: `FileWriteError` when the spool cannot be made or written.
  static func start(_ recognizer: AnyForceRecognizer) throws -> ByteSpool {
    let spool = try ByteSpool(beside: TemporaryDirectory.path + "/touchtrace-vectors")
    try spool.append(Array(ConformanceVectors.header(recognizer).utf8))
    return spool
  }

  /// Appends the records of `traces` replayed through `recognizer` to `spool`, ``chunk``
  /// traces at a time.
  ///
  /// - Throws: `DataError` (of `command`) when a replay fails, `FileWriteError` when the spool
  ///   cannot be written.
  static func write(_ traces: [Trace], _ recognizer: AnyForceRecognizer, to spool: ByteSpool, command: String) throws {
    for start in stride(from: 0, to: traces.count, by: chunk) {
      var text = ""
      do throws(ReplayError) {
        try ConformanceVectors.append(
          Array(traces[start..<min(start + chunk, traces.count)]), recognizer: recognizer, to: &text)
      } catch {
        throw DataError.replay(error, command: command)
      }
      try spool.append(Array(text.utf8))
    }
  }

  /// The vectors of `recognizer` over the traces `request` read (`evaluation`'s), spooled in
  /// `$TMPDIR`: header first, then every non-empty trace in order.
  ///
  /// - Throws: `DataError` when the second read gives other traces or a replay fails,
  ///   `FileWriteError` when the spool cannot be written, and what reading throws.
  static func spool(_ recognizer: AnyForceRecognizer, request: ScoredStream.Request, evaluation: Evaluation)
    throws -> ByteSpool
  {
    final class Writing {
      let spool: ByteSpool
      var failure: (any Error)?
      init(_ spool: ByteSpool) { self.spool = spool }
    }
    let writing = Writing(try start(recognizer))
    // No outcomes are needed: the batches' traces alone, replayed here with their actions.
    try ScoredData.replayAgain([], request: request, evaluation: evaluation, for: "the conformance vectors") {
      traces, _, _ in
      guard writing.failure == nil else { return }
      do {
        try write(traces, recognizer, to: writing.spool, command: request.command)
      } catch {
        writing.failure = error
      }
    }
    if let failure = writing.failure { throw failure }
    return writing.spool
  }
}
