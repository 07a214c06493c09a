import TouchCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The columns a trace CSV file may have. Names are matched case-insensitively.
enum CSVColumn: Int, CaseIterable {
  case trace, t, force, phase, maxForce, x, y, radius, touch
  case intent, pressAt, user, session, device, timeSynthesized

  /// The column's name in the header row.
  var name: String {
    switch self {
    case .trace: "trace"
    case .t: "t"
    case .force: "force"
    case .phase: "phase"
    case .maxForce: "max_force"
    case .x: "x"
    case .y: "y"
    case .radius: "radius"
    case .touch: "touch"
    case .intent: "intent"
    case .pressAt: "press_at"
    case .user: "user"
    case .session: "session"
    case .device: "device"
    case .timeSynthesized: "time_synthesized"
    }
  }

  init?(name: String) {
    guard let column = Self.allCases.first(where: { $0.name == name }) else { return nil }
    self = column
  }

  /// Trace-level columns whose value must be the same on every row of a trace.
  static let traceLevel: [CSVColumn] = [
    .maxForce, .intent, .pressAt, .user, .session, .device, .timeSynthesized,
  ]
}

/// Reads the CSV trace format: one row per sample.
///
/// See the TraceFileFormats article for the exact format. Rows of different traces (and of
/// the contacts of one recording) may interleave; traces come out in order of first appearance.
struct CSVTraceReader {
  let file: String
  let options: LoadOptions

  /// Reads `bytes` (the whole file; quoted fields are unescaped in place).
  func read(_ bytes: inout [UInt8]) throws(TraceLoadError) -> Dataset {
    let file = self.file
    let options = self.options
    let result: Result<Dataset, TraceLoadError> = bytes.withUnsafeMutableBufferPointer { buffer in
      do throws(TraceLoadError) {
        var parser = Parser(
          tokenizer: CSVTokenizer(buffer, file: file), file: file, options: options)
        return .success(try parser.run())
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }
}

extension CSVTraceReader {
  /// A trace being assembled from rows.
  fileprivate struct Pending {
    var id: String
    var touch: Int
    var key: [UInt8]
    var origin: TraceOrigin
    var t: [Double] = []
    var force: [Double] = []
    var phase: [TouchPhase] = []
    var x: [Double] = []
    var y: [Double] = []
    var radius: [Double] = []
    /// Whether the trace has x, y, radius (decided by its first row).
    var hasX = false
    var hasY = false
    var hasRadius = false
    var validator = SampleValidator(maxForce: nil)
    /// Raw text of each trace-level column on the first row, indexed by `CSVColumn.rawValue`.
    var firstText: [[UInt8]?] = Array(repeating: nil, count: CSVColumn.allCases.count)
    var metadata: TraceMetadata
    /// Position of the first row's `press_at` field (for span errors found at the end).
    var pressAtPosition: TextPosition?
    /// The first problem, which makes the trace invalid: its message and position.
    var problem: (reason: String, position: TextPosition)?

    init(id: String, touch: Int, key: [UInt8], origin: TraceOrigin) {
      self.id = id
      self.touch = touch
      self.key = key
      self.origin = origin
      self.metadata = TraceMetadata(id: id, touch: touch)
    }

    var name: String { metadata.name }
  }

  fileprivate struct Parser {
    var tokenizer: CSVTokenizer
    let file: String
    let options: LoadOptions
    /// Field index of each known column, `-1` when absent.
    var index = [Int](repeating: -1, count: CSVColumn.allCases.count)
    var headerCount = 0
    var pending: [Pending] = []
    var lookup: [TraceKey: Int] = [:]
    var diagnostics: [Diagnostic] = []
    var skipped: [SkippedTrace] = []
    /// The rows with an empty trace id since the last row with one (grouped into one skip).
    var anonymousOpen = false

    struct TraceKey: Hashable {
      var id: String
      var touch: Int
    }

    init(tokenizer: CSVTokenizer, file: String, options: LoadOptions) {
      self.tokenizer = tokenizer
      self.file = file
      self.options = options
    }

    mutating func run() throws(TraceLoadError) -> Dataset {
      try readHeader()
      var row = CSVRow(capacity: headerCount + 1)
      var last = -1  // index into `pending` of the previous row's trace
      while true {
        tokenizer.skipIgnorableLines()
        if tokenizer.atEnd { break }
        try tokenizer.readRow(into: &row)
        last = try handle(row, last: last)
      }
      return try finish()
    }

    // MARK: Header

    mutating func readHeader() throws(TraceLoadError) {
      tokenizer.skipIgnorableLines()
      guard !tokenizer.atEnd else {
        throw TraceLoadError(.missingHeader, file: file, position: TextPosition(line: tokenizer.line, column: 1))
      }
      tokenizer.delimiter = options.delimiter?.byte ?? tokenizer.detectDelimiter()
      var header = CSVRow(capacity: 16)
      let headerLine = tokenizer.line
      try tokenizer.readRow(into: &header)
      headerCount = header.count
      var unknown: [String] = []
      for k in 0..<header.count {
        let name = tokenizer.string(k, in: header).lowercased()
        if let column = CSVColumn(name: name) {
          guard index[column.rawValue] < 0 else {
            throw TraceLoadError(
              .duplicateColumn(name), file: file, position: tokenizer.position(of: k, in: header))
          }
          index[column.rawValue] = k
        } else {
          unknown.append(name)
        }
      }
      for required in [CSVColumn.trace, .t, .force] where index[required.rawValue] < 0 {
        throw TraceLoadError(
          .missingColumn(required.name), file: file,
          position: TextPosition(line: headerLine, column: 1))
      }
      if !unknown.isEmpty {
        let list = unknown.map { "'\($0)'" }.joined(separator: ", ")
        diagnostics.append(
          Diagnostic(
            .warning, "ignoring unknown column\(unknown.count == 1 ? "" : "s") \(list)", file: file,
            position: TextPosition(line: headerLine, column: 1)))
      }
    }

    // MARK: Rows

    /// Handles one data row; returns the index of its trace in `pending` (or `last` if none).
    mutating func handle(_ row: CSVRow, last: Int) throws(TraceLoadError) -> Int {
      guard row.count == headerCount else {
        let position =
          row.count > headerCount
          ? tokenizer.position(of: headerCount, in: row) : tokenizer.positionAfter(row)
        return try failRow(
          row, last: last, TraceLoadError(.fieldCount(expected: headerCount, found: row.count), file: file, position: position))
      }

      // Which trace: id plus contact number.
      let idField = index[CSVColumn.trace.rawValue]
      guard row.length(idField) > 0 else {
        let error = TraceLoadError(
          .trace(.emptyField("trace")), file: file, position: tokenizer.position(of: idField, in: row))
        guard options.skipInvalid else { throw error }
        if !anonymousOpen {
          anonymousOpen = true
          skipped.append(
            SkippedTrace(
              trace: nil, origin: TraceOrigin(file: file, position: error.position),
              reason: error.message))
        }
        return last
      }
      anonymousOpen = false
      var touch = 0
      var touchProblem: TraceProblem?
      let touchField = index[CSVColumn.touch.rawValue]
      if touchField >= 0, row.length(touchField) > 0 {
        if let value = DecimalParser.parseInteger(
          tokenizer.base + row.start[touchField], count: row.length(touchField))
        {
          touch = value
        } else {
          touchProblem = .invalidTouch(tokenizer.string(touchField, in: row))
        }
      }
      let current = traceIndex(row, idField: idField, touch: touch, last: last)
      if pending[current].problem != nil { return current }
      if let touchProblem {
        try fail(current, touchProblem, at: tokenizer.position(of: touchField, in: row))
        return current
      }
      try appendSample(row, to: current)
      return current
    }

    /// A row-level error (wrong field count): attribute it to the row's trace when the id can
    /// be read, otherwise to an anonymous skip.
    mutating func failRow(_ row: CSVRow, last: Int, _ error: TraceLoadError) throws(TraceLoadError) -> Int {
      let idField = index[CSVColumn.trace.rawValue]
      guard options.skipInvalid else {
        var error = error
        if idField < row.count, row.length(idField) > 0 { error.trace = tokenizer.string(idField, in: row) }
        throw error
      }
      guard idField < row.count, row.length(idField) > 0 else {
        skipped.append(
          SkippedTrace(trace: nil, origin: TraceOrigin(file: file, position: error.position), reason: error.message))
        return last
      }
      let current = traceIndex(row, idField: idField, touch: 0, last: last)
      if pending[current].problem == nil, let position = error.position {
        pending[current].problem = (error.message, position)
      }
      return current
    }

    /// The `pending` index of the trace a row belongs to, creating it on first sight.
    @inline(__always)
    mutating func traceIndex(_ row: CSVRow, idField: Int, touch: Int, last: Int) -> Int {
      let start = tokenizer.base + row.start[idField]
      let length = row.length(idField)
      if last >= 0, pending[last].touch == touch, pending[last].key.count == length,
        pending[last].key.withUnsafeBufferPointer({ memcmp($0.baseAddress!, start, length) == 0 })
      {
        return last
      }
      let id = String(decoding: UnsafeBufferPointer(start: start, count: length), as: UTF8.self)
      let key = TraceKey(id: id, touch: touch)
      if let existing = lookup[key] { return existing }
      let position = tokenizer.position(of: 0, in: row)
      pending.append(
        Pending(
          id: id, touch: touch, key: Array(UnsafeBufferPointer(start: start, count: length)),
          origin: TraceOrigin(file: file, position: position)))
      lookup[key] = pending.count - 1
      return pending.count - 1
    }

    /// Records the first problem of trace `k`; throws in strict mode.
    mutating func fail(_ k: Int, _ problem: TraceProblem, at position: TextPosition) throws(TraceLoadError) {
      guard options.skipInvalid else {
        throw TraceLoadError(.trace(problem), file: file, position: position, trace: pending[k].name)
      }
      if pending[k].problem == nil {
        pending[k].problem = (TraceLoadError(.trace(problem), file: file).message, position)
      }
    }

    /// Parses a required or optional number field; `nil` with a recorded problem on failure.
    @inline(__always)
    mutating func number(_ row: CSVRow, _ field: Int, _ column: CSVColumn, trace k: Int)
      throws(TraceLoadError) -> Double?
    {
      let length = row.length(field)
      guard length > 0 else {
        try fail(k, .emptyField(column.name), at: tokenizer.position(of: field, in: row))
        return nil
      }
      switch DecimalParser.parse(tokenizer.base + row.start[field], count: length) {
      case .value(let value):
        return value
      case .invalid:
        try fail(
          k, .notANumber(field: column.name, text: tokenizer.string(field, in: row)),
          at: tokenizer.position(of: field, in: row))
      case .nan:
        try fail(
          k, .notANumberValue(field: column.name, text: tokenizer.string(field, in: row)),
          at: tokenizer.position(of: field, in: row))
      case .infinity:
        try fail(
          k, .infinite(field: column.name, text: tokenizer.string(field, in: row)),
          at: tokenizer.position(of: field, in: row))
      }
      return nil
    }

    /// Parses the phase word of a row.
    @inline(__always)
    func phaseWord(_ row: CSVRow, _ field: Int) -> TouchPhase? {
      let p = tokenizer.base + row.start[field]
      let n = row.length(field)
      @inline(__always) func matches(_ word: StaticString) -> Bool {
        n == word.utf8CodeUnitCount && memcmp(p, word.utf8Start, n) == 0
      }
      switch n {
      case 5: return matches("began") ? .began : matches("moved") ? .moved : matches("ended") ? .ended : nil
      case 9: return matches("cancelled") ? .cancelled : nil
      case 10: return matches("stationary") ? .stationary : nil
      default: return nil
      }
    }

    mutating func appendSample(_ row: CSVRow, to k: Int) throws(TraceLoadError) {
      let first = pending[k].t.isEmpty && pending[k].validator.count == 0
      if first { try readTraceLevel(row, into: k) } else { try compareTraceLevel(row, in: k) }
      if pending[k].problem != nil { return }

      let tField = index[CSVColumn.t.rawValue]
      let forceField = index[CSVColumn.force.rawValue]
      guard let t = try number(row, tField, .t, trace: k),
        let force = try number(row, forceField, .force, trace: k)
      else { return }
      var phase: TouchPhase?
      let phaseField = index[CSVColumn.phase.rawValue]
      if phaseField >= 0 {
        guard row.length(phaseField) > 0 else {
          return try fail(k, .emptyField("phase"), at: tokenizer.position(of: phaseField, in: row))
        }
        guard let word = phaseWord(row, phaseField) else {
          return try fail(
            k, .unknownPhase(tokenizer.string(phaseField, in: row)),
            at: tokenizer.position(of: phaseField, in: row))
        }
        phase = word
      }
      var optional: (x: Double, y: Double, radius: Double) = (0, 0, 0)
      for column in [CSVColumn.x, .y, .radius] {
        let field = index[column.rawValue]
        guard field >= 0 else { continue }
        let has: Bool
        switch column {
        case .x: has = pending[k].hasX
        case .y: has = pending[k].hasY
        default: has = pending[k].hasRadius
        }
        let present = row.length(field) > 0
        if present != has {
          return try fail(k, .partialColumn(column.name), at: tokenizer.position(of: field, in: row))
        }
        guard present, let value = try number(row, field, column, trace: k) else {
          if present { return }
          continue
        }
        switch column {
        case .x: optional.x = value
        case .y: optional.y = value
        default:
          if value < 0 {
            return try fail(k, .negativeRadius(value), at: tokenizer.position(of: field, in: row))
          }
          optional.radius = value
        }
      }

      if let problem = pending[k].validator.check(t: t, force: force, phase: phase) {
        let field: Int
        switch problem.field {
        case "t": field = tField
        case "phase": field = phaseField >= 0 ? phaseField : tField
        default: field = forceField
        }
        return try fail(k, problem, at: tokenizer.position(of: field, in: row))
      }
      pending[k].t.append(t)
      pending[k].force.append(force)
      if let phase { pending[k].phase.append(phase) }
      if pending[k].hasX { pending[k].x.append(optional.x) }
      if pending[k].hasY { pending[k].y.append(optional.y) }
      if pending[k].hasRadius { pending[k].radius.append(optional.radius) }
    }

    // MARK: Trace-level columns

    /// Reads the trace-level values from a trace's first row.
    mutating func readTraceLevel(_ row: CSVRow, into k: Int) throws(TraceLoadError) {
      for column in [CSVColumn.x, .y, .radius] {
        let field = index[column.rawValue]
        let present = field >= 0 && row.length(field) > 0
        switch column {
        case .x: pending[k].hasX = present
        case .y: pending[k].hasY = present
        default: pending[k].hasRadius = present
        }
      }
      var maxForce = options.maxForce
      for column in CSVColumn.traceLevel {
        let field = index[column.rawValue]
        guard field >= 0 else { continue }
        let length = row.length(field)
        pending[k].firstText[column.rawValue] = Array(
          UnsafeBufferPointer(start: tokenizer.base + row.start[field], count: length))
        guard length > 0 else { continue }
        let text = tokenizer.string(field, in: row)
        let position = tokenizer.position(of: field, in: row)
        switch column {
        case .maxForce:
          guard let value = try number(row, field, .maxForce, trace: k) else { return }
          guard value > 0 else { return try fail(k, .invalidMaximumForce(value), at: position) }
          maxForce = value
        case .intent:
          guard let intent = Intent(name: text) else { return try fail(k, .unknownIntent(text), at: position) }
          pending[k].metadata.intent = intent
        case .pressAt:
          guard let times = try pressAt(row, field, trace: k) else { return }
          pending[k].metadata.pressAt = times
          pending[k].pressAtPosition = position
        case .user: pending[k].metadata.user = text
        case .session: pending[k].metadata.session = text
        case .device: pending[k].metadata.device = text
        case .timeSynthesized:
          guard let flag = Self.boolean(text) else {
            return try fail(k, .invalidBoolean(field: column.name, text: text), at: position)
          }
          pending[k].metadata.timeSynthesized = flag
        default: continue
        }
      }
      pending[k].metadata.maxForce = maxForce
      pending[k].validator = SampleValidator(maxForce: maxForce)
    }

    /// Checks that a later row repeats the first row's trace-level values.
    @inline(__always)
    mutating func compareTraceLevel(_ row: CSVRow, in k: Int) throws(TraceLoadError) {
      for column in CSVColumn.traceLevel {
        let field = index[column.rawValue]
        guard field >= 0, let first = pending[k].firstText[column.rawValue] else { continue }
        let length = row.length(field)
        let start = tokenizer.base + row.start[field]
        let same =
          first.count == length
          && first.withUnsafeBufferPointer { length == 0 || memcmp($0.baseAddress!, start, length) == 0 }
        if same { continue }
        // Numbers may be spelled differently but mean the same.
        if column == .maxForce || column == .pressAt, length > 0, !first.isEmpty {
          if column == .maxForce, case .value(let value) = DecimalParser.parse(start, count: length),
            value == pending[k].metadata.maxForce
          {
            continue
          }
          if column == .pressAt, let times = try pressAt(row, field, trace: k, quiet: true),
            times == pending[k].metadata.pressAt
          {
            continue
          }
        }
        let now = tokenizer.string(field, in: row)
        return try fail(
          k,
          .metadataDiffers(
            field: column.name, first: String(decoding: first, as: UTF8.self), now: now),
          at: tokenizer.position(of: field, in: row))
      }
    }

    /// Parses a `;`-separated list of seconds.
    mutating func pressAt(_ row: CSVRow, _ field: Int, trace k: Int, quiet: Bool = false)
      throws(TraceLoadError) -> [Double]?
    {
      var times: [Double] = []
      var s = row.start[field]
      let end = row.end[field]
      while s <= end {
        var e = s
        while e < end, tokenizer.base[e] != UInt8(ascii: ";") { e += 1 }
        var a = s
        var b = e
        while a < b, tokenizer.base[a] == 0x20 { a += 1 }
        while b > a, tokenizer.base[b - 1] == 0x20 { b -= 1 }
        let text = String(
          decoding: UnsafeBufferPointer(start: tokenizer.base + a, count: b - a), as: UTF8.self)
        let problem: TraceProblem?
        switch DecimalParser.parse(tokenizer.base + a, count: b - a) {
        case .value(let value):
          times.append(value)
          problem = nil
        case .invalid:
          problem = b == a ? .emptyField("press_at") : .notANumber(field: "press_at", text: text)
        case .nan: problem = .notANumberValue(field: "press_at", text: text)
        case .infinity: problem = .infinite(field: "press_at", text: text)
        }
        if let problem {
          if !quiet { try fail(k, problem, at: tokenizer.position(of: field, in: row)) }
          return nil
        }
        s = e + 1
      }
      return times
    }

    static func boolean(_ text: String) -> Bool? {
      switch text.lowercased() {
      case "true", "1": true
      case "false", "0": false
      default: nil
      }
    }

    // MARK: End of file

    mutating func finish() throws(TraceLoadError) -> Dataset {
      var dataset = Dataset(files: [file], diagnostics: diagnostics)
      dataset.skipped = skipped
      for var item in pending {
        if item.problem == nil, let first = item.t.first, let last = item.t.last,
          let problem = Trace.checkPressAt(item.metadata.pressAt, start: first, end: last)
        {
          let position = item.pressAtPosition ?? item.origin.position ?? TextPosition(line: 1, column: 1)
          guard options.skipInvalid else {
            throw TraceLoadError(.trace(problem), file: file, position: position, trace: item.name)
          }
          item.problem = (TraceLoadError(.trace(problem), file: file).message, position)
        }
        if let (reason, position) = item.problem {
          dataset.skipped.append(
            SkippedTrace(trace: item.name, origin: item.origin, position: position, reason: reason))
          continue
        }
        let trace = Trace(
          metadata: item.metadata, t: item.t, force: item.force,
          phase: index[CSVColumn.phase.rawValue] >= 0 ? item.phase : nil,
          x: item.hasX ? item.x : nil, y: item.hasY ? item.y : nil,
          radius: item.hasRadius ? item.radius : nil)
        trace.checkInvariants()
        dataset.traces.append(trace)
        dataset.origins.append(item.origin)
      }
      // Report skips in file order of where each skipped trace (or unnamed row) starts.
      dataset.skipped = dataset.skipped.enumerated().sorted { a, b in
        let lineA = a.element.origin.position?.line ?? 0
        let lineB = b.element.origin.position?.line ?? 0
        return lineA != lineB ? lineA < lineB : a.offset < b.offset
      }.map(\.element)
      return dataset
    }
  }
}
