import ArgumentParser
import TouchIO

/// `--format`, `--output` and `--quiet`: the same three options, with the same rule, on every
/// command. `Choice` names the formats the command writes.
///
/// The format is `--format`, else the one the `--output` file's ending names (`.md`, `.json`,
/// `.jsonl`, `.csv`, `.html`), else, on standard output, Markdown on a terminal and JSON
/// otherwise (among the formats the command writes: its first when it writes neither). An
/// `--output` ending that names no format the command writes is a usage error (exit 64) unless
/// `--format` is given; a name without an ending gets JSON.
struct OutputOptions<Choice: FormatChoice>: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Output format: \(Choice.formats.filter { $0 != .text }.map(\.rawValue).joined(separator: ", ")) (default: from the --output file's ending, else md on a terminal, else json).",
      valueName: "format"))
  var format: FormatOption<Choice>?

  @Option(help: ArgumentHelp("Write to this file; - is standard output (default: -).", valueName: "file"))
  var output: String?

  @Flag(help: "Print only errors on standard error: no notes, warnings, skipped-trace lines or progress.")
  var quiet = false

  func validate() throws {
    if format == nil, let output, output != OutputFiles.standardOutput, let ending = OutputFormat.ending(of: output) {
      let written = Choice.formats.filter { $0 != .text }.map(\.rawValue).joined(separator: ", ")
      guard let named = OutputFormat(fileName: output), Choice.formats.contains(named) else {
        throw ValidationError(
          "--output \(output): the ending '.\(ending)' names no format this command writes (\(written)); give --format")
      }
    }
  }

  /// Where the output goes: `--output`, else `-` (standard output).
  var target: String { output ?? OutputFiles.standardOutput }

  /// `--output` when it names a file (`nil` for standard output): for the checks made before
  /// any work.
  var file: String? { target == OutputFiles.standardOutput ? nil : target }

  /// The format to write (see the type's rule).
  var resolvedFormat: OutputFormat {
    if let format { return format.format }
    if let file {
      if let named = OutputFormat(fileName: file), Choice.formats.contains(named) { return named }
      return Self.fallback(terminal: false)
    }
    return Self.fallback(terminal: Console.stdoutIsTerminal)
  }

  /// Markdown on a terminal, else JSON, among `Choice.formats`; its first when neither.
  static func fallback(terminal: Bool) -> OutputFormat {
    if terminal, Choice.formats.contains(.md) { return .md }
    if Choice.formats.contains(.json) { return .json }
    return Choice.formats[0]
  }

  /// Writes `bytes` to the target, never over one of `inputs`.
  func emit(_ bytes: [UInt8], inputs: [String]) throws(FileWriteError) {
    try Console.emit(bytes, to: target, inputs: inputs)
  }

  /// The progress line of `touchtrace COMMAND`, shown unless `--quiet` or standard error is not a
  /// terminal.
  func progress(command: String) -> Progress {
    Progress(enabled: !quiet && Console.stderrIsTerminal, command: command)
  }
}

/// A command whose `--quiet` silences notes and warnings: `TouchTraceTool` binds
/// `Console.quiet` to ``isQuiet`` around its `run()`.
protocol QuietCommand {
  /// Whether `--quiet` was given.
  var isQuiet: Bool { get }
}

/// The formats of the reporting commands (`sweep`, `tune`, `compare`).
enum ReportFormats: FormatChoice {
  static let formats: [OutputFormat] = [.md, .json, .csv, .html]
}

/// The help of every `--seed`: one range everywhere.
let seedHelp = ArgumentHelp("Seed of the random stream, 0 … 18446744073709551615 (2^64 − 1).", valueName: "s")
