import Foundation
import Testing
import TouchTestSupport

@testable import TouchTraceCLI

/// `touchtrace capture`: what is refused before anything is bound or written.
@Suite struct CaptureCommandTests {
  @Test func nonLoopbackHostWithoutTokenIsAUsageError() {
    inTemporaryDirectory { directory in
      let dataset = directory + "/dataset"
      #expect(runCommand(["capture", "--dataset", dataset, "--host", "0.0.0.0"]) == 64)
      #expect(runCommand(["capture", "--dataset", dataset, "--host", "192.168.1.20", "--port", "0"]) == 64)
      #expect(runCommand(["capture", "--dataset", dataset, "--intents", "press,squeeze"]) == 64)
      #expect(runCommand(["capture", "--dataset", dataset, "--count", "0"]) == 64)
      #expect(runCommand(["capture", "--dataset", dataset, "--format", "csv"]) == 64)
      #expect(!TestData.exists(dataset))
    }
  }

  @Test func aDatasetThatIsAFileCannotBeUsed() {
    inTemporaryDirectory(writing: "trace,t,force\na,0,0.1\n") { directory in
      #expect(runCommand(["capture", "--dataset", directory + "/t.csv", "--port", "0", "--quiet"]) == 73)
    }
  }
}

/// `touchtrace capture`'s help examples, run as the executable: each serves, prints its URL first,
/// and ends with exit 0 on SIGTERM (as on Ctrl-C); with `--format json --output - --quiet` the
/// URL line is followed by one JSON document and standard error stays empty.
@Suite(
  "capture examples",
  .enabled(
    if: FileManager.default.isExecutableFile(atPath: captureBinaries + "/touchtrace"),
    "skipped: the touchtrace executable is not built"))
struct CaptureExamplesTests {
  /// Runs `arguments` (after `touchtrace`) in `directory`, waits for the first line of standard
  /// output, sends SIGTERM; returns the first line, the rest of standard output, standard error
  /// and the exit status.
  static func serveAndStop(_ arguments: [String], in directory: String) throws -> (url: String, rest: String, errors: String, status: Int32) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: captureBinaries + "/touchtrace")
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    var bytes: [UInt8] = []
    let reader = output.fileHandleForReading
    while !bytes.contains(0x0A) {
      let chunk = reader.availableData
      if chunk.isEmpty { break }
      bytes += chunk
    }
    process.terminate()
    let rest = reader.readDataToEndOfFile()
    let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let all = String(decoding: bytes + rest, as: UTF8.self)
    let newline = all.firstIndex(of: "\n") ?? all.endIndex
    let remainder = newline == all.endIndex ? "" : String(all[all.index(after: newline)...])
    return (String(all[..<newline]), remainder, errorText, process.terminationStatus)
  }

  static func examples() -> [[String]] {
    let help = TouchTraceCommand.Capture.helpMessage(columns: 80)
    guard let start = help.range(of: "\nExamples (from the repository root):\n") else { return [] }
    var commands: [String] = []
    var continuing = false
    for line in help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
      if line.isEmpty { break }
      let text = line.trimmingCharacters(in: .whitespaces)
      let body = text.hasSuffix("\\") ? String(text.dropLast()).trimmingCharacters(in: .whitespaces) : text
      if continuing { commands[commands.count - 1] += " " + body } else { commands.append(body) }
      continuing = text.hasSuffix("\\")
    }
    return commands.map { $0.split(separator: " ").map(String.init) }
  }

  @Test func examplesServeAndEndCleanly() throws {
    let examples = Self.examples()
    #expect(examples.count == 2)
    for example in examples {
      #expect(Array(example.prefix(2)) == ["touchtrace", "capture"])
      // Every example is a valid command line (options checked as when run).
      #expect(throws: Never.self) { _ = try TouchTraceCommand.parseAsRoot(Array(example.dropFirst())) }
    }
    let first = try #require(examples.first)
    try inTemporaryDirectory { directory in
      // A free port instead of 8080; options given last win.
      let run = try Self.serveAndStop(Array(first.dropFirst()) + ["--port", "0"], in: directory)
      #expect(run.status == 0, "\(run.errors)")
      #expect(run.url.hasPrefix("http://127.0.0.1:") && run.url.hasSuffix("/"))
      #expect(run.errors.contains("interrupted after 0 of 15 traces in recordings/ana"))
      #expect(TestData.exists(directory + "/recordings/ana/.sessions/ana-seed16642942579245054725.json"))

      let quiet = try Self.serveAndStop(
        Array(first.dropFirst()) + ["--port", "0", "--format", "json", "--output", "-", "--quiet"], in: directory)
      #expect(quiet.status == 0)
      #expect(quiet.errors.isEmpty, "\(quiet.errors)")
      #expect(quiet.url.hasPrefix("http://127.0.0.1:"))
      let document = try JSONSerialization.jsonObject(with: Data(quiet.rest.utf8)) as? [String: Any]
      #expect(document?["interrupted"] as? Bool == true)
      // The dataset already has the first run's summary: this run is another session.
      #expect(document?["session"] as? String == "ana-seed16642942579245054725-run2")
      #expect(document?["seed"] as? UInt64 == 16_642_942_579_245_054_725)
    }
  }
}

/// The directory of the built `touchtrace` (beside the test bundle).
private let captureBinaries = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
