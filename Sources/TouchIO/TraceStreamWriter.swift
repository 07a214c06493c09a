public import TouchCore

/// Where streamed bytes go: a ``StreamedOutput`` file, or a buffer the caller writes at the end
/// (standard output).
public protocol ByteSink: AnyObject {
  /// Appends `bytes`.
  ///
  /// - Parameter bytes: the next bytes of the output.
  /// - Throws: ``FileWriteError`` when they cannot be written.
  func append(_ bytes: [UInt8]) throws(FileWriteError)
}

extension StreamedOutput: ByteSink {}

/// Bytes kept in memory until the caller writes them (for standard output, which is written in
/// one piece so that a failed command writes nothing).
public final class MemorySink: ByteSink {
  /// The bytes appended so far.
  public private(set) var bytes: [UInt8] = []

  /// An empty buffer.
  public init() {}

  /// Appends `bytes` to ``bytes``.
  ///
  /// - Parameter bytes: the next bytes of the output.
  public func append(_ bytes: [UInt8]) { self.bytes += bytes }
}

/// Writes a trace file batch by batch, with the same bytes ``TraceWriter/encode(_:as:)`` gives
/// for all the traces at once, however they are split into batches.
///
/// JSON documents and JSON Lines go to the sink as each batch is written: the document's head
/// with the first batch, one line per trace, the closing `]}` at ``finish()``. A CSV file's
/// header names the optional columns and extra labels that any trace uses, so it is known only
/// after the last trace: CSV traces wait in a temporary binary spool file (hidden beside the
/// path given at creation, removed at the end, on ``discard()`` and on `SIGINT`/`SIGTERM`)
/// and are written as rows at ``finish()``. Memory holds one batch either way.
public final class TraceStreamWriter {
  /// The trace file format.
  public let format: TraceFiles.Format
  private let sink: any ByteSink
  private let delimiter: LoadOptions.Delimiter
  private var spool: TraceSpool?
  private var layout = CSVLayout()
  /// The traces written so far.
  public private(set) var count = 0
  private var finished = false

  /// A writer of `format` to `sink`.
  ///
  /// - Parameters:
  ///   - format: the trace file format.
  ///   - sink: where the bytes go.
  ///   - spoolBeside: for CSV, a path in the directory that holds the spool file (the output
  ///     file, or a name in a temporary directory for standard output); unused otherwise.
  ///   - delimiter: the CSV field delimiter (`,` by default).
  /// - Throws: ``FileWriteError`` (`.cannotCreate`) when the CSV spool cannot be created.
  public init(
    format: TraceFiles.Format, sink: any ByteSink, spoolBeside: String, delimiter: LoadOptions.Delimiter = .comma
  ) throws(FileWriteError) {
    self.format = format
    self.sink = sink
    self.delimiter = delimiter
    if format == .csv { spool = try TraceSpool(beside: spoolBeside) }
  }

  deinit { spool?.discard() }

  /// Writes `traces` after those written before.
  ///
  /// - Parameter traces: the next traces, in order.
  /// - Throws: ``FileWriteError`` when the sink or the spool cannot be written.
  public func write(_ traces: [Trace]) throws(FileWriteError) {
    precondition(!finished, "the trace stream is finished")
    var out: [UInt8] = []
    switch format {
    case .csv:
      for trace in traces {
        layout.include(trace)
        try spool!.append(trace)
      }
    case .json:
      if count == 0 { out += JSONTraceWriter.documentHead }
      for (k, trace) in traces.enumerated() {
        if count + k > 0 { out.append(UInt8(ascii: ",")) }
        out.append(0x0A)
        JSONTraceWriter.append(trace, to: &out)
      }
    case .jsonl:
      for trace in traces {
        JSONTraceWriter.append(trace, to: &out)
        out.append(0x0A)
      }
    }
    count += traces.count
    if !out.isEmpty { try sink.append(out) }
  }

  /// Writes the end of the file (for CSV: the header and every row); the sink then holds the
  /// whole file.
  ///
  /// - Throws: ``FileWriteError`` when the sink or the spool fails.
  public func finish() throws(FileWriteError) {
    precondition(!finished, "the trace stream is finished")
    finished = true
    switch format {
    case .csv:
      defer { spool?.discard() }
      let separator = delimiter.byte
      var out: [UInt8] = []
      layout.appendHeader(separator: separator, to: &out)
      let columns = layout.columns
      let labelNames = layout.labelNames
      try spool!.forEach { trace throws(FileWriteError) in
        layout.appendRows(of: trace, columns: columns, labelNames: labelNames, separator: separator, to: &out)
        if out.count >= 1 << 16 {
          try sink.append(out)
          out.removeAll(keepingCapacity: true)
        }
      }
      try sink.append(out)
    case .json:
      var out: [UInt8] = count == 0 ? JSONTraceWriter.documentHead : []
      if count > 0 { out.append(0x0A) }
      out += Array("]}\n".utf8)
      try sink.append(out)
    case .jsonl:
      break
    }
  }

  /// Removes the CSV spool without writing the rest.
  public func discard() {
    finished = true
    spool?.discard()
  }
}
