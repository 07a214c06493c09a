import ArgumentParser
import TouchCore
import TouchEvaluation
import TouchIO
import TouchRecognizers
import TouchReports

/// `--outcomes FILE` and `--outcomes-filter`: the per-trace outcome table of `run`, `sweep`,
/// `tune` and `compare` (see `OutcomeTable` in TouchReports).
struct OutcomeOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Also write the per-trace outcomes (one row per configuration × trace × TP/FP/FN/TN): CSV, or JSON Lines for a name ending in .jsonl.",
      valueName: "file"))
  var outcomes: String?

  @Option(
    help: ArgumentHelp(
      "Which outcome rows to write: all; errors (FP and FN rows only); best (only the best configuration of each recognizer by F1 — for tune the chosen one; run and compare write theirs).",
      valueName: "rows"))
  var outcomesFilter: OutcomeFilter = .all

  /// The rows `--outcomes-filter` keeps.
  enum OutcomeFilter: String, ExpressibleByArgument, CaseIterable {
    case all, errors, best
  }

  /// Opens the table's stream (after the long work, so nothing waits on an open file); `nil`
  /// without `--outcomes`.
  func open(inputs: [String]) throws(FileWriteError) -> OutcomeWriter? {
    guard let outcomes else { return nil }
    return OutcomeWriter(
      stream: try StreamedOutput(path: outcomes, inputs: Console.guarded(inputs)),
      jsonLines: outcomes.hasSuffix(".jsonl"),
      errorsOnly: outcomesFilter == .errors)
  }
}

/// Streams outcome rows to the `--outcomes` file as each configuration's outcomes are produced;
/// the file is committed with the command's other outputs.
final class OutcomeWriter {
  let stream: StreamedOutput
  let jsonLines: Bool
  let errorsOnly: Bool
  /// Rows written so far.
  private(set) var rows = 0
  /// The extra label columns, once the header is written (with the first rows, when the traces
  /// are known); `nil` before.
  private var labels: [String]?

  init(stream: StreamedOutput, jsonLines: Bool, errorsOnly: Bool) {
    self.stream = stream
    self.jsonLines = jsonLines
    self.errorsOnly = errorsOnly
  }

  /// Writes the rows of one configuration's outcomes.
  func write(
    _ outcomes: [TraceOutcome], index: Int, configuration: Configuration, evaluation: Evaluation
  ) throws(FileWriteError) {
    try writeHeader(labels: OutcomeTable.labelNames(evaluation.traces))
    try stream.append(
      lines(outcomes, truths: evaluation.truths, traces: evaluation.traces, index: index, configuration: configuration))
  }

  /// The table's lines of `outcomes` (each numbering a trace of `traces` and `truths`) of
  /// configuration `index`, the rows the filter keeps, counted in ``rows``; the header must be
  /// written first (its label columns are the lines' too).
  func lines(
    _ outcomes: [TraceOutcome], truths: [TraceTruth], traces: [Trace], index: Int, configuration: Configuration
  ) -> [UInt8] {
    var rows: [OutcomeRow] = []
    for outcome in outcomes { rows += outcome.rows(truth: truths[outcome.trace]) }
    if errorsOnly { rows.removeAll { $0.kind == .truePositive || $0.kind == .trueNegative } }
    self.rows += rows.count
    return OutcomeTable.lines(
      rows, index: index, configuration: configuration, traces: traces, jsonLines: jsonLines, labels: labels ?? [])
  }

  /// Writes the header (with `labels` as extra label columns) unless it is written already.
  func writeHeader(labels: [String]) throws(FileWriteError) {
    guard self.labels == nil else { return }
    self.labels = labels
    try stream.append(OutcomeTable.header(jsonLines: jsonLines, labels: labels))
  }

  /// Writes the rows of each of `configurations` (index, configuration): its outcomes from
  /// `columns` (by index: kept as the traces were read), a few thousand traces at a time, or else
  /// replayed on the evaluation's traces (whose samples must be kept).
  func write(
    _ configurations: [(index: Int, configuration: Configuration)], evaluation: Evaluation, threads: Int,
    command: String, columns: ((Int) throws -> OutcomeColumn)? = nil
  ) throws {
    for (index, configuration) in configurations {
      if let columns {
        try writeHeader(labels: OutcomeTable.labelNames(evaluation.traces))
        let column = try columns(index)
        for start in stride(from: column.startIndex, to: column.endIndex, by: 4096) {
          let outcomes = Array(column[start..<min(start + 4096, column.endIndex)])
          try stream.append(
            lines(
              outcomes, truths: evaluation.truths, traces: evaluation.traces, index: index, configuration: configuration
            ))
        }
        continue
      }
      let outcomes: [TraceOutcome]
      do throws(ReplayError) {
        outcomes = try evaluation.outcomes(of: configuration.recognizer, threads: threads)
      } catch {
        stream.discard()
        throw DataError.replay(error, command: command)
      }
      try write(outcomes, index: index, configuration: configuration, evaluation: evaluation)
    }
  }
}

extension Console {
  /// Writes `document` to `stream` piece by piece (about 1 MiB at a time).
  ///
  /// - Throws: the stream's first `FileWriteError` (the stream is then discarded).
  static func write(_ document: JSONValue, to stream: StreamedOutput) throws(FileWriteError) {
    var failure: FileWriteError?
    document.encode { bytes in
      guard failure == nil else { return }
      do throws(FileWriteError) {
        try stream.append(bytes)
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
  }

  /// Writes a command's outputs and commits the `--outcomes` stream and `streams` with them, all
  /// or nothing.
  static func emit(
    _ outputs: [(path: String, bytes: [UInt8])], outcomes: OutcomeWriter?, streams: [StreamedOutput] = [],
    inputs: [String]
  ) throws(FileWriteError) {
    try outcomes?.writeHeader(labels: [])  // a table without rows still has its header
    try OutputFiles(inputs: guarded(inputs)).write(outputs, committing: (outcomes.map { [$0.stream] } ?? []) + streams)
  }
}
