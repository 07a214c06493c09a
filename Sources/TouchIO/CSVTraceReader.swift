import TouchCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The CSV reader's name for a column: a field of the trace schema, named by
/// ``TraceSchema/Field/csvName`` (matched case-insensitively).
typealias CSVColumn = TraceSchema.Field

extension TraceSchema.Field {
  /// Trace-level CSV columns whose value must be the same on every row of a trace, in the order
  /// they are read and compared.
  fileprivate static let csvTraceLevel: [Self] = [
    .maxForce, .intent, .pressAt, .user, .session, .device, .timeSynthesized,
  ]
}

/// Reads the CSV trace format: one row per sample.
///
/// See the TraceFileFormats article for the exact format. Each trace id's rows form one block
/// (the contacts of one id may interleave inside it); with `LoadOptions.wholeFiles` rows of
/// different traces may interleave anywhere. Traces come out in order of first appearance.
struct CSVTraceReader {
  let file: String
  let options: LoadOptions
  /// Whether rows may take the fast path (tests turn it off to compare the two paths).
  var fastPath = true

  /// Reads `bytes` (the whole file; quoted fields are unescaped in place).
  func read(_ bytes: inout [UInt8]) throws(TraceLoadError) -> Dataset {
    let result: Result<Dataset, TraceLoadError> = bytes.withUnsafeMutableBufferPointer { buffer in
      do throws(TraceLoadError) { return .success(try read(buffer)) } catch { return .failure(error) }
    }
    return try result.get()
  }

  /// Reads the whole file in `buffer` (quoted fields are unescaped in place).
  func read(_ buffer: UnsafeMutableBufferPointer<UInt8>) throws(TraceLoadError) -> Dataset {
    var parser = Parser(file: file, options: options)
    parser.fastPath = fastPath
    defer { parser.release() }
    _ = try parser.feed(buffer, final: true)
    var dataset = Dataset(files: [file], diagnostics: parser.diagnostics)
    for unit in parser.units { dataset.append(contentsOf: unit) }
    return dataset
  }
}

extension CSVTraceReader {
  /// A trace being assembled from rows.
  struct Pending {
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
    /// The texts of the trace's first row that later rows must repeat (a copy: the input buffer
    /// changes from chunk to chunk).
    var firstBytes: [UInt8] = []
    /// Where each trace-level column's text is in ``firstBytes`` (offset and length), indexed by
    /// `CSVColumn.rawValue`.
    var firstStart = [Int](repeating: 0, count: CSVColumn.allCases.count)
    var firstLength = [Int](repeating: 0, count: CSVColumn.allCases.count)
    var metadata: TraceMetadata
    /// Where each `label:NAME` column's text is in ``firstBytes``, in `labelFields` order.
    var labelStart: [Int] = []
    var labelLength: [Int] = []
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

  struct Parser {
    var tokenizer: CSVTokenizer
    let file: String
    let options: LoadOptions
    var fastPath = true
    /// Field index of each known column, `-1` when absent.
    var index = [Int](repeating: -1, count: CSVColumn.allCases.count)
    var tField = -1, forceField = -1, phaseField = -1, xField = -1, yField = -1, radiusField = -1
    var idField = -1, touchField = -1
    var headerCount = 0
    /// The trace-level columns the file has, with their field indices.
    var traceLevelFields: [(column: CSVColumn, field: Int)] = []
    /// The `label:NAME` columns (extra labels): label name and field index.
    var labelFields: [(name: String, field: Int)] = []
    /// What the fast row path does with each field, in header order (a `FieldAction` raw
    /// value per field; allocated in `readHeader`, freed by `release()`).
    var actions = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    /// For the active trace: offset and length in ``firstStore`` of each field's text on its
    /// first row (used for `FieldAction.same` fields), and which trace they were taken for.
    var firstText = UnsafeMutablePointer<(start: Int, length: Int)>.allocate(capacity: 1)
    var firstTextTrace = -1
    /// A copy of the active trace's `firstBytes` the fast path compares rows with.
    var firstStore = UnsafeMutablePointer<UInt8>.allocate(capacity: 8)
    var firstStoreCapacity = 8
    /// Whether each trace id's rows must form one block (not with `wholeFiles`): a block ends
    /// when another id's row comes, and its traces are complete.
    let blocks: Bool
    /// Whether the header has been read.
    var headerDone = false
    /// The line of the next unread byte after `feed(_:final:atFileStart:)`.
    var nextLine = 1
    /// The delimiter and numeric fields the header decided (kept from chunk to chunk).
    var delimiter = UInt8(ascii: ",")
    var numericFields: [Bool] = []
    /// Complete traces (and skips), one dataset per block of rows, in file order; the owner
    /// takes them.
    var units: [Dataset] = []
    /// The id of the current block, its bytes, and its first and last row lines.
    var blockID: String?
    var blockKey: [UInt8] = []
    var blockFirstLine = 0
    var blockLastLine = 0
    /// The line the current row starts on.
    var rowLine = 0
    /// The line range of each finished block's id (the first block of the id).
    var finishedBlocks: [TraceKeyDigest: ClosedRange<Int>] = [:]
    /// Why the current block's traces are skipped (the id came back), with the position.
    var reappeared: (reason: String, position: TextPosition)?

    /// The fast path's treatment of one field.
    enum FieldAction: UInt8 {
      case skip, phase, t, force, x, y, radius
      /// Must repeat the trace's first-row text (trace id, contact, trace-level values).
      case same
    }
    /// Traces in order of first appearance. The trace of the current row lives in `active`
    /// while its rows arrive (its slot here holds an empty placeholder), so appending a sample
    /// touches one array level only.
    var pending: [Pending] = []
    var active = Pending(id: "", touch: 0, key: [], origin: TraceOrigin(file: ""))
    var activeIndex = -1
    /// The active trace's samples since it became active; moved into its arrays when another
    /// trace becomes active and at the end of the file.
    var stagedT = RawColumn<Double>()
    var stagedForce = RawColumn<Double>()
    var stagedPhase = RawColumn<TouchPhase>()
    var stagedX = RawColumn<Double>()
    var stagedY = RawColumn<Double>()
    var stagedRadius = RawColumn<Double>()
    var lookup: [TraceKey: Int] = [:]
    var diagnostics: [Diagnostic] = []
    var skipped: [SkippedTrace] = []
    /// Whether the previous row had an empty trace id (consecutive ones form one skip).
    var anonymousOpen = false

    struct TraceKey: Hashable {
      var id: String
      var touch: Int
    }

    init(file: String, options: LoadOptions) {
      self.tokenizer = CSVTokenizer(UnsafeMutableBufferPointer(start: nil, count: 0), file: file)
      self.file = file
      self.options = options
      self.blocks = !options.wholeFiles
    }

    /// Frees the parser's storage; call once, when done (also after an error).
    mutating func release() {
      actions.deallocate()
      firstText.deallocate()
      firstStore.deallocate()
      for column in [stagedT, stagedForce, stagedX, stagedY, stagedRadius] { column.free() }
      stagedPhase.free()
    }

    /// Reads the rows in `buffer`, which starts at a line start (line `nextLine`) and, unless
    /// `final`, ends just after a line ending. Completed blocks go to `units`. Returns how many
    /// bytes were consumed: a row whose quoted field goes past the end of a non-final buffer is
    /// left unread (with the bytes after it) for the next call, which must start with them.
    /// With `final` the input ends here: the last block is completed.
    mutating func feed(_ buffer: UnsafeMutableBufferPointer<UInt8>, final: Bool, atFileStart: Bool = true)
      throws(TraceLoadError) -> Int
    {
      tokenizer = CSVTokenizer(buffer, file: file, atFileStart: atFileStart)
      tokenizer.final = final
      tokenizer.line = nextLine
      if !headerDone {
        guard try readHeader() else {
          nextLine = tokenizer.line
          return tokenizer.position
        }
        headerDone = true
        delimiter = tokenizer.delimiter
        numericFields = tokenizer.numericFields
      } else {
        tokenizer.delimiter = delimiter
        tokenizer.numericFields = numericFields
      }
      var row = CSVRow(capacity: headerCount + 1)
      defer { row.deallocate() }
      while true {
        tokenizer.skipIgnorableLines()
        if tokenizer.atEnd { break }
        rowLine = tokenizer.line
        if fastPath && fastRow() {
          blockLastLine = rowLine
          continue
        }
        let saved = (tokenizer.position, tokenizer.line, tokenizer.lineStart)
        do throws(TraceLoadError) {
          try tokenizer.readRow(into: &row)
        } catch {
          guard tokenizer.incomplete else { throw error }
          tokenizer.incomplete = false
          (tokenizer.position, tokenizer.line, tokenizer.lineStart) = saved
          break
        }
        try handle(row)
      }
      nextLine = tokenizer.line
      if final { try finish() }
      return tokenizer.position
    }

    // MARK: Header

    /// The label a column named `label:NAME` holds (`NAME`), else `nil`. Compared by UTF-8 bytes,
    /// not by characters: a name that starts with a combining mark joins the prefix's colon into
    /// one character, and `hasPrefix` then misses it (a fuzzer finding).
    static func extraLabel(named name: String) -> String? {
      let prefix = TraceMetadata.csvLabelPrefix.utf8
      guard name.utf8.starts(with: prefix) else { return nil }
      return String(decoding: name.utf8.dropFirst(prefix.count), as: UTF8.self)
    }

    /// Reads the header row; `false` when the buffer (not final) ends before it does.
    mutating func readHeader() throws(TraceLoadError) -> Bool {
      tokenizer.skipIgnorableLines()
      guard !tokenizer.atEnd else {
        guard tokenizer.final else { return false }
        throw TraceLoadError(.missingHeader, file: file, position: TextPosition(line: tokenizer.line, column: 1))
      }
      tokenizer.delimiter = options.delimiter?.byte ?? tokenizer.detectDelimiter()
      var header = CSVRow(capacity: 16)
      defer { header.deallocate() }
      let headerLine = tokenizer.line
      let saved = (tokenizer.position, tokenizer.line, tokenizer.lineStart)
      do throws(TraceLoadError) {
        try tokenizer.readRow(into: &header)
      } catch {
        guard tokenizer.incomplete else { throw error }
        tokenizer.incomplete = false
        (tokenizer.position, tokenizer.line, tokenizer.lineStart) = saved
        return false
      }
      headerCount = header.count
      var unknown: [String] = []
      for k in 0..<header.count {
        let name = tokenizer.string(k, in: header).lowercased()
        if let column = CSVColumn(csvName: name) {
          guard index[column.rawValue] < 0 else {
            throw TraceLoadError(
              .duplicateColumn(name), file: file, position: tokenizer.position(of: k, in: header))
          }
          index[column.rawValue] = k
        } else if let label = Self.extraLabel(named: name), TraceMetadata.isValidExtraLabelName(label) {
          guard !labelFields.contains(where: { $0.name == label }) else {
            throw TraceLoadError(.duplicateColumn(name), file: file, position: tokenizer.position(of: k, in: header))
          }
          labelFields.append((label, k))
        } else {
          unknown.append(name)
        }
      }
      for required in CSVColumn.required where index[required.rawValue] < 0 {
        throw TraceLoadError(
          .missingColumn(required.csvName, found: (0..<header.count).map { tokenizer.string($0, in: header) }),
          file: file,
          position: TextPosition(line: headerLine, column: 1))
      }
      if !unknown.isEmpty {
        let list = unknown.map { Diagnostic.quoted($0) }.joined(separator: ", ")
        // `label_hand`, `label-hand`: meant as an extra label, whose column is `label:hand`.
        let meant = unknown.first { $0.hasPrefix("label_") || $0.hasPrefix("label-") }
        let hint =
          meant.map {
            " (an extra label's column is named \(TraceMetadata.csvLabelPrefix)NAME: \(Diagnostic.quoted(TraceMetadata.csvLabelPrefix + $0.dropFirst(6))))"
          } ?? ""
        diagnostics.append(
          Diagnostic(
            .warning, "ignoring unknown column\(unknown.count == 1 ? "" : "s") \(list)\(hint)", file: file,
            position: TextPosition(line: headerLine, column: 1)))
      }
      idField = index[CSVColumn.id.rawValue]
      touchField = index[CSVColumn.touch.rawValue]
      tField = index[CSVColumn.t.rawValue]
      forceField = index[CSVColumn.force.rawValue]
      phaseField = index[CSVColumn.phase.rawValue]
      xField = index[CSVColumn.x.rawValue]
      yField = index[CSVColumn.y.rawValue]
      radiusField = index[CSVColumn.radius.rawValue]
      var numeric = [Bool](repeating: false, count: headerCount)
      for column in [CSVColumn.t, .force, .x, .y, .radius, .maxForce] where index[column.rawValue] >= 0 {
        numeric[index[column.rawValue]] = true
      }
      tokenizer.numericFields = numeric
      actions.deallocate()
      firstText.deallocate()
      actions = .allocate(capacity: headerCount)
      firstText = .allocate(capacity: headerCount)
      firstText.initialize(repeating: (0, 0), count: headerCount)
      for k in 0..<headerCount {
        let action: FieldAction
        switch CSVColumn.allCases.first(where: { index[$0.rawValue] == k }) {
        case nil: action = .skip
        case .phase: action = .phase
        case .t: action = .t
        case .force: action = .force
        case .x: action = .x
        case .y: action = .y
        case .radius: action = .radius
        case .id, .touch, .maxForce, .intent, .pressAt, .user, .session, .device, .timeSynthesized:
          action = .same
        }
        actions[k] = labelFields.contains(where: { $0.field == k }) ? FieldAction.same.rawValue : action.rawValue
      }
      traceLevelFields = CSVColumn.csvTraceLevel.compactMap { column in
        index[column.rawValue] >= 0 ? (column, index[column.rawValue]) : nil
      }
      return true
    }

    // MARK: Rows

    /// Reads the row at the tokenizer's position when it is the common case — another valid
    /// sample of the active trace, no quotes, no spaces to trim, trace-level values spelled as on
    /// the trace's first row — straight into the trace's columns. Returns `false` (having changed
    /// nothing) for anything else; the general path then reads the row and reports problems.
    /// Both paths give the same result for every row the fast path accepts.
    @inline(__always)
    mutating func fastRow() -> Bool {
      guard activeIndex >= 0, active.problem == nil, active.validator.count > 0 else { return false }
      if firstTextTrace != activeIndex { cacheFirstText() }
      let base = tokenizer.base
      let count = tokenizer.count
      let delimiter = tokenizer.delimiter
      let powers = tokenizer.powers
      let integerPowers = tokenizer.integerPowers
      let actions = self.actions
      let firstText = self.firstText
      let firstStore = self.firstStore
      let storeEnd = firstStore + firstStoreCapacity
      let (hasX, hasY, hasRadius) = (active.hasX, active.hasY, active.hasRadius)
      var p = tokenizer.position
      var t = 0.0
      var force = 0.0
      var x = 0.0
      var y = 0.0
      var radius = 0.0
      var phase: TouchPhase?
      let last = headerCount - 1
      for k in 0...last {
        let action = FieldAction(rawValue: actions[k]).unsafelyUnwrapped
        var end: Int
        switch action {
        case .t, .force, .x, .y, .radius:
          if (action == .x && !hasX) || (action == .y && !hasY) || (action == .radius && !hasRadius) {
            end = p  // the trace has no value in this column: the field must be empty
          } else {
            guard
              let (value, length) = DecimalParser.parsePrefix(
                base + p, limit: count - p, powers: powers, integerPowers: integerPowers)
            else { return false }
            end = p + length
            switch action {
            case .t: t = value
            case .force: force = value
            case .x: x = value
            case .y: y = value
            default: radius = value
            }
          }
        case .same:
          end = tokenizer.scanToFieldEnd(from: p, delimiter: delimiter)
          let first = firstText[k]
          guard end - p == first.length,
            Self.bytesEqual(firstStore + first.start, base + p, first.length, endA: storeEnd, endB: base + count)
          else { return false }
        case .phase:
          end = tokenizer.scanToFieldEnd(from: p, delimiter: delimiter)
          guard let word = TraceSchema.phase(base + p, count: end - p) else { return false }
          phase = word
        case .skip:
          guard p >= count || base[p] != UInt8(ascii: "\"") else { return false }
          end = tokenizer.scanToFieldEnd(from: p, delimiter: delimiter)
        }
        if k < last {
          guard end < count, base[end] == delimiter else { return false }
          p = end + 1
        } else {
          guard end == count || base[end] == 0x0A || base[end] == 0x0D else { return false }
          p = end
        }
      }
      guard radius >= 0, active.validator.accept(t: t, force: force, phase: phase) else { return false }
      stage(t: t, force: force, phase: phase, x: x, y: y, radius: radius)
      tokenizer.position = p
      tokenizer.consumeLineEnd()
      return true
    }

    /// Copies the active trace's first-row texts into `firstStore` and their positions into
    /// `firstText` (by field index).
    mutating func cacheFirstText() {
      if active.firstBytes.count + 8 > firstStoreCapacity {
        firstStore.deallocate()
        firstStoreCapacity = active.firstBytes.count + 8
        firstStore = .allocate(capacity: firstStoreCapacity)
      }
      firstStore.initialize(repeating: 0, count: firstStoreCapacity)
      active.firstBytes.withUnsafeBufferPointer { bytes in
        if let source = bytes.baseAddress { firstStore.update(from: source, count: bytes.count) }
      }
      for k in 0..<headerCount { firstText[k] = (0, 0) }
      for column in CSVColumn.allCases where index[column.rawValue] >= 0 {
        firstText[index[column.rawValue]] = (active.firstStart[column.rawValue], active.firstLength[column.rawValue])
      }
      for (k, label) in labelFields.enumerated() {
        firstText[label.field] = (active.labelStart[k], active.labelLength[k])
      }
      firstTextTrace = activeIndex
    }

    /// Whether the `n` bytes at `a` and at `b` are equal. Compares eight bytes at a time; the
    /// last partial word is compared under a mask when eight bytes can be read before `endA` and
    /// `endB` (the ends of the buffers the pointers are in).
    @inline(__always)
    static func bytesEqual(
      _ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int, endA: UnsafePointer<UInt8>,
      endB: UnsafePointer<UInt8>
    ) -> Bool {
      var i = 0
      while i + 8 <= n {
        let wa = UnsafeRawPointer(a + i).loadUnaligned(as: UInt64.self)
        let wb = UnsafeRawPointer(b + i).loadUnaligned(as: UInt64.self)
        if wa != wb { return false }
        i += 8
      }
      let rest = n - i
      if rest == 0 { return true }
      if a + i + 8 <= endA, b + i + 8 <= endB {
        let mask = (UInt64(1) << UInt64(rest * 8)) &- 1
        let wa = UInt64(littleEndian: UnsafeRawPointer(a + i).loadUnaligned(as: UInt64.self))
        let wb = UInt64(littleEndian: UnsafeRawPointer(b + i).loadUnaligned(as: UInt64.self))
        return (wa ^ wb) & mask == 0
      }
      while i < n {
        if a[i] != b[i] { return false }
        i += 1
      }
      return true
    }

    /// Handles one data row.
    mutating func handle(_ row: CSVRow) throws(TraceLoadError) {
      guard row.count == headerCount else {
        let position =
          row.count > headerCount
          ? tokenizer.position(of: headerCount, in: row) : tokenizer.positionAfter(row)
        return try failRow(
          row, TraceLoadError(.fieldCount(expected: headerCount, found: row.count), file: file, position: position))
      }

      // Which trace: id plus contact number.
      guard row.length(idField) > 0 else {
        let error = TraceLoadError(
          .trace(.emptyField(CSVColumn.id.csvName)), file: file, position: tokenizer.position(of: idField, in: row))
        guard options.skipInvalid else { throw error }
        if !anonymousOpen {
          anonymousOpen = true
          skipped.append(
            SkippedTrace(trace: nil, origin: TraceOrigin(file: file, position: error.position), reason: error.message))
        }
        return
      }
      anonymousOpen = false
      var touch = 0
      var touchProblem: TraceProblem?
      if touchField >= 0, row.length(touchField) > 0 {
        if let value = DecimalParser.parseInteger(tokenizer.base + row.start(touchField), count: row.length(touchField))
        {
          touch = value
        } else {
          touchProblem = .invalidTouch(tokenizer.string(touchField, in: row))
        }
      }
      try activate(row, touch: touch)
      if active.problem != nil { return }
      if let touchProblem {
        return try fail(touchProblem, at: tokenizer.position(of: touchField, in: row))
      }
      try appendSample(row)
    }

    /// A row-level error (wrong field count): attribute it to the row's trace when the id can
    /// be read, otherwise to an unnamed skip.
    mutating func failRow(_ row: CSVRow, _ error: TraceLoadError) throws(TraceLoadError) {
      guard options.skipInvalid else {
        var error = error
        if idField < row.count, row.length(idField) > 0 { error.trace = tokenizer.string(idField, in: row) }
        throw error
      }
      guard idField < row.count, row.length(idField) > 0 else {
        skipped.append(
          SkippedTrace(trace: nil, origin: TraceOrigin(file: file, position: error.position), reason: error.message))
        return
      }
      try activate(row, touch: 0)
      if active.problem == nil, let position = error.position { active.problem = (error.message, position) }
    }

    /// Makes the row's trace the active one, creating it on first sight. A row of another id
    /// ends the current block (its traces are complete, see ``units``); an id whose block has
    /// ended is refused (strict) or its new block skipped, unless whole files are read.
    @inline(__always)
    mutating func activate(_ row: CSVRow, touch: Int) throws(TraceLoadError) {
      let start = tokenizer.base + row.start(idField)
      let length = row.length(idField)
      if activeIndex >= 0, active.touch == touch, active.key.count == length,
        active.key.withUnsafeBufferPointer({ memcmp($0.baseAddress!, start, length) == 0 })
      {
        blockLastLine = rowLine
        return
      }
      if activeIndex >= 0 {
        flushStaged()
        swap(&active, &pending[activeIndex])
        activeIndex = -1
      }
      let id = String(decoding: UnsafeBufferPointer(start: start, count: length), as: UTF8.self)
      let sameBlock =
        blockID != nil && blockKey.count == length
        && blockKey.withUnsafeBufferPointer({ memcmp($0.baseAddress!, start, length) == 0 })
      if !sameBlock {
        if blocks, blockID != nil { try endBlock() }
        blockID = id
        blockKey = Array(UnsafeBufferPointer(start: start, count: length))
        blockFirstLine = rowLine
        reappeared = nil
        if blocks, let first = finishedBlocks[TraceKeyDigest(id: id)] {
          let position = tokenizer.position(of: idField, in: row)
          let error = TraceLoadError(
            .traceRowsApart(id, firstLines: first, remedy: remedy), file: file, position: position,
            trace: TraceMetadata(id: id, touch: touch).name)
          guard options.skipInvalid else { throw error }
          reappeared = (error.message, position)
        }
      }
      blockLastLine = rowLine
      let key = TraceKey(id: id, touch: touch)
      let target: Int
      if let existing = lookup[key] {
        target = existing
      } else {
        var item = Pending(
          id: id, touch: touch, key: Array(UnsafeBufferPointer(start: start, count: length)),
          origin: TraceOrigin(file: file, position: tokenizer.position(of: 0, in: row)))
        item.problem = reappeared
        pending.append(item)
        target = pending.count - 1
        lookup[key] = target
      }
      swap(&active, &pending[target])
      activeIndex = target
    }

    /// What to do about rows of a trace that are not together: the sort command for this file
    /// (right when the trace column is not quoted and no line break is inside a quoted field),
    /// or `--whole-files`.
    var remedy: String {
      let name = file == TraceFiles.standardInputName ? "traces.csv" : file
      func shell(_ text: String) -> String {
        "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
      }
      let quoted = shell(name)
      let base = name.lowercased().hasSuffix(".csv") ? String(name.dropLast(4)) : name
      let output = shell(base + "-sorted.csv")
      let separator = delimiter == 0x09 ? "$'\\t'" : "'\(Character(UnicodeScalar(delimiter)))'"
      let column = idField + 1
      return
        "sort the file by trace, keeping each trace's rows in order (a stable sort): (head -n 1 \(quoted); tail -n +2 \(quoted) | sort -s -t \(separator) -k \(column),\(column)) > \(output); or pass --whole-files (memory then grows with the file)"
    }

    /// Completes the current block: its traces (and the skips met so far) become a unit.
    mutating func endBlock() throws(TraceLoadError) {
      if let id = blockID {
        let key = TraceKeyDigest(id: id)
        if finishedBlocks[key] == nil { finishedBlocks[key] = blockFirstLine...max(blockFirstLine, blockLastLine) }
      }
      let items = pending
      pending = []
      lookup = [:]
      firstTextTrace = -1
      units.append(try complete(items))
    }

    /// Moves the staged samples into the active trace's arrays.
    mutating func flushStaged() {
      stagedT.drain(into: &active.t)
      stagedForce.drain(into: &active.force)
      stagedPhase.drain(into: &active.phase)
      stagedX.drain(into: &active.x)
      stagedY.drain(into: &active.y)
      stagedRadius.drain(into: &active.radius)
    }

    /// Records the first problem of the active trace; throws in strict mode.
    mutating func fail(_ problem: TraceProblem, at position: TextPosition) throws(TraceLoadError) {
      guard options.skipInvalid else {
        throw TraceLoadError(.trace(problem), file: file, position: position, trace: active.name)
      }
      if active.problem == nil {
        active.problem = (TraceLoadError(.trace(problem), file: file).message, position)
      }
    }

    /// Parses a number field; `nil` (with the problem recorded) on failure.
    @inline(__always)
    mutating func number(_ row: CSVRow, _ field: Int, _ column: CSVColumn) throws(TraceLoadError) -> Double? {
      if row.fields[field].hasValue { return row.fields[field].value }
      let length = row.length(field)
      if length > 0, case .value(let value) = DecimalParser.parse(tokenizer.base + row.start(field), count: length) {
        return value
      }
      try failNumber(row, field, column)
      return nil
    }

    /// Records why a number field could not be read.
    mutating func failNumber(_ row: CSVRow, _ field: Int, _ column: CSVColumn) throws(TraceLoadError) {
      let position = tokenizer.position(of: field, in: row)
      let length = row.length(field)
      guard length > 0 else { return try fail(.emptyField(column.csvName), at: position) }
      let text = tokenizer.string(field, in: row)
      switch DecimalParser.parse(tokenizer.base + row.start(field), count: length) {
      case .value: return
      case .invalid: try fail(.notANumber(field: column.csvName, text: text), at: position)
      case .nan: try fail(.notANumberValue(field: column.csvName, text: text), at: position)
      case .infinity: try fail(.infinite(field: column.csvName, text: text), at: position)
      }
    }

    /// Parses the phase word of a row.
    @inline(__always)
    func phaseWord(_ row: CSVRow, _ field: Int) -> TouchPhase? {
      TraceSchema.phase(tokenizer.base + row.start(field), count: row.length(field))
    }

    /// Reads an optional per-sample column (x, y, radius): present on every row of a trace or
    /// on none. Returns `nil` when the trace has no value (or after recording a problem).
    @inline(__always)
    mutating func optionalNumber(_ row: CSVRow, _ field: Int, _ column: CSVColumn, has: Bool)
      throws(TraceLoadError) -> Double?
    {
      let present = row.length(field) > 0
      if present != has {
        try fail(.partialColumn(column.csvName), at: tokenizer.position(of: field, in: row))
        return nil
      }
      return present ? try number(row, field, column) : nil
    }

    mutating func appendSample(_ row: CSVRow) throws(TraceLoadError) {
      if active.validator.count == 0 { try readTraceLevel(row) } else { try compareTraceLevel(row) }
      if active.problem != nil { return }

      guard let t = try number(row, tField, .t), let force = try number(row, forceField, .force) else { return }
      var phase: TouchPhase?
      if phaseField >= 0 {
        guard row.length(phaseField) > 0 else {
          return try fail(.emptyField(CSVColumn.phase.csvName), at: tokenizer.position(of: phaseField, in: row))
        }
        guard let word = phaseWord(row, phaseField) else {
          return try fail(
            .unknownPhase(tokenizer.string(phaseField, in: row)), at: tokenizer.position(of: phaseField, in: row))
        }
        phase = word
      }
      var x = 0.0
      var y = 0.0
      var radius = 0.0
      if xField >= 0 {
        let value = try optionalNumber(row, xField, .x, has: active.hasX)
        if active.problem != nil { return }
        x = value ?? 0
      }
      if yField >= 0 {
        let value = try optionalNumber(row, yField, .y, has: active.hasY)
        if active.problem != nil { return }
        y = value ?? 0
      }
      if radiusField >= 0 {
        let value = try optionalNumber(row, radiusField, .radius, has: active.hasRadius)
        if active.problem != nil { return }
        radius = value ?? 0
        if radius < 0 {
          return try fail(.negativeRadius(radius), at: tokenizer.position(of: radiusField, in: row))
        }
      }

      if let problem = active.validator.check(t: t, force: force, phase: phase) {
        let field: Int
        switch problem.field {
        case "t": field = tField
        case "phase": field = phaseField >= 0 ? phaseField : tField
        default: field = forceField
        }
        return try fail(problem, at: tokenizer.position(of: field, in: row))
      }
      stage(t: t, force: force, phase: phase, x: x, y: y, radius: radius)
    }

    /// Appends a validated sample to the active trace.
    @inline(__always)
    mutating func stage(t: Double, force: Double, phase: TouchPhase?, x: Double, y: Double, radius: Double) {
      stagedT.append(t)
      stagedForce.append(force)
      if let phase { stagedPhase.append(phase) }
      if active.hasX { stagedX.append(x) }
      if active.hasY { stagedY.append(y) }
      if active.hasRadius { stagedRadius.append(radius) }
    }

    // MARK: Trace-level columns

    /// Reads the trace-level values from a trace's first row.
    mutating func readTraceLevel(_ row: CSVRow) throws(TraceLoadError) {
      active.hasX = xField >= 0 && row.length(xField) > 0
      active.hasY = yField >= 0 && row.length(yField) > 0
      active.hasRadius = radiusField >= 0 && row.length(radiusField) > 0
      active.firstBytes.removeAll(keepingCapacity: true)
      func keep(_ field: Int) -> (start: Int, length: Int) {
        let start = active.firstBytes.count
        let length = row.length(field)
        active.firstBytes.append(
          contentsOf: UnsafeBufferPointer(start: tokenizer.base + row.start(field), count: length))
        return (start, length)
      }
      for column in [CSVColumn.id, .touch] where index[column.rawValue] >= 0 {
        (active.firstStart[column.rawValue], active.firstLength[column.rawValue]) = keep(index[column.rawValue])
      }
      active.labelStart = []
      active.labelLength = []
      for label in labelFields {
        let (start, length) = keep(label.field)
        active.labelStart.append(start)
        active.labelLength.append(length)
      }
      for (column, field) in traceLevelFields {
        (active.firstStart[column.rawValue], active.firstLength[column.rawValue]) = keep(field)
      }
      for (name, field) in labelFields where row.length(field) > 0 {
        active.metadata.labels[name] = tokenizer.string(field, in: row)
      }
      var maxForce = options.maxForce
      for (column, field) in traceLevelFields {
        let length = row.length(field)
        guard length > 0 else { continue }
        let text = tokenizer.string(field, in: row)
        let position = tokenizer.position(of: field, in: row)
        switch column {
        case .maxForce:
          guard let value = try number(row, field, .maxForce) else { return }
          guard value > 0 else { return try fail(.invalidMaximumForce(value), at: position) }
          maxForce = options.maxForce(file: value)
        case .intent:
          guard let intent = Intent(name: text) else { return try fail(.unknownIntent(text), at: position) }
          active.metadata.intent = intent
        case .pressAt:
          guard let times = try pressAt(row, field) else { return }
          active.metadata.pressAt = times
          active.pressAtPosition = position
        case .user: active.metadata.user = text
        case .session: active.metadata.session = text
        case .device: active.metadata.device = text
        case .timeSynthesized:
          guard let flag = TraceSchema.boolean(text) else {
            return try fail(.invalidBoolean(field: column.csvName, text: text), at: position)
          }
          active.metadata.timeSynthesized = flag
        default: continue
        }
      }
      active.metadata.maxForce = maxForce
      active.validator = SampleValidator(maxForce: maxForce)
    }

    /// Checks that a later row repeats the first row's trace-level values.
    @inline(__always)
    mutating func compareTraceLevel(_ row: CSVRow) throws(TraceLoadError) {
      for k in 0..<traceLevelFields.count {
        let (column, field) = traceLevelFields[k]
        let length = row.length(field)
        let firstStart = active.firstStart[column.rawValue]
        let same =
          active.firstLength[column.rawValue] == length
          && (length == 0
            || active.firstBytes.withUnsafeBufferPointer {
              memcmp($0.baseAddress! + firstStart, tokenizer.base + row.start(field), length) == 0
            })
        if !same { try compareSlow(row, field, column) }
      }
      for k in labelFields.indices {
        let field = labelFields[k].field
        let length = row.length(field)
        let first = active.labelStart[k]
        guard
          active.labelLength[k] != length
            || (length > 0
              && active.firstBytes.withUnsafeBufferPointer {
                memcmp($0.baseAddress! + first, tokenizer.base + row.start(field), length) != 0
              })
        else { continue }
        let firstText = String(decoding: active.firstBytes[first..<first + active.labelLength[k]], as: UTF8.self)
        try fail(
          .metadataDiffers(
            field: TraceMetadata.csvLabelPrefix + labelFields[k].name, first: firstText,
            now: tokenizer.string(field, in: row)),
          at: tokenizer.position(of: field, in: row))
      }
    }

    /// The values are spelled differently: numbers may still mean the same.
    mutating func compareSlow(_ row: CSVRow, _ field: Int, _ column: CSVColumn) throws(TraceLoadError) {
      let length = row.length(field)
      let start = tokenizer.base + row.start(field)
      let firstStart = active.firstStart[column.rawValue]
      let first = Array(active.firstBytes[firstStart..<firstStart + active.firstLength[column.rawValue]])
      if length > 0, !first.isEmpty {
        if column == .maxForce, case .value(let value) = DecimalParser.parse(start, count: length),
          value == active.metadata.maxForce
        {
          return
        }
        if column == .pressAt, let times = try pressAt(row, field, quiet: true), times == active.metadata.pressAt {
          return
        }
      }
      try fail(
        .metadataDiffers(
          field: column.csvName, first: String(decoding: first, as: UTF8.self), now: tokenizer.string(field, in: row)),
        at: tokenizer.position(of: field, in: row))
    }

    /// Parses a `;`-separated list of seconds.
    mutating func pressAt(_ row: CSVRow, _ field: Int, quiet: Bool = false) throws(TraceLoadError) -> [Double]? {
      switch TraceSchema.pressAtTimes(tokenizer.base + row.start(field), count: row.length(field)) {
      case .success(let times): return times
      case .failure(let failure):
        if !quiet { try fail(failure.problem, at: tokenizer.position(of: field, in: row)) }
        return nil
      }
    }

    // MARK: End of file

    /// Completes the last block at the end of the file.
    mutating func finish() throws(TraceLoadError) {
      if activeIndex >= 0 {
        flushStaged()
        swap(&active, &pending[activeIndex])
        activeIndex = -1
      }
      if !pending.isEmpty || !skipped.isEmpty { try endBlock() }
      blockID = nil
    }

    /// The traces of `items` (a finished block, or the whole file with `wholeFiles`) and the
    /// skips met since the last unit, in file order of where each starts.
    mutating func complete(_ items: [Pending]) throws(TraceLoadError) -> Dataset {
      var dataset = Dataset()
      dataset.skipped = skipped
      skipped = []
      for var item in items {
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
          phase: phaseField >= 0 ? item.phase : nil,
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
