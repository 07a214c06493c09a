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

/// The formats one command writes, in the order its help lists them.
protocol FormatChoice {
  /// The formats accepted by `--format`, in help order.
  static var formats: [OutputFormat] { get }
}

/// `--format`: one of the formats `Choice` accepts. Any other value is refused by the parser,
/// whose message lists the accepted ones (`Please provide one of 'md' and 'json'.`).
struct FormatOption<Choice: FormatChoice>: ExpressibleByArgument, Sendable {
  /// The chosen format, one of `Choice.formats`.
  let format: OutputFormat

  init?(argument: String) {
    guard let format = OutputFormat(rawValue: argument), Choice.formats.contains(format) else { return nil }
    self.format = format
  }

  var defaultValueDescription: String { format.rawValue }

  static var allValueStrings: [String] { Choice.formats.map(\.rawValue) }

  static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }

  /// Stops on a format the parser cannot have let through (one `Choice` does not write).
  static func unreachable(_ format: OutputFormat) -> Never {
    preconditionFailure("\(Choice.self) does not write \(format)")
  }
}
