import TouchCore
package import TouchIO

/// A file for a ``BinaryReader`` to read a piece at a time, from its start to its end: every
/// byte it hands out is hashed as it goes (a partial's checksum covers all of it but the last
/// 32 bytes, read last by `trailerMatches(_:)`), and the reason a read failed is kept, since the
/// reader only knows that bytes are missing.
package final class BinaryFeed {
  /// The bytes a reader asks for at least when its window runs out.
  package let piece: Int
  private let chunks: InputChunks
  private var hash = SHA256()
  /// Why a read failed; `nil` while none has.
  package private(set) var failure: TraceLoadError?

  /// Opens `file` (`-`: standard input).
  ///
  /// - Parameters:
  ///   - file: the file.
  ///   - piece: the bytes read at least at a time (1 MiB by default).
  /// - Throws: ``TraceLoadError`` when `file` cannot be opened.
  package init(file: String, piece: Int = 1 << 20) throws(TraceLoadError) {
    precondition(piece > 0, "a piece of at least a byte")
    chunks = try InputChunks(file)
    self.piece = piece
  }

  /// The file's size when it was opened, bytes; `nil` for a FIFO or standard input.
  package var size: Int? { chunks.size }

  /// The next `count` bytes (fewer at the file's end), hashed.
  ///
  /// - Throws: `BinaryReader.Truncated` when the read fails (``failure`` says why).
  func read(_ count: Int) throws(BinaryReader.Truncated) -> [UInt8] {
    do throws(TraceLoadError) {
      let bytes = try chunks.next(count)
      hash.update(bytes)
      return bytes
    } catch {
      failure = error
      throw BinaryReader.Truncated()
    }
  }

  /// Whether what follows the bytes hashed is exactly `count` more bytes holding their
  /// SHA-256: the file read to its end, unchanged.
  ///
  /// - Throws: ``TraceLoadError`` when the read fails.
  package func trailerMatches(_ count: Int = SHA256.byteCount) throws(TraceLoadError) -> Bool {
    let trailer = try chunks.next(count)
    let atEnd = try chunks.next(1).isEmpty
    return trailer.count == count && atEnd && trailer == hash.finalize().bytes
  }
}
