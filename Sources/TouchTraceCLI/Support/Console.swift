import ArgumentParser
import TouchCore
import TouchIO
import TouchRecognizers

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
  /// Anything else (e.g. an output file that cannot be written).
  static let failure = ExitCode.failure
}

/// Standard output and error, and the translation of library errors into exit codes.
enum Console {
  /// Writes `text` to standard error.
  static func error(_ text: String) {
    write(Array((text.hasSuffix("\n") ? text : text + "\n").utf8), to: STDERR_FILENO)
  }

  /// Writes bytes to standard output.
  static func write(_ bytes: [UInt8]) { write(bytes, to: STDOUT_FILENO) }

  /// Writes bytes to standard error as they are (no line break added): progress lines.
  static func writeError(_ bytes: [UInt8]) { write(bytes, to: STDERR_FILENO) }

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

  /// Writes text to standard output.
  static func print(_ text: String) { write(Array(text.utf8)) }

  /// Whether standard error is a terminal (progress is shown only then).
  static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }

  /// Whether standard output is a terminal.
  static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) != 0 }

  /// Prints a dataset's warnings and skipped traces to standard error.
  static func report(_ dataset: Dataset) {
    for diagnostic in dataset.diagnostics { error(diagnostic.description) }
    for skip in dataset.skipped { error(skip.description) }
  }

  /// Writes `bytes` to `path` (atomically), or to standard output when `path` is `nil` or `-`.
  static func emit(_ bytes: [UInt8], to path: String?) throws(FileWriteError) {
    if let path, path != "-" {
      try TraceFiles.write(bytes, to: path)
    } else {
      write(bytes)
    }
  }

  /// Creates the directory `path` unless it exists; on failure prints
  /// `PATH: error: cannot create directory: REASON` and exits with code 1.
  static func makeDirectory(_ path: String) throws(ExitCode) {
    if mkdir(path, 0o755) != 0 && errno != EEXIST {
      error("\(path): error: cannot create directory: \(String(cString: strerror(errno)))")
      throw Exit.failure
    }
  }

  /// Runs a command body, printing library errors as diagnostics and exiting with the
  /// documented code: 65 bad data, 66 missing or unreadable input, 69 an external recognizer
  /// failed, 1 anything else.
  static func run(_ body: () throws -> Void) throws {
    do {
      try body()
    } catch let error as TraceLoadError {
      Console.error(error.description)
      throw error.isFileAccessError ? Exit.noInput : Exit.dataError
    } catch let error as FileWriteError {
      Console.error(error.description)
      throw Exit.failure
    } catch let error as DataError {
      Console.error(error.description)
      throw Exit.dataError
    } catch let error as ExternalRecognizerError {
      Console.error(error.description)
      throw Exit.unavailable
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
