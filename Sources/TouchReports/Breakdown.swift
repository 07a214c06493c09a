import TouchCore
import TouchEvaluation
import TouchTuning

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
          zip(breakdown.names, breakdown.traceCounts).map { .object([("group", name($0)), ("traces", .int($1))]) })
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
    let cells =
      first + [
        "traces", "F1", "precision (95 % CI)", "recall (95 % CI)", "FPR (95 % CI)", "TP", "FP", "FN", "TN", "n", "p50",
        "p90",
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
