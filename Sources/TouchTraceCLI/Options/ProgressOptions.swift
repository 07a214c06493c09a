import ArgumentParser

/// `--quiet`: whether `sweep` and `tune` show their progress line on standard error (only ever on
/// a terminal).
struct ProgressOptions: ParsableArguments {
  @Flag(help: "No progress on standard error.")
  var quiet = false

  /// The progress line of `touchtrace COMMAND`, shown unless `--quiet` or standard error is not a
  /// terminal.
  func progress(command: String) -> Progress {
    Progress(enabled: !quiet && Console.stderrIsTerminal, command: command)
  }
}
