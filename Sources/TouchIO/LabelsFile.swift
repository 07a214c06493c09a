public import TouchCore

/// Trace-level labels kept beside the data: a CSV file with a `trace` column, optionally `touch`,
/// any of `intent,press_at,user,session,device`, and any other columns, which become extra labels
/// (`hand`, `posture`: `TraceMetadata.labels`).
///
/// Labels fill in values the data files leave empty. A label that contradicts a value in the
/// data is an error unless ``LoadOptions/labelsOverride`` is set (then it replaces the data's
/// value, counted in the dataset's `labelOverrides`); a label naming a trace no data file has is
/// an error. With ``LoadOptions/skipInvalid`` either error skips the trace (or the label) instead.
public struct LabelsFile: Sendable {
  /// One row of the labels file.
  public struct Entry: Hashable, Sendable {
    /// The trace id.
    public var trace: String
    /// The contact number; `nil` applies the row to every contact of the trace.
    public var touch: Int?
    /// The intent, when given.
    public var intent: Intent?
    /// The reference press times in seconds, when given.
    public var pressAt: [Double]?
    /// The user, session and device, when given.
    public var user: String?
    public var session: String?
    public var device: String?
    /// Extra labels by column name (`hand` → `left`).
    public var extra: [String: String] = [:]
    /// Where the row is.
    public var position: TextPosition
    /// Where each given field is, by column name.
    public var fieldPositions: [String: TextPosition]
  }

  /// The file, as the user named it.
  public var file: String
  /// The rows, in file order.
  public var entries: [Entry]
  /// Warnings (columns that cannot be labels, such as `t`).
  public var diagnostics: [Diagnostic]

  /// Reads a labels file.
  /// - Throws: ``TraceLoadError`` for a missing file, a missing `trace` column or a bad value.
  public static func read(_ path: String, options: LoadOptions = LoadOptions())
    throws(TraceLoadError) -> LabelsFile
  {
    var bytes = try TraceFiles.read(path, limit: options.maximumInputSize)
    return try parse(&bytes, file: path == TraceFiles.standardInput ? TraceFiles.standardInputName : path, options: options)
  }

  /// Parses the bytes of a labels file.
  public static func parse(_ bytes: inout [UInt8], file: String, options: LoadOptions = LoadOptions())
    throws(TraceLoadError) -> LabelsFile
  {
    let result: Result<LabelsFile, TraceLoadError> = bytes.withUnsafeMutableBufferPointer { buffer in
      do throws(TraceLoadError) {
        return .success(try parse(CSVTokenizer(buffer, file: file), file: file, options: options))
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// The columns a labels file may have, named by ``TraceSchema/Field/csvName``.
  private static let columns: [TraceSchema.Field] = [.id, .touch, .intent, .pressAt, .user, .session, .device]

  private static func parse(_ tokenizer: CSVTokenizer, file: String, options: LoadOptions)
    throws(TraceLoadError) -> LabelsFile
  {
    var tokenizer = tokenizer
    tokenizer.skipIgnorableLines()
    guard !tokenizer.atEnd else { throw TraceLoadError(.missingHeader, file: file) }
    tokenizer.delimiter = options.delimiter?.byte ?? tokenizer.detectDelimiter()
    var header = CSVRow(capacity: 8)
    defer { header.deallocate() }
    let headerLine = tokenizer.line
    try tokenizer.readRow(into: &header)
    /// The known columns in header order, with their field indices.
    var index: [(column: TraceSchema.Field, field: Int)] = []
    var extraColumns: [(name: String, field: Int)] = []
    var unknown: [String] = []
    for k in 0..<header.count {
      let name = tokenizer.string(k, in: header).lowercased()
      if let column = TraceSchema.Field(csvName: name), columns.contains(column) {
        guard !index.contains(where: { $0.column == column }) else {
          throw TraceLoadError(.duplicateColumn(name), file: file, position: tokenizer.position(of: k, in: header))
        }
        index.append((column, k))
      } else if TraceMetadata.isValidExtraLabelName(name) {
        guard !extraColumns.contains(where: { $0.name == name }) else {
          throw TraceLoadError(.duplicateColumn(name), file: file, position: tokenizer.position(of: k, in: header))
        }
        extraColumns.append((name, k))
      } else {
        unknown.append(Diagnostic.quoted(name))
      }
    }
    guard let traceField = index.first(where: { $0.column == .id })?.field else {
      throw TraceLoadError(
        .missingColumn(TraceSchema.Field.id.csvName), file: file, position: TextPosition(line: headerLine, column: 1))
    }
    var labels = LabelsFile(file: file, entries: [], diagnostics: [])
    if !unknown.isEmpty {
      labels.diagnostics.append(
        Diagnostic(
          .warning,
          "ignoring column\(unknown.count == 1 ? "" : "s") \(unknown.joined(separator: ", ")) (not a label name: a trace-file column, or not lowercase letters, digits, '_', '-', '.')",
          file: file, position: TextPosition(line: headerLine, column: 1)))
    }
    var row = CSVRow(capacity: header.count + 1)
    defer { row.deallocate() }
    while true {
      tokenizer.skipIgnorableLines()
      if tokenizer.atEnd { break }
      try tokenizer.readRow(into: &row)
      guard row.count == header.count else {
        throw TraceLoadError(
          .fieldCount(expected: header.count, found: row.count), file: file,
          position: tokenizer.positionAfter(row))
      }
      func fail(_ problem: TraceProblem, _ k: Int) -> TraceLoadError {
        TraceLoadError(.trace(problem), file: file, position: tokenizer.position(of: k, in: row))
      }
      guard row.length(traceField) > 0 else { throw fail(.emptyField(TraceSchema.Field.id.csvName), traceField) }
      var entry = Entry(
        trace: tokenizer.string(traceField, in: row), position: tokenizer.position(of: 0, in: row),
        fieldPositions: [:])
      for (column, k) in index where column != .id && row.length(k) > 0 {
        let text = tokenizer.string(k, in: row)
        entry.fieldPositions[column.csvName] = tokenizer.position(of: k, in: row)
        switch column {
        case .touch:
          guard let touch = Int(text), touch >= 0 else { throw fail(.invalidTouch(text), k) }
          entry.touch = touch
        case .intent:
          guard let intent = Intent(name: text) else { throw fail(.unknownIntent(text), k) }
          entry.intent = intent
        case .pressAt:
          switch TraceSchema.pressAtTimes(tokenizer.base + row.start(k), count: row.length(k)) {
          case .success(let times): entry.pressAt = times
          case .failure(let failure): throw fail(failure.problem, k)
          }
        case .user: entry.user = text
        case .session: entry.session = text
        default: entry.device = text
        }
      }
      for (name, k) in extraColumns where row.length(k) > 0 {
        entry.extra[name] = tokenizer.string(k, in: row)
        entry.fieldPositions[name] = tokenizer.position(of: k, in: row)
      }
      labels.entries.append(entry)
    }
    return labels
  }

  /// Applies the labels to a loaded dataset.
  ///
  /// - Throws: ``TraceLoadError`` for a contradiction or a label without a trace, unless
  ///   `options.skipInvalid` is set; then the trace (or the label) is accounted as skipped.
  public func apply(to dataset: inout Dataset, options: LoadOptions) throws(TraceLoadError) {
    dataset.diagnostics += diagnostics
    var byID: [String: [Int]] = [:]
    for (k, trace) in dataset.traces.enumerated() { byID[trace.metadata.id, default: []].append(k) }
    var failed: [Int: String] = [:]
    var overridden: Set<Int> = []
    defer { dataset.overriddenTraces += overridden.count }

    func report(_ error: TraceLoadError, trace k: Int?) throws(TraceLoadError) {
      guard options.skipInvalid else { throw error }
      if let k {
        if failed[k] == nil { failed[k] = error.message }
      } else {
        dataset.skipped.append(
          SkippedTrace(
            trace: error.trace, origin: TraceOrigin(file: file, position: error.position),
            reason: error.message))
      }
    }

    for entry in entries {
      let targets = (byID[entry.trace] ?? []).filter {
        entry.touch == nil || dataset.traces[$0].metadata.touch == entry.touch
      }
      let name = entry.touch.map { TraceMetadata(id: entry.trace, touch: $0).name } ?? entry.trace
      if targets.isEmpty {
        let skippedAlready = dataset.skipped.contains {
          guard let skippedName = $0.trace else { return false }
          return entry.touch == nil
            ? skippedName == entry.trace || skippedName.hasPrefix(entry.trace + "#") : skippedName == name
        }
        if !skippedAlready {
          try report(
            TraceLoadError(.labelForUnknownTrace(name), file: file, position: entry.position, trace: name),
            trace: nil)
        }
        continue
      }
      let values = LabelValues(
        intent: entry.intent, pressAt: entry.pressAt, user: entry.user, session: entry.session, device: entry.device,
        extra: entry.extra)
      for k in targets {
        var metadata = dataset.traces[k].metadata
        let traceName = metadata.name
        let replaced = try values.merge(into: &metadata, override: options.labelsOverride) {
          field, data, label throws(TraceLoadError) in
          try report(
            TraceLoadError(
              .labelConflict(field: field, data: data, labels: label), file: file,
              position: entry.fieldPositions[field], trace: traceName),
            trace: k)
        }
        if replaced > 0, failed[k] == nil {
          dataset.labelOverrides += replaced
          if !overridden.contains(k) { overridden.insert(k) }
        }
        let trace = dataset.traces[k]
        if let problem = Trace.checkPressAt(metadata.pressAt, start: trace.t[0], end: trace.t[trace.count - 1]) {
          try report(
            TraceLoadError(
              .trace(problem), file: file, position: entry.fieldPositions[TraceSchema.Field.pressAt.csvName] ?? entry.position,
              trace: metadata.name),
            trace: k)
        }
        if failed[k] == nil { dataset.traces[k].metadata = metadata }
      }
    }
    guard !failed.isEmpty else { return }
    var k = -1
    dataset.skipTraces { _ in
      k += 1
      return failed[k]
    }
  }
}
