/// Bytes parked in a temporary file until what goes before them is known (a report whose
/// header counts the rows that follow it), then copied to a ``ByteSink``: memory holds a
/// 64 KiB buffer, not the rows.
///
/// The file is hidden beside a given path, registered for removal on `SIGINT`/`SIGTERM`, and
/// removed after ``copy(to:)``, on ``discard()`` and when the spool is deinitialized.
public final class ByteSpool: ByteSink {
  private let file: SpoolFile
  /// The bytes appended so far.
  public private(set) var byteCount = 0

  /// Creates the spool file beside `path`.
  ///
  /// - Parameter path: a path in the directory to hold the spool file (the output file, or a
  ///   name in a temporary directory).
  /// - Throws: ``FileWriteError`` (`.cannotCreate`) when the file cannot be created.
  public init(beside path: String) throws(FileWriteError) {
    file = try SpoolFile(beside: path)
  }

  /// Appends `bytes`.
  ///
  /// - Parameter bytes: the next bytes.
  /// - Throws: ``FileWriteError`` (`.io`) when the spool file cannot be written.
  public func append(_ bytes: [UInt8]) throws(FileWriteError) {
    file.buffer += bytes
    byteCount += bytes.count
    try file.flushIfFull()
  }

  /// Appends every byte spooled, in order, to `sink`, then removes the spool file.
  ///
  /// - Parameter sink: where the bytes go.
  /// - Throws: ``FileWriteError`` when the spool cannot be read back or the sink fails.
  public func copy(to sink: any ByteSink) throws(FileWriteError) {
    defer { discard() }
    try file.reopenForReading()
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let got = try file.readChunk(into: &chunk)
      if got == 0 { break }
      try sink.append(Array(chunk[0..<got]))
    }
  }

  /// Closes and removes the spool file. Safe to call more than once.
  public func discard() {
    file.discard()
  }
}
