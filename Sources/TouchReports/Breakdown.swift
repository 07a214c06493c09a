public import TouchEvaluation
import TouchCore
public import TouchTuning

/// The `--by COLUMN` breakdowns of the sweep, tune and compare reports: per group of traces, the
/// counts, rates with their 95 % Wilson intervals, and latency quantiles with their n.
enum Breakdown {
  /// A group's name in JSON: the label, or `null` for the traces without one.
  static func name(_ name: String?) -> JSONValue { .string(name) }

  /// A group's name in Markdown: the label, or `(no USER)` for the traces without one.
  static func text(_ name: String?, _ column: TraceFilter.Field) -> String {
    name.map { String($0.flatMap { $0 == "|" ? ["\\", "|"] : [$0] }) } ?? "(no \(column.rawValue))"
  }

  /// `{"column": …, "groups": [{"group": …, "traces": n}, …]}` members.
  static func header(_ breakdown: GroupBreakdown) -> [(String, JSONValue)] {
    [
      ("column", .string(breakdown.column.rawValue)),
      (
        "groups",
        .array(
          zip(breakdown.names, breakdown.members).map { .object([("group", name($0)), ("traces", .int($1.count))]) })
      ),
    ]
  }

  /// One group's object: `group`, `traces`, the stage-1 metrics (as the reports' result objects)
  /// and `stage2` (`null` for one-stage recognizers).
  static func group(_ name: String?, _ m: ConfigurationMetrics) -> JSONValue {
    .object(
      [("group", Self.name(name)), ("traces", .int(m.traces))] + EvaluationJSON.stage(m.stage1)
        + [("stage2", m.stage2.map { .object(EvaluationJSON.stage($0)) } ?? .null)])
  }

  /// The Markdown table header of a breakdown: the first columns, then the per-group cells.
  static func tableHeader(_ first: [String]) -> String {
    let cells = first + [
      "traces", "F1", "precision (95 % CI)", "recall (95 % CI)", "FPR (95 % CI)", "TP", "FP", "FN", "TN", "n", "p50", "p90",
    ]
    return Markdown.row(cells) + "|" + String(repeating: "---|", count: first.count)
      + String(repeating: "--:|", count: cells.count - first.count) + "\n"
  }

  /// One Markdown row: `first`, then the group's cells.
  static func row(_ first: [String], _ m: ConfigurationMetrics) -> String {
    let s = m.stage1
    return Markdown.row(
      first + ["\(m.traces)", Markdown.ratio(s.f1)] + Intervals.ratios(s) + Markdown.counts(s)
        + ["\(s.latency.count)", Markdown.seconds(s.latency.p50), Markdown.seconds(s.latency.p90)])
  }

  /// The sentence under a breakdown table.
  static func note(_ column: TraceFilter.Field) -> String {
    "Each group's traces scored alone (the same counts as a run with --only \(column.rawValue)=GROUP); n is the true positives the latency quantiles are over.\n"
  }
}

extension TuneReport {
  /// The chosen configuration's metrics per group (`nil` when nothing was chosen).
  static func byJSON(_ result: TuningResult, _ grouped: GroupedMetrics) -> JSONValue {
    let b = grouped.breakdown
    guard let c = result.chosen, let metrics = grouped.metrics(ofConfiguration: c) else {
      return .object(Breakdown.header(b) + [("chosen", .null)])
    }
    return .object(
      Breakdown.header(b) + [
        (
          "chosen",
          .object(
            reference(result, c) + [("groups", .array(zip(b.names, metrics).map { Breakdown.group($0, $1) }))])
        )
      ])
  }

  /// The JSON document (format `touchtrace-tune`, version 1): files, trace accounting, skipped
  /// traces, the options used (the sweep's, the rule, grouping, folds, bootstrap, seed), the
  /// groups, every configuration's statistics and eligibility, the chosen configuration (or
  /// `null` with `no_choice_reason`), Pareto fronts, the cross-validation, the bootstrap, and
  /// `curves`: ROC AUC and average precision per recognizer (see ``ThresholdCurve``).
  ///
  /// With `grouped`, a `by` member: `column`, `groups` and, for the chosen configuration, its
  /// metrics per group.
  ///
  /// - Parameters:
  ///   - result: the tuning.
  ///   - grouped: the chosen configuration's metrics per group (`--by`); `nil` for none.
  public static func json(_ result: TuningResult, by grouped: GroupedMetrics? = nil) -> JSONValue {
    guard let grouped else { return baseJSON(result) }
    guard case .object(var members) = baseJSON(result) else { preconditionFailure("an object") }
    members.append(("by", byJSON(result, grouped)))
    return .object(members)
  }

  /// The `groups` CSV table: one row per group of the chosen configuration — `by`, `group`,
  /// `configuration`, `recognizer`, the group's counts, rates, intervals and latency quantiles
  /// (the result objects' names flattened with `_`).
  ///
  /// - Parameters:
  ///   - result: the tuning.
  ///   - grouped: the chosen configuration's metrics per group.
  public static func groupsCSV(_ result: TuningResult, by grouped: GroupedMetrics) -> [UInt8] {
    let b = grouped.breakdown
    let columns = Breakdown.group(nil, ConfigurationMetrics(outcomes: [], truths: [], shape: OutcomeShape(twoStage: false, reportsFlaps: false, isComposition: false))).flattened(skipping: ["stage2"]).map(\.0)
    var rows: [[JSONValue]] = []
    if let c = result.chosen, let metrics = grouped.metrics(ofConfiguration: c) {
      for (name, m) in zip(b.names, metrics) {
        rows.append(
          [.string(b.column.rawValue), .int(c), .string(result.sweep.configurations[c].name)]
            + Breakdown.group(name ?? "", m).flattened(skipping: ["stage2"]).map(\.1))
      }
    }
    return CSVWriter.table(header: ["by", "configuration", "recognizer"] + columns, rows: rows)
  }

  /// The Markdown summary: the dataset and rule, the chosen operating point with its bootstrap
  /// intervals (or why none was chosen), the cross-validation per fold with the held-out mean ±
  /// sd and pooled values, the Pareto fronts, and ROC AUC and average precision per recognizer.
  ///
  /// With `grouped`, a `## By COLUMN` section for the chosen configuration.
  ///
  /// - Parameters:
  ///   - result: the tuning.
  ///   - grouped: the chosen configuration's metrics per group (`--by`); `nil` for none.
  public static func markdown(_ result: TuningResult, by grouped: GroupedMetrics? = nil) -> String {
    guard let grouped else { return baseMarkdown(result) }
    let b = grouped.breakdown
    var out = "\n## By \(b.column.rawValue) (chosen configuration)\n\n"
    if let c = result.chosen, let metrics = grouped.metrics(ofConfiguration: c) {
      let configuration = result.sweep.configurations[c]
      out += "\(configuration.name) \(Markdown.describe(configuration)) on all traces, per \(b.column.rawValue). "
      out += Breakdown.note(b.column) + "\n"
      out += Breakdown.tableHeader([b.column.rawValue])
      for (name, m) in zip(b.names, metrics) { out += Breakdown.row([Breakdown.text(name, b.column)], m) }
    } else {
      out += "No configuration was chosen.\n"
    }
    return SweepReport.insert(out, into: baseMarkdown(result), dataset: result.sweep.evaluation.dataset)
  }
}

extension CompareReport {
  /// The JSON document (format `touchtrace-compare`, version 1): files, trace accounting, skipped
  /// traces, the options, both configurations with their metrics, McNemar's test and the paired
  /// latency difference with its bootstrap interval.
  ///
  /// With `grouped`, a `by` member: `column`, `groups`, and `a` and `b`, each an object of its
  /// metrics per group keyed by the group's name (`(none)` for the traces without one).
  ///
  /// - Parameters:
  ///   - run: the comparison.
  ///   - grouped: configurations 0 (A) and 1 (B) per group (`--by`); `nil` for none.
  public static func json(_ run: ComparisonResult, by grouped: GroupedMetrics? = nil) -> JSONValue {
    guard let grouped else { return baseJSON(run) }
    guard case .object(var members) = baseJSON(run) else { preconditionFailure("an object") }
    members.append(("by", byJSON(grouped)))
    return .object(members)
  }

  static func byJSON(_ grouped: GroupedMetrics) -> JSONValue {
    let b = grouped.breakdown
    func side(_ c: Int) -> JSONValue {
      guard let metrics = grouped.metrics(ofConfiguration: c) else { return .null }
      return .object(
        zip(b.names, metrics).map { name, m in
          guard case .object(let members) = Breakdown.group(name, m) else { preconditionFailure("an object") }
          return (name ?? "(none)", .object(members.filter { $0.0 != "group" && $0.0 != "stage2" }))
        })
    }
    return .object([("column", .string(b.column.rawValue)), ("a", side(0)), ("b", side(1))])
  }

  /// The CSV table: a header and one row, the JSON's names flattened with `_` (`a_f1`,
  /// `mcnemar_p_value`, `latency_difference_mean_interval_lower`); the configurations' parameters
  /// are in `a_text` and `b_text`.
  /// With `grouped`, the breakdown's columns follow the others (`by_a_u01_tp`, …).
  ///
  /// - Parameters:
  ///   - run: the comparison.
  ///   - grouped: configurations 0 (A) and 1 (B) per group (`--by`); `nil` for none.
  public static func csv(_ run: ComparisonResult, by grouped: GroupedMetrics? = nil) -> [UInt8] {
    guard case .object(let members) = baseJSON(run) else { preconditionFailure("an object") }
    var flat: [(String, JSONValue)] = [("traces", .int(run.evaluation.traces.count))]
    for (key, value) in members where ["a", "b", "mcnemar", "latency_difference", "timing_error_difference"].contains(key) {
      flat += value.flattened(prefix: key).filter { name, _ in
        !name.hasPrefix("a_params") && !name.hasPrefix("b_params") && !name.hasSuffix("_varied")
      }
    }
    if let grouped { flat += byJSON(grouped).flattened(prefix: "by") }
    return CSVWriter.table(header: flat.map(\.0), rows: [flat.map(\.1)])
  }

  /// The Markdown summary: both configurations' accuracy and latency, the 2 × 2 table of paired
  /// decisions with McNemar's test, and the paired latency difference.
  ///
  /// With `grouped`, a `## By COLUMN` section: A and B per group.
  ///
  /// - Parameters:
  ///   - run: the comparison.
  ///   - grouped: configurations 0 (A) and 1 (B) per group (`--by`); `nil` for none.
  public static func markdown(_ run: ComparisonResult, by grouped: GroupedMetrics? = nil) -> String {
    guard let grouped else { return baseMarkdown(run) }
    let b = grouped.breakdown
    var out = "\n## By \(b.column.rawValue)\n\n" + Breakdown.note(b.column) + "\n"
    out += Breakdown.tableHeader([b.column.rawValue, "configuration"])
    let a = grouped.metrics(ofConfiguration: 0) ?? []
    let bb = grouped.metrics(ofConfiguration: 1) ?? []
    for (g, name) in b.names.enumerated() {
      out += Breakdown.row([Breakdown.text(name, b.column), "A"], a[g])
      out += Breakdown.row([Breakdown.text(name, b.column), "B"], bb[g])
    }
    return SweepReport.insert(out, into: baseMarkdown(run), dataset: run.evaluation.dataset)
  }
}
