public import TouchCore

/// The input's traces batch by batch with the accounting one whole load gives: each batch as the
/// loader read it goes to `onRead` (its warnings and skipped traces, for reporting as they
/// arrive), the filters are applied to each batch, and at the end ``selection(kept:)`` says what
/// they did. Keeps no samples: the accounting, and the metadata of the traces read while none has
/// passed the filters (for the selection's account of an empty one). For commands that transform
/// traces as they are read (`inspect`, `features`, `smooth`); scoring reads through
/// ``ScoredStream``.
///
/// ```swift
/// var batches = try InputBatches(StudyInput(paths: ["samples/"]), batchTraces: 1000)
/// while let batch = try batches.next() { print(batch.traces.count) }
/// ```
public struct InputBatches {
  private var source: BatchSource
  private let filters: [TraceFilter]
  /// Metadata of the traces read while no trace has passed the filters.
  private var unselected = Dataset()
  private var selectedAny = false
  private let onRead: ((Dataset) -> Void)?
  /// The files read.
  public private(set) var files: [String] = []
  /// The loader's warnings.
  public private(set) var diagnostics: [Diagnostic] = []
  /// Traces the loader skipped, then traces `--only` left out (the order `load()` gives).
  private var loadSkipped: [SkippedTrace] = []
  private var filterSkipped: [SkippedTrace] = []
  /// Labels replaced by an overrides file, and the traces they belong to.
  public private(set) var labelOverrides = 0
  public private(set) var overriddenTraces = 0

  /// Opens the input.
  ///
  /// - Parameters:
  ///   - input: what to read and which traces to keep.
  ///   - batchTraces: traces per batch (at least 1).
  ///   - onBatch: receives a line saying what each batch holds (``BatchSource``).
  ///   - onRead: receives each batch as the loader read it, before the filters.
  ///   - digests: whether to hash every input's content as it is read (``digests``).
  /// - Throws: `TraceLoadError` when an input cannot be opened.
  public init(
    _ input: StudyInput, batchTraces: Int, onBatch: ((String) -> Void)? = nil, onRead: ((Dataset) -> Void)? = nil,
    digests: Bool = false
  ) throws {
    source = try BatchSource(
      input.paths, options: input.loadOptions, batchTraces: batchTraces, digests: digests, onBatch: onBatch)
    filters = input.filters
    self.onRead = onRead
  }

  /// The next batch's selected traces (traces and origins only); `nil` at the end.
  ///
  /// - Throws: `TraceLoadError` from reading.
  public mutating func next() throws -> Dataset? {
    guard var batch = try source.next() else { return nil }
    onRead?(batch)
    files += batch.files
    diagnostics += batch.diagnostics
    loadSkipped += batch.skipped
    labelOverrides += batch.labelOverrides
    overriddenTraces += batch.overriddenTraces
    if !filters.isEmpty {
      if !selectedAny {
        unselected.traces += batch.traces.map { Trace(metadata: $0.metadata, t: [], force: []) }
        unselected.origins += batch.origins
      }
      batch.skipped = []
      _ = batch.keep(matching: filters)
      filterSkipped += batch.skipped
      if !batch.traces.isEmpty {
        selectedAny = true
        unselected = Dataset()
      }
    }
    return Dataset(traces: batch.traces, origins: batch.origins)
  }

  /// The SHA-256 of each input read to its end, in order, from the bytes as they were read;
  /// empty unless opened with `digests: true`.
  public var digests: [(file: String, sha256: SHA256.Digest)] { source.digests }

  /// The skipped traces so far: the loader's, then those the filters left out.
  public var skipped: [SkippedTrace] { loadSkipped + filterSkipped }

  /// What the filters did, once every batch is read; `nil` without filters.
  ///
  /// - Parameter kept: the traces that passed the filters.
  public func selection(kept: Int) -> FilterSelection? {
    guard !filters.isEmpty else { return nil }
    return FilterSelection(
      filters: filters, kept: kept, leftOut: filterSkipped.count,
      empty: selectedAny ? nil : unselected.emptyingFilter(filters))
  }

  /// A dataset of `traces` with the accounting: files, warnings, label overrides, and the
  /// skipped traces (``skipped``, then `more`).
  public func dataset(traces: [Trace] = [], skippedAfter more: [SkippedTrace] = []) -> Dataset {
    var dataset = Dataset(traces: traces, origins: [])
    dataset.files = files
    dataset.diagnostics = diagnostics
    dataset.skipped = skipped + more
    dataset.labelOverrides = labelOverrides
    dataset.overriddenTraces = overriddenTraces
    return dataset
  }
}
