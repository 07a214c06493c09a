import ArgumentParser
import TouchTestSupport

@testable import TouchTraceCLI

/// Runs `touchtrace ARGS…` in-process; returns the exit code.
func runCommand(_ arguments: [String]) -> Int32 {
  TouchTraceTool.run(arguments)
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

/// Runs `body` with the path of a fresh temporary directory, holding `traces` as `t.csv` when
/// given, and removes the directory afterwards.
func inTemporaryDirectory<T>(writing traces: String? = nil, _ body: (_ directory: String) throws -> T) rethrows -> T {
  let directory = TestData.temporaryDirectory()
  defer { TestData.remove(directory) }
  if let traces { TestData.write(traces, to: directory + "/t.csv") }
  return try body(directory)
}
