public import TouchCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads traces batch by batch, in bounded memory: what `TraceLoader.load` returns, in pieces.
///
/// ```swift
/// let stream = try TraceStream(["big.csv"], options: LoadOptions(skipInvalid: true))
/// while let batch = try stream.next() {
///   print(batch.traces.count, batch.skipped.count)
/// }
/// ```
///
/// Appending every batch with `Dataset.append(contentsOf:)` gives exactly the dataset
/// ``TraceLoader/load(_:options:)`` gives (it is such a loop): the same traces in the same order,
/// origins, skips, diagnostics, files and label override counts, whatever `batchTraces` and
/// `chunkBytes` are.
///
/// CSV, JSON Lines and JSON document files (and standard input in those formats) are read with
/// `read(2)` in chunks of `chunkBytes`; memory holds one chunk, the traces of the current batch,
/// and a 16-byte digest per trace key seen (to find duplicates and rows that come back). A row (a
/// JSON Lines record, a trace object of a document) cut by the end of a chunk is carried to the
/// next one; one longer than the chunk grows it. Line numbers count from the start of the file.
/// A JSON document whose `traces` come before its `format` and `version`, or with no `traces`
/// array, is read whole.
///
/// In CSV each trace id's rows must be one block: the rows of its contacts (`touch` column) may
/// interleave inside the block, but an id whose rows come back after another id's rows is an
/// error naming the row, the lines of the first block and the remedy (sorting the file by trace
/// with `sort -s`, or `LoadOptions.wholeFiles`), or with `skipInvalid` a skipped trace. With
/// ``LoadOptions/wholeFiles`` each CSV file is read whole (memory grows with the largest file)
/// and its rows may come in any order.
///
/// Labels from paths (``LoadOptions/labelFromPath``) and from a labels file
/// (``LoadOptions/labels``, read when the stream is created) apply to each batch; the warnings
/// they give and the labels that named no trace come with the last batch. In strict mode the
/// first problem in input order is thrown.
public final class TraceStream {
  private let files: [String]
  private let options: LoadOptions
  /// About how many input traces (analyzed plus skipped) the next batch holds (at least 1);
  /// may change between batches (a reader that starts with small batches and grows them).
  public var batchTraces: Int {
    didSet { batchTraces = max(1, batchTraces) }
  }
  private let chunkBytes: Int
  private var nextFile = 0
  private var source: Source?
  private var seen = DuplicateCheck()
  private let pathLabels: PathLabels.Plan?
  private var labels: LabelsFile.Application?
  private var ended = false
  /// Units read but not yet in a batch (a JSON document's records, a chunk's blocks).
  private var queue: [Dataset] = []
  private var queued = 0

  /// Whether the inputs' bytes are hashed as they are read (``digests``).
  private let hashing: Bool

  /// The SHA-256 of every input read to its end so far, in input order (the labels file first,
  /// when there is one): computed from the bytes as they were read, standard input included,
  /// so that a result can name the contents it came from, not only the files' names. Empty
  /// unless the stream was opened with `digests: true`.
  public private(set) var digests: [(file: String, sha256: SHA256.Digest)] = []

  /// Opens a stream over `paths`.
  ///
  /// - Parameters:
  ///   - paths: files, directories and `-` (standard input), as `TraceLoader.load` takes them
  ///     (see ``TraceFiles/expand(_:extensions:)``).
  ///   - options: how to read; ``LoadOptions/wholeFiles`` reads each CSV file whole.
  ///   - batchTraces: about how many input traces (analyzed plus skipped) a batch holds; a
  ///     batch ends after the block of rows (CSV) or the trace object (JSON, JSON Lines) that
  ///     reaches it. At least 1.
  ///   - chunkBytes: bytes read at a time (at least 16).
  ///   - digests: whether to hash every input's bytes as they are read (``digests``); off, the
  ///     reading does no hashing work.
  /// - Throws: ``TraceLoadError`` for paths that cannot be expanded and for a labels file that
  ///   cannot be read.
  public init(
    _ paths: [String], options: LoadOptions = LoadOptions(), batchTraces: Int = 2048,
    chunkBytes: Int = 4 << 20, digests: Bool = false
  ) throws(TraceLoadError) {
    self.hashing = digests
    self.files = try TraceFiles.expand(paths)
    self.options = options
    self.batchTraces = max(1, batchTraces)
    self.chunkBytes = max(16, chunkBytes)
    let names = files.map { $0 == TraceFiles.standardInput ? TraceFiles.standardInputName : $0 }
    pathLabels = options.labelFromPath.isEmpty ? nil : PathLabels.Plan(options.labelFromPath, files: names)
    if let path = options.labels {
      var bytes = try TraceFiles.read(path, limit: options.maximumInputSize)
      let name = path == TraceFiles.standardInput ? TraceFiles.standardInputName : path
      if hashing { self.digests.append((name, SHA256.hash(bytes))) }
      labels = LabelsFile.Application(try LabelsFile.parse(&bytes, file: name, options: options), options: options)
    }
  }

  /// The next batch: up to about `batchTraces` input traces (analyzed plus skipped) in input
  /// order, with the names of the files that start in it and their warnings; `nil` at the end.
  ///
  /// - Throws: what `TraceLoader.load` throws, at the same place; the stream then ends.
  public func next() throws(TraceLoadError) -> Dataset? {
    guard !ended else { return nil }
    var batch = Dataset()
    do throws(TraceLoadError) {
      while batch.total < batchTraces {
        if queued < queue.count {
          try take(&queue[queued], into: &batch)
          queued += 1
          continue
        }
        if source == nil {
          guard nextFile < files.count else {
            try finish(&batch)
            ended = true
            break
          }
          let file = files[nextFile]
          nextFile += 1
          source = try Source.open(file, options: options, chunkBytes: chunkBytes, hashing: hashing)
          batch.files.append(source!.name)
        }
        let (units, diagnostics, done) = try source!.step()
        batch.diagnostics += diagnostics
        queue = units
        queued = 0
        if done {
          if let digest = source!.digest() { digests.append((source!.name, digest)) }
          source = nil
        }
      }
    } catch {
      ended = true
      source = nil
      throw error
    }
    let empty =
      batch.total == 0 && batch.files.isEmpty && batch.diagnostics.isEmpty && batch.labelOverrides == 0
    return empty ? nil : batch
  }

  /// Checks a unit (the traces of one block of rows, record or document) for duplicates and
  /// applies the labels, then adds it to the batch.
  private func take(_ unit: inout Dataset, into batch: inout Dataset) throws(TraceLoadError) {
    try TraceLoader.rejectDuplicates(in: &unit, seen: &seen, options: options)
    if let pathLabels {
      try pathLabels.apply(to: &unit, override: options.labelsOverride, skipInvalid: options.skipInvalid)
    }
    try labels?.apply(to: &unit)
    batch.append(contentsOf: unit)  // a unit names no files: the batch does, as they start
  }

  /// The end of the input: the path-label warning, the labels file's warnings and the labels
  /// that named no trace.
  private func finish(_ batch: inout Dataset) throws(TraceLoadError) {
    if let warning = pathLabels?.warning { batch.diagnostics.append(warning) }
    try labels?.finish(into: &batch)
  }
}

/// One input being read.
private final class Source {
  /// The name messages and origins use (`<stdin>` for `-`).
  let name: String
  private var kind: Kind
  /// The hash of the bytes read (a whole input's, for a file read at once); `nil` when not
  /// hashing.
  private var hash: SHA256?

  /// The SHA-256 of the input's bytes (once it is read to its end); `nil` when not hashing.
  func digest() -> SHA256.Digest? {
    switch kind {
    case .chunked(let reader): reader.hash?.finalize()
    case .whole: hash?.finalize()
    }
  }

  private enum Kind {
    /// A CSV or JSON Lines input read in chunks.
    case chunked(ChunkReader)
    /// A whole file's units, handed out at once.
    case whole([Dataset], [Diagnostic])
  }

  private init(name: String, kind: Kind, hash: SHA256?) {
    self.name = name
    self.kind = kind
    self.hash = hash
  }

  /// Opens `path`: CSV (unless whole files are read), JSON Lines and JSON documents in chunks;
  /// standard input's format is sniffed from its first bytes.
  static func open(_ path: String, options: LoadOptions, chunkBytes: Int, hashing: Bool) throws(TraceLoadError)
    -> Source
  {
    let start: SHA256? = hashing ? SHA256() : nil
    let limit = options.maximumInputSize
    if path == TraceFiles.standardInput {
      let name = TraceFiles.standardInputName
      let input = try FileSystem.openInput(path, limit: limit)
      let reader = ChunkReader(
        input: input, path: path, name: name, options: options, chunkBytes: chunkBytes, hash: start)
      let format = try reader.sniff()
      switch format {
      case .csv where !options.wholeFiles, .jsonl, .json:
        reader.format = format
        return Source(name: name, kind: .chunked(reader), hash: nil)
      case .csv:
        var bytes = try reader.readRest()
        let (part, diagnostics) = detached(try TraceLoader.parse(&bytes, file: name, format: format, options: options))
        return Source(name: name, kind: .whole([part], diagnostics), hash: reader.hash)
      }
    }
    let format = TraceFiles.Format(path: path)
    switch format {
    case .csv where options.wholeFiles:
      var hash = start
      let read = try FileSystem.withMutableBytes(of: path, limit: limit) { buffer throws(TraceLoadError) in
        // Hashed before parsing, which may write into the buffer.
        hash?.update(UnsafeRawBufferPointer(buffer))
        return try CSVTraceReader(file: path, options: options).read(buffer)
      }
      let (part, diagnostics) = detached(read)
      return Source(name: path, kind: .whole([part], diagnostics), hash: hash)
    case .csv, .jsonl, .json:
      let input = try FileSystem.openInput(path, limit: limit)
      let reader = ChunkReader(
        input: input, path: path, name: path, options: options, chunkBytes: chunkBytes, hash: start)
      reader.format = format
      return Source(name: path, kind: .chunked(reader), hash: nil)
    }
  }

  /// Reads on: the units completed, warnings met, and whether the input is done.
  func step() throws(TraceLoadError) -> (units: [Dataset], diagnostics: [Diagnostic], done: Bool) {
    switch kind {
    case .whole(let units, let diagnostics):
      kind = .whole([], [])
      return (units, diagnostics, true)
    case .chunked(let reader):
      return try reader.step()
    }
  }
}

/// A whole input's dataset without its files and warnings, and the warnings: the stream names a
/// file when it opens it and hands the warnings on beside the units.
private func detached(_ part: Dataset) -> (part: Dataset, diagnostics: [Diagnostic]) {
  var part = part
  let diagnostics = part.diagnostics
  part.diagnostics = []
  part.files = []
  return (part, diagnostics)
}

/// Splitting a JSON or JSON Lines dataset into one unit per record, in record order.
enum JSONUnits {
  /// One dataset per record (traces and skips of the same record together), in record order;
  /// skips without a record (none today) go with the record before them.
  static func split(_ part: Dataset) -> [Dataset] {
    var units: [Dataset] = []
    var unitRecord: Int?
    var t = 0
    var s = 0
    while t < part.traces.count || s < part.skipped.count {
      let traceRecord = t < part.traces.count ? part.origins[t].record ?? -1 : Int.max
      let skipRecord = s < part.skipped.count ? part.skipped[s].origin.record ?? unitRecord ?? -1 : Int.max
      let record = min(traceRecord, skipRecord)
      if units.isEmpty || unitRecord != record {
        units.append(Dataset())
        unitRecord = record
      }
      if traceRecord <= skipRecord {
        units[units.count - 1].traces.append(part.traces[t])
        units[units.count - 1].origins.append(part.origins[t])
        t += 1
      } else {
        units[units.count - 1].skipped.append(part.skipped[s])
        s += 1
      }
    }
    return units
  }
}

/// Reads one CSV, JSON Lines or JSON document input in chunks.
private final class ChunkReader {
  private let input: FileSystem.Input
  private let path: String
  let name: String
  private let options: LoadOptions
  private let chunkBytes: Int
  var format: TraceFiles.Format = .csv
  /// The hash of every byte read so far; `nil` when not hashing.
  var hash: SHA256?
  private var buffer: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  private var filled = 0
  private var total = 0
  private var endOfInput = false
  private var atFileStart = true
  private var csv: CSVTraceReader.Parser
  private var jsonLines: JSONTraceReader.LineState
  private var jsonDocument = JSONTraceReader.DocumentState()
  private var done = false

  init(input: FileSystem.Input, path: String, name: String, options: LoadOptions, chunkBytes: Int, hash: SHA256?) {
    self.hash = hash
    self.input = input
    self.path = path
    self.name = name
    self.options = options
    self.chunkBytes = chunkBytes
    capacity = chunkBytes
    buffer = .allocate(capacity: capacity)
    csv = CSVTraceReader.Parser(file: name, options: options)
    jsonLines = JSONTraceReader.LineState()
  }

  deinit {
    csv.release()
    buffer.deallocate()
    input.finish()
  }

  /// Reads up to one chunk more into the buffer (growing it when full); sets `endOfInput`.
  private func fill() throws(TraceLoadError) {
    if endOfInput { return }
    if filled == capacity { UnsafeMutablePointer.double(&buffer, capacity: &capacity, keeping: filled) }
    let wanted = min(chunkBytes, capacity - filled)
    while true {
      let n = read(input.fd, buffer + filled, wanted)
      if n < 0 {
        if errno == EINTR { continue }
        throw FileSystem.accessError(path, errno)
      }
      if n == 0 { endOfInput = true }
      guard n <= options.maximumInputSize - total else {
        throw FileSystem.tooLarge(path, limit: options.maximumInputSize)
      }
      hash?.update(UnsafeRawBufferPointer(start: buffer + filled, count: n))
      total += n
      filled += n
      return
    }
  }

  /// Reads until the first byte that is not white space (or the end), and gives the format
  /// those bytes imply (standard input).
  func sniff() throws(TraceLoadError) -> TraceFiles.Format {
    func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
    while !endOfInput {
      var k = filled >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF ? 3 : 0
      while k < filled, isSpace(buffer[k]) { k += 1 }
      if k < filled, buffer[k] != UInt8(ascii: "{") { break }
      // After `{` (and white space) the next 8 bytes tell `"format"` from another key.
      k += 1
      while k < filled, isSpace(buffer[k]) { k += 1 }
      if k + 8 <= filled { break }
      try fill()
    }
    return TraceFiles.Format(sniffing: Array(UnsafeBufferPointer(start: buffer, count: filled)))
  }

  /// Reads the whole rest of the input after what is buffered.
  func readRest() throws(TraceLoadError) -> [UInt8] {
    while !endOfInput { try fill() }
    return Array(UnsafeBufferPointer(start: buffer, count: filled))
  }

  /// Reads a JSON document whole (the buffer holds its first bytes): one that the chunked reader
  /// leaves to a whole read.
  private func readDocumentWhole() throws(TraceLoadError) -> (units: [Dataset], diagnostics: [Diagnostic], done: Bool) {
    var bytes = try readRest()
    let (part, diagnostics) = detached(try TraceLoader.parse(&bytes, file: name, format: .json, options: options))
    done = true
    return (JSONUnits.split(part), diagnostics, true)
  }

  /// Where the complete lines in the buffer end: after the last LF, or the last CR known not
  /// to start a CRLF; everything at the end of the input.
  private func cut() -> Int {
    if endOfInput { return filled }
    var k = filled - 1
    while k >= 0 {
      let c = buffer[k]
      if c == 0x0A || (c == 0x0D && k + 1 < filled) { return k + 1 }
      k -= 1
    }
    return 0
  }

  /// Reads one chunk and parses the complete lines the buffer then holds.
  func step() throws(TraceLoadError) -> (units: [Dataset], diagnostics: [Diagnostic], done: Bool) {
    guard !done else { return ([], [], true) }
    try fill()
    let end = format == .json ? filled : cut()
    guard end > 0 || endOfInput else { return ([], [], false) }
    let region = UnsafeMutableBufferPointer(start: buffer, count: end)
    var units: [Dataset]
    var diagnostics: [Diagnostic]
    let consumed: Int
    if format == .json {
      let reader = JSONTraceReader(file: name, options: options)
      guard
        let (part, used) = try reader.readDocument(
          UnsafeBufferPointer(region), state: &jsonDocument, atFileStart: atFileStart, final: endOfInput)
      else { return try readDocumentWhole() }
      consumed = used
      units = JSONUnits.split(part)
      diagnostics = endOfInput ? jsonDocument.diagnostics(file: name) : []
    } else if format == .csv {
      consumed = try csv.feed(region, final: endOfInput, atFileStart: atFileStart)
      units = csv.units
      csv.units = []
      diagnostics = csv.diagnostics
      csv.diagnostics = []
    } else {
      let part = try JSONTraceReader(file: name, options: options).readLines(
        UnsafeBufferPointer(region), state: &jsonLines, atFileStart: atFileStart, final: endOfInput)
      consumed = end
      units = JSONUnits.split(part)
      diagnostics = endOfInput ? jsonLines.diagnostics(file: name) : []
    }
    if consumed > 0 { atFileStart = false }
    if consumed > 0, consumed < filled { memmove(buffer, buffer + consumed, filled - consumed) }
    filled -= consumed
    if endOfInput { done = true }
    return (units, diagnostics, done)
  }
}
