import TouchEvaluation
import TouchIO
package import TouchRecognizers
package import TouchTuning

/// Exports the configuration `touchtrace tune` chose, with its provenance: as JSON
/// (`--export-json`) and as Swift source a developer can paste into an app (`--export-swift`).
///
/// Both name the variant and the library it reproduces, give every parameter value (with its unit),
/// and say what the values were tuned on: the files, trace counts, scoring options, the objective
/// and bounds, the statistics on all traces with their bootstrap intervals, and the
/// cross-validated held-out statistics.
package enum TuneExport {
  /// The JSON format name.
  package static let format = "touchtrace-configuration"
  /// The JSON schema version.
  package static let version = 1

  /// The JSON document (format `touchtrace-configuration`, version 1); `nil` when no
  /// configuration was chosen.
  ///
  /// - Parameters:
  ///   - result: the tuning.
  ///   - tool: the tool and version that tuned it (`touchtrace 0.1.0`).
  package static func json(_ result: TuningResult, tool: String) -> JSONValue? {
    guard let (c, configuration, evaluation) = chosen(result) else { return nil }
    let dataset = evaluation.dataset
    let specs = configuration.spec.parameters
    var members: [(String, JSONValue)] = [
      ("format", .string(format)), ("version", .int(version)),
      ("recognizer", .string(configuration.name)),
      ("variant", variant(configuration.recognizer.variant)),
    ]
    if let required = configuration.spec.required,
      let descriptor = configuration.spec.catalog.entry(required)?.descriptor
    {
      members.append(("required", variant(descriptor)))
    }
    members += EvaluationJSON.parameters(configuration)
    members.append(
      (
        "units",
        .object(
          configuration.parameters.map { entry in
            (entry.name, .string(specs.first { $0.name == entry.name }?.unit.rawValue))
          })
      ))
    guard case .object(let ruleOptions) = TuneReport.options(result) else { preconditionFailure("an object") }
    func option(_ key: String) -> JSONValue { ruleOptions.first { $0.0 == key }?.1 ?? .null }
    var tunedOn: [(String, JSONValue)] = [
      ("tool", .string(tool)),
      ("files", .array(dataset.files.map { .string($0) })),
      (
        "traces",
        Accounting.traces(
          total: evaluation.totalCount, analyzed: evaluation.analyzedCount, skipped: dataset.skipped.count,
          labelOverrides: dataset.labelOverrides)
      ),
      ("positive", .array(evaluation.options.positives.map { .string($0.rawValue) })),
      ("tolerance", .number(evaluation.options.tolerance)),
      ("recognizers", option("recognizers")), ("vary", option("vary")), ("set", option("set")),
      ("configurations", .int(result.sweep.configurations.count)),
      ("objective", option("objective")), ("constraints", option("constraints")),
      ("tie_rule", .string(OperatingPointRule.tieRule)),
      ("group_by", .string(result.options.groupBy?.rawValue)), ("groups", .int(result.groups.count)),
      ("seed", .int(Int(result.options.seed))),
      ("all_traces", .object(TuneReport.statistics(result, result.metrics(c)))),
      ("objective_value", .number(result.scores[c].value)),
      ("intervals", TuneReport.intervals(result, result.intervals)),
      (
        "bootstrap",
        result.options.bootstrap.map {
          .object([
            ("resamples", .int($0.resamples)), ("confidence", .number($0.confidence)),
            ("unit", .string(result.groups.unit)),
          ])
        } ?? .null
      ),
    ]
    if let cv = result.crossValidation {
      tunedOn.append(
        (
          "cross_validation",
          .object(
            [
              ("folds", .int(cv.folds.count)), ("by", .string(result.groups.unit)),
              ("leave_one_group_out", .bool(cv.assignment.isLeaveOneGroupOut)),
              ("folds_choosing_this", .int(cv.folds.filter { $0.chosen == c }.count)),
            ] + TuneReport.heldOut(result, cv))
        ))
    } else {
      tunedOn.append(("cross_validation", .null))
    }
    members.append(("tuned_on", .object(tunedOn)))
    return .object(members)
  }

  static func variant(_ descriptor: RecognizerDescription) -> JSONValue {
    .object([
      ("name", .string(descriptor.name)), ("code", .string(descriptor.code)), ("title", .string(descriptor.title)),
      ("source", .string(descriptor.source)),
    ])
  }

  /// The chosen configuration's index and description and the evaluation it was tuned on;
  /// `nil` when no configuration was chosen.
  private static func chosen(_ result: TuningResult) -> (Int, Configuration, Evaluation)? {
    guard let c = result.chosen else { return nil }
    return (c, result.sweep.configurations[c], result.sweep.evaluation)
  }

  /// The chosen configuration's recognizer; `nil` when no configuration was chosen.
  package static func chosenRecognizer(_ result: TuningResult) -> AnyForceRecognizer? {
    chosen(result)?.1.recognizer
  }

  /// The provenance of the chosen configuration as lines of text (no comment markers): the tool,
  /// the recognizer, the data it was tuned on, the objective, the statistics on all traces with
  /// their bootstrap intervals and the cross-validated ones; `nil` when no configuration was
  /// chosen.
  ///
  /// - Parameters:
  ///   - result: the tuning.
  ///   - tool: the tool and version that tuned it (`touchtrace 0.1.0`).
  package static func provenance(_ result: TuningResult, tool: String) -> [String]? {
    guard let (c, configuration, evaluation) = chosen(result) else { return nil }
    let dataset = evaluation.dataset
    let rule = result.options.rule
    let descriptor = configuration.recognizer.variant
    var lines: [String] = []
    lines.append("Force-press configuration tuned by \(tool) (`touchtrace tune`).")
    lines.append("")
    lines.append("Recognizer: \(configuration.name) [\(descriptor.code)] — \(descriptor.title)")
    lines.append("Reproduces: \(descriptor.source)")
    lines.append(
      "Tuned on: \(evaluation.totalCount) traces (\(evaluation.analyzedCount) analyzed, \(dataset.skipped.count) skipped) from"
    )
    for file in dataset.files { lines.append("  \(file)") }
    lines.append(
      "Ground truth: positives \(evaluation.options.positives.map(\.rawValue).joined(separator: ", ")); actions match references within \(TextFormat.compact(evaluation.options.tolerance)) s."
    )
    lines.append(
      "Objective: \(rule.objective); bounds: \(rule.constraints); chosen among \(result.sweep.configurations.count) configurations of \(result.sweep.plan.recognizers.map(\.name).joined(separator: ", "))."
    )
    var all = "All traces (in-sample): "
    all += result.statistics.enumerated().map { s, statistic in
      var text = "\(TuneReport.label(statistic)) \(TuneReport.value(statistic, statistic.value(of: result.metrics(c))))"
      if let interval = result.intervals?[s], interval.lower != nil {
        let range = TuneReport.range(result, statistic, interval)
        text +=
          range.hasPrefix("not shown")
          ? " (bootstrap CI \(range))" : " (\(TextFormat.decimal(interval.confidence * 100, 0))% CI \(range))"
      }
      return text
    }.joined(separator: ", ")
    lines.append(all + ".")
    if let cv = result.crossValidation {
      var text = "Cross-validated (\(cv.folds.count) folds by \(result.groups.unit)"
      text += cv.assignment.isLeaveOneGroupOut ? ", leave-one-\(result.groups.unit)-out): held-out " : "): held-out "
      text += cv.summaries.compactMap { s -> String? in
        guard let mean = s.mean else { return nil }
        return "\(TuneReport.label(s.statistic)) \(TuneReport.value(s.statistic, mean))"
          + (s.standardDeviation.map { " ± " + TuneReport.value(s.statistic, $0) } ?? "")
      }.joined(separator: ", ")
      text += " (mean ± sd over folds)"
      if let pooled = cv.pooled { text += "; pooled F1 \(Markdown.ratio(pooled.stage1.f1))" }
      text += "; \(cv.folds.filter { $0.chosen == c }.count) of \(cv.folds.count) folds chose this configuration."
      lines.append(text)
    } else {
      lines.append("Not cross-validated: the numbers above are measured on the traces the values were chosen on.")
    }
    lines.append("Units: normalized force is force / UITouch.maximumPossibleForce; times are seconds unless noted.")
    return lines
  }

  /// Swift source describing the chosen configuration: a comment block with the provenance,
  /// then a caseless `enum` (`TunedDeepPress` for `deep-press`) holding the variant's name and
  /// one typed `static let` per parameter (`Double`, `Bool` or `[Double]`), each documented with
  /// its unit and meaning; `nil` when no configuration was chosen.
  ///
  /// - Parameters:
  ///   - result: the tuning.
  ///   - tool: the tool and version that tuned it (`touchtrace 0.1.0`).
  package static func swift(_ result: TuningResult, tool: String) -> String? {
    guard let (_, configuration, _) = chosen(result), let lines = provenance(result, tool: tool) else { return nil }
    var out = lines.map { ("// " + sanitize($0)).trimmingTrailingSpaces }.joined(separator: "\n") + "\n\n"
    let type = typeName(configuration.name)
    out += "/// The \(configuration.name) parameters tuned by touchtrace (provenance above).\n"
    out += "enum \(type) {\n"
    out += "  /// The recognizer, as touchtrace names it.\n"
    out += "  static let variant = \(literal(configuration.name))\n"
    let specs = configuration.spec.parameters
    for entry in configuration.parameters {
      let spec = specs.first { $0.name == entry.name }
      if let spec {
        out +=
          "  /// \(sanitize(spec.meaning)) (\(spec.kind == .flag ? "flag" : spec.unit == .none ? "no unit" : spec.unit.rawValue)"
        out += configuration.varied.contains(entry.name) ? "; tuned).\n" : ").\n"
      }
      let (swiftType, value) = swiftValue(entry.value)
      out += "  static let \(identifier(entry.name)): \(swiftType) = \(value)\n"
    }
    out += "}\n"
    return out
  }

  /// `deep-press` → `TunedDeepPress`, `tap+deep-press` → `TunedTapDeepPress`.
  static func typeName(_ name: String) -> String {
    let words = name.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
    return "Tuned" + words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
  }

  static let keywords: Set<String> = [
    "associatedtype", "class", "deinit", "enum", "extension", "func", "import", "init", "inout", "internal", "let",
    "operator", "private", "protocol", "public", "static", "struct", "subscript", "typealias", "var", "break", "case",
    "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return",
    "switch", "where", "while", "as", "catch", "false", "is", "nil", "rethrows", "super", "self", "throw", "throws",
    "true", "try", "variant",
  ]

  /// A Swift identifier for a parameter name: `required.threshold` → `requiredThreshold`; other
  /// characters outside letters, digits and `_` become `_`; keywords are backquoted.
  static func identifier(_ name: String) -> String {
    let parts = name.split(separator: ".")
    var text = parts.enumerated().map { k, part in
      k == 0 ? String(part) : part.prefix(1).uppercased() + part.dropFirst()
    }.joined()
    text = String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") ? $0 : "_" })
    if text.isEmpty || text.first!.isNumber { text = "_" + text }
    return keywords.contains(text) ? "`\(text)`" : text
  }

  static func swiftValue(_ value: ParameterValue) -> (type: String, literal: String) {
    switch value {
    case .number(let x): ("Double", number(x))
    case .flag(let b): ("Bool", b ? "true" : "false")
    case .list(let xs): ("[Double]", "[" + xs.map(number).joined(separator: ", ") + "]")
    }
  }

  static func number(_ x: Double) -> String {
    if x.isNaN { return "Double.nan" }
    if x.isInfinite { return x < 0 ? "-Double.infinity" : "Double.infinity" }
    return NumberText.shortest(x)
  }

  /// A Swift string literal: `"` and `\` escaped, and the ASCII control characters (U+0000–U+001F,
  /// U+007F), which the compiler rejects raw in a literal, written as `\n`, `\r`, `\t` or `\u{…}`.
  static func literal(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{0}"..."\u{1F}", "\u{7F}": out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }

  /// Text safe inside a `//` comment: no line breaks.
  static func sanitize(_ text: String) -> String {
    String(text.map { $0.isNewline ? " " : $0 })
  }
}

extension String {
  var trimmingTrailingSpaces: String {
    var s = Substring(self)
    while s.last == " " { s.removeLast() }
    return String(s)
  }
}
