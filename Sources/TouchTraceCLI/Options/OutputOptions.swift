import ArgumentParser
import TouchIO

/// `--format` with a default and `--output`: where and how a command that writes one document
/// (`inspect`, `run`, `features`) writes it. `Choice` names the formats and the default.
struct OutputOptions<Choice: DefaultFormatChoice>: ParsableArguments {
  @Option(name: .customLong("format"), help: "Output format.")
  var formatOption = FormatOption<Choice>(Choice.defaultFormat)

  @Option(help: ArgumentHelp(Choice.outputHelp, valueName: "file"))
  var output: String?

  /// The format to write.
  var format: OutputFormat { formatOption.format }

  /// Writes `bytes` to `--output`, or to standard output without it, never over one of `inputs`.
  func emit(_ bytes: [UInt8], inputs: [String]) throws(FileWriteError) {
    try Console.emit(bytes, to: output, inputs: inputs)
  }
}

/// A command's formats with the one it writes without `--format`.
protocol DefaultFormatChoice: FormatChoice {
  /// The format without `--format`; one of ``FormatChoice/formats``.
  static var defaultFormat: OutputFormat { get }
  /// The help of `--output`.
  static var outputHelp: String { get }
}
