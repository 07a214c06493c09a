import TouchCore
import TouchIO

/// Reads the YAML that `libinput record` writes (file format version 1), line by line.
///
/// What is read, by key (every other key is ignored, as the format asks of its parsers):
/// - `version: 1` at the top level (another version is an error: the format changes its version
///   only for changes older readers cannot follow);
/// - `- node: PATH` in `devices:`: a device (a recording made with `--multiple` has several);
/// - `name: NAME` in a device's `evdev:` (quoted or not);
/// - in `absinfo:`, `CODE: [min, max, fuzz, flat, resolution]`, all decimal;
/// - in `events:`, each `- evdev:` frame's `- [sec, usec, type, code, value]` (decimal, with an
///   optional `# …` comment); frames of other kinds (`- libinput:`, `- hid:`) are passed over.
///
/// Events before the first `- node:` belong to an unnamed device.
struct LibinputRecordReader {
  let file: String
  let options: ImportOptions

  /// Where a line stands in the recording's structure.
  private enum Block {
    case other
    /// Inside `absinfo:` written at this indentation.
    case absinfo(Int)
    /// Inside `events:` written at this indentation; `evdev` while in an `- evdev:` frame.
    case events(Int, evdev: Bool)
  }

  /// Reads the recording into one part per device, in the order the file lists them.
  func parse(_ bytes: [UInt8]) throws(TraceLoadError) -> [EvdevPart] {
    let text = TextLines(bytes)
    var parts: [EvdevPart] = []
    var block = Block.other
    var sawVersion = false
    /// Set while reading a line whose error is the whole file's, thrown whatever `skipInvalid` says.
    var wholeFile = false
    for line in text.lines() {
      guard let start = firstNonSpace(text, line), text.bytes[start] != UInt8(ascii: "#") else { continue }
      let indent = start - line.start
      // The line from its first character on.
      let rest = TextLine(number: line.number, start: start, end: line.end)
      do throws(TraceLoadError) {
        if case .absinfo(let level) = block, indent > level {
          let (code, axis) = try self.axis(text, line, from: start)
          if parts.isEmpty { parts.append(EvdevPart()) }
          parts[parts.count - 1].device.axes[code] = axis
          continue
        }
        if case .events(let level, let evdev) = block,
          indent > level || (indent == level && text.line(rest, hasPrefix: "- "))
        {
          if let frame = frameKind(text, start, line) {
            block = .events(level, evdev: frame)
          } else if evdev, text.line(rest, hasPrefix: "- [") {
            if parts.isEmpty { parts.append(EvdevPart()) }
            parts[parts.count - 1].items.append(.event(try event(text, line, from: start + 3)))
          }
          continue
        }
        block = .other
        if indent == 0, text.line(rest, hasPrefix: "version:") {
          try checkVersion(text, line, from: start + 8)
          sawVersion = true
        } else if text.line(rest, hasPrefix: "- node:") {
          wholeFile = true
          parts.append(try device(text, line, from: start + 7, after: parts))
          wholeFile = false
        } else if text.line(rest, hasPrefix: "name:"), !parts.isEmpty, parts[parts.count - 1].device.name == nil {
          parts[parts.count - 1].device.name = value(text, line, from: start + 5)
        } else if text.line(rest, hasPrefix: "absinfo:") {
          block = .absinfo(indent)
        } else if text.line(rest, hasPrefix: "events:") {
          block = .events(indent, evdev: false)
        }
      } catch {
        guard options.skipInvalid, !wholeFile else { throw error }
        if parts.isEmpty { parts.append(EvdevPart()) }
        parts[parts.count - 1].items.append(.malformed(error))
      }
    }
    guard sawVersion else {
      throw TraceLoadError(
        .invalidRecording(
          "not a libinput recording: no top-level 'version: 1' (expected the YAML of 'libinput record')"),
        file: file, position: TextPosition(line: 1, column: 1))
    }
    let used = parts.filter { !$0.items.isEmpty }
    return used.isEmpty ? [parts.first ?? EvdevPart()] : used
  }

  /// The device of `- node: PATH`; a node without a path, or listed before, is an error for the
  /// whole file.
  private func device(_ text: TextLines, _ line: TextLine, from offset: Int, after parts: [EvdevPart])
    throws(TraceLoadError) -> EvdevPart
  {
    guard let path = value(text, line, from: offset) else {
      throw fail("a device without its node path", text, line, at: offset)
    }
    guard !parts.contains(where: { $0.path == path }) else {
      throw fail(
        "the device node \(Diagnostic.quoted(path)) is listed twice (its events could not be told apart)", text, line,
        at: firstNonSpace(text, TextLine(number: line.number, start: offset, end: line.end)) ?? offset)
    }
    return EvdevPart(path: path)
  }

  /// `true` for an `- evdev:` frame, `false` for a frame of another kind (`- libinput:`,
  /// `- hid:`), `nil` when the line opens no frame.
  private func frameKind(_ text: TextLines, _ start: Int, _ line: TextLine) -> Bool? {
    let rest = TextLine(number: line.number, start: start, end: line.end)
    guard text.line(rest, hasPrefix: "- "), !text.line(rest, hasPrefix: "- [") else { return nil }
    var i = start + 2
    while i < line.end, text.bytes[i] != UInt8(ascii: ":"), text.bytes[i] != UInt8(ascii: " ") { i += 1 }
    guard i < line.end, text.bytes[i] == UInt8(ascii: ":") else { return nil }
    return text.string(TextField(start: start + 2, end: i)) == "evdev"
  }

  private func checkVersion(_ text: TextLines, _ line: TextLine, from offset: Int) throws(TraceLoadError) {
    let fields = numbers(text, line, from: offset, closing: nil)
    guard fields.count == 1, let version = text.integer(fields[0]) else {
      throw fail("invalid version: expected 'version: 1'", text, line, at: offset)
    }
    guard version == 1 else {
      throw fail(
        "libinput recording format version \(version) is not supported (this reader knows version 1)", text, line,
        at: fields[0].start)
    }
  }

  /// `CODE: [min, max, fuzz, flat, resolution]`.
  private func axis(_ text: TextLines, _ line: TextLine, from start: Int) throws(TraceLoadError) -> (
    UInt16, EvdevAxis
  ) {
    var colon = start
    while colon < line.end, text.bytes[colon] != UInt8(ascii: ":") { colon += 1 }
    let codeField = TextField(start: start, end: colon)
    guard colon < line.end, let code = text.integer(codeField), (0...0xFFFF).contains(code) else {
      throw fail(
        "an absinfo line needs 'CODE: [min, max, fuzz, flat, resolution]' (CODE decimal)", text, line, at: start)
    }
    guard let open = bracket(text, line, from: colon + 1) else {
      throw fail("an absinfo line needs '[min, max, fuzz, flat, resolution]'", text, line, at: colon + 1)
    }
    let fields = numbers(text, line, from: open + 1, closing: UInt8(ascii: "]"))
    let values = try integers(fields, text, line, naming: "absinfo value")
    guard values.count == 5 else {
      throw fail(
        "an absinfo entry has 5 values (min, max, fuzz, flat, resolution), not \(values.count)", text, line, at: open)
    }
    return (UInt16(code), EvdevAxis(minimum: values[0], maximum: values[1], resolution: values[4]))
  }

  /// The event of `[sec, usec, type, code, value]`, the text after `- [` at `offset`.
  private func event(_ text: TextLines, _ line: TextLine, from offset: Int) throws(TraceLoadError) -> EvdevEvent {
    let fields = numbers(text, line, from: offset, closing: UInt8(ascii: "]"))
    guard fields.count == 5, fields.allSatisfy({ $0.count > 0 }) else {
      throw fail(
        "an evdev event is '- [sec, usec, type, code, value]' (5 decimal integers), not \(fields.count) values", text,
        line, at: offset - 1)
    }
    let values = try integers(fields, text, line, naming: "event field")
    guard values[0] >= 0, values[0] <= Int64.max / 1_000_000 else {
      throw fail("invalid event seconds \(values[0])", text, line, at: fields[0].start)
    }
    guard (0..<1_000_000).contains(values[1]) else {
      throw fail("invalid event microseconds \(values[1]) (expected 0 to 999999)", text, line, at: fields[1].start)
    }
    guard (0...0xFFFF).contains(values[2]) else {
      throw fail("invalid event type \(values[2])", text, line, at: fields[2].start)
    }
    guard (0...0xFFFF).contains(values[3]) else {
      throw fail("invalid event code \(values[3])", text, line, at: fields[3].start)
    }
    guard let value = Int32(exactly: values[4]) else {
      throw fail("invalid event value \(values[4]) (outside 32 bits)", text, line, at: fields[4].start)
    }
    return EvdevEvent(
      time: values[0] * 1_000_000 + values[1], type: UInt16(values[2]), code: UInt16(values[3]), value: value,
      timePosition: text.position(of: fields[0], on: line), valuePosition: text.position(of: fields[4], on: line))
  }

  /// The decimal integers of `fields`; the first that is not one is an error naming it as `what`.
  private func integers(_ fields: [TextField], _ text: TextLines, _ line: TextLine, naming what: String)
    throws(TraceLoadError) -> [Int64]
  {
    var values: [Int64] = []
    for field in fields {
      guard let value = text.integer(field) else {
        throw fail(
          "invalid \(what) \(Diagnostic.quoted(text.string(field))) (expected a decimal integer)", text, line,
          at: field.start)
      }
      values.append(value)
    }
    return values
  }

  /// The comma-separated fields from `offset` up to `closing` (or the line's end or a `#`
  /// comment, for `nil`), each without surrounding spaces. A missing `closing` gives no fields.
  private func numbers(_ text: TextLines, _ line: TextLine, from offset: Int, closing: UInt8?) -> [TextField] {
    var fields: [TextField] = []
    var i = offset
    var fieldStart = offset
    while true {
      let atEnd = i == line.end || (closing == nil && text.bytes[i] == UInt8(ascii: "#"))
      if atEnd && closing != nil { return [] }
      if atEnd || text.bytes[i] == UInt8(ascii: ",") || text.bytes[i] == closing {
        fields.append(trimmed(text, TextField(start: fieldStart, end: i)))
        if atEnd || text.bytes[i] == closing { return fields }
        fieldStart = i + 1
      }
      i += 1
    }
  }

  /// The offset of the `[` that follows `offset` after spaces, or `nil`.
  private func bracket(_ text: TextLines, _ line: TextLine, from offset: Int) -> Int? {
    var i = offset
    while i < line.end, text.bytes[i] == UInt8(ascii: " ") { i += 1 }
    return i < line.end && text.bytes[i] == UInt8(ascii: "[") ? i : nil
  }

  /// A scalar value from `offset`: spaces trimmed, a trailing `# …` comment dropped and one
  /// pair of surrounding double quotes removed.
  private func value(_ text: TextLines, _ line: TextLine, from offset: Int) -> String? {
    var field = trimmed(text, TextField(start: offset, end: line.end))
    if field.count > 0, text.bytes[field.start] != UInt8(ascii: "\"") {
      var i = field.start
      while i < field.end, !(text.bytes[i] == UInt8(ascii: "#") && text.bytes[i - 1] == UInt8(ascii: " ")) {
        i += 1
      }
      field = trimmed(text, TextField(start: field.start, end: i))
    }
    if field.count >= 2, text.bytes[field.start] == UInt8(ascii: "\""), text.bytes[field.end - 1] == UInt8(ascii: "\"")
    {
      field = TextField(start: field.start + 1, end: field.end - 1)
    }
    return field.count > 0 ? text.string(field) : nil
  }

  private func trimmed(_ text: TextLines, _ field: TextField) -> TextField {
    var (a, b) = (field.start, field.end)
    while a < b, text.bytes[a] == UInt8(ascii: " ") || text.bytes[a] == UInt8(ascii: "\t") { a += 1 }
    while b > a, text.bytes[b - 1] == UInt8(ascii: " ") || text.bytes[b - 1] == UInt8(ascii: "\t") { b -= 1 }
    return TextField(start: a, end: b)
  }

  private func firstNonSpace(_ text: TextLines, _ line: TextLine) -> Int? {
    var i = line.start
    while i < line.end, text.bytes[i] == UInt8(ascii: " ") || text.bytes[i] == UInt8(ascii: "\t") { i += 1 }
    return i < line.end ? i : nil
  }

  private func fail(_ message: String, _ text: TextLines, _ line: TextLine, at offset: Int) -> TraceLoadError {
    TraceLoadError(.invalidRecording(message), file: file, position: text.position(offset, on: line))
  }
}
