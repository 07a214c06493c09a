public import TouchCore

/// Writes traces in the CSV, JSON and JSON Lines formats.
///
/// Numbers are written in the shortest form that reads back to the same `Double`, so reading
/// what was written gives back identical values.
public enum TraceWriter {
  /// Encodes traces in `format`.
  public static func encode(_ traces: [Trace], as format: TraceFiles.Format) -> [UInt8] {
    switch format {
    case .csv: csv(traces)
    case .json: JSONTraceWriter.document(traces)
    case .jsonl: JSONTraceWriter.lines(traces)
    }
  }

  /// The CSV format: a header row, then one row per sample, traces one after the other.
  ///
  /// Columns (named by ``TraceSchema/Field/csvName``) are `trace`, `t`, `force`, `phase`, then
  /// only those the traces use: `touch`, `max_force`, `x`, `y`, `radius`, `intent`, `press_at`,
  /// `user`, `session`, `device`, `time_synthesized`, then one `label:NAME` column per extra label
  /// (`TraceMetadata.labels`, names in order), empty for traces without it. Trace-level values
  /// repeat on every row of their trace.
  ///
  /// - Parameters:
  ///   - traces: the traces to write, in order.
  ///   - delimiter: the field delimiter (`,` by default).
  public static func csv(_ traces: [Trace], delimiter: LoadOptions.Delimiter = .comma) -> [UInt8] {
    var layout = CSVLayout()
    for trace in traces { layout.include(trace) }
    var out: [UInt8] = []
    out.reserveCapacity(traces.reduce(64) { $0 + $1.count * 48 })
    layout.appendHeader(separator: delimiter.byte, to: &out)
    for trace in traces { layout.appendRows(of: trace, separator: delimiter.byte, to: &out) }
    return out
  }

  /// A CSV field, quoted when it holds the delimiter, a quote, a line break or edge spaces, or
  /// (in the first column) starts with `#`, which would make the row a comment.
  static func field(_ text: String, separator: UInt8, first: Bool = false) -> [UInt8] {
    let bytes = Array(text.utf8)
    let needsQuotes =
      bytes.contains { $0 == separator || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
      || bytes.first == 0x20 || bytes.last == 0x20 || (first && bytes.first == UInt8(ascii: "#"))
      || bytes.isEmpty
    guard needsQuotes else { return bytes }
    var quoted: [UInt8] = [UInt8(ascii: "\"")]
    for byte in bytes {
      if byte == UInt8(ascii: "\"") { quoted.append(byte) }
      quoted.append(byte)
    }
    quoted.append(UInt8(ascii: "\""))
    return quoted
  }
}

/// The columns of a CSV trace file, which depend on every trace written (see
/// ``TraceWriter/csv(_:delimiter:)``): gathered trace by trace with ``include(_:)``, then used
/// to write the header and each trace's rows.
struct CSVLayout {
  private var used: Set<TraceSchema.Field> = []
  private var labels: Set<String> = []

  /// Notes the optional columns and extra labels `trace` uses.
  mutating func include(_ trace: Trace) {
    let m = trace.metadata
    if m.touch != 0 { used.insert(.touch) }
    if m.maxForce != nil { used.insert(.maxForce) }
    if trace.x != nil { used.insert(.x) }
    if trace.y != nil { used.insert(.y) }
    if trace.radius != nil { used.insert(.radius) }
    if m.intent != nil { used.insert(.intent) }
    if !m.pressAt.isEmpty { used.insert(.pressAt) }
    if m.user != nil { used.insert(.user) }
    if m.session != nil { used.insert(.session) }
    if m.device != nil { used.insert(.device) }
    if m.timeSynthesized { used.insert(.timeSynthesized) }
    for name in m.labels.keys { labels.insert(name) }
  }

  /// The columns in file order.
  var columns: [TraceSchema.Field] {
    var columns: [TraceSchema.Field] = [.id]
    if used.contains(.touch) { columns.append(.touch) }
    columns += [.t, .force, .phase]
    let optional: [TraceSchema.Field] = [
      .maxForce, .x, .y, .radius, .intent, .pressAt, .user, .session, .device, .timeSynthesized,
    ]
    columns += optional.filter(used.contains)
    return columns
  }

  /// The extra label names, sorted.
  var labelNames: [String] { labels.sorted() }

  /// Appends the header row.
  func appendHeader(separator: UInt8, to out: inout [UInt8]) {
    for (k, column) in columns.enumerated() {
      if k > 0 { out.append(separator) }
      out.append(contentsOf: column.csvName.utf8)
    }
    for name in labelNames {
      out.append(separator)
      out.append(contentsOf: TraceWriter.field(TraceMetadata.csvLabelPrefix + name, separator: separator))
    }
    out.append(0x0A)
  }

  /// Appends one row per sample of `trace` (which must have been included).
  func appendRows(of trace: Trace, separator: UInt8, to out: inout [UInt8]) {
    appendRows(of: trace, columns: columns, labelNames: labelNames, separator: separator, to: &out)
  }

  /// ``appendRows(of:separator:to:)`` with the columns and label names computed once.
  func appendRows(
    of trace: Trace, columns: [TraceSchema.Field], labelNames: [String], separator: UInt8, to out: inout [UInt8]
  ) {
    let field = TraceWriter.field
    let m = trace.metadata
    // Trace-level fields are the same on every row: encode them once.
    var fixed: [TraceSchema.Field: [UInt8]] = [:]
    fixed[.id] = field(m.id, separator, true)
    fixed[.touch] = Array(String(m.touch).utf8)
    fixed[.maxForce] = m.maxForce.map { Array(NumberText.shortest($0).utf8) } ?? []
    fixed[.intent] = m.intent.map { Array($0.rawValue.utf8) } ?? []
    fixed[.pressAt] = Array(m.pressAt.map(NumberText.shortest).joined(separator: ";").utf8)
    fixed[.user] = m.user.map { field($0, separator, false) } ?? []
    fixed[.session] = m.session.map { field($0, separator, false) } ?? []
    fixed[.device] = m.device.map { field($0, separator, false) } ?? []
    fixed[.timeSynthesized] = Array((m.timeSynthesized ? "true" : "false").utf8)
    var labelText: [UInt8] = []
    for name in labelNames {
      labelText.append(separator)
      if let value = m.labels[name] { labelText += field(value, separator, false) }
    }
    for i in 0..<trace.count {
      for (k, column) in columns.enumerated() {
        if k > 0 { out.append(separator) }
        switch column {
        case .t: NumberText.append(trace.t[i], to: &out)
        case .force: NumberText.append(trace.force[i], to: &out)
        case .phase: out.append(contentsOf: TraceSchema.word(for: trace.phase[i]).utf8)
        case .x: if let x = trace.x { NumberText.append(x[i], to: &out) }
        case .y: if let y = trace.y { NumberText.append(y[i], to: &out) }
        case .radius: if let r = trace.radius { NumberText.append(r[i], to: &out) }
        default: out.append(contentsOf: fixed[column]!)
        }
      }
      out.append(contentsOf: labelText)
      out.append(0x0A)
    }
  }
}

/// Number formatting shared by the writers and reports.
public enum NumberText {
  /// The shortest decimal text that reads back to exactly `value` (`0.1`, `1e-05`, `6.666666666666667`).
  /// - Precondition: `value` is finite.
  public static func shortest(_ value: Double) -> String {
    precondition(value.isFinite, "only finite numbers are written")
    return value.description
  }

  /// Appends ``shortest(_:)`` of `value` to `bytes`.
  @inlinable
  public static func append(_ value: Double, to bytes: inout [UInt8]) {
    if value == value.rounded(), abs(value) < 1e15 {
      // Integral values: "3.0", as the standard library writes them, without the allocation.
      var n = Int64(value)
      if n == 0 && value.sign == .minus { bytes.append(UInt8(ascii: "-")) }
      if n < 0 {
        bytes.append(UInt8(ascii: "-"))
        n = -n
      }
      var digits:
        (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
          (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
      var count = 0
      withUnsafeMutableBytes(of: &digits) { raw in
        repeat {
          raw[count] = UInt8(truncatingIfNeeded: n % 10) + 0x30
          n /= 10
          count += 1
        } while n > 0
        for k in stride(from: count - 1, through: 0, by: -1) { bytes.append(raw[k]) }
      }
      bytes.append(UInt8(ascii: "."))
      bytes.append(UInt8(ascii: "0"))
      return
    }
    bytes.append(contentsOf: value.description.utf8)
  }
}
