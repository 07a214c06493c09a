import ArgumentParser
import TouchExec
import TouchRecognizers

/// `--exec-timeout`, `--exec-env`, and the catalog that makes `exec:COMMAND` recognizers (shared by `run`,
/// `sweep`, `tune` and `compare`).
struct ExecOptions: ParsableArguments {
  @Option(
    name: .customLong("exec-timeout"),
    help: ArgumentHelp(
      "exec: recognizers: seconds a command may stay silent while an answer is due.", valueName: "s"))
  var timeout: Double = 10

  @Option(
    name: .customLong("exec-env"),
    help: ArgumentHelp(
      "exec: recognizers: pass this environment variable to the commands (repeatable; they get only PATH, HOME, LANG, LC_ALL and TMPDIR otherwise).",
      valueName: "name"))
  var environment: [String] = []

  func validate() throws {
    guard timeout > 0, timeout.isFinite else {
      throw ValidationError("--exec-timeout must be a number of seconds > 0, got \(timeout)")
    }
    for name in environment where name.isEmpty || name.contains("=") || name.utf8.contains(0) {
      throw ValidationError("--exec-env takes a variable's name (no '='), got '\(name)'")
    }
  }

  /// Runs `body` with the tool's catalog extended by `exec:` names (actions allowed up to
  /// `tolerance` seconds after the lift), then, when `closing`, closes the commands' processes
  /// (`validate()` leaves them running for `run()`: each command starts once).
  func withCatalog<T>(tolerance: Double, closing: Bool = true, _ body: () throws -> T) throws -> T {
    defer { if closing { ExecRecognizers.closeAll() } }
    let catalog = TouchTraceTool.catalog.resolving(
      ExecRecognizers.resolver(timeout: timeout, tolerance: tolerance, environment: environment))
    do {
      return try TouchTraceTool.$catalog.withValue(catalog) { try body() }
    } catch {
      // A command that cannot start is not a usage error: exit 69, as when it fails later.
      let startFailure = ExecRecognizers.startFailure
      ExecRecognizers.closeAll()
      if let failure = startFailure {
        Console.error("touchtrace: error: \(failure)")
        throw Exit.unavailable
      }
      throw error
    }
  }
}
