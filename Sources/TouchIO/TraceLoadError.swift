public import TouchCore

/// Why traces could not be loaded, with where: file, line and column, record and field.
///
/// Rendered like a compiler diagnostic:
/// `samples/taps.csv:14:9: error: 'force' is not a number: 'abc' (trace 'tap-03')`.
public struct TraceLoadError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong.
  public enum Reason: Hashable, Sendable {
    /// The input file or directory does not exist.
    case fileNotFound
    /// The file exists but cannot be read (permissions, a directory where a file was expected, …).
    case unreadable(String)
    /// An input is larger than the limit (bytes; ``LoadOptions/maximumInputSize``), or a stream
    /// delivered more than that.
    case inputTooLarge(limit: Int)
    /// A directory held no trace files.
    case noTraceFiles(extensions: [String] = TraceFiles.directoryExtensions)
    /// A required column is missing from the CSV header; `found` lists the header's columns.
    case missingColumn(String, found: [String] = [])
    /// A column name appears twice in the CSV header.
    case duplicateColumn(String)
    /// The file has no header row.
    case missingHeader
    /// A CSV row has a different number of fields than the header.
    case fieldCount(expected: Int, found: Int)
    /// A quoted CSV field is not closed before the end of the file.
    case unterminatedQuote
    /// A character follows the closing quote of a CSV field.
    case textAfterQuote
    /// Malformed JSON.
    case invalidJSON(String)
    /// Well-formed JSON that is not a TouchTrace document (wrong type, unknown format or version).
    case invalidDocument(String)
    /// A trace (or one of its samples) breaks a rule of the trace model.
    case trace(TraceProblem)
    /// Two traces with the same id and contact number.
    case duplicateTrace(String, firstFile: String)
    /// A labels file names a trace that no data file has.
    case labelForUnknownTrace(String)
    /// A labels file and a data file disagree about a trace-level value.
    case labelConflict(field: String, data: String, labels: String)
    /// A line or record of an imported device recording that breaks its format, or a recording
    /// the importer cannot use (the text says which).
    case invalidRecording(String)
    /// Rows of a CSV trace id that come back after another id's rows (the reader needs each id's
    /// rows in one block): the trace, the lines of its first block, and the remedy (a sort
    /// command, or `--whole-files`).
    case traceRowsApart(String, firstLines: ClosedRange<Int>, remedy: String)
  }

  /// What went wrong.
  public var reason: Reason
  /// The file, as the user named it.
  public var file: String
  /// Line and column (1-based); `nil` when the format cannot say.
  public var position: TextPosition?
  /// The 0-based record (trace object) index in a JSON document or JSON Lines file.
  public var record: Int?
  /// The field (column or JSON key) concerned, when there is one.
  public var field: String?
  /// The trace concerned, when known.
  public var trace: String?

  /// Creates an error.
  public init(
    _ reason: Reason, file: String, position: TextPosition? = nil, record: Int? = nil,
    field: String? = nil, trace: String? = nil
  ) {
    self.reason = reason
    self.file = file
    self.position = position
    self.record = record
    self.field =
      field
      ?? {
        if case .trace(let problem) = reason { return problem.field }
        return nil
      }()
    self.trace = trace
  }

  /// Whether the error is about reaching the file (missing, unreadable) rather than its content.
  /// The command-line tool exits with 66 for these and 65 for bad content.
  public var isFileAccessError: Bool {
    switch reason {
    case .fileNotFound, .unreadable, .noTraceFiles: true
    default: false
    }
  }

  /// Names other programs give the required columns, for the suggestion of a missing one.
  static let columnSynonyms: [String: [String]] = [
    "t": ["time", "times", "timestamp", "ts", "seconds", "secs", "sec", "time_s", "elapsed"],
    "force": ["pressure", "pressures", "p", "force_value", "z", "normalized_pressure"],
    "trace": ["id", "trace_id", "contact", "stroke", "touch_id", "pointer_id", "stroke_id"],
  ]

  /// `missing required column 't' (found 'time', 'pressure': rename 'time' to 't'?)`.
  static func missingColumnMessage(_ name: String, found: [String]) -> String {
    var text = "missing required column \(Diagnostic.quoted(name))"
    guard !found.isEmpty else { return text }
    let shown = found.prefix(12).map { Diagnostic.quoted($0) }.joined(separator: ", ")
    text += " (found \(shown)\(found.count > 12 ? ", …" : "")"
    let lowered = found.map { $0.lowercased() }
    if let synonym = lowered.firstIndex(where: { (columnSynonyms[name] ?? []).contains($0) }) {
      text += "; rename \(Diagnostic.quoted(found[synonym])) to \(Diagnostic.quoted(name))?"
    } else if let close = NameSuggestion.closest(to: name, in: lowered), let k = lowered.firstIndex(of: close) {
      text += "; did you mean \(Diagnostic.quoted(found[k]))?"
    }
    return text + ")"
  }

  /// The message without location: what a skip record states as its reason.
  public var message: String {
    var text: String
    switch reason {
    case .fileNotFound: text = "no such file or directory"
    case .unreadable(let why): text = "cannot read file: \(why)"
    case .inputTooLarge(let limit):
      text = "input is larger than the limit of \(limit) bytes (--max-input-size raises it)"
    case .noTraceFiles(let extensions):
      let patterns = extensions.map { "*" + $0 }.joined(separator: ", ")
      text =
        extensions == TraceFiles.directoryExtensions
        ? "directory holds no files to read (for traces: \(patterns))"
        : "directory holds no files to read (looked for \(patterns))"
    case .missingColumn(let name, let found): text = Self.missingColumnMessage(name, found: found)
    case .duplicateColumn(let name): text = "column \(Diagnostic.quoted(name)) appears more than once"
    case .missingHeader: text = "no header row"
    case .fieldCount(let expected, let found):
      text = "row has \(found) field\(found == 1 ? "" : "s"), the header has \(expected)"
    case .unterminatedQuote: text = "quoted field is not closed before the end of the file"
    case .textAfterQuote: text = "unexpected text after the closing quote of a field"
    case .invalidJSON(let why): text = "invalid JSON: \(why)"
    case .invalidDocument(let why): text = why
    case .trace(let problem): text = problem.description
    case .duplicateTrace(let name, let firstFile):
      text = "trace \(Diagnostic.quoted(name)) is defined twice (first in \(firstFile))"
    case .labelForUnknownTrace(let name):
      text = "labels name trace \(Diagnostic.quoted(name)), which has no samples"
      // `X#2` is how reports and `--only id=` name contact 2 of trace X; a labels file says it
      // with two columns.
      if let hash = name.lastIndex(of: "#"), hash != name.startIndex,
        let touch = Int(name[name.index(after: hash)...]), touch >= 0
      {
        text += " (for contact \(touch) of trace \(Diagnostic.quoted(String(name[..<hash])))"
        text += ", give trace \(Diagnostic.quoted(String(name[..<hash]))) and touch \(touch) in a touch column)"
      }
    case .labelConflict(let field, let data, let labels):
      text =
        "\(Diagnostic.quoted(field)) is \(Diagnostic.quoted(data)) in the data but \(Diagnostic.quoted(labels)) in the labels (--labels-override replaces the data's value)"
    case .invalidRecording(let why): text = why
    case .traceRowsApart(let name, let lines, let remedy):
      let range = lines.count == 1 ? "line \(lines.lowerBound)" : "lines \(lines.lowerBound)–\(lines.upperBound)"
      text =
        "rows of trace \(Diagnostic.quoted(name)) reappear after other traces' rows (its first rows are \(range)); each trace's rows must be together: \(remedy)"
    }
    var context: [String] = []
    if let record { context.append("record \(record)") }
    if let trace, !text.contains(Diagnostic.quoted(trace)) { context.append("trace \(Diagnostic.quoted(trace))") }
    if let field, !text.contains(Diagnostic.quoted(field)) { context.append("field \(Diagnostic.quoted(field))") }
    if !context.isEmpty { text += " (\(context.joined(separator: ", ")))" }
    return Diagnostic.escaped(text)
  }

  /// `path:line:col: error: message`.
  public var description: String {
    Diagnostic(.error, message, file: file, position: position).description
  }
}
