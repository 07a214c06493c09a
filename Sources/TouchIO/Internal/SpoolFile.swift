#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The temporary file under both spools (``ByteSpool``, ``TraceSpool``): hidden beside a given
/// path, registered for removal on `SIGINT`/`SIGTERM`, written through a 64 KiB buffer, read back
/// from its start, and removed by ``discard()`` or when deinitialized.
final class SpoolFile {
  private let file: PendingFile
  private var discarded = false
  /// The open file: written until ``reopenForReading()``, read after.
  private(set) var descriptor: Int32
  /// Bytes appended but not yet written; the owner appends to it, then calls ``flushIfFull()``.
  var buffer: [UInt8] = []

  /// Creates the file beside `path`.
  ///
  /// - Throws: ``FileWriteError`` (`.cannotCreate`) when it cannot be created.
  init(beside path: String) throws(FileWriteError) {
    (file, descriptor) = try PendingFile.create(replacing: Target(path: path, existing: nil))
    buffer.reserveCapacity(1 << 16)
  }

  deinit { discard() }

  /// The path errors name: the output the spool stands beside.
  var path: String { file.target }

  /// Writes the buffer once it holds 64 KiB or more.
  func flushIfFull() throws(FileWriteError) {
    if buffer.count >= 1 << 16 { try flush() }
  }

  /// Writes what the buffer holds.
  func flush() throws(FileWriteError) {
    guard !buffer.isEmpty else { return }
    let failure = FileSystem.writeAll(buffer, to: descriptor)
    buffer.removeAll(keepingCapacity: true)
    if failure != 0 { throw FileWriteError(path: file.target, kind: .io, code: failure) }
  }

  /// Writes the buffer, then opens the file again for reading from its first byte.
  func reopenForReading() throws(FileWriteError) {
    try flush()
    close(descriptor)
    descriptor = open(file.temporary, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw FileWriteError(path: file.target, kind: .io, code: errno) }
  }

  /// Reads up to `chunk.count` bytes into `chunk` from where reading stands; returns how many
  /// (0 at the end).
  func readChunk(into chunk: inout [UInt8]) throws(FileWriteError) -> Int {
    while true {
      let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if got >= 0 { return got }
      if errno != EINTR { throw FileWriteError(path: file.target, kind: .io, code: errno) }
    }
  }

  /// Closes and removes the file. Safe to call more than once.
  func discard() {
    guard !discarded else { return }
    discarded = true
    if descriptor >= 0 {
      close(descriptor)
      descriptor = -1
    }
    file.discard()
  }
}
