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

  @Test func aTokenFileThatCannotBeUsedIsAUsageError() throws {
    try inTemporaryDirectory { directory in
      let dataset = directory + "/dataset"
      let empty = directory + "/empty.token"
      let token = directory + "/capture.token"
      try "\n".write(toFile: empty, atomically: true, encoding: .utf8)
      try "abc\n".write(toFile: token, atomically: true, encoding: .utf8)
      #expect(
        runCommand(["capture", "--dataset", dataset, "--host", "0.0.0.0", "--token-file", directory + "/missing"]) == 64
      )
      #expect(runCommand(["capture", "--dataset", dataset, "--host", "0.0.0.0", "--token-file", empty]) == 64)
      #expect(
        runCommand(["capture", "--dataset", dataset, "--host", "0.0.0.0", "--token-file", token, "--token", "abc"])
          == 64)
      let parsed = try TouchTraceCommand.Capture.parse([
        "--dataset", dataset, "--host", "0.0.0.0", "--token-file", token,
      ])
      #expect(try parsed.captureConfiguration().token == "abc")
      #expect(!TestData.exists(dataset))
    }
  }

  /// Run as the executable (capture is asynchronous: `TouchTraceTool.run` refuses it with 64
  /// after checking its options, rather than blocking a thread on it).
  @Test func aDatasetThatIsAFileCannotBeUsed() throws {
    try inTemporaryDirectory(writing: "trace,t,force\na,0,0.1\n") { directory in
      let arguments = ["capture", "--dataset", directory + "/t.csv", "--port", "0", "--quiet"]
      let child = try runTouchtrace(arguments)
      #expect(child.code == 73, "\(child.errors)")
      #expect(runCommand(arguments) == 64)
    }
  }
}

/// `touchtrace capture`'s help examples, run as the executable: each serves, prints its URL first,
/// and ends with exit 0 on SIGTERM (as on Ctrl-C); with `--format json --output - --quiet` the
/// URL line is followed by one JSON document and standard error stays empty.
@Suite("capture examples", .touchtraceIsBuilt)
struct CaptureExamplesTests {
  /// Runs `arguments` (after `touchtrace`) in `directory`, waits for the first line of standard
  /// output, sends SIGTERM; returns the first line, the rest of standard output, standard error
  /// and the exit status.
  static func serveAndStop(_ arguments: [String], in directory: String) throws -> (
    url: String, rest: String, errors: String, status: Int32
  ) {
    let running = try CaptureProcess.start(builtTouchtrace, arguments, in: directory)
    running.process.terminate()
    let rest = String(decoding: running.output.readDataToEndOfFile(), as: UTF8.self)
    let errorText = String(decoding: running.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    running.process.waitUntilExit()
    return (running.url, running.remainder + rest, errorText, running.process.terminationStatus)
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

/// `touchtrace capture` ends on SIGTERM and SIGINT in the release build (issue 26 item 3, issue 30
/// item 1: the signal sources were released at once there), with a CPU-bound sibling keeping the
/// machine busy, before any request and with an upload half sent.
@Suite(
  "capture signals (release build)", .serialized,
  .enabled(
    if: FileManager.default.isExecutableFile(atPath: releaseBinary),
    "skipped: no release executable (swift build -c release --product touchtrace)"))
struct CaptureSignalTests {
  typealias Running = CaptureProcess

  static func start(_ arguments: [String], in directory: String, environment: [String: String]? = nil) throws -> Running
  {
    try CaptureProcess.start(releaseBinary, ["capture"] + arguments, in: directory, environment: environment)
  }

  /// Sends `signal` and waits at most 20 s (then SIGKILL); the seconds it took, the exit status,
  /// standard error.
  static func stop(_ running: Running, with signal: Int32) -> (seconds: Double, status: Int32, errors: String) {
    let started = DispatchTime.now()
    kill(running.process.processIdentifier, signal)
    let exited = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      running.process.waitUntilExit()
      exited.signal()
    }
    if exited.wait(timeout: .now() + 20) == .timedOut {
      kill(running.process.processIdentifier, SIGKILL)
      exited.wait()
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
    _ = running.output.readDataToEndOfFile()
    let errors = String(decoding: running.errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    return (seconds, running.process.terminationStatus, errors)
  }

  /// Runs blocking `body` on a Dispatch thread, so waiting for a child never holds one of the
  /// few Swift concurrency threads that the in-process servers of other suites need.
  static func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
  }

  /// Runs `body` with a CPU-bound sibling process running.
  static func whileBusy<T>(_ body: () throws -> T) throws -> T {
    let busy = Process()
    busy.executableURL = URL(fileURLWithPath: "/bin/sh")
    busy.arguments = ["-c", "while :; do :; done"]
    try busy.run()
    defer {
      kill(busy.processIdentifier, SIGKILL)
      busy.waitUntilExit()
    }
    return try body()
  }

  /// The bound on ending: well under a second on an idle machine (0.05 s measured); the bound
  /// leaves room for a machine loaded by the whole test suite, other builds and the busy sibling
  /// (the summary is synced to disk).
  static let promptly = 10.0

  @Test(arguments: [SIGTERM, SIGINT])
  func endsPromptlyWithASummary(signal: Int32) async throws {
    let outcome = try await Self.offPool {
      try Self.whileBusy {
        try inTemporaryDirectory {
          directory -> (url: String, seconds: Double, status: Int32, errors: String, summary: String?) in
          let running = try Self.start(["--dataset", "cap/x", "--participant", "a", "--port", "0"], in: directory)
          let stopped = Self.stop(running, with: signal)
          let summary = try? String(
            contentsOfFile: directory + "/cap/x/.sessions/a-seed12638187200555641996.json", encoding: .utf8)
          return (running.url, stopped.seconds, stopped.status, stopped.errors, summary)
        }
      }
    }
    #expect(outcome.url.hasPrefix("http://127.0.0.1:"))
    #expect(outcome.status == 0, "\(outcome.errors)")
    #expect(outcome.seconds < Self.promptly, "took \(outcome.seconds) s")
    #expect(outcome.errors.contains("interrupted after 0 of 15 traces in cap/x"))
    #expect(outcome.summary?.contains("\"interrupted\": true") == true)
  }

  @Test(arguments: [SIGTERM, SIGINT])
  func endsPromptlyDuringAnUpload(signal: Int32) async throws {
    let outcome = try await Self.offPool {
      try Self.whileBusy {
        try inTemporaryDirectory { directory -> (connected: Bool, seconds: Double, status: Int32, errors: String) in
          let running = try Self.start(["--dataset", "cap/y", "--participant", "b", "--port", "0"], in: directory)
          let port = UInt16(running.url.split(separator: ":").last?.prefix { $0.isNumber } ?? "") ?? 0
          // Half an upload: the head and part of a declared 1000-byte body.
          let fd = RawHTTP.connect(port: port, timeout: 30)
          defer { if let fd { close(fd) } }
          let half = Array(
            "POST /contact HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: 1000\r\n\r\n{\"prompt\":0,".utf8)
          if let fd { _ = half.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
          usleep(200_000)
          let stopped = Self.stop(running, with: signal)
          return (fd != nil, stopped.seconds, stopped.status, stopped.errors)
        }
      }
    }
    #expect(outcome.connected)
    #expect(outcome.status == 0, "\(outcome.errors)")
    #expect(outcome.seconds < Self.promptly, "took \(outcome.seconds) s")
    #expect(outcome.errors.contains("interrupted after 0 of 15 traces in cap/y"))
  }

  /// How a shell starts the command: as a background job of a non-interactive shell (which
  /// starts it with SIGINT ignored, as POSIX asks, and gets its pid with `$!`), or in the
  /// foreground of a shell leading a process group of its own, the signal sent to the whole
  /// group as a terminal's Ctrl-C is (the shell traps SIGINT to outlive it and report the status).
  enum Launch: String, CaseIterable, Sendable {
    case background
    case foregroundGroup
  }

  /// Starts `/bin/sh -c script` as a user's shell is: no signal blocked, SIGINT and SIGTERM at
  /// their defaults (a test thread blocks most signals, and a child inherits its mask), in a
  /// process group of its own when `newGroup`. Returns the shell's pid.
  static func spawnShell(_ script: String, newGroup: Bool) -> pid_t? {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    sigaddset(&defaults, SIGINT)
    sigaddset(&defaults, SIGTERM)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var flags = Int32(POSIX_SPAWN_SETSIGMASK) | Int32(POSIX_SPAWN_SETSIGDEF)
    if newGroup {
      flags |= Int32(POSIX_SPAWN_SETPGROUP)
      posix_spawnattr_setpgroup(&attributes, 0)
    }
    posix_spawnattr_setflags(&attributes, Int16(flags))
    let texts: [String] = ["/bin/sh", "-c", script]
    var arguments: [UnsafeMutablePointer<CChar>?] = texts.map { strdup($0) }
    arguments.append(nil)
    defer { for argument in arguments { free(argument) } }
    var pid = pid_t()
    guard posix_spawn(&pid, "/bin/sh", nil, &attributes, arguments, environ) == 0 else { return nil }
    return pid
  }

  @Test(arguments: Launch.allCases)
  func endsWhenAShellStartedIt(_ launch: Launch) async throws {
    let outcome = try await Self.offPool {
      try Self.whileBusy {
        inTemporaryDirectory { directory -> (status: String, errors: String, summary: String?) in
          let command = "'\(releaseBinary)' capture --dataset cap/z --participant c --port 0 > url.txt 2> errors.txt"
          // The shell's own output goes to shell.txt: first the job's pid, last its status.
          let prologue = "cd '\(directory)' && exec > shell.txt 2>&1 < /dev/null; "
          let script =
            switch launch {
            case .background: prologue + command + " & echo $!; wait $!; echo \"status $?\""
            case .foregroundGroup: prologue + "trap : INT; echo $$; " + command + "; echo \"status $?\""
            }
          guard let shell = Self.spawnShell(script, newGroup: launch == .foregroundGroup) else {
            return ("the shell did not start", "", nil)
          }
          func read(_ name: String) -> String {
            (try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)) ?? ""
          }
          for _ in 0..<400 where !read("url.txt").contains("\n") { usleep(25_000) }
          let pid = Int32(read("shell.txt").prefix { $0 != "\n" }) ?? 0
          // Never kill(0) or kill(-1): those would reach this test process.
          if pid > 1 {
            kill(launch == .foregroundGroup ? -pid : pid, SIGINT)
          } else {
            kill(shell, SIGKILL)
          }
          var status: Int32 = 0
          _ = waitpid(shell, &status, 0)
          let lines = read("shell.txt").split(separator: "\n")
          // The one summary the run wrote.
          let sessions = (try? FileManager.default.contentsOfDirectory(atPath: directory + "/cap/z/.sessions")) ?? []
          let summary = sessions.count == 1 ? read("cap/z/.sessions/" + sessions[0]) : nil
          return (lines.last.map(String.init) ?? "", read("errors.txt"), summary)
        }
      }
    }
    #expect(outcome.status == "status 0", "\(launch): \(outcome.errors)")
    #expect(outcome.errors.contains("interrupted after 0 of 15 traces in cap/z"), "\(outcome.errors)")
    #expect(outcome.summary?.contains("\"interrupted\": true") == true)
  }

  @Test("the token comes from a file or the environment and is never on standard error")
  func tokenStaysOffStandardError() throws {
    try inTemporaryDirectory { directory in
      let token = "Tk-3f9c2a7e51d04b86"
      try (token + "\n").write(toFile: directory + "/capture.token", atomically: true, encoding: .utf8)
      let fromFile = try Self.start(
        ["--dataset", "d1", "--host", "0.0.0.0", "--port", "0", "--token-file", "capture.token"], in: directory)
      #expect(fromFile.url.hasSuffix("/?token=" + token))
      let first = Self.stop(fromFile, with: SIGTERM)
      #expect(first.status == 0, "\(first.errors)")
      #expect(!first.errors.contains(token), "\(first.errors)")
      #expect(first.errors.contains("?token=…"))

      var environment = ProcessInfo.processInfo.environment
      environment["TOUCHTRACE_CAPTURE_TOKEN"] = token
      let fromEnvironment = try Self.start(
        ["--dataset", "d2", "--host", "0.0.0.0", "--port", "0"], in: directory, environment: environment)
      #expect(fromEnvironment.url.hasSuffix("/?token=" + token))
      let second = Self.stop(fromEnvironment, with: SIGINT)
      #expect(second.status == 0)
      #expect(!second.errors.contains(token), "\(second.errors)")

      // The deprecated --token still works, warns, and is not echoed either.
      let deprecated = try Self.start(["--dataset", "d3", "--port", "0", "--token", token], in: directory)
      let third = Self.stop(deprecated, with: SIGTERM)
      #expect(third.status == 0)
      #expect(third.errors.contains("--token is deprecated"))
      #expect(!third.errors.contains(token), "\(third.errors)")
    }
  }
}

/// A started `touchtrace capture` child: its first line of standard output (the URL), what came
/// after it in the same read, and its pipes.
struct CaptureProcess {
  let process: Process
  let url: String
  let remainder: String
  let errors: Pipe
  let output: FileHandle

  /// Starts `executable` with `arguments` in `directory` (standard input empty) and waits for the
  /// first line of its standard output.
  static func start(
    _ executable: String, _ arguments: [String], in directory: String, environment: [String: String]? = nil
  ) throws -> CaptureProcess {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    if let environment { process.environment = environment }
    let output = Pipe()
    let errors = Pipe()
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
    let line = bytes.prefix { $0 != 0x0A }
    let rest = bytes.dropFirst(line.count + (line.count < bytes.count ? 1 : 0))
    return CaptureProcess(
      process: process, url: String(decoding: line, as: UTF8.self), remainder: String(decoding: rest, as: UTF8.self),
      errors: errors, output: reader)
  }
}
