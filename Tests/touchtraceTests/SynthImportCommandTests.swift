import ArgumentParser
import Testing
import TouchCore
import TouchIO
import TouchTestSupport

@testable import TouchTraceCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A directory of this test process's own (process ids are reused, so a name built from one
/// alone can meet a file an earlier run left).
private let scratch = TestData.temporaryDirectory("touchtrace-cli")

/// A fresh path in this process's temporary directory.
private func temporaryPath(_ name: String) -> String {
  "\(scratch)/touchtrace-cli-\(getpid())-\(name)"
}

@Suite struct SynthCommandTests {
  @Test func writesLoadableCSVDeterministically() throws {
    let a = temporaryPath("a.csv")
    let b = temporaryPath("b.csv")
    for path in [a, b] {
      let command = try TouchTraceCommand.Synth.parse([
        "--profile", "iphone6s", "--count", "21", "--users", "3", "--seed", "4", "--mix", "tap=1,press=1,pop=1",
        "--output", path,
      ])
      try command.validate()
      try command.run()
    }
    let bytes = try TraceFiles.read(a)
    #expect(bytes == (try TraceFiles.read(b)))
    let dataset = try TraceLoader.load([a])
    #expect(dataset.traces.count == 21)
    #expect(dataset.diagnostics.isEmpty)
    #expect(Set(dataset.traces.compactMap(\.metadata.intent)) == [.tap, .press, .pop])
    #expect(dataset.traces.allSatisfy { $0.metadata.device == "iphone6s" && $0.metadata.maxForce == 20.0 / 3.0 })
  }

  @Test(arguments: [
    ["--profile", "nokia", "--count", "3", "--output", "-"],
    ["--profile", "iphone6s", "--count", "-3", "--output", "-"],
    ["--profile", "iphone6s", "--count", "3", "--users", "0", "--output", "-"],
    ["--profile", "iphone6s", "--count", "3", "--mix", "tap=x", "--output", "-"],
    ["--profile", "iphone6s", "--count", "3", "--output", "x.xlsx"],
  ])
  func usageErrors(_ arguments: [String]) {
    #expect(throws: (any Error).self) {
      let command = try TouchTraceCommand.Synth.parse(arguments)
      try command.validate()
    }
  }
}

@Suite struct ImportCommandTests {
  static let recording = """
    A: 18 0 100 0 0 0
    E: 0.000000 0003 0018 20
    E: 0.000000 0001 014a 1
    E: 0.000000 0000 0000 0
    E: 0.010000 0003 0018 0
    E: 0.010000 0001 014a 0
    E: 0.010000 0000 0000 0

    """

  @Test func importsAndWrites() throws {
    let input = temporaryPath("pen.events")
    let output = temporaryPath("pen.csv")
    try TraceFiles.write(Array(Self.recording.utf8), to: input)
    let command = try TouchTraceCommand.Import.parse(["--from", "evemu", input, "--output", output])
    #expect(exitCode { try command.run() } == 0)
    let dataset = try TraceLoader.load([output])
    #expect(dataset.traces.map(\.name) == ["touchtrace-cli-\(getpid())-pen"])
    #expect(dataset.traces.first?.force == [20, 0])
  }

  @Test func badDataExits65AndWritesNothing() throws {
    let input = temporaryPath("bad.events")
    let output = temporaryPath("bad.csv")
    let bad = Self.recording.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0 == "E: 0.000000 0003 0018 20" ? "E: 0.000000 0003 0018 200" : String($0) }
      .joined(separator: "\n")
    try TraceFiles.write(Array(bad.utf8), to: input)
    let command = try TouchTraceCommand.Import.parse(["--from", "evemu", input, "--output", output])
    #expect(exitCode { try command.run() } == 65)
    #expect(!TestData.exists(output))
    // With --skip-invalid the contact is accounted as skipped and an empty trace file is written.
    let skipping = try TouchTraceCommand.Import.parse(["--from", "evemu", input, "--output", output, "--skip-invalid"])
    #expect(exitCode { try skipping.run() } == 0)
    #expect(TestData.exists(output))
  }

  @Test func missingInputExits66() throws {
    let command = try TouchTraceCommand.Import.parse([
      "--from", "getevent", temporaryPath("missing.txt"), "--output", temporaryPath("never.csv"),
    ])
    #expect(exitCode { try command.run() } == 66)
    #expect(!TestData.exists(temporaryPath("never.csv")))
  }

  @Test(arguments: [
    ["--from", "force-values", "x.json", "--output", "-"],
    ["--from", "evemu", "x.events", "--interval", "0.01", "--output", "-"],
    ["--from", "getevent", "x.txt", "--description", "d.desc", "--output", "-"],
    ["--from", "tablet-csv", "x.txt", "--columns", "x,y", "--output", "-"],
    ["--from", "tablet-csv", "x.txt", "--max-gap", "0", "--output", "-"],
    ["--from", "evemu", "x.events", "--max-force", "-2", "--output", "-"],
    ["--from", "palm", "x.txt", "--output", "-"],
  ])
  func usageErrors(_ arguments: [String]) {
    #expect(throws: (any Error).self) {
      let command = try TouchTraceCommand.Import.parse(arguments)
      try command.validate()
    }
  }
}
