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
/// positions, radii, at their exact bits), 1 for its phase, and about 200 bytes a trace for its
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
  /// The origins' files, each once (records refer to them by position).
  private var files: [String] = []
  private var fileIndex: [String: Int] = [:]
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
    files = []
    fileIndex = [:]
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
        var encoder = Encoder()
        for k in start..<end { encode(traces[k], origin: origins[k], into: &encoder) }
        guard encoder.bytes.count <= limit - file!.size else {
          return stop("the spooled traces would pass the limit of \(limit) bytes (--spool-limit)")
        }
        records.append((try file!.append(bitsOf: encoder.bytes), end - start))
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

  private func encode(_ trace: Trace, origin: TraceOrigin, into e: inout Encoder) {
    let fileNumber: Int
    if let known = fileIndex[origin.file] {
      fileNumber = known
    } else {
      fileNumber = files.count
      fileIndex[origin.file] = fileNumber
      files.append(origin.file)
    }
    e.int(fileNumber)
    e.flag(origin.position != nil)
    if let position = origin.position {
      e.int(position.line)
      e.int(position.column)
    }
    e.flag(origin.record != nil)
    if let record = origin.record { e.int(record) }
    let m = trace.metadata
    e.string(m.id)
    e.int(m.touch)
    e.optionalString(m.intent?.rawValue)
    e.doubles(m.pressAt)
    e.optionalString(m.user)
    e.optionalString(m.session)
    e.optionalString(m.device)
    e.flag(m.maxForce != nil)
    if let maxForce = m.maxForce { e.double(maxForce) }
    e.flag(m.timeSynthesized)
    let labels = m.labels.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    e.int(labels.count)
    for (name, value) in labels {
      e.string(name)
      e.string(value)
    }
    e.doubles(trace.t)
    e.doubles(trace.force)
    for phase in trace.phase { e.bytes.append(phase.rawValue) }
    for column in [trace.x, trace.y, trace.radius] {
      e.flag(column != nil)
      if let column { e.doubles(column) }
    }
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
    var d = Decoder(bytes: bytes)
    var out: [Spooled] = []
    out.reserveCapacity(record.traces)
    for _ in 0..<record.traces {
      let file = files[d.int()]
      let position = d.flag() ? TextPosition(line: d.int(), column: d.int()) : nil
      let origin = TraceOrigin(file: file, position: position, record: d.flag() ? d.int() : nil)
      let id = d.string()
      let touch = d.int()
      let intent = d.optionalString().flatMap(Intent.init(rawValue:))
      let pressAt = d.doubles()
      let user = d.optionalString()
      let session = d.optionalString()
      let device = d.optionalString()
      let maxForce = d.flag() ? d.double() : nil
      let synthesized = d.flag()
      var labels: [String: String] = [:]
      for _ in 0..<d.int() {
        let name = d.string()
        labels[name] = d.string()
      }
      let t = d.doubles()
      let force = d.doubles()
      let phase = d.phases(t.count)
      let x = d.flag() ? d.doubles() : nil
      let y = d.flag() ? d.doubles() : nil
      let radius = d.flag() ? d.doubles() : nil
      let metadata = TraceMetadata(
        id: id, touch: touch, intent: intent, pressAt: pressAt, user: user, session: session, device: device,
        maxForce: maxForce, timeSynthesized: synthesized, labels: labels)
      out.append((Trace(metadata: metadata, t: t, force: force, phase: phase, x: x, y: y, radius: radius), origin))
    }
    return out
  }
}

/// The spool's encoding: integers and doubles at their native bytes (the file never leaves the
/// process that wrote it), strings as a length and UTF-8, optional values behind a presence byte.
private struct Encoder {
  var bytes: [UInt8] = []

  mutating func int(_ value: Int) { withUnsafeBytes(of: Int64(value)) { bytes.append(contentsOf: $0) } }
  mutating func double(_ value: Double) { withUnsafeBytes(of: value) { bytes.append(contentsOf: $0) } }
  mutating func flag(_ value: Bool) { bytes.append(value ? 1 : 0) }

  mutating func string(_ text: String) {
    int(text.utf8.count)
    bytes.append(contentsOf: text.utf8)
  }

  mutating func optionalString(_ text: String?) {
    flag(text != nil)
    if let text { string(text) }
  }

  mutating func doubles(_ values: [Double]) {
    int(values.count)
    values.withUnsafeBytes { bytes.append(contentsOf: $0) }
  }
}

/// Reads ``Encoder``'s bytes back.
private struct Decoder {
  let bytes: [UInt8]
  var at = 0

  mutating func int() -> Int {
    defer { at += 8 }
    return Int(bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: Int64.self) })
  }

  mutating func double() -> Double {
    defer { at += 8 }
    return bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: Double.self) }
  }

  mutating func flag() -> Bool {
    defer { at += 1 }
    return bytes[at] != 0
  }

  mutating func string() -> String {
    let n = int()
    defer { at += n }
    return String(decoding: bytes[at..<(at + n)], as: UTF8.self)
  }

  mutating func optionalString() -> String? { flag() ? string() : nil }

  mutating func doubles() -> [Double] {
    let n = int()
    let values = [Double](unsafeUninitializedCapacity: n) { buffer, initialized in
      bytes.withUnsafeBytes { source in
        UnsafeMutableRawBufferPointer(buffer).copyMemory(
          from: UnsafeRawBufferPointer(rebasing: source[at..<(at + n * 8)]))
      }
      initialized = n
    }
    at += n * 8
    return values
  }

  mutating func phases(_ n: Int) -> [TouchPhase] {
    defer { at += n }
    return bytes[at..<(at + n)].map { TouchPhase(rawValue: $0)! }
  }
}
