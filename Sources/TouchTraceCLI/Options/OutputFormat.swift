import ArgumentParser

/// Every format a command writes: `--format` of every command takes one of these.
///
/// A command accepts a subset (``FormatChoice/formats``) through ``FormatOption``, so its help
/// lists, and its parser accepts, only the formats it writes.
enum OutputFormat: String, CaseIterable, Sendable {
  /// Plain text for people.
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
}

/// The formats one command writes, in the order its help lists them.
protocol FormatChoice {
  /// The formats accepted by `--format`, in help order.
  static var formats: [OutputFormat] { get }
}

/// `--format`: one of the formats `Choice` accepts. Any other value is refused by the parser,
/// whose message lists the accepted ones (`Please provide one of 'text' and 'json'.`).
struct FormatOption<Choice: FormatChoice>: ExpressibleByArgument, Sendable {
  /// The chosen format, one of `Choice.formats`.
  let format: OutputFormat

  /// A default value.
  /// - Precondition: `Choice` accepts `format`.
  init(_ format: OutputFormat) {
    precondition(Choice.formats.contains(format), "\(Choice.self) does not write \(format)")
    self.format = format
  }

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
