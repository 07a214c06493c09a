import Foundation
import Testing
import TouchIO
import TouchTestSupport

@testable import TouchTraceCLI

/// Every command's outputs go through one path: refused targets exit 73, failed writes exit 74,
/// and neither changes any file.
///
/// The commands run as child processes: their standard error is their own (capturing the test
/// process's would mix in messages of tests running alongside).
@Suite("touchtrace outputs", .touchtraceIsBuilt)
struct OutputSafetyTests {
  static let traces = SweepCommandTests.traces

  /// Runs the built `touchtrace ARGS…` with standard output on `/dev/full` when `fullOutput`,
  /// else discarded into a pipe; returns the exit code and what it wrote to standard error.
  func run(_ arguments: [String], fullOutput: Bool = false) throws -> (code: Int32, message: String) {
    let full = fullOutput ? FileHandle(forWritingAtPath: "/dev/full") : nil
    let result = try runTouchtrace(arguments, standardOutput: full)
    return (result.code, result.errors)
  }

  func contents(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

  @Test func anInputAsOutputIsRefusedByEveryCommandAndStaysUntouched() throws {
    try inTemporaryDirectory(writing: Self.traces) { directory in
      let input = directory + "/t.csv"
      try #require(link(input, directory + "/same.csv") == 0)
      let commands: [[String]] = [
        ["inspect", input, "--format", "json", "--output", input],
        ["features", input, "--output", directory + "/same.csv"],
        ["run", input, "--recognizer", "deep-press", "--output", directory + "/./t.csv"],
        ["smooth", input, "--method", "median", "--window", "3", "--output", input],
        ["sweep", input, "--recognizer", "deep-press", "--format", "csv", "--output", input],
        [
          "compare", input, "--a", "deep-press", "--b", "stable-press", "--bootstrap", "0", "--format", "csv",
          "--output", input,
        ],
      ]
      for arguments in commands {
        let target = arguments.last!
        let (code, message) = try run(arguments)
        #expect(code == 73, "\(arguments[0]): \(message)")
        let reason = target == input ? "it is an input of this run" : "it is the input \(input) of this run"
        #expect(message.contains("\(target): error: refusing to write: \(reason)"), "\(arguments[0]): \(message)")
        #expect(contents(input) == Self.traces, "\(arguments[0]) left the input alone")
      }
    }
  }

  @Test func aLabelsFileAndAnImportedRecordingAreInputsToo() throws {
    try inTemporaryDirectory(writing: Self.traces) { directory in
      let labels = directory + "/labels.csv"
      TestData.write("trace,intent\na,press\n", to: labels)
      let (code, message) = try run([
        "inspect", directory + "/t.csv", "--labels", labels, "--format", "json", "--output", labels,
      ])
      #expect(code == 73 && message.contains("refusing to write: it is an input of this run"), "\(message)")
      #expect(contents(labels) == "trace,intent\na,press\n")
      let recording = directory + "/pen.events"
      TestData.write(ImportCommandTests.recording, to: recording)
      let imported = try run(["import", "--from", "evemu", recording, "--output", recording, "--format", "csv"])
      #expect(imported.code == 73, "\(imported.message)")
      #expect(contents(recording) == ImportCommandTests.recording)
    }
  }

  @Test func aReportInsideAnInputDirectoryIsRefusedWhenTheNextRunWouldReadIt() throws {
    try inTemporaryDirectory(writing: Self.traces) { directory in
      let (code, message) = try run(["inspect", directory, "--format", "json", "--output", directory + "/summary.json"])
      #expect(code == 73, "\(message)")
      #expect(message.contains("where the next run would read it as a trace file"), "\(message)")
      #expect(!TestData.exists(directory + "/summary.json"))
      #expect(try run(["inspect", directory, "--output", directory + "/summary.txt"]).code == 0)
    }
  }

  @Test func sweepCommitsItsThreeOutputsAllOrNothing() throws {
    try inTemporaryDirectory(writing: Self.traces) { directory in
      let input = directory + "/t.csv"
      let (report, json, csv) = (directory + "/r.md", directory + "/r.json", directory + "/missing/r.csv")
      TestData.write("old report\n", to: report)
      TestData.write("old json\n", to: json)
      // The last output cannot be created (its directory is missing): the two others stay as they were.
      let (code, message) = try run([
        "sweep", input, "--recognizer", "deep-press", "--output", report, "--json-output", json, "--csv-output", csv,
      ])
      #expect(code == 73, "\(message)")
      #expect(message.contains("\(csv): error: cannot create file: no such file or directory"), "\(message)")
      #expect(contents(report) == "old report\n" && contents(json) == "old json\n")
      // Refused before any work when one is an input; with all three writable, all three are written.
      #expect(
        try run(["sweep", input, "--recognizer", "deep-press", "--output", report, "--csv-output", input]).code == 73)
      #expect(contents(report) == "old report\n")
      let written = try run([
        "sweep", input, "--recognizer", "deep-press", "--output", report, "--json-output", json, "--csv-output",
        directory + "/r.csv",
      ])
      #expect(written.code == 0, "\(written.message)")
      #expect(contents(report)?.hasPrefix("# Sweep") == true && contents(json)?.hasPrefix("{") == true)
      #expect(contents(directory + "/r.csv")?.isEmpty == false)
      let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
      #expect(names == ["r.csv", "r.json", "r.md", "t.csv"], "no temporary file is left")
    }
  }

  @Test(.enabled(if: SystemCapabilities.canMakeDeviceNodes, "skipped: mknod of a device node fails here (needs root)"))
  func aDeviceNodeAndAFIFOAreRefusedWithoutBlocking() throws {
    try inTemporaryDirectory(writing: Self.traces) { directory in
      let node = directory + "/null"
      try #require(mknod(node, S_IFCHR | 0o666, SystemCapabilities.nullDevice) == 0)
      try #require(mkfifo(directory + "/fifo", 0o644) == 0)
      for target in [node, directory + "/fifo"] {
        let (code, message) = try run(["synth", "--profile", "iphone6s", "--count", "2", "--output", target])
        #expect(code == 73, "\(message)")
        #expect(message.contains("\(target): error: refusing to write: it is a"), "\(message)")
      }
      var info = stat()
      #expect(lstat(node, &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "the device node survives")
    }
  }

  @Test(.enabled(if: SystemCapabilities.canMountTmpfs, "skipped: cannot mount a 64 KiB tmpfs here (needs root)"))
  func aFullDiskExits74AndKeepsTheOldFile() throws {
    try SystemCapabilities.withSmallDisk(kilobytes: 64) { disk in
      let target = disk + "/traces.csv"
      TestData.write("old\n", to: target)
      let (code, message) = try run(["synth", "--profile", "iphone6s", "--count", "200", "--output", target])
      #expect(code == 74, "\(message)")
      #expect(message.contains("\(target): error: cannot write file: no space left on device"), "\(message)")
      #expect(contents(target) == "old\n")
      #expect(try FileManager.default.contentsOfDirectory(atPath: disk) == ["traces.csv"])
    }
  }

  @Test func tuneRemovesTheCsvDirectoryItMadeWhenAnOutputFails() throws {
    try inTemporaryDirectory(writing: Self.traces) { directory in
      let tables = directory + "/tables"
      let (code, message) = try run([
        "tune", directory + "/t.csv", "--recognizer", "deep-press", "--folds", "0", "--bootstrap", "0", "--csv-dir",
        tables,
        "--output", directory + "/missing/r.md",
      ])
      #expect(code == 73, "\(message)")
      #expect(!TestData.exists(tables))
    }
  }

  @Test func sigtermWhileWritingRemovesTheTemporaryFiles() throws {
    try inTemporaryDirectory(writing: Self.traces) { directory in
      // The JSON report goes to a file, the (large) CSV report to a pipe nobody reads: the run
      // blocks writing standard output after the file's temporary copy is complete.
      // Started through python3 with an empty signal mask: a child of this process inherits the
      // mask of the thread that spawns it, on which SIGTERM may be blocked.
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = [
        "python3", "-c",
        "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])",
        builtTouchtrace, "sweep", directory + "/t.csv", "--recognizer", "deep-press", "--vary",
        "threshold=0.001:1:0.001",
        "--format", "csv", "--json-output", directory + "/r.json",
      ]
      let output = Pipe()
      process.standardOutput = output
      process.standardError = Pipe()
      try process.run()
      func temporaryFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.contains(".touchtrace-") }
      }
      var waited = 0
      while temporaryFiles().isEmpty && process.isRunning && waited < 60_000 {
        usleep(1000)
        waited += 1
      }
      defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
      try #require(!temporaryFiles().isEmpty, "the run reached the write")
      process.terminate()
      waited = 0
      while process.isRunning && waited < 10_000 {
        usleep(1000)
        waited += 1
      }
      try #require(!process.isRunning, "SIGTERM ended the run")
      process.waitUntilExit()
      #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM)
      #expect(temporaryFiles() == [])
      #expect(!TestData.exists(directory + "/r.json"))
    }
  }

  @Test func aFailingStandardOutputExits74() throws {
    try inTemporaryDirectory(writing: Self.traces) { directory in
      for arguments in [
        ["sweep", directory + "/t.csv", "--recognizer", "deep-press", "--format", "json"],
        ["recognizers"],
        ["--help"],
      ] {
        let (code, message) = try run(arguments, fullOutput: true)
        #expect(code == 74, "\(arguments): \(message)")
        #expect(
          message.contains("standard output: error: cannot write: no space left on device"), "\(arguments): \(message)")
      }
    }
  }
}
