import ArgumentParser
import Foundation
import Testing
import TouchTestSupport

@testable import TouchTraceCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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

/// Reads a JSON file as a dictionary.
func jsonObject(_ path: String) throws -> [String: Any] {
  try jsonObject(Data(contentsOf: URL(fileURLWithPath: path)))
}

/// Parses a JSON text (a report, say) as a dictionary.
func jsonObject(parsing text: String) throws -> [String: Any] {
  try jsonObject(Data(text.utf8))
}

private func jsonObject(_ data: Data) throws -> [String: Any] {
  try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

/// Runs `touchtrace ARGS… --output DIRECTORY/report.EXTENSION` in-process in a fresh temporary
/// directory, expects it to succeed, and returns the report it wrote (its format is the
/// extension's unless `arguments` give `--format`).
func report(_ arguments: [String], as ext: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
  try inTemporaryDirectory { try report(arguments, in: $0, as: ext, sourceLocation: sourceLocation) }
}

/// Runs `touchtrace COMMAND DIRECTORY/t.csv ARGS… --output DIRECTORY/report.EXTENSION` in-process,
/// `traces` written as `t.csv` in a fresh temporary directory; expects it to succeed, and returns
/// the report it wrote.
func report(
  _ command: String, on traces: String, _ arguments: [String], as ext: String,
  sourceLocation: SourceLocation = #_sourceLocation
) throws -> String {
  try inTemporaryDirectory(writing: traces) { directory in
    try report([command, directory + "/t.csv"] + arguments, in: directory, as: ext, sourceLocation: sourceLocation)
  }
}

/// Runs `touchtrace ARGS… --json-output DIRECTORY/report.json --output DIRECTORY/report.EXTENSION`
/// in-process in a fresh temporary directory, expects it to succeed, and returns both reports.
func reportWithJSON(
  _ arguments: [String], as ext: String, sourceLocation: SourceLocation = #_sourceLocation
) throws -> (report: String, json: [String: Any]) {
  try inTemporaryDirectory { directory in
    let json = directory + "/report.json"
    let text = try report(arguments + ["--json-output", json], in: directory, as: ext, sourceLocation: sourceLocation)
    return (text, try jsonObject(json))
  }
}

/// Runs `touchtrace ARGS… --output DIRECTORY/report.EXTENSION` in-process, expects it to succeed,
/// and returns the report it wrote (replacing the last one of that extension).
func report(
  _ arguments: [String], in directory: String, as ext: String, sourceLocation: SourceLocation = #_sourceLocation
) throws -> String {
  let output = directory + "/report." + ext
  #expect(runCommand(arguments + ["--output", output]) == 0, sourceLocation: sourceLocation)
  return try String(contentsOfFile: output, encoding: .utf8)
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

/// The directory of the built products: the built `touchtrace` is beside the test bundle.
let builtProducts = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path

/// The built `touchtrace` beside the test bundle. Run as a child process, its standard streams are
/// its own: messages of tests running alongside do not mix in.
let builtTouchtrace = URL(fileURLWithPath: builtProducts).appendingPathComponent("touchtrace").path

/// The debug executable in the repository's `.build/debug` (its standard input a shell can
/// redirect).
let debugTouchtrace = TestData.repositoryRoot + "/.build/debug/touchtrace"

/// The release executable (as users run it): `.build/release/touchtrace` beside the debug
/// products, or `TOUCHTRACE_RELEASE_BINARY`. Built by `swift build -c release --product
/// touchtrace` (`.ci/run` does before the tests).
let releaseBinary: String = {
  if let path = ProcessInfo.processInfo.environment["TOUCHTRACE_RELEASE_BINARY"], !path.isEmpty { return path }
  return URL(fileURLWithPath: builtProducts).deletingLastPathComponent().appendingPathComponent("release/touchtrace")
    .path
}()

extension Trait where Self == ConditionTrait {
  /// Runs the suite or test when ``builtTouchtrace`` is built; skips it with a message saying so
  /// otherwise.
  static var touchtraceIsBuilt: Self {
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: builtTouchtrace),
      "skipped: the touchtrace executable is not built")
  }

  /// Runs the test when ``debugTouchtrace`` is built; skips it otherwise.
  static var debugTouchtraceIsBuilt: Self {
    .enabled(if: FileManager.default.isExecutableFile(atPath: debugTouchtrace))
  }
}

/// Runs the built `touchtrace ARGS…` (``builtTouchtrace``) as a child process with
/// ``runChild(_:_:in:environment:standardOutput:)``; returns the exit status, standard output and
/// standard error.
func runTouchtrace(
  _ arguments: [String], in directory: String? = nil, environment: [String: String]? = nil,
  standardOutput: FileHandle? = nil
) throws -> (code: Int32, output: String, errors: String) {
  try runChild(builtTouchtrace, arguments, in: directory, environment: environment, standardOutput: standardOutput)
}

/// Runs the debug `touchtrace ARGS…` (``debugTouchtrace``) reading standard input from the file
/// `input`, redirected by a shell as a user types it; returns the exit status and both outputs.
func runDebugTouchtrace(_ arguments: [String], standardInput input: String) throws -> (
  code: Int32, output: String, errors: String
) {
  let words = ([debugTouchtrace] + arguments).map { "'" + $0.replacing("'", with: "'\\''") + "'" }
  return try runChild("/bin/sh", ["-c", words.joined(separator: " ") + " < '" + input + "'"])
}

/// Runs `body` with standard error sent to a file, and returns what was written.
func captureStandardError(_ body: () throws -> Void) throws -> String {
  let path = TestData.temporaryDirectory("stderr") + "/stderr.txt"
  defer { TestData.remove(path) }
  fflush(nil)
  let saved = dup(2)
  let file = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
  try #require(saved >= 0 && file >= 0)
  dup2(file, 2)
  close(file)
  defer {
    fflush(nil)
    dup2(saved, 2)
    close(saved)
  }
  try body()
  fflush(nil)
  return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
}
