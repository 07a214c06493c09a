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
  /// - Throws: `TraceLoadError` when an input cannot be opened.
  public init(
    _ paths: [String], options: LoadOptions, batchTraces: Int, digests: Bool = false,
    onBatch: ((String) -> Void)? = nil
  ) throws {
    stream = try TraceStream(paths, options: options, batchTraces: Swift.max(1, batchTraces), digests: digests)
    self.onBatch = onBatch
  }

  /// The next batch; `nil` at the end.
  ///
  /// - Throws: `TraceLoadError` for an input that cannot be read or, unless invalid traces are
  ///   skipped, holds one.
  public mutating func next() throws -> Dataset? {
    guard let batch = try stream.next().map(TimeScaleCheck.checked) else { return nil }
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
  public var digests: [(file: String, sha256: SHA256.Digest)] { stream.digests }
}
