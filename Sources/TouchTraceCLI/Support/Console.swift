import ArgumentParser
import TouchCore
import TouchIO
import TouchPartials
import TouchRecognizers
import TouchReports
import TouchStudy

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Exit codes (sysexits.h), documented in the README.
enum Exit {
  /// Bad input data: an invalid trace in strict mode, malformed files.
  static let dataError = ExitCode(65)
  /// An input file is missing or unreadable.
  static let noInput = ExitCode(66)
  /// An external (`exec:`) recognizer failed: it exited, broke the protocol or fell silent.
  static let unavailable = ExitCode(69)
  /// An output was refused (an input of the run, a directory, a device, a FIFO, a socket, a
  /// symbolic link) or could not be created.
  static let cannotCreate = ExitCode(73)
  /// Writing an output failed (standard output's included), e.g. a full disk.
  static let ioError = ExitCode(74)
  /// Anything else.
  static let failure = ExitCode.failure
}

/// Standard output and error, and the translation of library errors into exit codes.
enum Console {
  /// Whether the running command was given `--quiet`: ``diagnose(_:)`` then prints nothing.
  /// Bound by `TouchTraceTool` around the command it runs (a task-local value, so commands run
  /// side by side in one process each see their own).
  @TaskLocal static var quiet = false

  /// Whether the running command was given `--verbose`: ``detail(_:)`` then prints (unless
  /// `--quiet`). Bound like ``quiet``.
  @TaskLocal static var verbose = false

  /// Writes what `--verbose` asks for to standard error; nothing without it or with `--quiet`.
  static func detail(_ text: @autoclosure () -> String) {
    if verbose && !quiet { error(text()) }
  }

  /// What `--verbose` says last, after a command succeeds: the process's peak resident memory,
  /// in MiB. On Linux that is `VmHWM` of `/proc/self/status`, this program's own peak:
  /// `getrusage`'s maximum carries over through `exec` the peak of the process that started it
  /// (a child spawned by a large process reported that process's peak); elsewhere `getrusage`.
  static var peakMemoryNote: String {
    guard let bytes = peakResidentBytes else { return "note: peak resident memory unknown" }
    return "note: peak resident memory \(TextFormat.decimal(bytes / 1_048_576, 1)) MiB"
  }

  private static var peakResidentBytes: Double? {
    #if os(Linux)
      guard let status = try? TraceFiles.read("/proc/self/status") else { return nil }
      for line in String(decoding: status, as: UTF8.self).split(separator: "\n") where line.hasPrefix("VmHWM:") {
        return line.split(separator: " ").dropFirst().first.flatMap { Double($0) }.map { $0 * 1024 }
      }
      return nil
    #else
      var usage = rusage()
      guard getrusage(RUSAGE_SELF, &usage) == 0 else { return nil }
      return Double(usage.ru_maxrss)  // bytes on Darwin
    #endif
  }

  /// Writes a note or a warning (`touchtrace COMMAND: note: …`, skipped traces) to standard
  /// error, unless the command runs with `--quiet`.
  static func diagnose(_ text: String) {
    if !quiet { error(text) }
  }

  /// Writes `text` to standard error.
  static func error(_ text: String) {
    write(Array((text.hasSuffix("\n") ? text : text + "\n").utf8), to: STDERR_FILENO)
  }

  /// Writes bytes to standard error as they are (no line break added): progress lines.
  static func writeError(_ bytes: [UInt8]) { write(bytes, to: STDERR_FILENO) }

  /// Writes to standard error; errors are ignored (nothing is left to report them on).
  private static func write(_ bytes: [UInt8], to descriptor: Int32) {
    bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      var offset = 0
      while offset < buffer.count {
        let n = systemWrite(descriptor, base + offset, buffer.count - offset)
        if n < 0 {
          if errno == EINTR { continue }
          return  // a closed pipe: nothing more can be said
        }
        offset += n
      }
    }
  }

  /// Whether standard error is a terminal (progress is shown only then).
  static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }

  /// Whether standard output is a terminal.
  static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) != 0 }

  /// Prints a dataset's warnings and skipped traces to standard error, repeated ones aggregated
  /// (``aggregated(_:)-(Diagnostic)``, ``aggregated(_:)-(SkippedTrace)``).
  static func report(_ dataset: Dataset) {
    report(diagnostics: dataset.diagnostics, skipped: dataset.skipped)
  }

  /// Prints warnings and skipped traces to standard error, repeated ones aggregated.
  static func report(diagnostics: [Diagnostic] = [], skipped: [SkippedTrace]) {
    for line in aggregated(diagnostics) + aggregated(skipped) { diagnose(line) }
  }

  /// How many places an aggregated line lists.
  static let placesShown = 3

  /// One line per distinct message, in order of first appearance: a message said once as it is
  /// (`path:line:col: warning: message`), one said in several places as
  /// `warning: 77 files: MESSAGE (first: a.csv, b.csv, c.csv)` (`77 times` when places share a
  /// file), each followed by the option that fixes it when there is one.
  static func aggregated(_ diagnostics: [Diagnostic]) -> [String] {
    groups(diagnostics, by: { "\($0.severity.rawValue)\u{0}\($0.message)" }).map { group in
      let first = group[0]
      let hint = remedy(forWarning: first.message).map { "; \($0)" } ?? ""
      guard group.count > 1 else { return first.description + hint }
      let files = group.map { $0.file ?? "" }
      let unit = Set(files).count == files.count ? "files" : "times"
      let places = group.prefix(placesShown).map { place($0.file, $0.position) }
      return
        "\(first.severity.rawValue): \(group.count) \(unit): \(Diagnostic.escaped(first.message)) (first: \(places.joined(separator: ", ")))\(hint)"
    }
  }

  /// One line per distinct skip reason, in order of first appearance: a trace skipped alone for
  /// its reason as `path:line:col: warning: skipped trace 'id': reason`, several as
  /// `warning: skipped 111 traces: REASON (first: a.csv:2:1 'p1', …)`, each followed by the
  /// option that brings them back when there is one (TouchStudy's `ScoringRules.remedy(forSkipReason:)`).
  static func aggregated(_ skipped: [SkippedTrace]) -> [String] {
    groups(skipped, by: \.reason).map { group in
      let first = group[0]
      let hint = ScoringRules.remedy(forSkipReason: first.reason).map { "; \($0)" } ?? ""
      guard group.count > 1 else { return first.description + hint }
      let places = group.prefix(placesShown).map { skip in
        place(skip.origin.file, skip.reportedPosition) + " " + (skip.trace.map { "'\($0)'" } ?? "(unnamed)")
      }
      return
        "warning: skipped \(group.count) traces: \(Diagnostic.escaped(first.reason)) (first: \(places.joined(separator: ", ")))\(hint)"
    }
  }

  /// `path:line:col` (the parts known), escaped.
  private static func place(_ file: String?, _ position: TextPosition?) -> String {
    var text = Diagnostic.escaped(file ?? "")
    if let position { text += ":\(position.line):\(position.column)" }
    return text
  }

  /// The items grouped by `key`, groups in order of first appearance.
  private static func groups<T>(_ items: [T], by key: (T) -> String) -> [[T]] {
    var index: [String: Int] = [:]
    var groups: [[T]] = []
    for item in items {
      let k = key(item)
      if let g = index[k] {
        groups[g].append(item)
      } else {
        index[k] = groups.count
        groups.append([item])
      }
    }
    return groups
  }

  /// The option or change that fixes a warning whose message does not name one itself; `nil`
  /// when there is none.
  static func remedy(forWarning message: String) -> String? {
    if message.hasPrefix("x and y are in device units"), !message.contains("--position-scale") {
      return "use --position-scale POINTS (points per device unit) to convert them to points"
    }
    return nil
  }

  /// Prints how many label values `--labels-override` replaced, when any (unless `--quiet`):
  /// `note: --labels-override replaced 3 label values in 2 traces`.
  static func reportOverrides(_ dataset: Dataset) {
    guard dataset.labelOverrides > 0 else { return }
    diagnose(
      "note: --labels-override replaced \(dataset.labelOverrides) label value\(dataset.labelOverrides == 1 ? "" : "s") in \(dataset.overriddenTraces) trace\(dataset.overriddenTraces == 1 ? "" : "s")"
    )
  }

  /// Writes a command's outputs all or nothing (``OutputFiles``): each to its path, `-` to
  /// standard output; none may replace one of `inputs`, the files and directories the run reads,
  /// nor its study file.
  static func emit(_ outputs: [(path: String, bytes: [UInt8])], inputs: [String]) throws(FileWriteError) {
    try OutputFiles(inputs: guarded(inputs)).write(outputs)
  }

  /// Files no output may replace besides a command's own inputs: the partials, while
  /// `touchtrace merge` runs the command that wrote them.
  @TaskLocal static var protectedInputs: [String] = []

  /// `inputs` and the other files the run read, which no output may replace: the study file
  /// (`--config`) and, under `touchtrace merge`, the partials.
  static func guarded(_ inputs: [String]) -> [String] { inputs + StudyFile.inputs + protectedInputs }

  /// Writes `bytes` to `path`, or to standard output when `path` is `nil` or `-`, never over one
  /// of `inputs`.
  static func emit(_ bytes: [UInt8], to path: String?, inputs: [String]) throws(FileWriteError) {
    try emit([(path ?? OutputFiles.standardOutput, bytes)], inputs: inputs)
  }

  /// Refuses, before any work, outputs that ``emit(_:inputs:)`` would refuse (`nil`: none).
  static func checkOutputs(_ paths: [String?], inputs: [String]) throws(FileWriteError) {
    try OutputFiles(inputs: guarded(inputs)).check(paths.compactMap { $0 })
  }

  /// Creates the directory `path` unless it exists; returns whether it created it.
  static func makeDirectory(_ path: String) throws(FileWriteError) -> Bool {
    if mkdir(path, 0o777) == 0 { return true }
    let code = errno
    var info = stat()
    if code == EEXIST, stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { return false }
    guard code != EEXIST else {
      throw FileWriteError(path: path, kind: .cannotCreate, reason: "it exists and is not a directory")
    }
    throw FileWriteError(path: path, kind: .cannotCreate, code: code)
  }

  /// Makes descriptors 0, 1 and 2 safe before anything opens a file. A closed one gets
  /// `/dev/null` opened the wrong way round (read-only for 1 and 2, write-only for 0): no file
  /// the tool opens later takes its number (a report written into the latency spill because it
  /// took descriptor 1), and every write to it still fails with `EBADF`, as on a closed
  /// descriptor, so a report due on a closed standard output is exit 74 with a message (on
  /// standard error, when that is open). `SIGPIPE` is ignored: a write to a pipe whose reader
  /// has exited fails with `EPIPE`, exit 74 and a message, instead of killing the process.
  /// Called once by the executable's entry point, first.
  static func secureStandardDescriptors() {
    for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) < 0 && errno == EBADF {
      let opened = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY)
      if opened >= 0 && opened != fd {
        dup2(opened, fd)
        close(opened)
      }
    }
    _ = signal(SIGPIPE, SIG_IGN)
  }

  /// Checks, when the process ends, that everything written to standard output through the C
  /// library (the argument parser's help, for example) reached it: a failing flush or close
  /// prints `standard output: error: cannot write: REASON` and exits with 74.
  /// Installed once by the executable's entry point.
  static func checkStandardOutputAtExit() {
    atexit {
      var failure: Int32 = 0
      errno = 0
      if fflush(nil) != 0 { failure = errno != 0 ? errno : EIO }
      if failure == 0, close(STDOUT_FILENO) != 0, errno != EBADF { failure = errno }
      guard failure != 0 else { return }
      Console.error(FileWriteError(path: OutputFiles.standardOutput, kind: .io, code: failure).description)
      _exit(Exit.ioError.rawValue)
    }
  }

  /// Runs a command body, printing library errors as diagnostics and exiting with the
  /// documented code: 65 bad data, 66 missing or unreadable input, 69 an external recognizer
  /// failed, 73 an output refused or not created, 74 an output write failed, 1 anything else.
  static func run(_ body: () throws -> Void) throws {
    do {
      try body()
    } catch {
      throw exit(for: error)
    }
  }

  /// ``run(_:)`` for asynchronous work.
  static func run(_ body: () async throws -> Void) async throws {
    do {
      try await body()
    } catch {
      throw exit(for: error)
    }
  }

  /// What a command ends with for `error`: the known errors printed and turned into their exit
  /// codes, any other passed on as it is.
  private static func exit(for error: any Error) -> any Error {
    switch error {
    case let error as TraceLoadError:
      Console.error(error.description)
      return error.isFileAccessError ? Exit.noInput : Exit.dataError
    case let error as FileWriteError:
      Console.error(error.description)
      return error.kind == .io ? Exit.ioError : Exit.cannotCreate
    case let error as DataError:
      Console.error(error.description)
      return Exit.dataError
    case let error as StudyError:
      Console.error(error.description)
      return Exit.dataError
    case let error as ExternalRecognizerError:
      Console.error(error.description)
      return Exit.unavailable
    case let error as LatencySpill.Failure:
      Console.error("touchtrace: error: \(error.description)")
      return Exit.ioError
    default:
      return error
    }
  }

}

#if canImport(Glibc)
  private let systemWrite = Glibc.write
#elseif canImport(Musl)
  private let systemWrite = Musl.write
#elseif canImport(Darwin)
  private let systemWrite = Darwin.write
#endif

/// A problem with the data found after loading (for example a trace a recognizer cannot use),
/// reported with exit code 65.
struct DataError: Error, CustomStringConvertible {
  var description: String

  /// The error to throw for a replay that failed in `command`: an external recognizer's failure
  /// (exit 69), or a problem with the data (exit 65).
  static func replay(_ error: ReplayError, command: String) -> any Error {
    if case .external = error {
      return ExternalRecognizerError(description: "touchtrace \(command): error: \(error.description)")
    }
    return DataError(description: "touchtrace \(command): error: \(error.description)")
  }
}

/// An external (`exec:`) recognizer failed; reported with exit code 69, and no report is written.
struct ExternalRecognizerError: Error, CustomStringConvertible {
  var description: String
}
