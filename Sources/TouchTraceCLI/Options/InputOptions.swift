import ArgumentParser
import TouchCore
import TouchIO
import TouchStudy

/// Options every command that reads traces shares.
struct InputOptions: ParsableArguments {
  @Argument(
    help: ArgumentHelp(
      "Trace files or directories (searched recursively for *.csv, *.tsv, *.json, *.jsonl); - reads standard input (CSV, a JSON document or JSON Lines, told apart by the first characters).",
      valueName: "path"))
  var paths: [String]

  @Flag(help: "Skip invalid traces, reporting each with its reason, instead of stopping at the first.")
  var skipInvalid = false

  @Option(
    help: ArgumentHelp(
      "Maximum possible force (device units) for traces whose file gives none; with --max-force-override for every trace.",
      valueName: "force"))
  var maxForce: Double?

  @Flag(help: "--max-force replaces the maximum force the files give instead of only filling gaps.")
  var maxForceOverride = false

  @Option(
    help: ArgumentHelp(
      "Labels file: column trace (and touch), any of intent,press_at,user,session,device, and any other columns as extra labels (hand, posture) for --only and --by.",
      valueName: "file"))
  var labels: String?

  @Option(
    help: ArgumentHelp(
      "Fill labels from each file's path: {name} (intent, user, session, device or an extra label) and * match text in the path's trailing components, e.g. '{device}/{user}/{intent}-*.csv'. Repeatable: each file takes the first pattern that matches. Files no pattern matches are listed in one warning.",
      valueName: "pattern"))
  var labelFromPath: [String] = []

  @Flag(
    help:
      "Labels (--labels, --label-from-path) replace different values in the data, each replacement counted, instead of stopping with an error."
  )
  var labelsOverride = false

  @Option(
    help: ArgumentHelp("CSV delimiter: comma, semicolon or tab (default: detected from the header).", valueName: "name")
  )
  var delimiter: DelimiterName?

  @Flag(
    help:
      "Read each CSV file whole, accepting a trace's rows scattered through the file; memory then grows with the largest file. By default files are read in chunks and each trace's rows must be together (sort the file by trace)."
  )
  var wholeFiles = false

  @Option(
    help: ArgumentHelp(
      "Largest input read, bytes (K, M, G, T: powers of 1024, e.g. 8G); a larger file or stream is refused (exit 65).",
      valueName: "bytes"))
  var maxInputSize = ByteCount(LoadOptions.defaultMaximumInputSize)

  @Option(
    name: .customLong("only"),
    help: ArgumentHelp(
      "Analyze only traces whose FIELD (id, touch, user, session, device, intent, or an extra label such as hand) is one of the values; id takes contact names as reports give them (rec#2). Repeatable (all must hold). The rest are accounted as skipped; keeping none is an error (exit 65).",
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
        "--only expects FIELD=VALUE[,VALUE] with FIELD one of \(TraceFilter.Field.builtIn.map(\.rawValue).joined(separator: ", ")) or an extra label name (lowercase letters, digits, '_', '-', '.'), got '\(text)'"
      )
    }
    for pattern in labelFromPath {
      do throws(PathLabelsError) { _ = try PathLabels(pattern) } catch {
        throw ValidationError("--label-from-path '\(pattern)': \(error)")
      }
    }
    if maxForceOverride, maxForce == nil { throw ValidationError("--max-force-override needs --max-force FORCE") }
    if maxInputSize.bytes < 1 {
      throw ValidationError("--max-input-size must be at least 1 byte, got \(maxInputSize.bytes)")
    }
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
      maximumInputSize: maxInputSize.bytes, labelFromPath: labelFromPath.compactMap { try? PathLabels($0) },
      labelsOverride: labelsOverride, maxForceOverride: maxForceOverride, wholeFiles: wholeFiles)
  }

  /// Loads the traces and applies `--only`, printing warnings and skipped traces to standard
  /// error (traces left out by `--only` in one line, label overrides in another).
  ///
  /// - Throws: `TraceLoadError`, or a `DataError` (exit 65) when the `--only` filters keep no
  ///   trace, naming the filter that emptied the selection and the values its field has.
  func load() throws -> Dataset {
    var dataset = TimeScaleCheck.checked(try TraceLoader.load(paths, options: loadOptions))
    Console.report(dataset)
    Console.reportOverrides(dataset)
    let selection = filters.compactMap(TraceFilter.init(parsing:))
    if let empty = dataset.emptyingFilter(selection) { throw Self.emptyFilterError(empty) }
    let left = dataset.keep(matching: selection)
    if !selection.isEmpty {
      Console.diagnose(
        "note: --only \(selection.map(\.description).joined(separator: " --only ")) kept \(dataset.traces.count) traces, left out \(left)"
      )
    }
    return dataset
  }

  /// The error for `--only` filters that keep no trace (`Dataset.emptyingFilter(_:limit:)`).
  static func emptyFilterError(
    _ empty: (filter: TraceFilter, values: [String], moreValues: Int, unlabelled: Int)
  ) -> DataError {
    let field = empty.filter.field.rawValue
    var values = empty.values.map { "'\($0)'" }.joined(separator: ", ")
    if empty.moreValues > 0 { values += " and \(empty.moreValues) more" }
    var present = empty.values.isEmpty ? "no trace has a \(field)" : "\(field) values present: \(values)"
    if empty.unlabelled > 0, !empty.values.isEmpty { present += " (\(empty.unlabelled) traces have none)" }
    return DataError(description: "touchtrace: error: --only \(empty.filter) kept no trace; \(present)")
  }
}
