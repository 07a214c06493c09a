import ArgumentParser

@testable import touchtrace

/// Runs `touchtrace ARGS…` in-process; returns the exit code.
func runCommand(_ arguments: [String]) -> Int32 {
  exitCode {
    var command = try TouchTraceCommand.parseAsRoot(arguments)
    try command.run()
  }
}

/// The exit code `touchtrace` ends with when it runs `body`: 0 when `body` returns, else the code
/// for the error it throws.
func exitCode(_ body: () throws -> Void) -> Int32 {
  do {
    try body()
    return 0
  } catch {
    return TouchTraceCommand.exitCode(for: error).rawValue
  }
}
