import TouchCore
package import TouchEvaluation
package import TouchTuning

extension SweepReport {
  /// The JSON document (format `touchtrace-sweep`, version 1): files, trace accounting, skipped
  /// traces, the options used, the ground truth (counts by intent, how many traces took their
  /// references from `press_at` and how many from the rule, and each trace that needs references
  /// with their source and times), one result object per configuration, and `curves`: each
  /// recognizer's ROC and precision–recall points over its swept threshold with `roc_auc` and
  /// `average_precision` (see ``ThresholdCurve``).
  ///
  /// With `grouped`, a `by` member (`column`, `groups` with their trace counts, and `results`,
  /// one per configuration with its `recognizer`, `params`, `varied` and `groups`, each group's
  /// metrics under the names of the result objects); with `intervals`, a `bootstrap` member
  /// (`resamples`, `confidence`, `seed`, `unit`, `units`, and per bootstrapped configuration its
  /// `intervals`: `statistic`, `estimate`, `lower`, `upper`, `defined`, `note`).
  ///
  /// - Parameters:
  ///   - result: the sweep.
  ///   - grouped: the configurations' metrics per group (`--by`); `nil` for none.
  ///   - intervals: bootstrap intervals of some configurations (`--bootstrap`); `nil` for none.
  package static func json(
    _ result: SweepResult, by grouped: GroupedMetrics? = nil, intervals: SweepIntervals? = nil
  ) -> JSONValue {
    guard case .object(var members) = baseJSON(result) else { preconditionFailure("an object") }
    if let grouped {
      let b = grouped.breakdown
      members.append(
        (
          "by",
          .object(
            Breakdown.header(b) + [
              (
                "results",
                .array(
                  zip(grouped.configurations, grouped.metrics).map { c, metrics in
                    let configuration = result.configurations[c]
                    return .object(
                      [("configuration", .int(c)), ("recognizer", .string(configuration.name))]
                        + EvaluationJSON.parameters(configuration)
                        + [("groups", .array(zip(b.names, metrics).map { Breakdown.group($0, $1) }))])
                  })
              )
            ])
        ))
    }
    if let intervals {
      members.append(
        (
          "bootstrap",
          .object([
            ("resamples", .int(intervals.options.resamples)), ("confidence", .number(intervals.options.confidence)),
            ("seed", .int(Int(intervals.seed))), ("unit", .string(intervals.groups.unit)),
            ("units", .int(intervals.groups.count)),
            (
              "method",
              "percentile: each resample draws as many units (groups, or traces) as there are, uniformly with replacement (gsl_ran_sample on mt19937), the same draws for every configuration; bounds are the (1 - confidence)/2 and (1 + confidence)/2 quantiles (R type 7) of the resamples where the statistic is defined"
            ),
            (
              "results",
              .array(
                zip(intervals.configurations, intervals.intervals).map { c, list in
                  let configuration = result.configurations[c]
                  return .object(
                    [("configuration", .int(c)), ("recognizer", .string(configuration.name))]
                      + EvaluationJSON.parameters(configuration) + [("intervals", bootstrapIntervals(list, intervals))])
                })
            ),
          ])
        ))
    }
    return .object(members)
  }

  static func bootstrapIntervals(_ list: [ConfidenceInterval], _ intervals: SweepIntervals) -> JSONValue {
    .array(
      zip(SweepIntervals.statistics, list).map { statistic, interval in
        .object([
          ("statistic", .string(statistic.name)), ("estimate", .number(interval.estimate)),
          ("lower", .number(interval.lower)),
          ("upper", .number(interval.upper)), ("defined", .int(interval.defined)),
          ("note", .string(Intervals.note(interval, clusters: intervals.groups.count, unit: intervals.groups.unit))),
        ])
      })
  }

  /// The CSV table: a header, then one row per configuration, with the same names as the JSON
  /// result objects flattened with `_` (`latency_p50`, `stage2_tp`, `fp_by_intent_tap`,
  /// `confusion_pop_press`), parameters as `param_NAME` columns (the union over recognizers, in
  /// order of first appearance; empty where a recognizer has no such parameter). Every row has
  /// the same columns; an empty cell is a missing value. Lists are written `a;b`.
  ///
  /// With `grouped`, `by` and `group` come first, and after each configuration's row over all
  /// traces (`by`, `group` empty) one row per group (`group` empty for the traces without the
  /// label); with `intervals`, last the columns `bootstrap_f1_lower`, `bootstrap_f1_upper`,
  /// `bootstrap_latency_p50_lower`, … and `bootstrap_note` (why an interval is not given), filled
  /// on the bootstrapped configurations' overall rows.
  ///
  /// - Parameters:
  ///   - result: the sweep.
  ///   - grouped: the configurations' metrics per group (`--by`); `nil` for none.
  ///   - intervals: bootstrap intervals of some configurations (`--bootstrap`); `nil` for none.
  package static func csv(
    _ result: SweepResult, by grouped: GroupedMetrics? = nil, intervals: SweepIntervals? = nil
  ) -> [UInt8] {
    let parameterNames = EvaluationJSON.parameterNames(result.configurations)
    let lead = grouped == nil ? [] : ["by", "group"]
    var header = lead + ["recognizer", "method"] + parameterNames.map { "param_" + $0 }
    var rows: [[JSONValue]] = []
    let bootstrapColumns =
      intervals == nil
      ? []
      : SweepIntervals.statistics.flatMap { ["bootstrap_\($0.name)_lower", "bootstrap_\($0.name)_upper"] } + [
        "bootstrap_note"
      ]
    let emptyBootstrap = [JSONValue](repeating: .null, count: bootstrapColumns.count)
    for c in result.configurations.indices {
      let configuration = result.configurations[c]
      var first: [JSONValue] = [.string(configuration.name), .string(result.methods[c].description)]
      for name in parameterNames {
        first.append(configuration.parameters[name].map(EvaluationJSON.parameterCell) ?? .null)
      }
      let overall = resultObject(result, c, filled: true).flattened(skipping: [
        "recognizer", "method", "params", "varied",
      ])
      if c == 0 { header += overall.map(\.0) + bootstrapColumns }
      var bootstrap = emptyBootstrap
      if let intervals, let list = intervals.intervals(ofConfiguration: c) {
        bootstrap = []
        var notes: [(String, String)] = []
        for (statistic, interval) in zip(SweepIntervals.statistics, list) {
          if let note = Intervals.note(interval, clusters: intervals.groups.count, unit: intervals.groups.unit) {
            bootstrap += [.null, .null]
            notes.append((statistic.name, note))
          } else {
            bootstrap += [.number(interval.lower), .number(interval.upper)]
          }
        }
        let shared = notes.count == list.count && Set(notes.map(\.1)).count == 1
        bootstrap.append(
          .string(notes.isEmpty ? nil : shared ? notes[0].1 : notes.map { "\($0.0): \($0.1)" }.joined(separator: "; ")))
      }
      rows.append((grouped == nil ? [] : [.null, .null]) + first + overall.map(\.1) + bootstrap)
      if let grouped {
        let b = grouped.breakdown
        for (g, m) in (grouped.metrics(ofConfiguration: c) ?? []).enumerated() {
          let flat = resultObject(result, c, filled: true, metrics: m).flattened(skipping: [
            "recognizer", "method", "params", "varied",
          ])
          rows.append([.string(b.column.rawValue), .string(b.names[g] ?? "")] + first + flat.map(\.1) + emptyBootstrap)
        }
      }
    }
    return CSVWriter.table(header: header, rows: rows)
  }

  /// The Markdown summary: the dataset and options, the best configuration of each recognizer by
  /// F1 with its latency (sorted by F1), false positives by intent, two-stage results, the
  /// latency compositions add, ROC AUC and average precision per recognizer (see
  /// ``ThresholdCurve``), skipped traces and dropped configurations.
  ///
  /// With `intervals`, `## Bootstrap intervals` (F1, p50 and p90 of each bootstrapped
  /// configuration, or why an interval is not given); with `grouped`, `## By COLUMN`: each
  /// recognizer's best configuration (by F1 on all traces) per group.
  ///
  /// - Parameters:
  ///   - result: the sweep.
  ///   - grouped: the configurations' metrics per group (`--by`); `nil` for none.
  ///   - intervals: bootstrap intervals of some configurations (`--bootstrap`); `nil` for none.
  package static func markdown(
    _ result: SweepResult, by grouped: GroupedMetrics? = nil, intervals: SweepIntervals? = nil
  ) -> String {
    var out = ""
    if let intervals {
      let level = TextFormat.decimal(intervals.options.confidence * 100, 0)
      out += "\n## Bootstrap intervals (best configurations)\n\n"
      out +=
        "Percentile bootstrap, \(level) %, over \(intervals.options.resamples) resamples of \(intervals.groups.count) \(intervals.groups.unit)s (seed \(intervals.seed)); "
      out +=
        "intervals over fewer than \(Intervals.minimumClusters) clusters, or whose resamples all agree, are not given.\n\n"
      out +=
        "| recognizer | parameters | F1 | \(level) % CI | p50 | \(level) % CI | p90 | \(level) % CI | n |\n|---|---|--:|--:|--:|--:|--:|--:|--:|\n"
      for (c, list) in zip(intervals.configurations, intervals.intervals) {
        let m = result.metrics[c].stage1
        var cells = [result.configurations[c].name, Markdown.describe(result.configurations[c])]
        for (statistic, interval) in zip(SweepIntervals.statistics, list) {
          func value(_ x: Double?) -> String { statistic.isLatency ? Markdown.seconds(x) : Markdown.ratio(x) }
          cells.append(value(interval.estimate))
          if let note = Intervals.note(interval, clusters: intervals.groups.count, unit: intervals.groups.unit) {
            cells.append("not given: " + note)
          } else if let lower = interval.lower, let upper = interval.upper {
            cells.append(value(lower) + " – " + value(upper))
          } else {
            cells.append("–")
          }
        }
        cells.append("\(m.latency.count)")
        out += Markdown.row(cells)
      }
    }
    if let grouped {
      let b = grouped.breakdown
      out += "\n## By \(b.column.rawValue) (best configurations)\n\n"
      out += Breakdown.note(b.column) + "\n"
      out += Breakdown.tableHeader(["recognizer", "parameters", b.column.rawValue])
      for (spec, c) in result.bestConfigurations() {
        guard let metrics = grouped.metrics(ofConfiguration: c) else { continue }
        for (name, m) in zip(b.names, metrics) {
          out += Breakdown.row(
            [spec.name, Markdown.describe(result.configurations[c]), Breakdown.text(name, b.column)], m)
        }
      }
    }
    return insert(out, into: baseMarkdown(result), dataset: result.evaluation.dataset)
  }

  /// `section` inserted before the report's last section, the skipped traces of `dataset` (or
  /// at the end when none was skipped).
  static func insert(_ section: String, into report: String, dataset: Dataset) -> String {
    let skipped = Markdown.skipped(dataset.skipped)
    guard !skipped.isEmpty, report.hasSuffix(skipped) else { return report + section }
    return String(report.dropLast(skipped.count)) + section + skipped
  }
}
