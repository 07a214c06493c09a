import ArgumentParser
import TouchCore
import TouchIO
import TouchSignal
import TouchStudy

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--batch-traces N` of the commands that transform traces as they are read (`inspect`,
/// `features`, `smooth`, `import`, `synth`).
struct BatchOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Traces read and processed per batch: memory holds one batch's samples (the output does not depend on it).",
      valueName: "n"))
  var batchTraces = ScoredStream.defaultBatch

  func validate() throws {
    guard batchTraces >= 1 else { throw ValidationError("--batch-traces must be at least 1, got \(batchTraces)") }
  }
}

/// The input's traces batch by batch with the accounting of `InputOptions.load()`: warnings and
/// load-skipped traces reported on standard error as they arrive, `--only` applied to each
/// batch, and at the end (``finish()``) the label-override and `--only` notes, or the error for
/// filters that keep no trace. Keeps no samples: the accounting, and the metadata of the traces
/// read while none has passed the filters (for that error's message).
struct InputBatches {
  private var source: BatchSource
  private let filters: [TraceFilter]
  /// Metadata of the traces read while no trace has passed the filters.
  private var unselected = Dataset()
  private var selectedAny = false
  /// The files read.
  private(set) var files: [String] = []
  /// The loader's warnings.
  private(set) var diagnostics: [Diagnostic] = []
  /// Traces the loader skipped, then traces `--only` left out (the order `load()` gives).
  private var loadSkipped: [SkippedTrace] = []
  private var filterSkipped: [SkippedTrace] = []
  private(set) var labelOverrides = 0
  private(set) var overriddenTraces = 0

  init(_ input: InputOptions, batchTraces: Int) throws {
    source = try BatchSource(
      input.paths, options: input.loadOptions, batchTraces: batchTraces,
      onBatch: Console.verbose && !Console.quiet ? { Console.detail($0) } : nil)
    filters = input.filters.compactMap(TraceFilter.init(parsing:))
  }

  /// The next batch's selected traces (traces and origins only); `nil` at the end.
  mutating func next() throws -> Dataset? {
    guard var batch = try source.next() else { return nil }
    Console.report(batch)
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

  /// The skipped traces so far: the loader's, then those `--only` left out.
  var skipped: [SkippedTrace] { loadSkipped + filterSkipped }

  /// Reports what `load()` reports after loading (label overrides, what `--only` kept); throws
  /// its error when the filters kept no trace.
  ///
  /// - Parameter selected: the traces that passed the filters.
  func finish(selected: Int) throws {
    if labelOverrides > 0 {
      var overrides = Dataset()
      overrides.labelOverrides = labelOverrides
      overrides.overriddenTraces = overriddenTraces
      Console.reportOverrides(overrides)
    }
    guard !filters.isEmpty else { return }
    if !selectedAny, let empty = unselected.emptyingFilter(filters) { throw InputOptions.emptyFilterError(empty) }
    Console.diagnose(
      "note: --only \(filters.map(\.description).joined(separator: " --only ")) kept \(selected) traces, left out \(filterSkipped.count)"
    )
  }

  /// A dataset of `traces` with the accounting: files, warnings, label overrides, and the
  /// skipped traces (``skipped``, then `more`).
  func dataset(traces: [Trace] = [], skippedAfter more: [SkippedTrace] = []) -> Dataset {
    var dataset = Dataset(traces: traces, origins: [])
    dataset.files = files
    dataset.diagnostics = diagnostics
    dataset.skipped = skipped + more
    dataset.labelOverrides = labelOverrides
    dataset.overriddenTraces = overriddenTraces
    return dataset
  }
}

extension PerTrace {
  /// Runs `body` on each trace of one batch, without reporting: the results, the traces they
  /// belong to, and the traces skipped with their reasons (for the caller to report with the
  /// rest at the end). Errors for which `skipping` is true skip the trace whatever
  /// `skipInvalid` says.
  static func batch<T>(
    _ batch: Dataset, skipInvalid: Bool, skipping: (SignalError) -> Bool = { _ in false },
    _ body: (Trace) throws(SignalError) -> T
  ) throws -> (results: [T], traces: [Trace], skipped: [SkippedTrace]) {
    var results: [T] = []
    var traces: [Trace] = []
    var skipped: [SkippedTrace] = []
    for (trace, origin) in zip(batch.traces, batch.origins) {
      do {
        results.append(try body(trace))
        traces.append(trace)
      } catch {
        guard skipInvalid || skipping(error) else {
          throw DataError(
            description: Diagnostic(.error, error.description, file: origin.file, position: origin.position).description
          )
        }
        skipped.append(SkippedTrace(trace: trace.name, origin: origin, reason: error.message))
      }
    }
    return (results, traces, skipped)
  }
}

/// An output written piece by piece: a ``StreamedOutput`` for a file (committed by
/// ``commit()``, all or nothing), or, for standard output, memory written in one piece at
/// ``commit()`` so that a command that fails writes nothing.
final class StreamTarget {
  /// The target path (`-` for standard output).
  let path: String
  private let inputs: [String]
  private let file: StreamedOutput?
  private let memory: MemorySink?

  /// Opens `path` (`-`: standard output), never one of `inputs`.
  init(_ path: String, inputs: [String]) throws(FileWriteError) {
    self.path = path
    self.inputs = Console.guarded(inputs)
    if path == OutputFiles.standardOutput {
      file = nil
      memory = MemorySink()
    } else {
      file = try StreamedOutput(path: path, inputs: self.inputs)
      memory = nil
    }
  }

  /// Where the bytes go.
  var sink: any ByteSink { file ?? memory! }

  /// A path beside which temporary spool files go: the output file, or a name in `$TMPDIR`
  /// (else `/tmp`) for standard output.
  var spoolPath: String {
    if file != nil { return path }
    let directory = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    return directory + "/touchtrace-output"
  }

  /// Puts the output in place.
  func commit() throws(FileWriteError) {
    if let file {
      try OutputFiles(inputs: inputs).write([], committing: [file])
    } else {
      try Console.emit(memory!.bytes, to: OutputFiles.standardOutput, inputs: inputs)
    }
  }

  /// Drops what was written; the target is left as it was.
  func discard() { file?.discard() }
}

/// A trace file written batch by batch (`smooth`, `import`, `synth`): the same bytes as
/// `TraceWriter.encode` of all the traces (see `TraceStreamWriter` in TouchIO).
final class TraceOutput {
  let target: StreamTarget
  let writer: TraceStreamWriter

  /// Opens the output of `options`, never over one of `inputs`.
  init(_ options: OutputOptions<TraceFormat>, inputs: [String]) throws(FileWriteError) {
    target = try StreamTarget(options.target, inputs: inputs)
    do throws(FileWriteError) {
      writer = try TraceStreamWriter(format: options.fileFormat, sink: target.sink, spoolBeside: target.spoolPath)
    } catch {
      target.discard()
      throw error
    }
  }

  /// The traces written so far.
  var count: Int { writer.count }

  /// Writes `traces` after those written before.
  func write(_ traces: [Trace]) throws(FileWriteError) {
    do throws(FileWriteError) { try writer.write(traces) } catch {
      discard()
      throw error
    }
  }

  /// Finishes the file and puts it in place.
  func commit() throws(FileWriteError) {
    do throws(FileWriteError) { try writer.finish() } catch {
      discard()
      throw error
    }
    try target.commit()
  }

  /// Drops the output and its spool.
  func discard() {
    writer.discard()
    target.discard()
  }
}
