import ArgumentParser
import TouchCore
import TouchIO

/// `--output` and `--format` of the commands that write trace files (`synth`, `import`).
struct TraceOutputOptions: ParsableArguments, FormatChoice {
  static let formats: [OutputFormat] = [.csv, .json, .jsonl]

  @Option(help: ArgumentHelp("Output file, or - for standard output.", valueName: "path"))
  var output: String

  @Option(help: "Output format (default: from the output file's extension; csv for -).")
  var format: FormatOption<Self>?

  /// The trace file format: `--format`, else the one the file's extension names, else CSV on
  /// standard output.
  var fileFormat: TraceFiles.Format {
    switch format?.format {
    case .csv: .csv
    case .json: .json
    case .jsonl: .jsonl
    case nil: output == "-" ? .csv : TraceFiles.Format(path: output)
    case .text?, .md?, .html?: FormatOption<Self>.unreachable(format!.format)
    }
  }

  /// Writes `traces` to `--output` (`-`: standard output) in ``fileFormat``, never over one of
  /// `inputs`.
  func write(_ traces: [Trace], inputs: [String]) throws(FileWriteError) {
    try Console.emit(TraceWriter.encode(traces, as: fileFormat), to: output, inputs: inputs)
  }
}
