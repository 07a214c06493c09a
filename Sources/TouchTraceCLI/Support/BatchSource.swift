import TouchCore
import TouchIO

/// The input's traces in batches of about `batchTraces`, in input order, read as they come
/// (TouchIO's `TraceStream`: CSV and JSON Lines in chunks, memory holding one chunk and one
/// batch), or every file whole with `--whole-files`.
struct BatchSource {
  private let stream: TraceStream

  init(_ paths: [String], options: LoadOptions, batchTraces: Int) throws {
    stream = try TraceStream(paths, options: options, batchTraces: Swift.max(1, batchTraces))
  }

  /// The next batch; `nil` at the end.
  mutating func next() throws -> Dataset? { try stream.next() }
}
