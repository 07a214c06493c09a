import ArgumentParser
import TouchCore
import TouchIO

/// Options every command that reads traces shares.
struct InputOptions: ParsableArguments {
  @Argument(
    help: ArgumentHelp(
      "Trace files or directories (searched recursively for *.csv, *.tsv, *.json, *.jsonl); - reads standard input (CSV, a JSON document or JSON Lines, told apart by the first characters).",
      valueName: "path"))
  var paths: [String]

  @Flag(help: "Skip invalid traces, reporting each with its reason, instead of stopping at the first.")
  var skipInvalid = false

  @Option(help: ArgumentHelp("Maximum possible force for traces whose file gives none (device units).", valueName: "force"))
  var maxForce: Double?

  @Option(help: ArgumentHelp("Labels file with columns trace,intent,press_at,user,session,device.", valueName: "file"))
  var labels: String?

  @Option(help: ArgumentHelp("CSV delimiter: comma, semicolon or tab (default: detected from the header).", valueName: "name"))
  var delimiter: DelimiterName?

  @Option(
    help: ArgumentHelp(
      "Largest input read, bytes; a larger file or stream is refused (exit 65).",
      valueName: "bytes"))
  var maxInputSize = LoadOptions.defaultMaximumInputSize

  @Option(
    name: .customLong("only"),
    help: ArgumentHelp(
      "Analyze only traces whose FIELD (id, user, session, device, intent) is one of the values; repeatable (all must hold). The rest are accounted as skipped.",
      valueName: "field=value[,value]"))
  var filters: [String] = []

  enum DelimiterName: String, ExpressibleByArgument, CaseIterable {
    case comma, semicolon, tab

    /// The loader's delimiter.
    var delimiter: LoadOptions.Delimiter {
      switch self {
      case .comma: .comma
      case .semicolon: .semicolon
      case .tab: .tab
      }
    }
  }

  func validate() throws {
    for text in filters where TraceFilter(parsing: text) == nil {
      throw ValidationError(
        "--only expects FIELD=VALUE[,VALUE] with FIELD one of \(TraceFilter.Field.allCases.map(\.rawValue).joined(separator: ", ")), got '\(text)'")
    }
    if maxInputSize < 1 { throw ValidationError("--max-input-size must be at least 1 byte, got \(maxInputSize)") }
    if let maxForce, !(maxForce > 0) || !maxForce.isFinite {
      throw ValidationError("--max-force must be a positive number, got \(maxForce)")
    }
  }

  /// Every file and directory the command reads: the paths and the labels file (outputs must
  /// not replace them).
  var inputPaths: [String] { paths + (labels.map { [$0] } ?? []) }

  /// The loader options these flags stand for.
  var loadOptions: LoadOptions {
    LoadOptions(
      delimiter: delimiter?.delimiter, maxForce: maxForce, skipInvalid: skipInvalid, labels: labels,
      maximumInputSize: maxInputSize)
  }

  /// Loads the traces and applies `--only`, printing warnings and skipped traces to standard
  /// error (traces left out by `--only` in one line).
  func load() throws(TraceLoadError) -> Dataset {
    var dataset = try TraceLoader.load(paths, options: loadOptions)
    Console.report(dataset)
    let selection = filters.compactMap(TraceFilter.init(parsing:))
    let left = dataset.keep(matching: selection)
    if !selection.isEmpty {
      Console.diagnose(
        "note: --only \(selection.map(\.description).joined(separator: " --only ")) kept \(dataset.traces.count) traces, left out \(left)")
    }
    return dataset
  }
}
