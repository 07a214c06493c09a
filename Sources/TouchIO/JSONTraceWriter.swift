public import TouchCore

/// Writes traces in the JSON document and JSON Lines formats (see the TraceFileFormats
/// article).
///
/// Each trace is one compact JSON object on one line, its keys (``TraceSchema/Field/jsonName``)
/// in a fixed order, the order of ``TraceSchema/Field``: `id`, `touch`,
/// `intent`, `press_at`, `user`, `session`, `device`, `max_force`, `time_synthesized`, `t`,
/// `force`, `phase`, `x`, `y`, `radius`. Keys whose value is absent or the default (`touch` 0,
/// no intent, no `press_at` times, `time_synthesized` false, phases equal to
/// `TouchPhase.defaultSequence(count:)`) are left out. Numbers are written in the shortest
/// form that reads back to the same `Double`, so reading the output gives back equal traces,
/// bit for bit.
public enum JSONTraceWriter {
  /// The versioned document `{"format":"touchtrace","version":1,"traces":[...]}`, with one trace
  /// per line inside the array, ending with a line break.
  ///
  /// - Precondition: every number in the traces is finite.
  /// - Complexity: O(total samples).
  public static func document(_ traces: [Trace]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(estimatedSize(of: traces))
    out.append(contentsOf: documentHead)
    for (k, trace) in traces.enumerated() {
      if k > 0 { out.append(UInt8(ascii: ",")) }
      out.append(0x0A)
      append(trace, to: &out)
    }
    if !traces.isEmpty { out.append(0x0A) }
    out.append(contentsOf: "]}\n".utf8)
    return out
  }

  /// JSON Lines: one trace object per line, each line ending with a line break.
  ///
  /// - Precondition: every number in the traces is finite.
  /// - Complexity: O(total samples).
  public static func lines(_ traces: [Trace]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(estimatedSize(of: traces))
    for trace in traces {
      append(trace, to: &out)
      out.append(0x0A)
    }
    return out
  }

  /// `{"format":"touchtrace","version":1,"traces":[`, from ``TraceSchema/Document``.
  static let documentHead: [UInt8] = {
    typealias Doc = TraceSchema.Document
    return Array(
      "{\"\(Doc.formatKey)\":\"\(Doc.format)\",\"\(Doc.versionKey)\":\(Doc.version),\"\(Doc.tracesKey)\":[".utf8)
  }()

  private static func estimatedSize(of traces: [Trace]) -> Int {
    traces.reduce(64) { size, trace in
      let columns = 2 + (trace.x == nil ? 0 : 1) + (trace.y == nil ? 0 : 1) + (trace.radius == nil ? 0 : 1)
      return size + 128 + trace.count * (columns * 20 + 10)
    }
  }

  /// Appends one trace object (without a line break).
  static func append(_ trace: Trace, to out: inout [UInt8]) {
    let m = trace.metadata
    out.append(UInt8(ascii: "{"))
    appendKey(.id, first: true, to: &out)
    appendString(m.id, to: &out)
    if m.touch != 0 {
      appendKey(.touch, to: &out)
      out.append(contentsOf: String(m.touch).utf8)
    }
    if let intent = m.intent {
      appendKey(.intent, to: &out)
      appendString(intent.rawValue, to: &out)
    }
    if !m.pressAt.isEmpty { appendColumn(.pressAt, m.pressAt, to: &out) }
    for (key, text) in [(TraceSchema.Field.user, m.user), (.session, m.session), (.device, m.device)] {
      guard let text else { continue }
      appendKey(key, to: &out)
      appendString(text, to: &out)
    }
    if let maxForce = m.maxForce {
      appendKey(.maxForce, to: &out)
      NumberText.append(maxForce, to: &out)
    }
    if m.timeSynthesized {
      appendKey(.timeSynthesized, to: &out)
      out.append(contentsOf: "true".utf8)
    }
    if !m.labels.isEmpty {
      out.append(contentsOf: ",\"labels\":{".utf8)
      for (k, name) in m.labels.keys.sorted().enumerated() {
        if k > 0 { out.append(UInt8(ascii: ",")) }
        appendString(name, to: &out)
        out.append(UInt8(ascii: ":"))
        appendString(m.labels[name]!, to: &out)
      }
      out.append(UInt8(ascii: "}"))
    }
    appendColumn(.t, trace.t, to: &out)
    appendColumn(.force, trace.force, to: &out)
    if trace.phase != TouchPhase.defaultSequence(count: trace.count) {
      appendKey(.phase, to: &out)
      out.append(UInt8(ascii: "["))
      for (i, phase) in trace.phase.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        appendString(TraceSchema.word(for: phase), to: &out)
      }
      out.append(UInt8(ascii: "]"))
    }
    if let x = trace.x { appendColumn(.x, x, to: &out) }
    if let y = trace.y { appendColumn(.y, y, to: &out) }
    if let radius = trace.radius { appendColumn(.radius, radius, to: &out) }
    out.append(UInt8(ascii: "}"))
  }

  /// Appends `,"key":` (without the comma for the first key of an object).
  private static func appendKey(_ key: TraceSchema.Field, first: Bool = false, to out: inout [UInt8]) {
    if !first { out.append(UInt8(ascii: ",")) }
    out.append(UInt8(ascii: "\""))
    out.append(contentsOf: key.jsonName.utf8)
    out.append(contentsOf: "\":".utf8)
  }

  /// Appends `,"key":[v0,v1,…]`.
  private static func appendColumn(_ key: TraceSchema.Field, _ values: [Double], to out: inout [UInt8]) {
    appendKey(key, to: &out)
    out.append(UInt8(ascii: "["))
    for (i, value) in values.enumerated() {
      if i > 0 { out.append(UInt8(ascii: ",")) }
      NumberText.append(value, to: &out)
    }
    out.append(UInt8(ascii: "]"))
  }

  /// Appends `text` as a JSON string: `"` and `\` escaped, control characters as `\n`, `\t`,
  /// … or `\u00XX`, everything else as UTF-8.
  package static func appendString(_ text: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
      case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
      case 0x0A: out.append(contentsOf: #"\n"#.utf8)
      case 0x0D: out.append(contentsOf: #"\r"#.utf8)
      case 0x09: out.append(contentsOf: #"\t"#.utf8)
      case 0x08: out.append(contentsOf: #"\b"#.utf8)
      case 0x0C: out.append(contentsOf: #"\f"#.utf8)
      case 0..<0x20:
        out.append(contentsOf: #"\u00"#.utf8)
        out.append(contentsOf: hex2(byte).utf8)
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }
}
