import TouchCore

/// The JSON reader's name for a key of a trace object: a field of the trace schema, named by
/// ``TraceSchema/Field/jsonName``.
typealias JSONTraceKey = TraceSchema.Field

/// Reads the JSON document and JSON Lines trace formats.
///
/// See the TraceFileFormats article for the format and the error rules. Parsing is a single
/// pass over the bytes with a hand-written scanner (``JSONScanner``): numbers go straight from
/// bytes into the column arrays; positions of elements are recomputed only when an error needs
/// them.
struct JSONTraceReader {
  /// The reader's name for the document schema.
  typealias Doc = TraceSchema.Document

  let file: String
  let options: LoadOptions

  /// Reads a whole file: a `{"format": "touchtrace", ...}` document, or with `lines` one trace
  /// object per line.
  func read(_ bytes: [UInt8], lines: Bool) throws(TraceLoadError) -> Dataset {
    let file = self.file
    let options = self.options
    let result: Result<Dataset, TraceLoadError> = bytes.withUnsafeBufferPointer { buffer in
      do throws(TraceLoadError) {
        var parser = Parser(
          scanner: JSONScanner(buffer, file: file, lineMode: lines), file: file, options: options)
        if lines {
          try parser.readLines()
        } else {
          try parser.readDocument()
        }
        return .success(parser.finish())
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// What carries from one chunk of a JSON Lines file to the next.
  struct LineState {
    /// The line the next chunk starts on, from 1.
    var line = 1
    /// The number of the next record, from 0.
    var record = 0
    /// Unknown keys in order of first appearance, and where the first one is.
    var unknownKeys: [String] = []
    var unknownKeyPosition: TextPosition?

    /// The warning about unknown keys, once the whole file has been read.
    func diagnostics(file: String) -> [Diagnostic] {
      guard !unknownKeys.isEmpty else { return [] }
      let list = unknownKeys.map { Diagnostic.quoted($0) }.joined(separator: ", ")
      return [
        Diagnostic(
          .warning, "ignoring unknown key\(unknownKeys.count == 1 ? "" : "s") \(list)",
          file: file, position: unknownKeyPosition)
      ]
    }
  }

  /// Reads a chunk of a JSON Lines file: whole lines, the first being line `state.line`. The
  /// result has the chunk's traces and skips; its diagnostics and files are left empty (the
  /// unknown keys collect in `state`).
  func readLines(
    _ buffer: UnsafeBufferPointer<UInt8>, state: inout LineState, atFileStart: Bool, final: Bool
  ) throws(TraceLoadError) -> Dataset {
    var scanner = JSONScanner(buffer, file: file, lineMode: true, atFileStart: atFileStart)
    scanner.line = state.line
    var parser = Parser(scanner: scanner, file: file, options: options)
    parser.unknownKeys = state.unknownKeys
    parser.unknownKeyPosition = state.unknownKeyPosition
    try parser.readLines(firstRecord: &state.record)
    state.line = parser.scanner.line
    state.unknownKeys = parser.unknownKeys
    state.unknownKeyPosition = parser.unknownKeyPosition
    return Dataset(traces: parser.traces, origins: parser.origins, skipped: parser.skipped)
  }
}

extension JSONTraceReader {
  /// The first problem found in a trace: it makes the trace invalid.
  struct Problem {
    var reason: TraceLoadError.Reason
    var field: String?
    var position: TextPosition
  }

  /// A trace object being read.
  struct Draft {
    /// The position of the object's `{`.
    var start: JSONMark
    var record: Int
    var id: String?
    var touch = 0
    var intent: Intent?
    var pressAt: [Double] = []
    var user: String?
    var session: String?
    var device: String?
    var maxForce: Double?
    var timeSynthesized = false
    var t: [Double]?
    var force: [Double]?
    var phase: [TouchPhase]?
    var x: [Double]?
    var y: [Double]?
    var radius: [Double]?
    /// Extra labels (the `labels` object).
    var labels: [String: String] = [:]
    var sawLabels = false
    /// Where each key's value starts, by `JSONTraceKey.rawValue`; `nil` for keys not seen.
    var marks = [JSONMark?](repeating: nil, count: JSONTraceKey.allCases.count)
    /// The key whose value is being read (for the context of syntax errors).
    var currentKey: JSONTraceKey?
    var problem: Problem?

    init(start: JSONMark, record: Int) {
      self.start = start
      self.record = record
    }

    /// The trace's name, once its id has been read.
    var name: String? { id.map { TraceMetadata(id: $0, touch: touch).name } }
  }

  /// What one record turned into.
  enum Outcome {
    case trace(Trace, TraceOrigin)
    case skipped(SkippedTrace)

    var traceName: String? {
      switch self {
      case .trace(let trace, _): trace.name
      case .skipped(let skip): skip.trace
      }
    }
  }

  struct Parser {
    var scanner: JSONScanner
    let file: String
    let options: LoadOptions
    var traces: [Trace] = []
    var origins: [TraceOrigin] = []
    var skipped: [SkippedTrace] = []
    /// Unknown keys in order of first appearance, and where the first one is.
    var unknownKeys: [String] = []
    var unknownKeyPosition: TextPosition?
    /// Expected samples per trace (the last trace's count), to size column arrays.
    var capacityHint = 16

    init(scanner: JSONScanner, file: String, options: LoadOptions) {
      self.scanner = scanner
      self.file = file
      self.options = options
    }

    func finish() -> Dataset {
      var diagnostics: [Diagnostic] = []
      if !unknownKeys.isEmpty {
        let list = unknownKeys.map { Diagnostic.quoted($0) }.joined(separator: ", ")
        diagnostics.append(
          Diagnostic(
            .warning, "ignoring unknown key\(unknownKeys.count == 1 ? "" : "s") \(list)",
            file: file, position: unknownKeyPosition))
      }
      return Dataset(
        traces: traces, origins: origins, skipped: skipped, files: [file], diagnostics: diagnostics)
    }

    mutating func commit(_ outcome: Outcome) {
      switch outcome {
      case .trace(let trace, let origin):
        traces.append(trace)
        origins.append(origin)
      case .skipped(let skip):
        skipped.append(skip)
      }
    }

    mutating func noteUnknownKey(_ token: JSONStringToken, at position: TextPosition) {
      let name = scanner.string(token)
      guard !unknownKeys.contains(name) else { return }
      if unknownKeys.isEmpty { unknownKeyPosition = position }
      unknownKeys.append(name)
    }

    func documentError(_ message: String, at mark: JSONMark) -> TraceLoadError {
      TraceLoadError(.invalidDocument(message), file: file, position: scanner.position(of: mark))
    }

    /// "a number: 5", "null": a found value for type messages.
    func found(_ kind: JSONKind, from start: Int) -> String {
      kind == .null ? "null" : "\(kind.phrase): \(scanner.sourceText(from: start, to: scanner.offset))"
    }

    // MARK: Document

    /// Skips a document value of the wrong JSON type (cursor on it) and throws
    /// "'key' must be …, found …".
    mutating func wrongType(_ key: StaticString, expected: String, found kind: JSONKind, at mark: JSONMark)
      throws(TraceLoadError) -> Never
    {
      try scanner.skipValue()
      throw documentError("'\(key)' must be \(expected), found \(found(kind, from: mark.offset))", at: mark)
    }

    /// Notes a document key; throws when it was seen before.
    func firstTime(_ seen: inout Bool, _ key: StaticString, at keyMark: JSONMark) throws(TraceLoadError) {
      guard !seen else { throw documentError("key '\(key)' appears twice", at: keyMark) }
      seen = true
    }

    /// The document keys seen so far.
    struct DocumentKeys {
      var format = false
      var version = false
      var traces = false
    }

    /// What a member of the document was.
    enum DocumentMember {
      /// Read (checked, or skipped as unknown).
      case read
      /// The `traces` array, after `format` and `version`: the cursor is on its `[`.
      case traceArray
      /// The `traces` array before `format` or `version`: the cursor is on its `[`. A whole read
      /// checks the rest of the document before reading any trace.
      case tracesFirst
    }

    mutating func readDocument() throws(TraceLoadError) {
      let documentStart = try openDocument()
      var keys = DocumentKeys()
      var deferredTraces: JSONMark?
      if !scanner.enter(closing: UInt8(ascii: "}")) {
        while true {
          switch try readDocumentMember(&keys) {
          case .read: break
          case .traceArray: try readTraceArray()
          case .tracesFirst:
            deferredTraces = scanner.mark
            try scanner.skipValue()
          }
          scanner.skipWhitespace()
          if try scanner.endOfMember(closing: UInt8(ascii: "}")) { break }
        }
      }
      try closeDocument(keys, start: scanner.position(of: documentStart))
      if let deferredTraces {
        scanner.reset(to: deferredTraces)
        try readTraceArray()
      }
    }

    /// Checks the start of the document (white space skipped): an object, not an empty file.
    /// Returns the place of its `{`, the cursor left on it.
    mutating func openDocument() throws(TraceLoadError) -> JSONMark {
      scanner.skipWhitespace()
      guard !scanner.atEnd else {
        throw scanner.syntaxError(
          "the file is empty; expected a TouchTrace document {\"\(Doc.formatKey)\": \"\(Doc.format)\", ...}",
          at: scanner.offset)
      }
      let documentStart = scanner.mark
      guard scanner.peek == UInt8(ascii: "{") else {
        guard let kind = scanner.kindHere() else { throw scanner.invalidValue() }
        var message =
          "expected a TouchTrace document \(Doc.example), found \(kind.phrase)"
        if kind == .array {
          message += " (for one trace object per line, use a .jsonl file)"
        }
        throw documentError(message, at: documentStart)
      }
      return documentStart
    }

    /// Reads one member of the document (cursor on its key), up to the end of its value; for the
    /// traces array, only up to its `[`.
    mutating func readDocumentMember(_ keys: inout DocumentKeys) throws(TraceLoadError) -> DocumentMember {
      guard scanner.peek == UInt8(ascii: "\"") else {
        throw scanner.unexpected(expected: "a key in double quotes")
      }
      let keyMark = scanner.mark
      let key = try scanner.readString()
      scanner.skipWhitespace()
      try scanner.expect(UInt8(ascii: ":"), "':' after the key")
      scanner.skipWhitespace()
      let valueMark = scanner.mark
      guard let valueKind = scanner.kindHere() else { throw scanner.invalidValue() }
      if scanner.string(key, is: Doc.formatKey) {
        try firstTime(&keys.format, Doc.formatKey, at: keyMark)
        guard valueKind == .string else {
          try wrongType(
            Doc.formatKey, expected: "the string \"\(Doc.format)\"", found: valueKind,
            at: valueMark)
        }
        let value = try scanner.readString()
        guard scanner.string(value, is: Doc.format) else {
          throw documentError(
            "'\(Doc.formatKey)' is \"\(scanner.string(value))\"; expected \"\(Doc.format)\"",
            at: valueMark)
        }
      } else if scanner.string(key, is: Doc.versionKey) {
        try firstTime(&keys.version, Doc.versionKey, at: keyMark)
        guard valueKind == .number, scanner.nonJSONNumberWord() == nil else {
          try wrongType(Doc.versionKey, expected: "a number", found: valueKind, at: valueMark)
        }
        let version = try scanner.readNumber()
        guard version == .value(Double(Doc.version)) else {
          throw documentError(
            "unsupported version \(scanner.sourceText(from: valueMark.offset, to: scanner.offset)); this reader supports version \(Doc.version)",
            at: valueMark)
        }
      } else if scanner.string(key, is: Doc.tracesKey) {
        try firstTime(&keys.traces, Doc.tracesKey, at: keyMark)
        guard valueKind == .array else {
          try wrongType(
            Doc.tracesKey, expected: "an array of trace objects", found: valueKind, at: valueMark)
        }
        return keys.format && keys.version ? .traceArray : .tracesFirst
      } else {
        noteUnknownKey(key, at: scanner.position(of: keyMark))
        try scanner.skipValue()
      }
      return .read
    }

    /// After the document's closing `}`: nothing but white space may follow, and every key must
    /// have been seen. `start` is the place of the document's `{`.
    mutating func closeDocument(_ keys: DocumentKeys, start: TextPosition) throws(TraceLoadError) {
      scanner.skipWhitespace()
      guard scanner.atEnd else {
        throw scanner.syntaxError(
          "unexpected \(scanner.describeHere()) after the end of the document", at: scanner.offset)
      }
      for (saw, key) in [
        (keys.format, Doc.formatKey), (keys.version, Doc.versionKey),
        (keys.traces, Doc.tracesKey),
      ]
      where !saw {
        throw TraceLoadError(
          .invalidDocument("missing key '\(key)'; a TouchTrace document is \(Doc.example)"), file: file,
          position: start)
      }
    }

    /// Reads the `traces` array (cursor on its `[`).
    mutating func readTraceArray() throws(TraceLoadError) {
      if scanner.enter(closing: UInt8(ascii: "]")) { return }
      var record = 0
      while true {
        commit(try readRecord(record))
        record += 1
        scanner.skipWhitespace()
        if try scanner.endOfMember(closing: UInt8(ascii: "]")) { return }
      }
    }

    // MARK: JSON Lines

    mutating func readLines() throws(TraceLoadError) {
      var record = 0
      try readLines(firstRecord: &record)
    }

    /// Reads JSON Lines records to the end of the buffer, numbering them from `record` (left at
    /// the next number).
    mutating func readLines(firstRecord record: inout Int) throws(TraceLoadError) {
      while true {
        // Blank lines.
        while scanner.offset < scanner.end {
          let c = scanner.base[scanner.offset]
          if c == 0x20 || c == 0x09 {
            scanner.offset += 1
          } else if c == 0x0A || c == 0x0D {
            scanner.consumeLineBreak()
          } else {
            break
          }
        }
        if scanner.atEnd { return }
        let start = scanner.mark
        do throws(TraceLoadError) {
          let outcome = try readRecord(record)
          scanner.skipWhitespace()
          if !scanner.atEnd, scanner.peek != 0x0A, scanner.peek != 0x0D {
            var error = scanner.syntaxError(
              "unexpected \(scanner.describeHere()) after the trace object; JSON Lines holds one trace object per line",
              at: scanner.offset)
            error.record = record
            error.trace = outcome.traceName
            throw error
          }
          commit(outcome)
        } catch {
          guard options.skipInvalid else { throw error }
          // A line that is not valid JSON is one skipped record; read on at the next line.
          skipped.append(
            SkippedTrace(
              trace: error.trace,
              origin: TraceOrigin(file: file, position: scanner.position(of: start), record: record),
              position: error.position,
              reason: TraceLoadError(error.reason, file: file, field: error.field).message))
          while scanner.offset < scanner.end, scanner.peek != 0x0A, scanner.peek != 0x0D {
            scanner.offset += 1
          }
        }
        record += 1
      }
    }

    // MARK: Records

    /// Reads one element of the traces array or one JSON Lines record.
    ///
    /// Problems with the trace's content become a skipped trace (with `skipInvalid`) or are
    /// thrown; syntax errors are always thrown, with the record as context.
    mutating func readRecord(_ record: Int) throws(TraceLoadError) -> Outcome {
      let start = scanner.mark
      if scanner.peek == UInt8(ascii: "{") { return try readTrace(record: record) }
      guard let kind = scanner.kindHere() else {
        var error = scanner.invalidValue()
        error.record = record
        throw error
      }
      do throws(TraceLoadError) {
        try scanner.skipValue()
      } catch {
        var error = error
        error.record = record
        throw error
      }
      let reason = TraceLoadError.Reason.invalidDocument(
        "a trace must be a JSON object, found \(found(kind, from: start.offset))")
      let position = scanner.position(of: start)
      guard options.skipInvalid else {
        throw TraceLoadError(reason, file: file, position: position, record: record)
      }
      return .skipped(
        SkippedTrace(
          trace: nil, origin: TraceOrigin(file: file, position: position, record: record),
          reason: TraceLoadError(reason, file: file).message))
    }

    /// Reads a trace object (cursor on its `{`) and checks it.
    mutating func readTrace(record: Int) throws(TraceLoadError) -> Outcome {
      var draft = Draft(start: scanner.mark, record: record)
      do throws(TraceLoadError) {
        try readMembers(into: &draft)
      } catch {
        // In strict mode a problem found earlier in the object comes first.
        if !options.skipInvalid, let problem = draft.problem { throw self.error(problem, in: draft) }
        var error = error
        error.record = record
        error.trace = draft.name
        if error.field == nil { error.field = draft.currentKey?.jsonName }
        throw error
      }
      if draft.problem == nil { draft.problem = check(draft) }
      let origin = TraceOrigin(file: file, position: scanner.position(of: draft.start), record: record)
      if let problem = draft.problem {
        guard options.skipInvalid else { throw error(problem, in: draft) }
        return .skipped(
          SkippedTrace(
            trace: draft.name, origin: origin, position: problem.position,
            reason: TraceLoadError(problem.reason, file: file, field: problem.field).message))
      }
      let metadata = TraceMetadata(
        id: draft.id!, touch: draft.touch, intent: draft.intent, pressAt: draft.pressAt,
        user: draft.user, session: draft.session, device: draft.device,
        maxForce: options.maxForce(file: draft.maxForce), timeSynthesized: draft.timeSynthesized,
        labels: draft.labels)
      let trace = Trace(
        metadata: metadata, t: draft.t!, force: draft.force!, phase: draft.phase, x: draft.x,
        y: draft.y, radius: draft.radius)
      trace.checkInvariants()
      capacityHint = max(trace.count, 1)
      return .trace(trace, origin)
    }

    func error(_ problem: Problem, in draft: Draft) -> TraceLoadError {
      TraceLoadError(
        problem.reason, file: file, position: problem.position, record: draft.record,
        field: problem.field, trace: draft.name)
    }

    /// Records the first problem of a trace.
    @inline(__always)
    func note(
      _ draft: inout Draft, _ reason: @autoclosure () -> TraceLoadError.Reason,
      field: String?, at mark: JSONMark
    ) {
      guard draft.problem == nil else { return }
      draft.problem = Problem(reason: reason(), field: field, position: scanner.position(of: mark))
    }

    /// Skips a value of the wrong JSON type and records "'key' must be …, found …".
    mutating func wrongType(_ draft: inout Draft, _ key: JSONTraceKey, expected: String) throws(TraceLoadError) {
      let start = scanner.mark
      guard let kind = scanner.kindHere() else { throw scanner.invalidValue() }
      try scanner.skipValue()
      note(
        &draft, .invalidDocument("'\(key.jsonName)' must be \(expected), found \(found(kind, from: start.offset))"),
        field: key.jsonName, at: start)
    }

    /// Reads the members of a trace object.
    mutating func readMembers(into draft: inout Draft) throws(TraceLoadError) {
      if scanner.enter(closing: UInt8(ascii: "}")) { return }
      while true {
        guard scanner.peek == UInt8(ascii: "\"") else {
          throw scanner.unexpected(expected: "a key in double quotes")
        }
        let keyMark = scanner.mark
        let token = try scanner.readString()
        let key = scanner.withBytes(of: token) { JSONTraceKey(jsonName: $0) }
        scanner.skipWhitespace()
        try scanner.expect(UInt8(ascii: ":"), "':' after the key")
        scanner.skipWhitespace()
        if let key {
          draft.currentKey = key
          if draft.marks[key.rawValue] != nil {
            note(
              &draft, .invalidDocument("key '\(key.jsonName)' appears twice in one trace object"),
              field: key.jsonName, at: keyMark)
            try scanner.skipValue()
          } else {
            draft.marks[key.rawValue] = scanner.mark
            try readValue(of: key, into: &draft)
          }
          draft.currentKey = nil
        } else if scanner.string(token, is: "labels") {
          if draft.sawLabels {
            note(
              &draft, .invalidDocument("key 'labels' appears twice in one trace object"), field: "labels", at: keyMark)
            try scanner.skipValue()
          } else {
            draft.sawLabels = true
            try readLabels(into: &draft)
          }
        } else {
          noteUnknownKey(token, at: scanner.position(of: keyMark))
          try scanner.skipValue()
        }
        scanner.skipWhitespace()
        if try scanner.endOfMember(closing: UInt8(ascii: "}")) { return }
      }
    }

    /// Reads `"labels": {"hand": "left", …}`: extra labels, names as `TraceMetadata.labels` allows,
    /// string values (an empty one is no label).
    mutating func readLabels(into draft: inout Draft) throws(TraceLoadError) {
      let start = scanner.mark
      if scanner.readNull() { return }
      guard scanner.peek == UInt8(ascii: "{") else {
        guard scanner.kindHere() != nil else { throw scanner.invalidValue() }
        try scanner.skipValue()
        return note(&draft, .invalidDocument("'labels' must be an object of strings"), field: "labels", at: start)
      }
      if scanner.enter(closing: UInt8(ascii: "}")) { return }
      while true {
        guard scanner.peek == UInt8(ascii: "\"") else { throw scanner.unexpected(expected: "a key in double quotes") }
        let keyMark = scanner.mark
        let name = scanner.string(try scanner.readString())
        scanner.skipWhitespace()
        try scanner.expect(UInt8(ascii: ":"), "':' after the key")
        scanner.skipWhitespace()
        let valueMark = scanner.mark
        if !TraceMetadata.isValidExtraLabelName(name) || draft.labels[name] != nil {
          try scanner.skipValue()
          note(
            &draft,
            .invalidDocument(
              "label name \(Diagnostic.quoted(name)) is reserved, repeated or not lowercase letters, digits, '_', '-', '.'"
            ),
            field: "labels", at: keyMark)
        } else if scanner.peek == UInt8(ascii: "\"") {
          let value = scanner.string(try scanner.readString())
          if !value.isEmpty { draft.labels[name] = value }
        } else {
          guard scanner.kindHere() != nil else { throw scanner.invalidValue() }
          try scanner.skipValue()
          note(
            &draft, .invalidDocument("label \(Diagnostic.quoted(name)) must be a string"), field: "labels",
            at: valueMark)
        }
        scanner.skipWhitespace()
        if try scanner.endOfMember(closing: UInt8(ascii: "}")) { return }
      }
    }

    mutating func readValue(of key: JSONTraceKey, into draft: inout Draft) throws(TraceLoadError) {
      let start = scanner.mark
      switch key {
      case .id:
        guard scanner.peek == UInt8(ascii: "\"") else {
          return try wrongType(&draft, key, expected: "a string")
        }
        let id = scanner.string(try scanner.readString())
        guard !id.isEmpty else {
          return note(&draft, .trace(.emptyField(key.jsonName)), field: key.jsonName, at: start)
        }
        draft.id = id
      case .touch:
        if scanner.kindHere() == .number, scanner.nonJSONNumberWord() == nil,
          let touch = try scanner.readNonNegativeInteger()
        {
          draft.touch = touch
          return
        }
        if scanner.offset == start.offset {
          guard scanner.kindHere() != nil else { throw scanner.invalidValue() }
          try scanner.skipValue()
        }
        note(
          &draft, .trace(.invalidTouch(scanner.sourceText(from: start.offset, to: scanner.offset))),
          field: key.jsonName, at: start)
      case .intent:
        if scanner.readNull() { return }
        guard scanner.peek == UInt8(ascii: "\"") else {
          guard scanner.kindHere() != nil else { throw scanner.invalidValue() }
          try scanner.skipValue()
          return note(
            &draft, .trace(.unknownIntent(scanner.sourceText(from: start.offset, to: scanner.offset))),
            field: key.jsonName, at: start)
        }
        let word = scanner.string(try scanner.readString())
        guard let intent = Intent(name: word) else {
          return note(&draft, .trace(.unknownIntent(word)), field: key.jsonName, at: start)
        }
        draft.intent = intent
      case .user, .session, .device:
        if scanner.readNull() { return }
        guard scanner.peek == UInt8(ascii: "\"") else {
          return try wrongType(&draft, key, expected: "a string")
        }
        let text = scanner.string(try scanner.readString())
        switch key {
        case .user: draft.user = text
        case .session: draft.session = text
        default: draft.device = text
        }
      case .maxForce:
        if scanner.readNull() { return }
        guard let value = try readNumber(key, into: &draft) else { return }
        guard value > 0 else {
          return note(&draft, .trace(.invalidMaximumForce(value)), field: key.jsonName, at: start)
        }
        draft.maxForce = value
      case .timeSynthesized:
        if scanner.readNull() { return }
        guard let flag = try scanner.readBoolean() else {
          return try wrongType(&draft, key, expected: "true or false")
        }
        draft.timeSynthesized = flag
      case .pressAt:
        if scanner.readNull() { return }
        if let times = try readNumberColumn(key, into: &draft) { draft.pressAt = times }
      case .t:
        draft.t = try readNumberColumn(key, into: &draft)
      case .force:
        draft.force = try readNumberColumn(key, into: &draft)
      case .x:
        if scanner.readNull() { return }
        draft.x = try readNumberColumn(key, into: &draft)
      case .y:
        if scanner.readNull() { return }
        draft.y = try readNumberColumn(key, into: &draft)
      case .radius:
        if scanner.readNull() { return }
        draft.radius = try readNumberColumn(key, into: &draft)
      case .phase:
        if scanner.readNull() { return }
        draft.phase = try readPhaseColumn(into: &draft)
      }
    }

    /// Reads one number value; records a problem and returns `nil` for anything else.
    @inline(__always)
    mutating func readNumber(_ key: JSONTraceKey, into draft: inout Draft) throws(TraceLoadError) -> Double? {
      let start = scanner.mark
      let c = scanner.peek
      if DecimalParser.isDigit(c)
        || (c == UInt8(ascii: "-") && start.offset + 1 < scanner.end
          && DecimalParser.isDigit(scanner.base[start.offset + 1]))
      {
        switch try scanner.readNumber() {
        case .value(let value):
          return value
        default:
          note(
            &draft,
            .trace(.infinite(field: key.jsonName, text: scanner.sourceText(from: start.offset, to: scanner.offset))),
            field: key.jsonName, at: start)
          return nil
        }
      }
      if let word = scanner.readNonJSONNumberWord() {
        note(
          &draft,
          .invalidJSON("'\(word)' is not a JSON value; JSON has no NaN or infinity (write a finite number)"),
          field: key.jsonName, at: start)
        return nil
      }
      guard scanner.kindHere() != nil else { throw scanner.invalidValue() }
      try scanner.skipValue()
      note(
        &draft,
        .trace(.notANumber(field: key.jsonName, text: scanner.sourceText(from: start.offset, to: scanner.offset))),
        field: key.jsonName, at: start)
      return nil
    }

    /// Reads an array of numbers (cursor on the value). A value that is not an array is
    /// recorded as a problem and gives `nil`.
    mutating func readNumberColumn(_ key: JSONTraceKey, into draft: inout Draft) throws(TraceLoadError)
      -> [Double]?
    {
      guard scanner.peek == UInt8(ascii: "[") else {
        try wrongType(&draft, key, expected: "an array of numbers")
        return nil
      }
      var values: [Double] = []
      values.reserveCapacity(draft.t?.count ?? capacityHint)
      if scanner.enter(closing: UInt8(ascii: "]")) { return values }
      while true {
        if let value = scanner.readPlainNumber() {
          values.append(value)
        } else if DecimalParser.isDigit(scanner.peek) {
          // The common case, inlined: a non-negative number.
          let start = scanner.mark
          if case .value(let value) = try scanner.readNumber() {
            values.append(value)
          } else {
            note(
              &draft,
              .trace(.infinite(field: key.jsonName, text: scanner.sourceText(from: start.offset, to: scanner.offset))),
              field: key.jsonName, at: start)
            values.append(0)
          }
        } else {
          values.append(try readNumber(key, into: &draft) ?? 0)
        }
        // Compact arrays ("[1.5,2]") without a call per element.
        let next = scanner.offset + 1
        if next < scanner.end, scanner.base[scanner.offset] == UInt8(ascii: ",") {
          let c = scanner.base[next]
          if c > 0x20 && c != UInt8(ascii: "]") {
            scanner.offset = next
            continue
          }
        } else if scanner.peek == UInt8(ascii: "]") {
          scanner.offset += 1
          return values
        }
        scanner.skipWhitespace()
        if try scanner.endOfMember(closing: UInt8(ascii: "]")) { return values }
      }
    }

    /// Reads an array of phase words (cursor on the value).
    mutating func readPhaseColumn(into draft: inout Draft) throws(TraceLoadError) -> [TouchPhase]? {
      guard scanner.peek == UInt8(ascii: "[") else {
        try wrongType(&draft, .phase, expected: "an array of phase words")
        return nil
      }
      var values: [TouchPhase] = []
      values.reserveCapacity(draft.t?.count ?? capacityHint)
      if scanner.enter(closing: UInt8(ascii: "]")) { return values }
      while true {
        let start = scanner.mark
        if scanner.peek == UInt8(ascii: "\"") {
          let token = try scanner.readString()
          if let phase = scanner.withBytes(of: token, TraceSchema.phase) {
            values.append(phase)
          } else {
            note(&draft, .trace(.unknownPhase(scanner.string(token))), field: JSONTraceKey.phase.jsonName, at: start)
            values.append(.moved)
          }
        } else {
          guard scanner.kindHere() != nil else { throw scanner.invalidValue() }
          try scanner.skipValue()
          note(
            &draft, .trace(.unknownPhase(scanner.sourceText(from: start.offset, to: scanner.offset))),
            field: JSONTraceKey.phase.jsonName, at: start)
          values.append(.moved)
        }
        let next = scanner.offset + 1
        if next < scanner.end, scanner.base[scanner.offset] == UInt8(ascii: ","),
          scanner.base[next] == UInt8(ascii: "\"")
        {
          scanner.offset = next
          continue
        }
        scanner.skipWhitespace()
        if try scanner.endOfMember(closing: UInt8(ascii: "]")) { return values }
      }
    }

    // MARK: Checks after reading

    /// The rules that relate values: required keys, column lengths, the sample rules of
    /// `SampleValidator`, radius, and `press_at` against the trace's span.
    func check(_ draft: Draft) -> Problem? {
      for key in JSONTraceKey.required {
        let present: Bool
        switch key {
        case .id: present = draft.id != nil
        case .t: present = draft.t != nil
        default: present = draft.force != nil
        }
        if !present {
          return Problem(
            reason: .invalidDocument("missing required key '\(key.jsonName)'"), field: key.jsonName,
            position: scanner.position(of: draft.start))
        }
      }
      let t = draft.t!
      let force = draft.force!
      let lengths: [(JSONTraceKey, Int?)] = [
        (.force, force.count), (.phase, draft.phase?.count), (.x, draft.x?.count),
        (.y, draft.y?.count), (.radius, draft.radius?.count),
      ]
      for (key, count) in lengths {
        guard let count, count != t.count else { continue }
        return Problem(
          reason: .invalidDocument(
            "'\(key.jsonName)' has \(count) value\(count == 1 ? "" : "s") but 't' has \(t.count)"),
          field: key.jsonName, position: scanner.position(of: draft.marks[key.rawValue]!))
      }
      guard !t.isEmpty else {
        return Problem(
          reason: .trace(.emptyTrace), field: JSONTraceKey.t.jsonName,
          position: scanner.position(of: draft.marks[JSONTraceKey.t.rawValue]!))
      }
      var validator = SampleValidator(maxForce: options.maxForce(file: draft.maxForce))
      let phase = draft.phase
      let radius = draft.radius
      for i in 0..<t.count {
        if let problem = validator.check(t: t[i], force: force[i], phase: phase?[i]) {
          let key: JSONTraceKey =
            switch problem.field {
            case "t": .t
            case "phase": .phase
            default: .force
            }
          return Problem(reason: .trace(problem), field: key.jsonName, position: elementPosition(key, i, in: draft))
        }
        if let radius, radius[i] < 0 {
          return Problem(
            reason: .trace(.negativeRadius(radius[i])), field: JSONTraceKey.radius.jsonName,
            position: elementPosition(.radius, i, in: draft))
        }
      }
      let first = t[0]
      let last = t[t.count - 1]
      if let problem = Trace.checkPressAt(draft.pressAt, start: first, end: last) {
        // The element checkPressAt stopped at: the first that is out of order or out of span.
        let times = draft.pressAt
        let i =
          times.indices.first { i in
            (i > 0 && times[i] <= times[i - 1]) || times[i] < first || times[i] > last
          } ?? 0
        return Problem(
          reason: .trace(problem), field: JSONTraceKey.pressAt.jsonName,
          position: elementPosition(.pressAt, i, in: draft))
      }
      return nil
    }

    /// The position of element `index` of the array under `key` (re-scanned from its `[`).
    func elementPosition(_ key: JSONTraceKey, _ index: Int, in draft: Draft) -> TextPosition {
      guard let mark = draft.marks[key.rawValue] else { return scanner.position(of: draft.start) }
      var s = scanner
      s.reset(to: mark)
      s.offset += 1
      s.skipWhitespace()
      for _ in 0..<index {
        do throws(TraceLoadError) {
          try s.skipValue()
        } catch {
          break  // Not reached: the array was read before.
        }
        s.skipWhitespace()
        s.offset += 1  // ','
        s.skipWhitespace()
      }
      return s.position
    }
  }
}
