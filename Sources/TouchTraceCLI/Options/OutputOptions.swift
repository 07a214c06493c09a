import ArgumentParser
import TouchIO

/// `--format` and `--output`: the same two options, with the same rule, on every command that
/// writes a report or traces. `Choice` is the command's closed enum of the formats it writes.
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

  func validate() throws {
    if format == nil, let output, output != OutputFiles.standardOutput, let ending = OutputFormat.ending(of: output) {
      let written = Choice.formats.filter { $0 != .text }.map(\.rawValue).joined(separator: ", ")
      guard let named = OutputFormat(fileName: output), Choice(named) != nil else {
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
  var resolvedFormat: Choice {
    if let format { return format.choice }
    if let file {
      if let named = OutputFormat(fileName: file), let choice = Choice(named) { return choice }
      return Self.fallback(terminal: false)
    }
    return Self.fallback(terminal: Console.stdoutIsTerminal)
  }

  /// Markdown on a terminal, else JSON, among `Choice`'s formats; its first when neither.
  static func fallback(terminal: Bool) -> Choice {
    if terminal, let markdown = Choice(.md) { return markdown }
    return Choice(.json) ?? Choice.allCases[0]
  }

  /// Writes `bytes` to the target, never over one of `inputs`.
  func emit(_ bytes: [UInt8], inputs: [String]) throws(FileWriteError) {
    try Console.emit(bytes, to: target, inputs: inputs)
  }

  /// The progress line of `touchtrace COMMAND`, shown unless `--quiet` or standard error is not a
  /// terminal.
  func progress(command: String) -> Progress {
    Progress(enabled: !Console.quiet && Console.stderrIsTerminal, command: command)
  }
}

/// The help of every `--seed`: one range everywhere.
let seedHelp = ArgumentHelp("Seed of the random stream, 0 … 18446744073709551615 (2^64 − 1).", valueName: "s")
