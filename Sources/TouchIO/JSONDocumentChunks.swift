import TouchCore

/// Reading a JSON document (`{"format": "touchtrace", "version": 1, "traces": [...]}`) in chunks,
/// trace by trace, so memory holds one chunk and the trace being read, not the file.
///
/// The reader parses a piece (the head up to the traces array, one trace object, one member
/// after the array) only once the framer (`JSONScanner+Framing`) finds all of it in the buffer,
/// with the same parser a whole read uses: the same traces, skips, warnings and errors, at the
/// same lines and columns, whatever the chunks. The head is parsed again from the file's first
/// byte until the traces array starts; nothing is consumed before that. A document whose traces
/// come before its `format` and `version` (a whole read checks those first), or that ends without
/// a traces array, is read whole.
extension JSONTraceReader {
  /// What carries from one chunk of a JSON document to the next.
  struct DocumentState {
    enum Phase {
      /// Before the traces array: the head is read from the start of the file.
      case head
      /// Inside the traces array, before an element.
      case element
      /// After a member's value (the traces array's `]` included): `,` or `}` comes next.
      case separator
      /// After a comma, before a member's key.
      case member
      /// After the document's `}`: only white space may follow.
      case trailing
      case done
    }

    var phase = Phase.head
    /// The line of the next chunk's first byte, from 1.
    var line = 1
    /// The column of the next chunk's first byte on its line, from 1.
    var column = 1
    /// The number of the next trace object, from 0.
    var record = 0
    var keys = Parser.DocumentKeys()
    /// The place of the document's `{`.
    var start = TextPosition(line: 1, column: 1)
    /// Unknown keys in order of first appearance, and where the first one is.
    var unknownKeys: [String] = []
    var unknownKeyPosition: TextPosition?

    /// The warning about unknown keys, once the whole document has been read.
    func diagnostics(file: String) -> [Diagnostic] {
      LineState(unknownKeys: unknownKeys, unknownKeyPosition: unknownKeyPosition).diagnostics(file: file)
    }
  }

  /// Reads what the buffer holds of a JSON document: the bytes from where the last call stopped
  /// (the whole buffer is the file's first bytes while `state.phase` is `.head`), `final` when
  /// they run to the end of the input.
  ///
  /// - Returns: the traces and skips read, their diagnostics and files left empty (the unknown keys
  ///   collect in `state`), and how many bytes were consumed (the next call's buffer starts after
  ///   them); `nil` when the document must be read whole (see the extension's summary).
  func readDocument(
    _ buffer: UnsafeBufferPointer<UInt8>, state: inout DocumentState, atFileStart: Bool, final: Bool
  ) throws(TraceLoadError) -> (part: Dataset, consumed: Int)? {
    var scanner = JSONScanner(buffer, file: file, lineMode: false, atFileStart: atFileStart)
    if state.phase != .head {
      scanner.line = state.line
      if state.column > 1 {
        scanner.continuedLine = state.line
        scanner.continuedColumn = state.column
      }
    }
    var parser = Parser(scanner: scanner, file: file, options: options)
    parser.unknownKeys = state.unknownKeys
    parser.unknownKeyPosition = state.unknownKeyPosition
    guard let stop = try parser.readDocumentChunk(state: &state, final: final) else { return nil }
    state.line = stop.line
    state.column = parser.scanner.position(of: stop).column
    state.unknownKeys = parser.unknownKeys
    state.unknownKeyPosition = parser.unknownKeyPosition
    return (Dataset(traces: parser.traces, origins: parser.origins, skipped: parser.skipped), stop.offset)
  }
}

extension JSONTraceReader.Parser {
  /// Reads the pieces the buffer holds; returns where the consumed bytes end (the start of the
  /// buffer while the head is incomplete), or `nil` for a document to be read whole.
  mutating func readDocumentChunk(state: inout JSONTraceReader.DocumentState, final: Bool)
    throws(TraceLoadError) -> JSONMark?
  {
    var stop = JSONMark(offset: 0, line: 1, lineStart: 0)
    if state.phase != .head { stop = scanner.mark }
    while true {
      switch state.phase {
      case .head:
        guard let entered = try readDocumentHead(state: &state, final: final) else { return nil }
        guard entered else { return stop }
      case .element:
        guard final || scanner.holdsValueAndSeparator(from: scanner.offset) else { return stop }
        commit(try readRecord(state.record))
        state.record += 1
        scanner.skipWhitespace()
        if try scanner.endOfMember(closing: UInt8(ascii: "]")) { state.phase = .separator }
      case .separator:
        guard final || scanner.holdsSeparator(from: scanner.offset) else { return stop }
        scanner.skipWhitespace()
        state.phase = try scanner.endOfMember(closing: UInt8(ascii: "}")) ? .trailing : .member
      case .member:
        guard final || scanner.holdsMember(from: scanner.offset) else { return stop }
        // The traces key was seen: a second one is an error here, as in a whole read.
        _ = try readDocumentMember(&state.keys)
        state.phase = .separator
      case .trailing:
        scanner.skipWhitespace()
        if scanner.atEnd && !final { return scanner.mark }
        guard final || scanner.spare(scanner.offset) else { return stop }
        try closeDocument(state.keys, start: state.start)
        state.phase = .done
      case .done:
        return scanner.mark
      }
      stop = scanner.mark
    }
  }

  /// Reads the head from the buffer's start up to the first element of the traces array.
  /// Returns `true` once there (the state then holds the head's keys and unknown keys), `false`
  /// when the buffer does not hold the whole head yet (nothing is kept), `nil` for a document to
  /// be read whole.
  mutating func readDocumentHead(state: inout JSONTraceReader.DocumentState, final: Bool)
    throws(TraceLoadError) -> Bool?
  {
    scanner.skipWhitespace()
    guard final || scanner.spare(scanner.offset) else { return false }
    let start = try openDocument()
    guard final || scanner.spare(scanner.skippingWhitespace(from: scanner.offset + 1)) else { return false }
    if scanner.enter(closing: UInt8(ascii: "}")) { return nil }
    var keys = DocumentKeys()
    while true {
      guard final || scanner.holdsMember(from: scanner.offset, openingArrayOf: "traces") else { return false }
      switch try readDocumentMember(&keys) {
      case .tracesFirst:
        return nil
      case .traceArray:
        state.keys = keys
        state.start = scanner.position(of: start)
        state.unknownKeys = unknownKeys
        state.unknownKeyPosition = unknownKeyPosition
        state.phase = scanner.enter(closing: UInt8(ascii: "]")) ? .separator : .element
        return true
      case .read:
        scanner.skipWhitespace()
        if try scanner.endOfMember(closing: UInt8(ascii: "}")) { return nil }
      }
    }
  }
}
