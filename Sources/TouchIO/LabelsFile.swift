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
    return try parse(
      &bytes, file: path == TraceFiles.standardInput ? TraceFiles.standardInputName : path, options: options)
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
    var application = Application(self, options: options)
    try application.apply(to: &dataset)
    try application.finish(into: &dataset)
  }

  /// Labels applied part by part (the batches of a stream): each part's traces get their labels
  /// (traces in order, each trace's labels rows in file order); at the end, ``finish(into:)``
  /// adds the file's warnings and reports the rows that named no trace of any part.
  struct Application {
    let labels: LabelsFile
    let options: LoadOptions
    /// The rows of each trace id, in file order.
    private var entriesByID: [String: [Int]] = [:]
    /// Whether each row labelled a trace.
    private var matched: [Bool]
    /// Names of skipped traces, and every prefix of such a name that ends before a `#` (a row
    /// without a contact number names all contacts `id#n`).
    private var skippedNames: Set<String> = []
    private var skippedPrefixes: Set<String> = []

    init(_ labels: LabelsFile, options: LoadOptions) {
      self.labels = labels
      self.options = options
      matched = [Bool](repeating: false, count: labels.entries.count)
      for (e, entry) in labels.entries.enumerated() { entriesByID[entry.trace, default: []].append(e) }
    }

    private mutating func note(_ skipped: some Sequence<SkippedTrace>) {
      for skip in skipped {
        guard let name = skip.trace else { continue }
        skippedNames.insert(name)
        var index = name.startIndex
        while let hash = name[index...].firstIndex(of: "#") {
          skippedPrefixes.insert(String(name[..<hash]))
          index = name.index(after: hash)
        }
      }
    }

    /// Applies the labels to the traces of `part`; traces whose labels fail are skipped
    /// (`skipInvalid`) or the first failure is thrown.
    mutating func apply(to part: inout Dataset) throws(TraceLoadError) {
      note(part.skipped)
      let file = labels.file
      let options = self.options
      var failed: [Int: String] = [:]
      var overridden = 0
      func report(_ error: TraceLoadError, trace k: Int) throws(TraceLoadError) {
        guard options.skipInvalid else { throw error }
        if failed[k] == nil { failed[k] = error.message }
      }
      for k in part.traces.indices {
        guard let rows = entriesByID[part.traces[k].metadata.id] else { continue }
        var wasOverridden = false
        for e in rows {
          let entry = labels.entries[e]
          guard entry.touch == nil || part.traces[k].metadata.touch == entry.touch else { continue }
          matched[e] = true
          let values = LabelValues(
            intent: entry.intent, pressAt: entry.pressAt, user: entry.user, session: entry.session,
            device: entry.device, extra: entry.extra)
          var metadata = part.traces[k].metadata
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
            part.labelOverrides += replaced
            wasOverridden = true
          }
          let trace = part.traces[k]
          if let problem = Trace.checkPressAt(metadata.pressAt, start: trace.t[0], end: trace.t[trace.count - 1]) {
            try report(
              TraceLoadError(
                .trace(problem), file: file,
                position: entry.fieldPositions[TraceSchema.Field.pressAt.csvName] ?? entry.position,
                trace: metadata.name),
              trace: k)
          }
          if failed[k] == nil { part.traces[k].metadata = metadata }
        }
        if wasOverridden { overridden += 1 }
      }
      part.overriddenTraces += overridden
      part.skipTraces(at: failed)
    }

    /// Adds the labels file's warnings to `dataset` and reports, in file order, each row that
    /// named no trace (unless the trace was skipped): thrown, or with `skipInvalid` a skip.
    mutating func finish(into dataset: inout Dataset) throws(TraceLoadError) {
      dataset.diagnostics += labels.diagnostics
      for (e, entry) in labels.entries.enumerated() where !matched[e] {
        let name = entry.touch.map { TraceMetadata(id: entry.trace, touch: $0).name } ?? entry.trace
        let skippedAlready =
          entry.touch == nil
          ? skippedNames.contains(entry.trace) || skippedPrefixes.contains(entry.trace)
          : skippedNames.contains(name)
        guard !skippedAlready else { continue }
        let error = TraceLoadError(
          .labelForUnknownTrace(name), file: labels.file, position: entry.position, trace: name)
        guard options.skipInvalid else { throw error }
        let skip = SkippedTrace(
          trace: error.trace, origin: TraceOrigin(file: labels.file, position: error.position), reason: error.message)
        dataset.skipped.append(skip)
        note([skip])
      }
    }
  }
}
