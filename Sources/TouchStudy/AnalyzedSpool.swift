public import TouchCore
import TouchPartials

/// The analyzed traces of a scoring read, whole, in an anonymous temporary file, so that a second
/// read of the same traces (the verdict's paired comparison, `--outcomes`, a report's figures,
/// the bootstrap) replays them without parsing the inputs again, and can follow standard input,
/// which cannot be read twice.
///
/// A first read with ``ScoredStream/Request/spool`` set writes every trace it analyzes here,
/// batch by batch (memory holds one batch's encoding), and marks the spool complete when it ends;
/// a second read made from that request (``ScoredStream/Request/replaying(_:)``) then reads the
/// spool instead of the inputs. The file lives in `$TMPDIR` (else `/tmp`), is unlinked at once
/// (nothing is left behind) and takes 8 bytes a sample for each of its columns (times, forces,
/// positions, radii, at their exact bits), 1 for its phase, and about 230 bytes a trace for its
/// metadata and origin.
///
/// When the file cannot be created or written (a full disk), or would pass ``limit``, the spool
/// stops and says why (``failure``): second reads then read the inputs again, or for standard
/// input cannot be made.
public final class AnalyzedSpool {
  /// The file; `nil` before the first batch and after a failure.
  private var file: LatencySpill?
  /// Each record: where its bytes lie and how many traces it holds.
  private var records: [(ref: LatencySpill.Ref, traces: Int)] = []
  /// Why spooling stopped, with the system's reason; `nil` while it works.
  public private(set) var failure: String?
  /// Whether the read that writes it has ended: it then holds every trace that read analyzed.
  public private(set) var isComplete = false
  /// The traces spooled.
  public private(set) var count = 0

  /// A trace read back, with its origin.
  typealias Spooled = (trace: Trace, origin: TraceOrigin)

  /// Traces per record: a second read holds one record's bytes while it decodes them.
  static let recordTraces = 1024

  /// The most bytes the file may hold: past it the spool stops (``failure`` says so).
  public let limit: Int

  /// An empty spool, for a first read to fill, of at most `limit` bytes.
  public init(limit: Int = .max) {
    self.limit = limit
  }

  /// Whether a second read can come from the spool: complete, and never failed.
  public var isReadable: Bool { isComplete && failure == nil }

  /// The bytes the file holds.
  public var size: Int { file?.size ?? 0 }

  /// Empties the spool for a read that starts over (a default grid that follows a new maximum
  /// force reads the input again from its start).
  func reset() {
    file = nil
    records = []
    failure = nil
    isComplete = false
    count = 0
  }

  /// Appends `traces`, read at `origins`, in records of ``recordTraces``.
  func append(_ traces: [Trace], origins: [TraceOrigin]) {
    guard failure == nil, !traces.isEmpty else { return }
    do {
      if file == nil { file = try LatencySpill() }
      var start = 0
      while start < traces.count {
        let end = Swift.min(traces.count, start + Self.recordTraces)
        // Each trace as a partial file stores it (TouchPartials' binary coding): origin,
        // metadata, then its sample columns at their exact bits.
        var writer = BinaryWriter()
        for k in start..<end {
          writer.origin(origins[k])
          writer.metadata(traces[k].metadata)
          writer.samples(traces[k])
        }
        guard writer.bytes.count <= limit - file!.size else {
          return stop("the spooled traces would pass the limit of \(limit) bytes (--spool-limit)")
        }
        records.append((try file!.append(bitsOf: writer.bytes), end - start))
        start = end
      }
      count += traces.count
    } catch {
      stop(error.description)
    }
  }

  /// Marks the spool complete: the read that wrote it ended.
  func complete() { isComplete = true }

  /// Gives up spooling (its file goes), saying why.
  private func stop(_ reason: String) {
    failure = reason
    file = nil
    records = []
  }

  /// Reads the spooled traces back in order (a read of its own: several may follow one another);
  /// `command` names the command in messages.
  ///
  /// - Precondition: the spool is readable (``isReadable``).
  public func reader(command: String) -> Reader {
    precondition(isReadable, "a spool is read once complete and whole")
    return Reader(spool: self, command: command)
  }

  /// The spooled traces in batches, in the order they were analyzed.
  public struct Reader {
    private let spool: AnalyzedSpool
    private let command: String
    private var record = 0
    /// The current record's traces not handed out yet.
    private var pending: [Spooled] = []
    private var next = 0

    fileprivate init(spool: AnalyzedSpool, command: String) {
      self.spool = spool
      self.command = command
    }

    /// The next at most `limit` traces (at least 1), with their origins; `nil` at the end.
    ///
    /// - Throws: ``StudyError`` when the file cannot be read.
    public mutating func next(upTo limit: Int) throws(StudyError) -> Dataset? {
      var batch = Dataset()
      while batch.traces.count < Swift.max(1, limit) {
        if next == pending.count {
          guard record < spool.records.count else { break }
          pending = try spool.decode(spool.records[record], command: command)
          next = 0
          record += 1
          continue
        }
        let (trace, origin) = pending[next]
        batch.traces.append(trace)
        batch.origins.append(origin)
        next += 1
      }
      if next == pending.count {
        pending = []
        next = 0
      }
      return batch.traces.isEmpty ? nil : batch
    }
  }

  /// The traces of one record.
  private func decode(_ record: (ref: LatencySpill.Ref, traces: Int), command: String) throws(StudyError) -> [Spooled] {
    guard let file else { preconditionFailure("a readable spool has its file") }
    let bytes: [UInt8]
    do {
      bytes = try file.read(record.ref, as: UInt8.self)
    } catch {
      throw StudyError(description: "touchtrace \(command): error: the spooled traces cannot be read again: \(error)")
    }
    var reader = BinaryReader(bytes)
    var out: [Spooled] = []
    out.reserveCapacity(record.traces)
    do throws(BinaryReader.Truncated) {
      for _ in 0..<record.traces {
        let origin = try reader.origin()
        out.append((try reader.samples(metadata: try reader.metadata()), origin))
      }
    } catch {
      throw StudyError(description: "touchtrace \(command): error: the spooled traces read back damaged")
    }
    return out
  }
}
