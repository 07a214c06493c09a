import ArgumentParser
import Dispatch
public import TouchRecognizers

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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
  /// with 0. Standard input, output and error closed at the start are held open on
  /// `/dev/null` so no file takes their place, and writes to them still fail; `SIGPIPE` is
  /// ignored. When the process ends, standard output is flushed and closed and a failure there
  /// (a closed standard output or pipe included) ends it with exit code 74. The command runs
  /// in a task and the main thread serves the main queue (`dispatchMain`): asynchronous commands
  /// (`capture`, which serves until it is stopped) are awaited, no thread blocks on them.
  public static func main(catalog: RecognizerCatalog = .builtIn, arguments: [String]? = nil) -> Never {
    // First, before anything (the concurrency runtime's descriptors included) can take 0, 1 or 2.
    Console.secureStandardDescriptors()
    Console.checkStandardOutputAtExit()
    let arguments = arguments ?? Array(CommandLine.arguments.dropFirst())
    Task {
      await $catalog.withValue(catalog) {
        do {
          guard let prepared = try prepare(arguments) else { return }
          try await prepared.run()
        } catch {
          TouchTraceCommand.exit(withError: error)
        }
      }
      exit(0)
    }
    dispatchMain()
  }

  /// Runs one command with `catalog` in this process and returns its exit code (0 on success),
  /// printing as the tool does: for tests and for tools that embed `touchtrace`. Synchronous: an
  /// asynchronous command (`capture`) is refused with exit 64 after its options are checked,
  /// rather than waited for through a blocking bridge; run it with ``main(catalog:arguments:)``.
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

  /// A parsed command and what it runs under: `Console.quiet` and `Console.verbose` bound to its
  /// `--quiet` and `--verbose`, `StudyFile.current` to its effective options.
  struct Prepared {
    var command: any ParsableCommand
    let effective: StudyFile.Effective?
    let quiet: Bool
    let verbose: Bool

    /// Runs the command, awaiting it when it is asynchronous.
    func run() async throws {
      var command = command
      try await Console.$quiet.withValue(quiet) {
        try await Console.$verbose.withValue(verbose) {
          try await StudyFile.$current.withValue(effective) {
            if var asynchronous = command as? any AsyncParsableCommand {
              try await asynchronous.run()
            } else {
              try command.run()
            }
            Console.detail(Console.peakMemoryNote)
          }
        }
      }
    }

    /// Runs a synchronous command; an asynchronous one is a usage error (exit 64).
    func runSynchronously() throws {
      var command = command
      guard !(command is any AsyncParsableCommand) else {
        Console.error(
          "touchtrace \(type(of: command)._commandName): error: this command runs only as the executable (TouchTraceTool.main awaits it), not through TouchTraceTool.run"
        )
        throw ExitCode.validationFailure
      }
      try Console.$quiet.withValue(quiet) {
        try Console.$verbose.withValue(verbose) {
          try StudyFile.$current.withValue(effective) { try command.run() }
          Console.detail(Console.peakMemoryNote)
        }
      }
    }
  }

  /// Expands, parses and runs `arguments` synchronously (``Prepared/runSynchronously()``).
  static func execute(_ arguments: [String]) throws {
    try prepare(arguments)?.runSynchronously()
  }

  /// Expands a study file (`--config`) and parses the arguments into the command to run; with
  /// `--print-config` prints the effective options as TOML instead and returns `nil`.
  static func prepare(_ arguments: [String]) throws -> Prepared? {
    let expanded: (arguments: [String], effective: StudyFile.Effective?)
    do throws(StudyFile.Failure) {
      expanded = try StudyFile.expand(arguments)
    } catch {
      Console.error(error.description)
      throw error.code
    }
    // A partial merge would refuse (an exec: recognizer, whose command merge does not start) is
    // a usage error before anything runs, not a refusal after every shard has.
    if let effective = expanded.effective, effective.values.contains(where: { $0.argument.key == "partial" }) {
      let recorded = StudyFile.$current.withValue(effective) { StudyFile.replayArguments() }
      if let why = TouchTraceCommand.Merge.refusal(command: effective.arguments.command, arguments: recorded) {
        Console.error(
          "touchtrace \(effective.arguments.command): error: --partial: touchtrace merge would refuse this partial: \(why)"
        )
        throw ExitCode.validationFailure
      }
    }
    let command: any ParsableCommand
    do {
      command = try TouchTraceCommand.parseAsRoot(expanded.arguments)
    } catch {
      // A value the study file gave: said at its line, as bad input data.
      if let failure = StudyFile.attribute(TouchTraceCommand.message(for: error), effective: expanded.effective) {
        Console.error(failure.description)
        throw failure.code
      }
      throw error
    }
    let global = (command as? any GlobalCommand)?.global
    if global?.printConfig == true, let effective = expanded.effective {
      try Console.run { try Console.emit(Array(effective.toml.utf8), to: nil, inputs: []) }
      return nil
    }
    return Prepared(
      command: command, effective: expanded.effective, quiet: global?.quiet ?? false, verbose: global?.verbose ?? false)
  }
}
