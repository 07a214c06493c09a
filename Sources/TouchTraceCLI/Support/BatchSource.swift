import TouchCore
import TouchIO

/// The input's traces in batches of about `batchTraces`, in input order.
struct BatchSource {
  private var whole: Dataset?
  private var position = 0
  private var skippedGiven = false
  private let size: Int

  init(_ paths: [String], options: LoadOptions, batchTraces: Int) throws {
    whole = try TraceLoader.load(paths, options: options)
    size = Swift.max(1, batchTraces)
  }

  /// The next batch; `nil` at the end. The first carries the files, diagnostics, skipped
  /// records and label counts.
  mutating func next() throws -> Dataset? {
    guard let whole else { return nil }
    if position >= whole.traces.count && skippedGiven {
      self.whole = nil
      return nil
    }
    let end = Swift.min(whole.traces.count, position + size)
    var batch = Dataset(traces: Array(whole.traces[position..<end]), origins: Array(whole.origins[position..<end]))
    if !skippedGiven {
      batch.files = whole.files
      batch.diagnostics = whole.diagnostics
      batch.skipped = whole.skipped
      batch.labelOverrides = whole.labelOverrides
      batch.overriddenTraces = whole.overriddenTraces
      skippedGiven = true
    }
    position = end
    return batch
  }
}
