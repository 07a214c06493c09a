import ArgumentParser

/// Every format a command writes: `--format` of every command takes one of these.
///
/// A command accepts a subset (``FormatChoice/formats``) through ``FormatOption``, so its help
/// lists, and its parser accepts, only the formats it writes.
enum OutputFormat: String, CaseIterable, Sendable {
  /// Plain text for people (`inspect`, `recognizers`: accepted as another name of `md`).
  case text
  /// Markdown.
  case md
  /// JSON (one document).
  case json
  /// JSON Lines (one object a line).
  case jsonl
  /// Comma-separated values.
  case csv
  /// One self-contained HTML page with inline SVG figures (`sweep`, `tune`, `compare`).
  case html

  /// The file name endings that name this format (lowercase, without the dot).
  var extensions: [String] {
    switch self {
    case .text: ["txt"]
    case .md: ["md", "markdown"]
    case .json: ["json"]
    case .jsonl: ["jsonl", "ndjson"]
    case .csv: ["csv"]
    case .html: ["html", "htm"]
    }
  }

  /// The format a file name's ending names; `nil` for a name without an ending or with another.
  init?(fileName path: String) {
    guard let ending = OutputFormat.ending(of: path) else { return nil }
    guard let format = OutputFormat.allCases.first(where: { $0.extensions.contains(ending) }) else { return nil }
    self = format
  }

  /// The lowercased ending of the last path component (`report.JSON` → `json`); `nil` without one.
  static func ending(of path: String) -> String? {
    let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(path)
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex else {
      return nil
    }
    return name[name.index(after: dot)...].lowercased()
  }
}

/// The formats one command writes: an enum of the command's own whose cases are those formats,
/// in the order its help lists them.
///
/// A `switch` over it is exhaustive, so a format added to a command (a case here, its
/// ``format``) is a compile error at every place that writes the command's output until it is
/// written there too; nothing can reach a format the command does not write.
protocol FormatChoice: CaseIterable, Sendable where AllCases == [Self] {
  /// The format this case writes (its name and file endings).
  var format: OutputFormat { get }
}

extension FormatChoice {
  /// The formats accepted by `--format`, in help order.
  static var formats: [OutputFormat] { allCases.map(\.format) }

  /// The case that writes `format`; `nil` when the command does not write it.
  init?(_ format: OutputFormat) {
    guard let choice = Self.allCases.first(where: { $0.format == format }) else { return nil }
    self = choice
  }

  /// The format's name, as `--format` takes it (`md`, `json`, …).
  var name: String { format.rawValue }
}

/// `--format`: one of the formats `Choice` accepts. Any other value is refused by the parser,
/// whose message lists the accepted ones (`Please provide one of 'md' and 'json'.`).
struct FormatOption<Choice: FormatChoice>: ExpressibleByArgument, Sendable {
  /// The chosen format.
  let choice: Choice

  init?(argument: String) {
    guard let format = OutputFormat(rawValue: argument), let choice = Choice(format) else { return nil }
    self.choice = choice
  }

  var defaultValueDescription: String { choice.name }

  static var allValueStrings: [String] { Choice.formats.map(\.rawValue) }

  static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

/// The formats of the reporting commands (`sweep`, `tune`, `compare`).
enum ReportFormat: FormatChoice {
  case md, json, csv, html

  var format: OutputFormat {
    switch self {
    case .md: .md
    case .json: .json
    case .csv: .csv
    case .html: .html
    }
  }
}

/// The formats of the commands that describe rather than score (`inspect`, `recognizers`):
/// Markdown, aligned plain text and JSON (`recognizers` writes its Markdown for `text`).
enum SummaryFormat: FormatChoice {
  case md, text, json

  var format: OutputFormat {
    switch self {
    case .md: .md
    case .text: .text
    case .json: .json
    }
  }
}

/// The formats of the commands that write trace files (`synth`, `import`, `smooth`): CSV, JSON
/// and JSON Lines, read back by every command.
enum TraceFormat: FormatChoice {
  case csv, json, jsonl

  var format: OutputFormat {
    switch self {
    case .csv: .csv
    case .json: .json
    case .jsonl: .jsonl
    }
  }
}
