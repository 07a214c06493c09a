import TouchCore
import TouchIO

/// The input's traces in batches of about `batchTraces`, in input order, read as they come
/// (TouchIO's `TraceStream`: CSV and JSON Lines in chunks, memory holding one chunk and one
/// batch), or every file whole with `--whole-files`.
struct BatchSource {
  private let stream: TraceStream
  /// Batches read, and when reading began (`--verbose`).
  private var batches = 0
  private let started = ContinuousClock.now

  /// - Parameter digests: whether to hash every input's content as it is read (a partial records
  ///   the hashes; other runs skip the work).
  init(_ paths: [String], options: LoadOptions, batchTraces: Int, digests: Bool = false) throws {
    stream = try TraceStream(paths, options: options, batchTraces: Swift.max(1, batchTraces), digests: digests)
  }

  /// The next batch; `nil` at the end. With `--verbose`, a line says what it holds.
  mutating func next() throws -> Dataset? {
    guard let batch = try stream.next().map(TimeScaleCheck.checked) else { return nil }
    batches += 1
    Console.detail(describe(batch))
    return batch
  }

  /// The `--verbose` line of the batch just read (made only when it is printed).
  private func describe(_ batch: Dataset) -> String {
    let elapsed = started.duration(to: .now).components
    let tenths = Int(elapsed.seconds) * 10 + Int(elapsed.attoseconds / 100_000_000_000_000_000)
    let from = batch.files.isEmpty ? "the file before" : batch.files.joined(separator: ", ")
    return
      "note: batch \(batches): \(batch.traces.count) traces, \(batch.skipped.count) skipped, from \(from) (\(tenths / 10).\(tenths % 10) s)"
  }

  /// The SHA-256 of each input read to its end so far (the labels file first), in input order;
  /// empty unless opened with `digests: true`.
  var digests: [(file: String, sha256: SHA256.Digest)] { stream.digests }
}
