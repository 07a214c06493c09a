public import TouchCore
public import TouchIO

/// The input's traces in batches of about `batchTraces`, in input order, read as they come
/// (TouchIO's `TraceStream`: CSV and JSON Lines in chunks, memory holding one chunk and one
/// batch), or every file whole with `LoadOptions.wholeFiles`. Every batch is checked for times
/// that are not in seconds (``TimeScaleCheck``).
///
/// ```swift
/// var source = try BatchSource(["samples/"], options: LoadOptions(), batchTraces: 1000)
/// while let batch = try source.next() { print(batch.traces.count) }
/// ```
public struct BatchSource {
  private let stream: TraceStream
  /// The reader of the next batch while this one is scored, when asked for.
  private let ahead: ReadAhead?
  /// Batches read, and when reading began (for ``onBatch``).
  private var batches = 0
  private let started = ContinuousClock.now
  /// Called with a line saying what each batch holds (its number, files, traces kept and skipped,
  /// seconds since the start); `nil` to make no line.
  private let onBatch: ((String) -> Void)?

  /// Opens the inputs.
  ///
  /// - Parameters:
  ///   - paths: files and directories, in order; `-` is standard input.
  ///   - options: how files are read.
  ///   - batchTraces: traces per batch (at least 1).
  ///   - digests: whether to hash every input's content as it is read (a partial records the
  ///     hashes; other runs skip the work).
  ///   - onBatch: receives the line describing each batch, made only when it is set.
  ///   - readAhead: whether to read each next batch on a thread of its own while the caller
  ///     works on the one before (one more batch in memory; the same batches, in the same order,
  ///     with the same errors). For a caller that spreads its own work over several threads.
  /// - Throws: `TraceLoadError` when an input cannot be opened.
  public init(
    _ paths: [String], options: LoadOptions, batchTraces: Int, digests: Bool = false,
    onBatch: ((String) -> Void)? = nil, readAhead: Bool = false
  ) throws {
    stream = try TraceStream(paths, options: options, batchTraces: Swift.max(1, batchTraces), digests: digests)
    if readAhead {
      let stream = self.stream
      ahead = ReadAhead(size: stream.batchTraces) { size in
        stream.batchTraces = size
        return try stream.next().map(TimeScaleCheck.checked)
      }
    } else {
      ahead = nil
    }
    self.onBatch = onBatch
  }

  /// The next batch; `nil` at the end.
  ///
  /// - Throws: `TraceLoadError` for an input that cannot be read or, unless invalid traces are
  ///   skipped, holds one.
  public mutating func next() throws -> Dataset? {
    let read: Dataset?
    if let ahead {
      read = try ahead.next()
    } else {
      read = try stream.next().map(TimeScaleCheck.checked)
    }
    guard let batch = read else { return nil }
    batches += 1
    if let onBatch { onBatch(describe(batch)) }
    return batch
  }

  /// The line of the batch just read.
  private func describe(_ batch: Dataset) -> String {
    let elapsed = started.duration(to: .now).components
    let tenths = Int(elapsed.seconds) * 10 + Int(elapsed.attoseconds / 100_000_000_000_000_000)
    let from = batch.files.isEmpty ? "the file before" : batch.files.joined(separator: ", ")
    return
      "note: batch \(batches): \(batch.traces.count) traces, \(batch.skipped.count) skipped, from \(from) (\(tenths / 10).\(tenths % 10) s)"
  }

  /// The SHA-256 of each input read to its end so far (the labels file first), in input order;
  /// empty unless opened with `digests: true`.
  ///
  /// - Precondition: with `readAhead`, ``next()`` has returned `nil` (the stream is read on
  ///   another thread until then).
  public var digests: [(file: String, sha256: SHA256.Digest)] {
    precondition(ahead?.isDone ?? true, "the digests of inputs read ahead are known at their end")
    return stream.digests
  }
}
