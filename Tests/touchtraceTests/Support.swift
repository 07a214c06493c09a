import ArgumentParser
import Foundation
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

/// Runs a child process to its end, draining standard output and standard error while it runs
/// (a large report must not block it); returns the exit status and both outputs. The one
/// run-to-the-end helper of the command tests.
///
/// - Parameter standardOutput: where the child writes its standard output instead of a pipe
///   (`/dev/full`, say); `output` is then empty.
func runChild(
  _ executable: String, _ arguments: [String], in directory: String? = nil, environment: [String: String]? = nil,
  standardOutput: FileHandle? = nil
) throws -> (code: Int32, output: String, errors: String) {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
  if let environment { process.environment = environment }
  let output = Pipe()
  let errors = Pipe()
  process.standardOutput = standardOutput ?? output
  process.standardError = errors
  try process.run()
  let group = DispatchGroup()
  nonisolated(unsafe) var message = Data()
  DispatchQueue.global().async(group: group) { message = errors.fileHandleForReading.readDataToEndOfFile() }
  let printed = standardOutput == nil ? output.fileHandleForReading.readDataToEndOfFile() : Data()
  group.wait()
  process.waitUntilExit()
  return (process.terminationStatus, String(decoding: printed, as: UTF8.self), String(decoding: message, as: UTF8.self))
}
