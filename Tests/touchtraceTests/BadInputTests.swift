import Foundation
import Testing
import TouchCore
import TouchIO
import TouchTestSupport

@testable import TouchTraceCLI

#if canImport(Glibc)
  import Glibc
#endif

/// One reproducer of issue 18: an input, the command run on it, the exit code and a fragment
/// of the message (`path:line:col: error: …`).
struct BadInput: Sendable, CustomTestStringConvertible {
  /// Where the input comes from.
  enum Source: Sendable {
    /// A file of `Fixtures/bad-input/`.
    case fixture(String)
    /// A file the test writes (too large to keep), from its bytes.
    case generated(String, @Sendable () -> [UInt8])
    /// A path outside the test (a device node, read only).
    case system(String)
    /// A symbolic link loop, a socket or a FIFO made in the test's directory.
    case loop, socket
    case fifo(feeding: String)
  }

  var name: String
  var source: Source
  /// The command and options; the input's path goes last (`--labels` takes it when the
  /// command ends in `--labels`).
  var command: [String]
  var code: Int32
  /// What the error message contains (empty for a success).
  var message: String
  /// The loader's input size limit for this case.
  var limit = LoadOptions.defaultMaximumInputSize
  /// What the report written by a successful command contains (it holds no control characters
  /// but line feeds).
  var report: String? = nil

  var testDescription: String { name }

  static let fixtures = TestData.repositoryRoot + "/Tests/touchtraceTests/Fixtures/bad-input/"
  static let sample = TestData.samples + "/synth-android.csv"

  static let cases: [BadInput] = [
    // Time: crashes, hangs and silent zeros become exit 65 with the rule.
    BadInput(
      name: "span of 2e17 s (features crashed)", source: .fixture("time-span-1e17.csv"), command: ["features"],
      code: 65,
      message:
        "time-span-1e17.csv:6:4: error: t 1e+17 s is beyond ±4294967296 s, where times lose 1 µs resolution; rebase times"
    ),
    BadInput(
      name: "span of 2e17 s skipped (features crashed even so)", source: .fixture("time-span-1e17.csv"),
      command: ["features", "--skip-invalid", "--format", "json"], code: 0, message: ""),
    BadInput(
      name: "times near 1e20 s (resampling ran out of memory)", source: .fixture("time-1e20.csv"),
      command: ["sweep", "--recognizer", "deep-press"], code: 65,
      message: "time-1e20.csv:2:4: error: t 1e+20 s is beyond ±4294967296 s"),
    BadInput(
      name: "0.01 s steps at 1e15 s (durations became 0)", source: .fixture("time-1e15-steps.csv"),
      command: ["inspect"], code: 65,
      message: "time-1e15-steps.csv:2:4: error: t 1000000000000000.0 s is beyond ±4294967296 s"),
    BadInput(
      name: "nanoseconds read as seconds (pressure-js hung)", source: .fixture("nanoseconds-as-seconds.csv"),
      command: ["run", "--recognizer", "pressure-js"], code: 65,
      message:
        "nanoseconds-as-seconds.csv:3:4: error: t 250000000.0 s is 250000000.0 s after the trace's first sample (at most 1000000 s); are the times in seconds?"
    ),
    BadInput(
      name: "nanoseconds in JSON Lines (sweep --recognizer all hung)", source: .fixture("nanoseconds.jsonl"),
      command: ["sweep", "--recognizer", "all"], code: 65,
      message: "nanoseconds.jsonl:1:19: error: t 250000000.0 s is 250000000.0 s after the trace's first sample"),
    // Text: quoted, cut and escaped in messages and CSV reports.
    BadInput(
      name: "a 10 MB numeric field",
      source: .generated("huge-field.csv") {
        Array("trace,t,force\np1,0,".utf8) + [UInt8](repeating: 0x31, count: 10_000_000) + Array("x\n".utf8)
      },
      command: ["inspect"], code: 65,
      message:
        "huge-field.csv:2:6: error: 'force' is not a number: '\(String(repeating: "1", count: 59))…' (10000001 bytes) (trace 'p1')"
    ),
    BadInput(
      name: "100 KB of NULs",
      source: .generated("nuls.csv") {
        Array("trace,t,force\np1,0,".utf8) + [UInt8](repeating: 0, count: 100_000) + [0x0A]
      },
      command: ["inspect"], code: 65,
      message:
        "nuls.csv:2:6: error: 'force' is not a number: '\(String(repeating: #"\u{0}"#, count: 59))…' (100000 bytes)"),
    BadInput(
      name: "an id with an escape sequence and a byte that is not UTF-8, in a message",
      source: .fixture("control-id-bad-force.csv"),
      command: ["inspect"], code: 65,
      message: #"control-id-bad-force.csv:2:12: error: 'force' is not a number: 'abc' (trace 'p\u{1B}[31m1\u{FFFD}')"#),
    BadInput(
      name: "an id with an escape sequence and a byte that is not UTF-8, in a CSV report",
      source: .fixture("control-id.csv"),
      command: ["features", "--format", "csv"], code: 0, message: "", report: #"p\u{1B}[31m1\u{FFFD},"#),
    BadInput(
      name: "an id with \\u0000 in JSON, in a CSV report", source: .fixture("control-id.json"),
      command: ["features", "--format", "csv"],
      code: 0, message: "", report: #"a\u{0}b,"#),
    // Files that are not files.
    BadInput(
      name: "/dev/zero", source: .system("/dev/zero"), command: ["inspect"], code: 66,
      message:
        "/dev/zero: error: cannot read file: is a character device, not a regular file, a FIFO or standard input ('-')"),
    BadInput(
      name: "/dev/urandom", source: .system("/dev/urandom"), command: ["sweep", "--recognizer", "deep-press"], code: 66,
      message: "/dev/urandom: error: cannot read file: is a character device"),
    BadInput(
      name: "a directory as the labels file", source: .system(TestData.samples),
      command: ["inspect", sample, "--labels"], code: 66,
      message: "samples: error: cannot read file: is a directory"),
    BadInput(
      name: "a symbolic link loop", source: .loop, command: ["inspect"], code: 66,
      message: "loop.csv: error: cannot read file: symbolic link loop (too many levels of symbolic links)"),
    BadInput(
      name: "a socket", source: .socket, command: ["inspect"], code: 66,
      message: "socket.csv: error: cannot read file: is a socket, not a regular file"),
    BadInput(name: "a FIFO, read once", source: .fifo(feeding: sample), command: ["inspect"], code: 0, message: ""),
    BadInput(
      name: "a file over --max-input-size", source: .system(sample), command: ["inspect", "--max-input-size", "1000"],
      code: 65,
      message: "synth-android.csv: error: input is larger than the limit of 1000 bytes (--max-input-size raises it)",
      limit: 1000),
  ]

  /// The input's path, made in `directory` when the case makes it.
  func path(in directory: String) throws -> String {
    switch source {
    case .fixture(let file): return Self.fixtures + file
    case .system(let path): return path
    case .generated(let file, let bytes):
      let path = directory + "/" + file
      try Data(bytes()).write(to: URL(fileURLWithPath: path))
      return path
    case .loop:
      let path = directory + "/loop.csv"
      try #require(symlink(directory + "/loop2.csv", path) == 0 && symlink(path, directory + "/loop2.csv") == 0)
      return path
    case .socket:
      let path = directory + "/socket.csv"
      let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
      try #require(fd >= 0)
      var address = sockaddr_un()
      address.sun_family = sa_family_t(AF_UNIX)
      withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (k, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[k] = byte }
      }
      let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
      }
      close(fd)
      try #require(bound == 0)
      return path
    case .fifo(let feeding):
      let path = directory + "/fifo.csv"
      try #require(mkfifo(path, 0o600) == 0)
      // The writer writes once and closes: a second open would wait for a writer forever.
      let writer = Process()
      writer.executableURL = URL(fileURLWithPath: "/bin/sh")
      writer.arguments = ["-c", "cat \"$0\" > \"$1\"", feeding, path]
      try writer.run()
      return path
    }
  }
}

@Suite("Bad-input corpus", .serialized)
struct BadInputTests {
  @Test(arguments: BadInput.cases)
  func everyReproducerGivesItsExitCodeAndMessage(_ input: BadInput) throws {
    try inTemporaryDirectory { directory in
      let path = try input.path(in: directory)
      let labelsLast = input.command.last == "--labels"
      // Reports go into the test's directory.
      let arguments = input.command + [path, "--output", directory + "/out.json"]
      #expect(runCommand(arguments) == input.code, "touchtrace \(arguments.joined(separator: " "))")
      if let expected = input.report {
        let report = try String(contentsOfFile: directory + "/out.json", encoding: .utf8)
        #expect(report.contains(expected), "\(report)")
        #expect(!report.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "no raw control characters")
      }
      guard !input.message.isEmpty else { return }
      // The message the tool prints is the loader's error, rendered the same way.
      let paths = labelsLast ? [BadInput.sample] : [path]
      let options = LoadOptions(labels: labelsLast ? path : nil, maximumInputSize: input.limit)
      do {
        _ = try TraceLoader.load(paths, options: options)
        Issue.record("\(input.name) loaded without an error")
      } catch {
        let text = "\(error)"
        #expect(text.contains(input.message), "\(text)")
        #expect(text.utf8.count < 600, "the message is short")  // 59 escaped characters at most
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 }, "no raw control characters")
      }
    }
  }

  /// Runs `body` with standard input read from `path`.
  func withStandardInput<T>(from path: String, _ body: () throws -> T) throws -> T {
    let saved = dup(0)
    let fd = open(path, O_RDONLY)
    try #require(saved >= 0 && fd >= 0)
    dup2(fd, 0)
    close(fd)
    defer {
      dup2(saved, 0)
      close(saved)
    }
    return try body()
  }

  @Test func dashReadsStandardInputOnceInAnyFormat() throws {
    try inTemporaryDirectory { directory in
      let json = directory + "/doc.txt"
      TestData.write(#"{"format":"touchtrace","version":1,"traces":[{"id":"a","t":[0,0.01],"force":[0,1]}]}"#, to: json)
      let lines = directory + "/lines.txt"
      TestData.write(
        "{\"id\":\"a\",\"t\":[0,0.01],\"force\":[0,1]}\n{\"id\":\"b\",\"t\":[0],\"force\":[2]}\n", to: lines)
      for (path, traces) in [(BadInput.sample, 84), (json, 1), (lines, 2)] {
        let dataset = try withStandardInput(from: path) { try TraceLoader.load(["-"]) }
        #expect(dataset.traces.count == traces, "\(path)")
        #expect(dataset.origins.allSatisfy { $0.file == "<stdin>" })
      }
      let code = try withStandardInput(from: BadInput.sample) {
        runCommand(["inspect", "-", "--output", directory + "/out.txt"])
      }
      #expect(code == 0)
      #expect(try withStandardInput(from: BadInput.sample) { runCommand(["inspect", "-", "-"]) } == 66)
      #expect(throws: TraceLoadError(.unreadable("standard input ('-') is named more than once"), file: "-")) {
        try withStandardInput(from: BadInput.sample) { try TraceLoader.load(["-", "-"]) }
      }
    }
  }

  /// Standard input is streamed in chunks like a file: tiny chunks and batches give the traces
  /// and positions a whole read of the file gives (origins named `<stdin>`); its format is
  /// sniffed even when white space longer than a chunk comes first.
  @Test func standardInputStreamsInChunks() throws {
    try inTemporaryDirectory { directory in
      let lines = directory + "/lines.jsonl"
      TestData.write(
        String(repeating: " ", count: 100)
          + "\n{\"id\":\"a\",\"t\":[0,0.01],\"force\":[0,1]}\n\n{\"id\":\"b\",\"t\":[0],\"force\":[2]}\n",
        to: lines)
      for path in [TestData.samples + "/synth-android.csv", lines] {
        let reference = try TraceLoader.load([path])
        let streamed = try withStandardInput(from: path) { () throws -> Dataset in
          let stream = try TraceStream(["-"], batchTraces: 1, chunkBytes: 16)
          var dataset = Dataset()
          while let batch = try stream.next() { dataset.append(contentsOf: batch) }
          return dataset
        }
        #expect(streamed.files == ["<stdin>"])
        #expect(streamed.traces == reference.traces, "\(path)")
        #expect(streamed.origins.map(\.position) == reference.origins.map(\.position))
        #expect(streamed.origins.map(\.record) == reference.origins.map(\.record))
      }
    }
  }

  @Test func standardInputThatNeverEndsStopsAtTheLimit() throws {
    #expect(
      try withStandardInput(from: "/dev/zero") { runCommand(["inspect", "-", "--max-input-size", "100000"]) } == 65)
    #expect(throws: TraceLoadError(.inputTooLarge(limit: 100_000), file: "-")) {
      try withStandardInput(from: "/dev/zero") {
        try TraceLoader.load(["-"], options: LoadOptions(maximumInputSize: 100_000))
      }
    }
  }

  @Test func standardInputFormatIsSniffedFromTheFirstCharacters() {
    #expect(TraceFiles.Format(sniffing: Array("trace,t,force\n".utf8)) == .csv)
    #expect(TraceFiles.Format(sniffing: Array("\u{FEFF} \n{ \"format\": \"touchtrace\"}".utf8)) == .json)
    #expect(TraceFiles.Format(sniffing: Array("{\"id\":\"a\"}\n".utf8)) == .jsonl)
    #expect(TraceFiles.Format(sniffing: []) == .csv)
    #expect(TraceFiles.Format(sniffing: Array("{".utf8)) == .jsonl)
  }
}
