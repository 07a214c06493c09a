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
  /// `inspect`'s default: its summary reads each batch's samples right after they are parsed,
  /// and a batch this size (about 1.5 MB of iPhone samples) is still in the processor's cache
  /// then; with 16 384 traces it took about a tenth longer.
  static let inspectDefault = 1024

  @Option(
    help: ArgumentHelp(
      "Traces read and processed per batch (default: 16384; inspect: 1024): memory holds one batch's samples (the output does not depend on it).",
      valueName: "n"))
  var batchTraces: Int?

  /// The traces per batch: `--batch-traces`, else `defaultCount`.
  func count(default defaultCount: Int = ScoredStream.defaultBatch) -> Int { batchTraces ?? defaultCount }

  func validate() throws {
    if let batchTraces, batchTraces < 1 {
      throw ValidationError("--batch-traces must be at least 1, got \(batchTraces)")
    }
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
/// ``commit()``, all or nothing), or, for standard output, a ``HeldOutput`` written out at
/// ``commit()`` so that a command that fails writes nothing (memory up to 32 MiB, then a
/// temporary file in `$TMPDIR`, so memory stays bounded).
final class StreamTarget {
  /// The target path (`-` for standard output).
  let path: String
  private let inputs: [String]
  private let file: StreamedOutput?
  private let held: HeldOutput?

  /// Opens `path` (`-`: standard output), never one of `inputs`.
  init(_ path: String, inputs: [String]) throws(FileWriteError) {
    self.path = path
    self.inputs = Console.guarded(inputs)
    if path == OutputFiles.standardOutput {
      file = nil
      held = HeldOutput(spoolBeside: Self.temporaryPath)
    } else {
      file = try StreamedOutput(path: path, inputs: self.inputs)
      held = nil
    }
  }

  /// Where the bytes go.
  var sink: any ByteSink { file ?? held! }

  /// A name in `$TMPDIR` (else `/tmp`) beside which standard output's spool files go.
  private static var temporaryPath: String {
    TemporaryDirectory.path + "/touchtrace-output"
  }

  /// A path beside which temporary spool files go: the output file, or a name in `$TMPDIR`
  /// (else `/tmp`) for standard output.
  var spoolPath: String { file != nil ? path : Self.temporaryPath }

  /// Puts the output in place.
  func commit() throws(FileWriteError) {
    if let file {
      try OutputFiles(inputs: inputs).write([], committing: [file])
    } else {
      try held!.write()
    }
  }

  /// Drops what was written; the target is left as it was.
  func discard() {
    file?.discard()
    held?.discard()
  }
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
