import TouchCore
import TouchIO

/// The formats of the commands that write trace files (`synth`, `import`, `smooth`): CSV, JSON
/// and JSON Lines, read back by every command.
enum TraceFormats: FormatChoice {
  static let formats: [OutputFormat] = [.csv, .json, .jsonl]
}

extension OutputOptions where Choice == TraceFormats {
  /// The trace file format (``OutputOptions``'s rule: JSON on standard output without
  /// `--format`).
  var fileFormat: TraceFiles.Format {
    switch resolvedFormat {
    case .csv: .csv
    case .json: .json
    case .jsonl: .jsonl
    case let format: FormatOption<Choice>.unreachable(format)
    }
  }

  /// Writes `traces` to the target in ``fileFormat``, never over one of `inputs`.
  func write(_ traces: [Trace], inputs: [String]) throws(FileWriteError) {
    try Console.emit(TraceWriter.encode(traces, as: fileFormat), to: target, inputs: inputs)
  }
}
