#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file could not be written.
public struct FileWriteError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong, which decides the exit code (73 or 74).
  public enum Kind: Hashable, Sendable {
    /// The target may not be replaced: an input of the run, a directory, a device, a FIFO, a
    /// socket or a symbolic link (`EX_CANTCREAT`, 73).
    case refused
    /// The output file could not be created or put in place, e.g. a missing directory or no
    /// permission (`EX_CANTCREAT`, 73).
    case cannotCreate
    /// Writing, syncing or closing failed, e.g. a full disk (`EX_IOERR`, 74).
    case io
  }

  /// The file that could not be written (`-` for standard output).
  public var path: String
  /// What went wrong.
  public var kind: Kind
  /// Why (the C library's text for the error, or why the target was refused).
  public var reason: String

  /// An error of `kind` for `path`.
  public init(path: String, kind: Kind = .io, reason: String) {
    self.path = path
    self.kind = kind
    self.reason = reason
  }

  /// An error of `kind` for `path` whose reason is the C library's text for `errno` value `code`
  /// (for standard output, a closed one is said so: `EPIPE`, its reader exited; `EBADF`, it was
  /// closed when the tool started).
  public init(path: String, kind: Kind, code: Int32) {
    if path == OutputFiles.standardOutput && code == EPIPE {
      self.init(path: path, kind: kind, reason: "standard output closed: its reader has exited (broken pipe)")
    } else if path == OutputFiles.standardOutput && code == EBADF {
      self.init(
        path: path, kind: kind,
        reason: "standard output closed: the tool was started without it (or it is not open for writing)")
    } else {
      self.init(path: path, kind: kind, reason: FileSystem.describe(code))
    }
  }

  /// `PATH: error: refusing to write: REASON`, `PATH: error: cannot create file: REASON`,
  /// `PATH: error: cannot write file: REASON`; `standard output` for `-`.
  public var description: String {
    let name = path == OutputFiles.standardOutput ? "standard output" : path
    switch kind {
    case .refused: return "\(name): error: refusing to write: \(reason)"
    case .cannotCreate: return "\(name): error: cannot create file: \(reason)"
    case .io: return "\(name): error: cannot write\(path == OutputFiles.standardOutput ? "" : " file"): \(reason)"
    }
  }
}

extension TraceFiles {
  /// Writes `bytes` to `path` as ``OutputFiles`` does (a checked regular file, replaced
  /// atomically), so a failed command never leaves a half-written output.
  ///
  /// - Throws: ``FileWriteError``.
  public static func write(_ bytes: [UInt8], to path: String) throws(FileWriteError) {
    try OutputFiles().write([(path, bytes)])
  }
}
