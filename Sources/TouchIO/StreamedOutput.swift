#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An output file written piece by piece — a long table streamed as it is produced — under the
/// rules of ``OutputFiles``: the target is checked when the stream opens (a regular file or a new
/// name, never an input of the run), the bytes go to a temporary file beside it, and the target
/// changes only when ``OutputFiles/write(_:committing:)`` commits the stream together with the
/// run's other outputs. Every write is checked. A stream that is never committed is removed (on
/// ``discard()``, when it is deinitialized, and on `SIGINT` or `SIGTERM`).
///
/// Bytes are buffered (64 KiB) and written when the buffer fills, so memory stays bounded
/// however long the table.
public final class StreamedOutput {
  /// The target path as given.
  public let path: String
  private var pending: PendingFile?
  private var descriptor: Int32
  private var buffer: [UInt8] = []
  /// The bytes appended so far.
  public private(set) var byteCount = 0
  static let bufferSize = 1 << 16

  /// Opens a stream to `path`, refusing it as ``OutputFiles`` refuses a target.
  ///
  /// - Parameters:
  ///   - path: the target file (not `-`: standard output is written in one piece).
  ///   - inputs: the files and directories the run reads (as ``OutputFiles/inputs``).
  /// - Throws: ``FileWriteError``: `.refused` for a target that may not be replaced (standard
  ///   output included), `.cannotCreate` when the temporary file cannot be created.
  public init(path: String, inputs: [String]) throws(FileWriteError) {
    guard path != OutputFiles.standardOutput else {
      throw FileWriteError(
        path: path, kind: .refused, reason: "a streamed table is written to a file, not standard output")
    }
    self.path = path
    let target = try Target.inspect(path, against: GuardedInputs(inputs))
    let (file, descriptor) = try PendingFile.create(replacing: target)
    pending = file
    self.descriptor = descriptor
    buffer.reserveCapacity(Self.bufferSize)
  }

  deinit { discard() }

  /// Appends `bytes`, writing the buffer out when it is full.
  ///
  /// - Throws: ``FileWriteError`` (`.io`) when a write fails; the stream is then discarded.
  public func append(_ bytes: [UInt8]) throws(FileWriteError) {
    guard pending != nil else { throw FileWriteError(path: path, kind: .io, reason: "the stream is closed") }
    buffer += bytes
    byteCount += bytes.count
    if buffer.count >= Self.bufferSize { try flush() }
  }

  private func flush() throws(FileWriteError) {
    let failure = FileSystem.writeAll(buffer, to: descriptor)
    buffer.removeAll(keepingCapacity: true)
    if failure != 0 {
      discard()
      throw FileWriteError(path: path, kind: .io, reason: FileSystem.describe(failure))
    }
  }

  /// Writes the rest, syncs and closes the temporary file; returns it, ready to be renamed.
  func finish() throws(FileWriteError) -> PendingFile {
    guard let file = pending else { throw FileWriteError(path: path, kind: .io, reason: "the stream is closed") }
    try flush()
    var failure: Int32 = 0
    if fsync(descriptor) != 0 { failure = errno }
    if close(descriptor) != 0, failure == 0 { failure = errno }
    descriptor = -1
    if failure != 0 {
      discard()
      throw FileWriteError(path: path, kind: .io, reason: FileSystem.describe(failure))
    }
    pending = nil
    return file
  }

  /// Removes the temporary file; the target is left as it was. Safe to call more than once.
  public func discard() {
    if descriptor >= 0 {
      close(descriptor)
      descriptor = -1
    }
    pending?.discard()
    pending = nil
  }
}

extension OutputFiles {
  /// Commits `stream` as a new file: finished (flushed, synced), then linked to its target,
  /// which fails when anything exists there (as ``create(_:bytes:)``).
  ///
  /// - Throws: ``FileWriteError``: `.refused` when something exists at the target or it is
  ///   refused as by ``write(_:)``, `.io` when finishing fails. The stream is discarded when it
  ///   throws, and nothing exists at the target that this call made.
  package func create(committing stream: StreamedOutput) throws(FileWriteError) {
    do throws(FileWriteError) {
      let target = try Target.inspect(stream.path, against: GuardedInputs(inputs))
      guard target.existing == nil else {
        throw FileWriteError(
          path: stream.path, kind: .refused, reason: "it exists, and nothing already there is replaced")
      }
      try stream.finish().commitNew()
    } catch {
      stream.discard()
      throw error
    }
  }

  /// Writes `outputs` and commits `streams`, all or nothing: every stream is finished (flushed,
  /// synced) and every file written before the first is renamed over its target.
  ///
  /// - Throws: ``FileWriteError`` as ``write(_:)``; a target named twice among the outputs and
  ///   streams is refused. Nothing has changed when it throws (standard output aside), and the
  ///   streams are discarded.
  public func write(_ outputs: [(path: String, bytes: [UInt8])], committing streams: [StreamedOutput])
    throws(FileWriteError)
  {
    var finished: [PendingFile] = []
    defer { for file in finished { file.discard() } }
    do throws(FileWriteError) {
      var seen: [FileIdentity] = []
      for stream in streams {
        // Checked again: the target may have changed since the stream opened.
        let target = try Target.inspect(stream.path, against: GuardedInputs(inputs))
        if let identity = target.identity ?? FileIdentity(ofParentOf: stream.path, name: stream.path) {
          guard !seen.contains(identity) else {
            throw FileWriteError(
              path: stream.path, kind: .refused, reason: "it is named twice among this run's outputs")
          }
          seen.append(identity)
        }
        for output in outputs where output.path != Self.standardOutput {
          let other = try Target.inspect(output.path, against: GuardedInputs(inputs))
          if let identity = other.identity ?? FileIdentity(ofParentOf: output.path, name: output.path),
            seen.contains(identity)
          {
            throw FileWriteError(
              path: output.path, kind: .refused, reason: "it is named twice among this run's outputs")
          }
        }
        finished.append(try stream.finish())
      }
      try write(outputs)
    } catch {
      for stream in streams { stream.discard() }
      throw error
    }
    for (index, file) in finished.enumerated() {
      do throws(FileWriteError) {
        try file.commit()
      } catch {
        finished.removeFirst(index + 1)
        throw error
      }
    }
    finished.removeAll()
  }
}
