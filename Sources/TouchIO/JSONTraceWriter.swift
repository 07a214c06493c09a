public import TouchCore

/// Writes traces in the JSON document and JSON Lines formats (see the TraceFileFormats
/// article).
///
/// Each trace is one compact JSON object on one line, its keys in a fixed order: `id`, `touch`,
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
    out.append(contentsOf: #"{"format":"touchtrace","version":1,"traces":["#.utf8)
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

  private static func estimatedSize(of traces: [Trace]) -> Int {
    traces.reduce(64) { size, trace in
      let columns = 2 + (trace.x == nil ? 0 : 1) + (trace.y == nil ? 0 : 1) + (trace.radius == nil ? 0 : 1)
      return size + 128 + trace.count * (columns * 20 + 10)
    }
  }

  /// Appends one trace object (without a line break).
  static func append(_ trace: Trace, to out: inout [UInt8]) {
    let m = trace.metadata
    out.append(contentsOf: #"{"id":"#.utf8)
    appendString(m.id, to: &out)
    if m.touch != 0 {
      out.append(contentsOf: #","touch":"#.utf8)
      out.append(contentsOf: String(m.touch).utf8)
    }
    if let intent = m.intent {
      out.append(contentsOf: #","intent":"#.utf8)
      appendString(intent.rawValue, to: &out)
    }
    if !m.pressAt.isEmpty { appendColumn("press_at", m.pressAt, to: &out) }
    if let user = m.user {
      out.append(contentsOf: #","user":"#.utf8)
      appendString(user, to: &out)
    }
    if let session = m.session {
      out.append(contentsOf: #","session":"#.utf8)
      appendString(session, to: &out)
    }
    if let device = m.device {
      out.append(contentsOf: #","device":"#.utf8)
      appendString(device, to: &out)
    }
    if let maxForce = m.maxForce {
      out.append(contentsOf: #","max_force":"#.utf8)
      NumberText.append(maxForce, to: &out)
    }
    if m.timeSynthesized { out.append(contentsOf: #","time_synthesized":true"#.utf8) }
    appendColumn("t", trace.t, to: &out)
    appendColumn("force", trace.force, to: &out)
    if trace.phase != TouchPhase.defaultSequence(count: trace.count) {
      out.append(contentsOf: #","phase":["#.utf8)
      for (i, phase) in trace.phase.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        out.append(UInt8(ascii: "\""))
        out.append(contentsOf: phase.name.utf8)
        out.append(UInt8(ascii: "\""))
      }
      out.append(UInt8(ascii: "]"))
    }
    if let x = trace.x { appendColumn("x", x, to: &out) }
    if let y = trace.y { appendColumn("y", y, to: &out) }
    if let radius = trace.radius { appendColumn("radius", radius, to: &out) }
    out.append(UInt8(ascii: "}"))
  }

  /// Appends `,"key":[v0,v1,…]`.
  private static func appendColumn(_ key: StaticString, _ values: [Double], to out: inout [UInt8]) {
    out.append(contentsOf: ",\"".utf8)
    out.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
    out.append(contentsOf: #"":["#.utf8)
    for (i, value) in values.enumerated() {
      if i > 0 { out.append(UInt8(ascii: ",")) }
      NumberText.append(value, to: &out)
    }
    out.append(UInt8(ascii: "]"))
  }

  /// Appends `text` as a JSON string: `"` and `\` escaped, control characters as `\n`, `\t`,
  /// … or `\u00XX`, everything else as UTF-8.
  static func appendString(_ text: String, to out: inout [UInt8]) {
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
