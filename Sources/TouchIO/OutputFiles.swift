import TouchCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes the outputs of one command so that nothing is ever destroyed: the one output path of
/// every `touchtrace` command.
///
/// - A target must be a regular file or not exist yet. A directory, a device node, a FIFO, a
///   socket or a symbolic link is refused (``FileWriteError/Kind-swift.enum/refused``), and so is
///   a file that is an input of the run (the same device and inode, however it is spelled: a hard
///   link, `./`, `..`), and a trace file inside an input directory, which the next run over that
///   directory would read as input. A symbolic link is refused rather than followed, so a link
///   planted at an output name never redirects the write.
/// - Each file is written to a new temporary file beside its target (`.NAME.touchtrace-XXXXXXXX`,
///   created with `O_CREAT|O_EXCL|O_NOFOLLOW`, so concurrent runs never share one and a planted
///   link is never followed), synced to disk, given the mode (and, where allowed, the owner) of
///   the file it replaces, and only then renamed over the target.
/// - Several outputs commit all or nothing: every file is written and synced before the first is
///   renamed, and standard output (`-`) is written after the files are ready and before they are
///   renamed. On any error, and on `SIGINT` or `SIGTERM` while writing, the temporary files are
///   removed and no target changes.
/// - Every write is checked, standard output's included.
public struct OutputFiles: Sendable {
  /// The name that stands for standard output.
  public static let standardOutput = "-"

  /// The files and directories the run reads (the paths as given; directories are searched as
  /// ``TraceFiles/expand(_:extensions:)`` does; `-` stands for standard input, guarded when it
  /// is a regular file).
  public var inputs: [String]

  /// Outputs that must not replace any of `inputs` (files or directories the run reads).
  public init(inputs: [String] = []) {
    self.inputs = inputs
  }

  /// Checks that every path in `targets` may be written (without writing anything), so a command
  /// can refuse before long work; ``write(_:)`` checks again.
  ///
  /// - Throws: ``FileWriteError`` (``FileWriteError/Kind-swift.enum/refused``) for the first
  ///   target that is not a regular file or a new name, or that is an input of the run.
  public func check(_ targets: [String]) throws(FileWriteError) {
    let guarded = GuardedInputs(inputs)
    for target in targets where target != Self.standardOutput {
      _ = try Target.inspect(target, against: guarded)
    }
  }

  /// Writes `outputs` (standard output for the path `-`) all or nothing.
  ///
  /// - Throws: ``FileWriteError``: `.refused` for a target that may not be replaced, `.cannotCreate`
  ///   when the temporary file cannot be created or renamed, `.io` when a write, a sync or a close
  ///   fails (standard output's included). No target has changed when it throws, except that
  ///   standard output may have received part of its bytes.
  public func write(_ outputs: [(path: String, bytes: [UInt8])]) throws(FileWriteError) {
    let guarded = GuardedInputs(inputs)
    var seen: [FileIdentity] = []
    var pending: [PendingFile] = []
    // Removes every temporary file unless the batch committed.
    defer { for file in pending { file.discard() } }
    for output in outputs where output.path != Self.standardOutput {
      let target = try Target.inspect(output.path, against: guarded)
      if let identity = target.identity ?? FileIdentity(ofParentOf: output.path, name: output.path) {
        guard !seen.contains(identity) else {
          throw FileWriteError(path: output.path, kind: .refused, reason: "it is named twice among this run's outputs")
        }
        seen.append(identity)
      }
      pending.append(try PendingFile.write(output.bytes, replacing: target))
    }
    for output in outputs where output.path == Self.standardOutput {
      try StandardOutput.write(output.bytes)
    }
    // Everything is on disk: rename. A rename fails only when the directory changed under us.
    for (index, file) in pending.enumerated() {
      do throws(FileWriteError) {
        try file.commit()
      } catch {
        pending.removeFirst(index + 1)
        throw error
      }
    }
    pending.removeAll()
  }
}

extension OutputFiles {
  /// Writes `bytes` to the new file `path`, never replacing anything: the file is written and
  /// synced under a temporary name beside it, then linked to `path`, which fails when anything
  /// exists there (even something created a moment before), and the temporary name is removed.
  /// For outputs added to a directory that may hold other files (`touchtrace capture`).
  ///
  /// - Parameters:
  ///   - bytes: the file's content.
  ///   - path: the new file; it must not exist.
  /// - Throws: ``FileWriteError``: `.refused` when something exists at `path` (the message says
  ///   so) or it is refused as by ``write(_:)``, `.cannotCreate` when the file cannot be created,
  ///   `.io` when writing or syncing fails. Nothing exists at `path` that this call made when it
  ///   throws.
  public func create(_ path: String, bytes: [UInt8]) throws(FileWriteError) {
    let target = try Target.inspect(path, against: GuardedInputs(inputs))
    guard target.existing == nil else {
      throw FileWriteError(path: path, kind: .refused, reason: "it exists, and nothing already there is replaced")
    }
    let file = try PendingFile.write(bytes, replacing: target)
    try file.commitNew()
  }
}

extension PendingFile {
  /// Links the temporary file to the target, which must not exist, then removes the temporary
  /// name.
  func commitNew() throws(FileWriteError) {
    defer { discard() }
    if link(temporary, target) != 0 {
      let code = errno
      if code == EEXIST {
        throw FileWriteError(path: target, kind: .refused, reason: "it exists, and nothing already there is replaced")
      }
      throw FileWriteError(path: target, kind: .cannotCreate, reason: FileSystem.describe(code))
    }
    let directory = open(OutputPath.directory(of: target), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directory >= 0 {
      _ = fsync(directory)
      close(directory)
    }
  }
}

/// An output target that may be written: a regular file or a new name.
struct Target {
  /// The path as given.
  var path: String
  /// The existing file's status, `nil` for a new file.
  var existing: stat?

  /// The existing file's identity.
  var identity: FileIdentity? { existing.map(FileIdentity.init) }

  /// Checks `path` against the rules of ``OutputFiles``.
  static func inspect(_ path: String, against inputs: GuardedInputs) throws(FileWriteError) -> Target {
    func refuse(_ reason: String) -> FileWriteError { FileWriteError(path: path, kind: .refused, reason: reason) }
    guard !path.isEmpty else { throw refuse("the path is empty") }
    var info = stat()
    if lstat(path, &info) != 0 {
      let code = errno
      guard code == ENOENT else {
        throw FileWriteError(path: path, kind: .cannotCreate, reason: FileSystem.describe(code))
      }
      if path.hasSuffix("/") { throw refuse("the path names a directory") }
      if let directory = inputs.directoryReading(path) {
        throw refuse("it is inside the input directory \(directory), where the next run would read it as a trace file")
      }
      return Target(path: path, existing: nil)
    }
    let type = info.st_mode & S_IFMT
    guard type == S_IFREG else {
      let what: String
      switch type {
      case S_IFDIR: what = "it is a directory"
      case S_IFCHR: what = "it is a character device; use - for standard output"
      case S_IFBLK: what = "it is a block device"
      case S_IFIFO: what = "it is a FIFO (named pipe); use - for standard output and a shell redirection"
      case S_IFSOCK: what = "it is a socket"
      case S_IFLNK: what = "it is a symbolic link (write to the file it names, or use - for standard output)"
      default: what = "it is not a regular file"
      }
      throw refuse(what)
    }
    if let input = inputs.files[FileIdentity(info)] {
      if input == path { throw refuse("it is an input of this run") }
      throw refuse(
        input == "standard input" ? "it is this run's standard input" : "it is the input \(input) of this run")
    }
    if let directory = inputs.directoryReading(path) {
      throw refuse("it is inside the input directory \(directory), where the next run would read it as a trace file")
    }
    return Target(path: path, existing: info)
  }
}

/// A temporary file written in full beside its target, waiting to be renamed over it.
struct PendingFile {
  var target: String
  var temporary: String
  var cleanup: TemporaryFileRegistry.Slot?

  /// Writes `bytes` to a new temporary file beside `target`, syncs it, and gives it the
  /// replaced file's mode and owner.
  static func write(_ bytes: [UInt8], replacing target: Target) throws(FileWriteError) -> PendingFile {
    let (file, descriptor) = try create(replacing: target)
    var failure = FileSystem.writeAll(bytes, to: descriptor)
    if failure == 0, fsync(descriptor) != 0 { failure = errno }
    if close(descriptor) != 0, failure == 0 { failure = errno }
    if failure != 0 {
      file.discard()
      throw FileWriteError(path: target.path, kind: .io, reason: FileSystem.describe(failure))
    }
    return file
  }

  /// Creates a new temporary file beside `target` with the replaced file's mode and owner;
  /// returns it and its open descriptor (the caller writes, syncs and closes it).
  static func create(replacing target: Target) throws(FileWriteError) -> (PendingFile, Int32) {
    let path = target.path
    var created: (descriptor: Int32, name: String, cleanup: TemporaryFileRegistry.Slot?)?
    var lastError: Int32 = EEXIST
    for _ in 0..<100 {
      let name = OutputPath.temporaryName(for: path)
      // Registered before it exists, so a signal at any moment after the file appears removes it.
      let cleanup = TemporaryFileRegistry.register(name)
      let descriptor = open(name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
      if descriptor >= 0 {
        created = (descriptor, name, cleanup)
        break
      }
      lastError = errno
      cleanup?.release()
      if lastError != EEXIST && lastError != EINTR { break }
    }
    guard let (descriptor, name, cleanup) = created else {
      throw FileWriteError(path: path, kind: .cannotCreate, reason: FileSystem.describe(lastError))
    }
    let file = PendingFile(target: path, temporary: name, cleanup: cleanup)
    if let existing = target.existing {
      // Keep the replaced file's permissions, and its owner where the system lets us.
      _ = fchown(descriptor, existing.st_uid, existing.st_gid)
      if fchmod(descriptor, existing.st_mode & 0o7777) != 0 {
        let failure = errno
        close(descriptor)
        file.discard()
        throw FileWriteError(path: path, kind: .io, reason: FileSystem.describe(failure))
      }
    }
    return (file, descriptor)
  }

  /// Renames the temporary file over the target.
  func commit() throws(FileWriteError) {
    if rename(temporary, target) != 0 {
      let code = errno
      discard()
      throw FileWriteError(path: target, kind: .cannotCreate, reason: FileSystem.describe(code))
    }
    cleanup?.release()
    // Make the rename itself durable; a directory that cannot be synced is no error.
    let directory = open(OutputPath.directory(of: target), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directory >= 0 {
      _ = fsync(directory)
      close(directory)
    }
  }

  /// Removes the temporary file.
  func discard() {
    unlink(temporary)
    cleanup?.release()
  }
}
