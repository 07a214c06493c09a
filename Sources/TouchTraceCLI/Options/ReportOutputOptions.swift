import ArgumentParser
import TouchIO

/// `--format` and `--output` of the reporting commands (`sweep`, `tune`, `compare`): md, json,
/// csv or html, chosen by the flag, else by the `--output` ending, else md on a terminal and json
/// otherwise.
struct ReportOutputOptions: ParsableArguments, FormatChoice {
  static let formats: [OutputFormat] = [.md, .json, .csv, .html]

  @Option(help: "Output format (default: from the --output ending, else md on a terminal, else json).")
  var format: FormatOption<Self>?

  @Option(help: ArgumentHelp("Write the report to this file instead of standard output.", valueName: "file"))
  var output: String?

  /// The flag, else the `--output` ending, else md on a terminal, else json.
  var resolvedFormat: OutputFormat {
    if let format { return format.format }
    if let output, let format = Self.formats.first(where: { output.hasSuffix("." + $0.rawValue) }) { return format }
    return output == nil && Console.stdoutIsTerminal ? .md : .json
  }

  /// Where the report goes: `--output`, else `-` (standard output).
  var target: String { output ?? OutputFiles.standardOutput }
}
