import ArgumentParser
public import TouchRecognizers

/// The `touchtrace` command line as a library: run it with the built-in recognizer catalog, or
/// with a catalog that adds recognizers of your own.
///
/// ```swift
/// // main.swift of a package that depends on TouchTrace
/// import TouchRecognizers
/// import TouchTraceCLI
///
/// TouchTraceTool.main(catalog: try RecognizerCatalog.builtIn.adding(MyPress.self))
/// ```
///
/// Every command (`recognizers`, `run`, `sweep`, `tune`, `compare`) then lists and builds the
/// recognizers of that catalog, compositions `A+B` included.
public enum TouchTraceTool {
  /// The catalog the commands use: the built-in one unless ``main(catalog:arguments:)`` or
  /// ``run(_:catalog:)`` binds another for the command they run (a task-local value, so commands
  /// run side by side in one process, as tests do, each see their own).
  @TaskLocal public static var catalog = RecognizerCatalog.builtIn

  /// Parses `arguments` (the process's own when `nil`) and runs the command with `catalog`; on an
  /// error it exits with the command's exit code (documented in `touchtrace --help`), on success
  /// it returns. When the process ends, standard output is flushed and closed and a failure
  /// there ends it with exit code 74.
  public static func main(catalog: RecognizerCatalog = .builtIn, arguments: [String]? = nil) {
    Console.checkStandardOutputAtExit()
    $catalog.withValue(catalog) {
      do {
        try execute(arguments ?? Array(CommandLine.arguments.dropFirst()))
      } catch {
        TouchTraceCommand.exit(withError: error)
      }
    }
  }

  /// Runs one command with `catalog` in this process and returns its exit code (0 on success),
  /// printing as the tool does: for tests and for tools that embed `touchtrace`.
  public static func run(_ arguments: [String], catalog: RecognizerCatalog = .builtIn) -> Int32 {
    $catalog.withValue(catalog) {
      do {
        try execute(arguments)
        return 0
      } catch {
        return TouchTraceCommand.exitCode(for: error).rawValue
      }
    }
  }

  /// Parses `arguments` and runs the command, with `Console.quiet` bound to its `--quiet`.
  static func execute(_ arguments: [String]) throws {
    var command = try TouchTraceCommand.parseAsRoot(arguments)
    let quiet = (command as? any QuietCommand)?.isQuiet ?? false
    try Console.$quiet.withValue(quiet) { try command.run() }
  }
}
