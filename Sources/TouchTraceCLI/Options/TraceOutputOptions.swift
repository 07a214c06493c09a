import TouchCore
import TouchIO

extension OutputOptions where Choice == TraceFormat {
  /// The trace file format (``OutputOptions``'s rule: JSON on standard output without
  /// `--format`).
  var fileFormat: TraceFiles.Format {
    switch resolvedFormat {
    case .csv: .csv
    case .json: .json
    case .jsonl: .jsonl
    }
  }

  /// Writes `traces` to the target in ``fileFormat``, never over one of `inputs`.
  func write(_ traces: [Trace], inputs: [String]) throws(FileWriteError) {
    try Console.emit(TraceWriter.encode(traces, as: fileFormat), to: target, inputs: inputs)
  }
}
