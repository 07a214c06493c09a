import TouchCore
import TouchIO

/// Reads `evemu-record` / `evemu-describe` text.
///
/// Lines: `# comment`; device description `N: name`, `I:`, `P:`, `B:`, `L:`, `S:` (ignored) and
/// `A: code min max fuzz flat [resolution]` (code hexadecimal); events
/// `E: sec.usec type code value` (type and code hexadecimal, value decimal), where everything from
/// a `#` on is a comment (evemu ≥ 1.3 appends one).
struct EvemuReader {
  let file: String
  let options: ImportOptions

  /// The description and events of a recording.
  func parse(_ bytes: [UInt8]) throws(TraceLoadError) -> (device: EvdevDevice, items: [EvdevItem]) {
    let text = TextLines(bytes)
    var device = EvdevDevice()
    var items: [EvdevItem] = []
    for line in text.lines() {
      let words = text.words(of: line)
      guard let first = words.first else { continue }
      if text.bytes[first.start] == UInt8(ascii: "#") { continue }
      do throws(TraceLoadError) {
        if text.field(first, equals: "E:") {
          items.append(.event(try event(text, line, words)))
        } else if text.field(first, equals: "A:") {
          let (code, axis) = try self.axis(text, line, words)
          device.axes[code] = axis
        } else if text.field(first, equals: "N:") {
          let rest =
            words.count > 1
            ? TextField(start: words[1].start, end: line.end) : TextField(start: line.end, end: line.end)
          device.name = text.string(rest).trimming(" ")
        } else if ["I:", "P:", "B:", "L:", "S:"].contains(text.string(first)) {
          continue
        } else {
          throw TraceLoadError(
            .invalidRecording("not an evemu line: expected 'E:' (event), 'N:', 'I:', 'P:', 'B:', 'A:' or '#'"),
            file: file, position: text.position(of: first, on: line))
        }
      } catch {
        guard options.skipInvalid else { throw error }
        items.append(.malformed(error))
      }
    }
    return (device, items)
  }

  private func event(_ text: TextLines, _ line: TextLine, _ allWords: [TextField]) throws(TraceLoadError) -> EvdevEvent
  {
    // Drop an inline comment.
    var words: [TextField] = []
    for word in allWords.dropFirst() {
      if text.bytes[word.start] == UInt8(ascii: "#") { break }
      words.append(word)
    }
    func fail(_ message: String, _ at: TextField?) -> TraceLoadError {
      TraceLoadError(
        .invalidRecording(message), file: file,
        position: at.map { text.position(of: $0, on: line) } ?? text.position(line.end, on: line))
    }
    guard words.count >= 4 else {
      throw fail("an event needs a time, a type, a code and a value: 'E: sec.usec type code value'", nil)
    }
    guard words.count == 4 else { throw fail("unexpected text after the event value", words[4]) }
    guard let time = text.microseconds(words[0]) else {
      throw fail(
        "invalid event time \(Diagnostic.quoted(text.string(words[0]))) (expected seconds.microseconds)", words[0])
    }
    guard let type = text.hexadecimal(words[1]), type <= 0xFFFF else {
      throw fail("invalid event type \(Diagnostic.quoted(text.string(words[1]))) (expected hexadecimal)", words[1])
    }
    guard let code = text.hexadecimal(words[2]), code <= 0xFFFF else {
      throw fail("invalid event code \(Diagnostic.quoted(text.string(words[2]))) (expected hexadecimal)", words[2])
    }
    guard let value = text.integer(words[3]), let value32 = Int32(exactly: value) else {
      throw fail(
        "invalid event value \(Diagnostic.quoted(text.string(words[3]))) (expected a decimal integer)", words[3])
    }
    return EvdevEvent(
      time: time, type: UInt16(type), code: UInt16(code), value: value32,
      timePosition: text.position(of: words[0], on: line), valuePosition: text.position(of: words[3], on: line))
  }

  private func axis(_ text: TextLines, _ line: TextLine, _ words: [TextField]) throws(TraceLoadError) -> (
    UInt16, EvdevAxis
  ) {
    func fail(_ message: String, _ at: TextField) -> TraceLoadError {
      TraceLoadError(.invalidRecording(message), file: file, position: text.position(of: at, on: line))
    }
    guard words.count >= 6 else {
      throw fail("an axis line needs 'A: code min max fuzz flat [resolution]'", words[0])
    }
    guard let code = text.hexadecimal(words[1]), code <= 0xFFFF else {
      throw fail("invalid axis code \(Diagnostic.quoted(text.string(words[1]))) (expected hexadecimal)", words[1])
    }
    var numbers: [Int64] = []
    for word in words.dropFirst(2).prefix(5) {
      guard let value = text.integer(word) else {
        throw fail("invalid axis value \(Diagnostic.quoted(text.string(word))) (expected a decimal integer)", word)
      }
      numbers.append(value)
    }
    return (
      UInt16(code), EvdevAxis(minimum: numbers[0], maximum: numbers[1], resolution: numbers.count > 4 ? numbers[4] : 0)
    )
  }
}

/// Reads Android `getevent -lt` (or `getevent -t`) output.
///
/// Event lines: `[ sec.usec] [DEVICE:] TYPE CODE VALUE`, with TYPE and CODE as names
/// (`EV_ABS ABS_MT_PRESSURE`, with `-l`) or 4 hexadecimal digits, and VALUE as hexadecimal
/// (8 digits, two's complement: `ffffffff` is −1; key values may be `UP`, `DOWN`, `REPEAT`). The header lines `add device N: PATH`,
/// `  name: "…"` and `could not …` are read for the device name or skipped; a log of several
/// devices (`PATH:` before each event) is split per device (see ``parse(_:)``). Lines without a
/// timestamp are errors: the importer needs times (record with `-t`).
struct GeteventReader {
  let file: String
  let options: ImportOptions

  /// Key values as `getevent -l` prints them.
  static let keyStates: [String: UInt64] = ["UP": 0, "DOWN": 1, "REPEAT": 2]

  /// Reads the log into one part per device, in order of the devices' first event (or header).
  ///
  /// `getevent` run without a device argument prints `add device N: PATH` blocks (with
  /// `name: "…"` and, with `-p`, one `ABS_… : value V, min A, max B, fuzz F, flat L, resolution R`
  /// line per axis) and prefixes each event with `PATH:`; every device gets its own part, axis
  /// ranges and name. Header lines inside an `add device` block that carry neither are skipped.
  func parse(_ bytes: [UInt8]) throws(TraceLoadError) -> [EvdevPart] {
    let text = TextLines(bytes)
    var parts: [EvdevPart] = []
    var partOfPath: [String?: Int] = [:]
    func part(_ path: String?) -> Int {
      if let k = partOfPath[path] { return k }
      parts.append(EvdevPart(path: path))
      partOfPath[path] = parts.count - 1
      return parts.count - 1
    }
    /// The device whose `add device` header is being read (`nil` outside headers).
    var header: Int?
    var current: Int?
    for line in text.lines() {
      let words = text.words(of: line)
      guard let first = words.first else { continue }
      if text.line(line, hasPrefix: "could not") { continue }
      if text.line(line, hasPrefix: "add device") {
        // add device N: PATH
        if let colon = words.firstIndex(where: { text.bytes[$0.end - 1] == UInt8(ascii: ":") }), colon + 1 < words.count
        {
          header = part(text.string(TextField(start: words[colon + 1].start, end: line.end)).trimming(" "))
        } else {
          header = part(nil)
        }
        continue
      }
      if text.field(first, equals: "name:") {
        let k = header ?? part(nil)
        if parts[k].device.name == nil, words.count > 1 {
          let rest = text.string(TextField(start: words[1].start, end: line.end)).trimming(" ")
          parts[k].device.name = rest.trimming("\"")
        }
        continue
      }
      if let k = header, text.bytes[first.start] != UInt8(ascii: "[") {
        if let (code, axis) = Self.axis(text, words) { parts[k].device.axes[code] = axis }
        continue  // other header lines (events:, KEY (0001): …, input props:, location:, id:, version:)
      }
      header = nil
      do throws(TraceLoadError) {
        let (event, path) = try self.event(text, line)
        let k = part(path)
        current = k
        if let event { parts[k].items.append(.event(event)) }
      } catch {
        guard options.skipInvalid else { throw error }
        parts[current ?? part(nil)].items.append(.malformed(error))
      }
    }
    if parts.isEmpty { parts.append(EvdevPart(path: nil)) }
    // `getevent -lt DEVICE`: one declared device, events without a `PATH:` prefix.
    let declared = parts.filter { $0.path != nil && $0.items.isEmpty }
    if declared.count == 1, let k = partOfPath[nil], !parts[k].items.isEmpty,
      parts.filter({ !$0.items.isEmpty }).count == 1
    {
      parts[k].device.name = parts[k].device.name ?? declared[0].device.name
      parts[k].device.axes.merge(declared[0].device.axes) { own, _ in own }
    }
    let used = parts.filter { !$0.items.isEmpty }
    return used.isEmpty ? [parts[0]] : used
  }

  /// An axis line of `getevent -p`: `[ABS (0003):] ABS_MT_PRESSURE : value 0, min 0, max 255,
  /// fuzz 0, flat 0, resolution 0` (or with a 4-digit hexadecimal code instead of the name).
  static func axis(_ text: TextLines, _ words: [TextField]) -> (UInt16, EvdevAxis)? {
    let strings = words.map { text.string($0) }
    guard let valueAt = strings.firstIndex(of: "value"), valueAt >= 2, strings[valueAt - 1].hasSuffix(":") else {
      return nil
    }
    let nameWord = strings[valueAt - 1] == ":" ? strings[valueAt - 2] : String(strings[valueAt - 1].dropLast())
    let code: UInt16
    if let named = EV.codeNames[EV.abs]?[nameWord] {
      code = named
    } else if nameWord.count == 4, let number = UInt16(nameWord, radix: 16) {
      code = number
    } else {
      return nil
    }
    func number(after key: String) -> Int64? {
      guard let k = strings.firstIndex(of: key), k + 1 < strings.count else { return nil }
      return Int64(strings[k + 1].trimming(","))
    }
    guard let minimum = number(after: "min"), let maximum = number(after: "max"), maximum > minimum else { return nil }
    return (code, EvdevAxis(minimum: minimum, maximum: maximum, resolution: number(after: "resolution") ?? 0))
  }

  /// The event on `line` (`nil` for an event type or code this importer ignores) and the
  /// device path, when the line names one.
  private func event(_ text: TextLines, _ line: TextLine) throws(TraceLoadError) -> (EvdevEvent?, String?) {
    func fail(_ message: String, _ offset: Int) -> TraceLoadError {
      TraceLoadError(.invalidRecording(message), file: file, position: text.position(offset, on: line))
    }
    var i = line.start
    while i < line.end, text.bytes[i] == 0x20 || text.bytes[i] == 0x09 { i += 1 }
    guard i < line.end, text.bytes[i] == UInt8(ascii: "[") else {
      throw fail("expected '[' and a timestamp: record with 'getevent -lt' (or -t)", i)
    }
    var close = i + 1
    while close < line.end, text.bytes[close] != UInt8(ascii: "]") { close += 1 }
    guard close < line.end else { throw fail("timestamp without closing ']'", i) }
    var timeStart = i + 1
    while timeStart < close, text.bytes[timeStart] == 0x20 { timeStart += 1 }
    var timeEnd = close
    while timeEnd > timeStart, text.bytes[timeEnd - 1] == 0x20 { timeEnd -= 1 }
    let timeField = TextField(start: timeStart, end: timeEnd)
    guard let time = text.microseconds(timeField) else {
      throw fail(
        "invalid timestamp \(Diagnostic.quoted(text.string(timeField))) (expected seconds.microseconds)", timeStart)
    }
    var words = text.words(of: line, from: close + 1)
    var path: String?
    if let first = words.first, text.bytes[first.end - 1] == UInt8(ascii: ":") {
      path = text.string(TextField(start: first.start, end: first.end - 1))
      words.removeFirst()
    }
    guard words.count >= 3 else {
      throw fail("an event needs a type, a code and a value after the timestamp", words.last?.end ?? close + 1)
    }
    guard words.count == 3 else { throw fail("unexpected text after the event value", words[3].start) }
    let typeText = text.string(words[0])
    let type: UInt16
    if let named = EV.typeNames[typeText] {
      type = named
    } else if let number = text.hexadecimal(words[0]), number <= 0xFFFF, words[0].count == 4 {
      type = UInt16(number)
    } else if typeText.hasPrefix("EV_") {
      return (nil, path)  // a type this importer does not use
    } else {
      throw fail(
        "invalid event type \(Diagnostic.quoted(typeText)) (expected a name such as EV_ABS or 4 hexadecimal digits)",
        words[0].start)
    }
    let codeText = text.string(words[1])
    var code = EV.unknown
    if let named = EV.codeNames[type]?[codeText] {
      code = named
    } else if words[1].count == 4, let number = text.hexadecimal(words[1]) {
      code = UInt16(number)
    } else if codeText.first?.isLetter != true {
      throw fail(
        "invalid event code \(Diagnostic.quoted(codeText)) (expected a name such as ABS_MT_PRESSURE or 4 hexadecimal digits)",
        words[1].start)
    }
    let raw: UInt64
    if type == EV.key, let state = Self.keyStates[text.string(words[2])] {
      raw = state  // getevent -l prints key values as words
    } else if words[2].count <= 8, let number = text.hexadecimal(words[2]) {
      raw = number
    } else {
      throw fail(
        "invalid event value \(Diagnostic.quoted(text.string(words[2]))) (expected up to 8 hexadecimal digits)",
        words[2].start)
    }
    let event = EvdevEvent(
      time: time, type: type, code: code, value: Int32(bitPattern: UInt32(truncatingIfNeeded: raw)),
      timePosition: text.position(timeStart, on: line), valuePosition: text.position(of: words[2], on: line))
    return (code == EV.unknown ? nil : event, path)
  }
}
