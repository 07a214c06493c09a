/// An input read once from its start to its end, a piece at a time: a regular file, a FIFO or
/// standard input (`-`), opened as ``TraceFiles/read(_:limit:)`` opens it (devices and sockets
/// refused before they are opened). Memory holds the piece asked for, not the input.
package final class InputChunks {
  private let input: FileSystem.Input
  private let path: String

  /// Opens `path` (`-`: standard input).
  ///
  /// - Throws: ``TraceLoadError``: `.fileNotFound`, `.unreadable` (directories, devices,
  ///   sockets, a denied permission).
  package init(_ path: String) throws(TraceLoadError) {
    input = try FileSystem.openInput(path, limit: Int.max)
    self.path = path
  }

  deinit { input.finish() }

  /// The size of a regular file when it was opened, bytes; `nil` for a FIFO or a stream.
  package var size: Int? { input.size }

  /// The next `count` bytes, fewer only where the input ends first (none at its end).
  ///
  /// - Throws: ``TraceLoadError`` `.unreadable` with the C library's reason when a read fails.
  package func next(_ count: Int) throws(TraceLoadError) -> [UInt8] {
    precondition(count >= 0, "a number of bytes")
    let (bytes, failure) = FileSystem.readFully(input.fd, upTo: count)
    if failure != 0 { throw FileSystem.accessError(path, failure) }
    return bytes
  }
}
