import TouchCore
package import TouchEvaluation
import TouchRecognizers
package import TouchTuning

/// Renders tuning (`touchtrace tune`) as versioned JSON, tidy CSV tables or a Markdown summary.
///
/// Ratios are 0…1, latencies seconds, costs per trace; undefined values are `null` in JSON and
/// empty cells in CSV, never 0 or NaN. The output depends only on the data, the options and the
/// seed, never on the number of threads.
package enum TuneReport {
  /// The JSON format name.
  package static let format = "touchtrace-tune"
  /// The JSON schema version.
  package static let version = 1

  /// The CSV tables (`touchtrace tune --format csv --table NAME`; `--csv-dir` writes all four as
  /// `NAME.csv`).
  package enum Table: String, Sendable, CaseIterable {
    /// One row per configuration: parameters, counts, statistics, objective value,
    /// eligibility, unmet bounds, Pareto membership, whether it was chosen.
    case configurations
    /// One row per Pareto point: the front (`overall` or a recognizer), the rank along it
    /// (by p90 latency), the configuration, F1, p90 latency, ties.
    case pareto
    /// One row per cross-validation fold: held-out groups, trace counts, the configuration
    /// chosen on the training part, its training and held-out statistics.
    case folds
    /// One row per statistic: the chosen configuration's value and bootstrap interval, the
    /// held-out mean ± sd over folds, the pooled held-out value and its interval.
    case summary
  }

  static let fold =
    "groups in name order are shuffled by the seeded generator, ordered by trace count (largest first, ties in shuffled order), and each joins the fold with the fewest traces so far (lowest-numbered on a tie)"

  // MARK: - JSON

  /// The document without the optional `by` member of ``json(_:by:)``.
  static func baseJSON(_ result: TuningResult) -> JSONValue {
    .object(
      Accounting.header(format: format, version: version, evaluation: result.sweep.evaluation) + [
        ("options", options(result)),
        ("ground_truth", groundTruth(result.sweep.evaluation)),
        ("groups", groups(result)),
        ("configurations", .array(result.sweep.configurations.indices.map { configurationObject(result, $0) })),
        ("chosen", result.chosen.map { chosenObject(result, $0) } ?? .null),
        ("no_choice_reason", .string(result.noChoiceReason)),
        ("pareto", pareto(result)),
        ("cross_validation", crossValidation(result)),
        ("bootstrap", bootstrap(result)),
        ("curves", ThresholdCurve.json(ThresholdCurve.curves(result.sweep))),
      ])
  }

  static func options(_ result: TuningResult) -> JSONValue {
    guard case .object(var members) = SweepReport.options(result.sweep) else {
      preconditionFailure("options are an object")
    }
    let o = result.options
    let rule = o.rule
    var objective: [(String, JSONValue)] = [
      ("name", .string(rule.objective.name)), ("description", .string(rule.objective.description)),
      ("statistic", .string(rule.objective.statistic.name)), ("maximize", .bool(rule.objective.maximizes)),
    ]
    if case .cost(let fp, let fn) = rule.objective {
      objective += [("cost_fp", .number(fp)), ("cost_fn", .number(fn))]
    } else {
      objective += [("cost_fp", .null), ("cost_fn", .null)]
    }
    members += [
      ("objective", .object(objective)),
      (
        "constraints",
        .object([
          ("min_precision", .number(rule.constraints.minimumPrecision)),
          ("min_recall", .number(rule.constraints.minimumRecall)),
          ("max_fpr", .number(rule.constraints.maximumFalsePositiveRate)),
          ("max_early", .number(rule.constraints.maximumEarlyRate)),
        ])
      ),
      ("tie_rule", .string(OperatingPointRule.tieRule)),
      ("group_by", .string(o.groupBy?.rawValue)),
      ("folds", .int(o.folds)),
      ("fold_assignment", .string(fold)),
      ("bootstrap", .int(o.bootstrap?.resamples ?? 0)),
      ("confidence", .number(o.bootstrap?.confidence)),
      ("seed", .int(Int(o.seed))),
      (
        "random",
        "GSL mt19937 seeded with the seed: first the fold shuffle (when cross-validating), then the bootstrap resamples, drawn in order on one thread"
      ),
      (
        "bootstrap_method",
        "percentile: each resample draws as many units (groups, or traces) as there are, uniformly with replacement (gsl_ran_sample); bounds are the (1 - confidence)/2 and (1 + confidence)/2 quantiles (R type 7) of the resamples where the statistic is defined"
      ),
    ]
    return .object(members)
  }

  static func groundTruth(_ evaluation: Evaluation) -> JSONValue {
    guard case .object(let members) = SweepReport.groundTruth(evaluation) else { preconditionFailure("an object") }
    return .object(members.filter { $0.0 != "references_by_trace" })
  }

  static func groups(_ result: TuningResult) -> JSONValue {
    let g = result.groups
    var members: [(String, JSONValue)] = [("by", .string(g.unit)), ("count", .int(g.count))]
    if g.key != nil {
      members.append(
        (
          "sizes",
          .array(
            g.names.indices.map { .object([("group", .string(g.names[$0])), ("traces", .int(g.members[$0].count))]) })
        ))
    }
    return .object(members)
  }

  /// `{"configuration": c, "recognizer": ..., "params": {...}, "varied": [...]}`.
  static func reference(_ result: TuningResult, _ c: Int) -> [(String, JSONValue)] {
    let configuration = result.sweep.configurations[c]
    return [("configuration", .int(c)), ("recognizer", .string(configuration.name))]
      + EvaluationJSON.parameters(configuration)
  }

  /// Counts, the result's statistics of `m`, the 95 % Wilson intervals of its proportions
  /// (`precision_ci`, `recall_ci`, `fpr_ci`) and `latency_n`, the true positives its latency
  /// quantiles are over.
  static func statistics(_ result: TuningResult, _ m: ConfigurationMetrics) -> [(String, JSONValue)] {
    let s = m.stage1
    var members: [(String, JSONValue)] = [
      ("traces", .int(m.traces)), ("tp", .int(s.truePositives)), ("fp", .int(s.falsePositives)),
      ("fn", .int(s.falseNegatives)),
      ("tn", .int(s.trueNegatives)),
    ]
    for statistic in result.statistics { members.append((statistic.name, .number(statistic.value(of: m)))) }
    members += Intervals.members(s)
    members.append(("latency_n", .int(s.latency.count)))
    return members
  }

  static func configurationObject(_ result: TuningResult, _ c: Int) -> JSONValue {
    let score = result.scores[c]
    var members = reference(result, c)
    members.append(("method", .string(result.sweep.methods[c].description)))
    members += statistics(result, result.metrics(c))
    members += [
      ("objective", .number(score.value)), ("eligible", .bool(score.isEligible)),
      ("violations", .array(score.violations.map { .string($0) })),
      ("pareto", .bool(result.paretoFront.contains { $0.configuration == c })),
      ("pareto_recognizer", .bool(result.paretoFronts.contains { $0.points.contains { $0.configuration == c } })),
      ("chosen", .bool(result.chosen == c)),
    ]
    return .object(members)
  }

  static func chosenObject(_ result: TuningResult, _ c: Int) -> JSONValue {
    var members = reference(result, c)
    members.append(("objective", .number(result.scores[c].value)))
    members += EvaluationJSON.stage(result.metrics(c).stage1)
    return .object(members)
  }

  static func point(_ result: TuningResult, _ p: ParetoPoint) -> JSONValue {
    .object(
      reference(result, p.configuration) + [
        ("f1", .number(p.f1)), ("abs_latency_p90", .number(p.absoluteLatencyP90)),
        ("early_rate", .number(result.metrics(p.configuration).stage1.latency.earlyRate)), ("ties", .int(p.ties)),
      ])
  }

  static func pareto(_ result: TuningResult) -> JSONValue {
    .object([
      (
        "axes",
        "F1 (higher is better) against p90 |latency|, |action − reference|, seconds (lower is better; an action before its reference counts by its distance like a late one, so firing early never moves a configuration onto the front); configurations without a defined F1 or p90 are left out; identical points are represented by the earliest configuration, the others counted in ties"
      ),
      ("overall", .array(result.paretoFront.map { point(result, $0) })),
      (
        "by_recognizer",
        .array(
          result.paretoFronts.map {
            .object([
              ("recognizer", .string($0.recognizer.name)), ("points", .array($0.points.map { point(result, $0) })),
            ])
          })
      ),
    ])
  }

  /// Bootstrap intervals, one object per statistic; `note` says why a report does not print the
  /// interval (fewer than 10 clusters, or every resample agreeing), `null` when it does.
  static func intervals(_ result: TuningResult, _ list: [ConfidenceInterval]?) -> JSONValue {
    guard let list else { return .null }
    return .array(
      zip(result.statistics, list).map { statistic, interval in
        .object([
          ("statistic", .string(statistic.name)), ("estimate", .number(interval.estimate)),
          ("lower", .number(interval.lower)),
          ("upper", .number(interval.upper)), ("defined", .int(interval.defined)),
          ("note", .string(note(result, interval))),
        ])
      })
  }

  /// Why the bootstrap interval is not printed (see `Intervals.note`), over the result's groups.
  static func note(_ result: TuningResult, _ interval: ConfidenceInterval) -> String? {
    Intervals.note(interval, clusters: result.groups.count, unit: result.groups.unit)
  }

  static func crossValidation(_ result: TuningResult) -> JSONValue {
    guard let cv = result.crossValidation else { return .null }
    let names = result.groups.names
    return .object(
      [
        ("folds", .int(cv.folds.count)), ("by", .string(result.groups.unit)),
        ("leave_one_group_out", .bool(cv.assignment.isLeaveOneGroupOut)),
        (
          "results",
          .array(
            cv.folds.map { fold in
              let members: [(String, JSONValue)] = [
                ("fold", .int(fold.fold + 1)), ("held_out_groups", .array(fold.groups.map { .string(names[$0]) })),
                ("training_traces", .int(fold.trainingTraces)), ("held_out_traces", .int(fold.heldOutTraces)),
                ("chosen", fold.chosen.map { .object(reference(result, $0)) } ?? .null),
                ("no_choice_reason", .string(fold.noChoiceReason)),
                ("agrees_with_full_data", fold.chosen.map { .bool($0 == result.chosen) } ?? .null),
                ("training", fold.training.map { .object(statistics(result, $0)) } ?? .null),
                ("held_out", fold.heldOut.map { .object(statistics(result, $0)) } ?? .null),
                ("held_out_violations", fold.heldOutViolations.map { .array($0.map { .string($0) }) } ?? .null),
              ]
              return .object(members)
            })
        ),
      ] + heldOut(result, cv))
  }

  /// `held_out` (each statistic's mean and sd over folds), `pooled` (the statistics of every
  /// fold's held-out traces together) and `pooled_intervals`.
  static func heldOut(_ result: TuningResult, _ cv: CrossValidation) -> [(String, JSONValue)] {
    [
      (
        "held_out",
        .array(
          cv.summaries.map {
            .object([
              ("statistic", .string($0.statistic.name)), ("folds", .int($0.count)), ("mean", .number($0.mean)),
              ("sd", .number($0.standardDeviation)),
            ])
          })
      ),
      ("pooled", cv.pooled.map { .object(statistics(result, $0)) } ?? .null),
      ("pooled_intervals", intervals(result, cv.pooledIntervals)),
    ]
  }

  static func bootstrap(_ result: TuningResult) -> JSONValue {
    guard let options = result.options.bootstrap else { return .null }
    return .object([
      ("resamples", .int(options.resamples)), ("confidence", .number(options.confidence)),
      ("unit", .string(result.groups.unit)), ("units", .int(result.groups.count)),
      ("seed", .int(Int(result.options.seed))),
      (
        "note",
        "intervals of the configuration chosen on these same traces are conditional on that choice (optimistic); the cross-validation's held-out numbers are the honest estimate"
      ),
      ("intervals", intervals(result, result.intervals)),
    ])
  }

  // MARK: - CSV

  /// One tidy table (see ``Table``): a header, then one row per record; the same names as the
  /// JSON, parameters as `param_NAME` columns; an empty cell is a missing value.
  package static func csv(_ result: TuningResult, table: Table) -> [UInt8] {
    let configurations = result.sweep.configurations
    let parameterNames = EvaluationJSON.parameterNames(configurations)
    func parameters(_ c: Int?) -> [JSONValue] {
      parameterNames.map { name in
        c.flatMap { configurations[$0].parameters[name] }.map(EvaluationJSON.parameterCell) ?? .null
      }
    }
    let statisticNames = result.statistics.map(\.name)
    func values(_ m: ConfigurationMetrics?, traces: Bool = true) -> [JSONValue] {
      guard let m else { return [JSONValue](repeating: .null, count: (traces ? 5 : 4) + result.statistics.count + 7) }
      let s = m.stage1
      return (traces ? [.int(m.traces)] : [])
        + [.int(s.truePositives), .int(s.falsePositives), .int(s.falseNegatives), .int(s.trueNegatives)]
        + result.statistics.map { .number($0.value(of: m)) }
        + JSONValue.object(Intervals.members(s)).flattened().map(\.1) + [.int(s.latency.count)]
    }
    let intervalNames = JSONValue.object(Intervals.members(StageMetrics())).flattened().map(\.0)
    let counted = ["traces", "tp", "fp", "fn", "tn"] + statisticNames + intervalNames + ["latency_n"]
    let perFold = Array(counted.dropFirst())
    var header: [String] = []
    var rows: [[JSONValue]] = []
    switch table {
    case .configurations:
      header =
        ["configuration", "recognizer", "method"] + parameterNames.map { "param_" + $0 } + counted
        + ["objective", "eligible", "violations", "pareto", "pareto_recognizer", "chosen"]
      for c in configurations.indices {
        let score = result.scores[c]
        rows.append(
          [.int(c), .string(configurations[c].name), .string(result.sweep.methods[c].description)] + parameters(c)
            + values(result.metrics(c)) + [
              .number(score.value), .bool(score.isEligible),
              .string(score.violations.isEmpty ? nil : score.violations.joined(separator: "; ")),
              .bool(result.paretoFront.contains { $0.configuration == c }),
              .bool(result.paretoFronts.contains { $0.points.contains { $0.configuration == c } }),
              .bool(result.chosen == c),
            ])
      }
    case .pareto:
      header =
        ["front", "rank", "configuration", "recognizer"] + parameterNames.map { "param_" + $0 } + [
          "f1", "abs_latency_p90", "early_rate", "ties",
        ]
      let fronts = [("overall", result.paretoFront)] + result.paretoFronts.map { ($0.recognizer.name, $0.points) }
      for (name, points) in fronts {
        for (rank, p) in points.enumerated() {
          rows.append(
            [.string(name), .int(rank + 1), .int(p.configuration), .string(configurations[p.configuration].name)]
              + parameters(p.configuration)
              + [
                .number(p.f1), .number(p.absoluteLatencyP90),
                .number(result.metrics(p.configuration).stage1.latency.earlyRate), .int(p.ties),
              ])
        }
      }
    case .folds:
      header =
        ["fold", "held_out_groups", "training_traces", "held_out_traces", "configuration", "recognizer"]
        + parameterNames.map { "param_" + $0 } + ["agrees_with_full_data"] + perFold.map { "training_" + $0 }
        + perFold.map { "held_out_" + $0 } + ["held_out_violations", "no_choice_reason"]
      for fold in result.crossValidation?.folds ?? [] {
        rows.append(
          [
            .int(fold.fold + 1), .string(fold.groups.map { result.groups.names[$0] }.joined(separator: ";")),
            .int(fold.trainingTraces), .int(fold.heldOutTraces), .int(fold.chosen),
            .string(fold.chosen.map { configurations[$0].name }),
          ] + parameters(fold.chosen) + [fold.chosen.map { .bool($0 == result.chosen) } ?? .null]
            + values(fold.training, traces: false) + values(fold.heldOut, traces: false) + [
              .string(fold.heldOutViolations.flatMap { $0.isEmpty ? nil : $0.joined(separator: "; ") }),
              .string(fold.noChoiceReason),
            ])
      }
    case .summary:
      header = [
        "statistic", "chosen", "chosen_lower", "chosen_upper", "chosen_defined", "cv_folds", "cv_mean", "cv_sd",
        "pooled",
        "pooled_lower", "pooled_upper", "pooled_defined", "confidence", "chosen_note", "pooled_note",
      ]
      let cv = result.crossValidation
      for (s, statistic) in result.statistics.enumerated() {
        let chosen = result.intervals?[s]
        let summary = cv?.summaries[s]
        let pooled = cv?.pooledIntervals?[s]
        rows.append([
          .string(statistic.name), .number(result.chosen.flatMap { statistic.value(of: result.metrics($0)) }),
          .number(chosen?.lower), .number(chosen?.upper), .int(chosen?.defined), .int(summary?.count),
          .number(summary?.mean), .number(summary?.standardDeviation),
          .number(cv?.pooled.flatMap(statistic.value(of:))),
          .number(pooled?.lower), .number(pooled?.upper), .int(pooled?.defined),
          .number(result.options.bootstrap?.confidence),
          .string(chosen.flatMap { note(result, $0) }), .string(pooled.flatMap { note(result, $0) }),
        ])
      }
    }
    return CSVWriter.table(header: header, rows: rows)
  }

  // MARK: - Markdown

  /// The summary without the optional section of ``markdown(_:by:)``.
  static func baseMarkdown(_ result: TuningResult) -> String {
    var out = "# Tune\n\n"
    out += setupMarkdown(result)
    out += "\n## Chosen operating point\n\n"
    out += chosenMarkdown(result)
    if let cv = result.crossValidation { out += crossValidationMarkdown(result, cv) }
    out += paretoMarkdown(result)
    out += ThresholdCurve.markdown(ThresholdCurve.curves(result.sweep))
    out += Markdown.skipped(result.sweep.evaluation.dataset.skipped)
    return out
  }

  /// The list under the title: the traces, the positives and tolerance, the configurations, the
  /// rule, and the groups.
  private static func setupMarkdown(_ result: TuningResult) -> String {
    let evaluation = result.sweep.evaluation
    let options = evaluation.options
    let rule = result.options.rule
    let configurations = result.sweep.configurations
    var out = Markdown.traces(evaluation)
    out += "- Positives (stage 1): \(options.positives.map(\.rawValue).joined(separator: ", ")) — "
    out +=
      "\(evaluation.summary.positives) traces; matching within \(TextFormat.compact(options.tolerance)) s.\n"
    out +=
      "- \(configurations.count) configurations of \(result.sweep.plan.recognizers.map(\.name).joined(separator: ", ")).\n"
    out += "- Objective: \(rule.objective); bounds: \(rule.constraints). Ties: \(OperatingPointRule.tieRule).\n"
    let g = result.groups
    if g.key != nil {
      let shown = g.names.indices.prefix(12).map { "\(g.names[$0]) \(g.members[$0].count)" }.joined(separator: ", ")
      out += "- Groups: \(g.count) \(g.unit)s (traces: \(shown)\(g.count > 12 ? ", … \(g.count - 12) more" : "")).\n"
    } else {
      out +=
        "- Groups: none (every trace is its own unit; traces of one person may fall on both sides of a fold — use --group-by user).\n"
    }
    return out
  }

  /// The chosen operating point's section body: the configuration, its counts and its
  /// statistics' table, or why no configuration was chosen.
  private static func chosenMarkdown(_ result: TuningResult) -> String {
    guard let c = result.chosen else { return "**No configuration chosen**: \(result.noChoiceReason ?? "").\n" }
    let configurations = result.sweep.configurations
    let m = result.metrics(c).stage1
    var out =
      "**\(configurations[c].name)** \(Markdown.describe(configurations[c])) — objective \(value(result.options.rule.objective.statistic, result.scores[c].value)); "
    out += "TP \(m.truePositives), FP \(m.falsePositives), FN \(m.falseNegatives), TN \(m.trueNegatives).\n\n"
    if let intervals = result.intervals, let b = result.options.bootstrap {
      out += bootstrapTable(result, chosen: c, intervals, b)
    } else {
      out += wilsonTable(result, chosen: c)
    }
    return out
  }

  /// The chosen configuration `c`'s statistics with their bootstrap intervals (`intervals`,
  /// drawn as `b` says) and Wilson intervals, and what the bootstrap intervals mean.
  private static func bootstrapTable(
    _ result: TuningResult, chosen c: Int, _ intervals: [ConfidenceInterval], _ b: BootstrapOptions
  ) -> String {
    let m = result.metrics(c).stage1
    let g = result.groups
    var out =
      "| statistic | value | bootstrap \(TextFormat.decimal(b.confidence * 100, 0))% CI | defined in | Wilson 95 % CI |\n"
    out += "|---|--:|--:|--:|--:|\n"
    for (statistic, interval) in zip(result.statistics, intervals) {
      out += Markdown.row([
        label(statistic), value(statistic, interval.estimate) + count(statistic, result.metrics(c)),
        range(result, statistic, interval), "\(interval.defined)/\(interval.resamples)", wilson(statistic, m),
      ])
    }
    out +=
      "\nPercentile bootstrap over \(b.resamples) resamples of \(g.count) \(g.unit)s (seed \(result.options.seed)). "
    out += "These intervals are conditional on choosing this configuration on the same traces, so optimistic; "
    out += "the cross-validated held-out numbers below are the honest estimate.\n"
    return out
  }

  /// The chosen configuration `c`'s statistics with their Wilson intervals (no bootstrap).
  private static func wilsonTable(_ result: TuningResult, chosen c: Int) -> String {
    let m = result.metrics(c).stage1
    let full = result.metrics(c)
    var out = "| statistic | value | Wilson 95 % CI |\n|---|--:|--:|\n"
    for statistic in result.statistics {
      out += Markdown.row([
        label(statistic), value(statistic, statistic.value(of: full)) + count(statistic, full),
        wilson(statistic, m),
      ])
    }
    return out
  }

  /// The cross-validation section: one row per fold, then the held-out statistics over folds and
  /// pooled, and what pooled means.
  private static func crossValidationMarkdown(_ result: TuningResult, _ cv: CrossValidation) -> String {
    let g = result.groups
    var out =
      "\n## Cross-validation (\(cv.folds.count) folds by \(g.unit)\(cv.assignment.isLeaveOneGroupOut ? ", leave-one-\(g.unit)-out" : ""))\n\n"
    out += "Each fold's operating point is chosen on the other folds and scored on the fold.\n\n"
    out +=
      "| fold | held out | traces | chosen | train \(label(result.options.rule.objective.statistic)) | held-out F1 | precision (95 % CI) | recall (95 % CI) | FPR (95 % CI) | n | p50 | p90 | bounds |\n"
    out += "|--:|---|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|---|\n"
    for fold in cv.folds { out += foldRow(result, fold) }
    out += "\n≠ marks a fold whose choice differs from the one made on all traces.\n\n"
    out += heldOutTable(result, cv)
    out += pooledExplanation(result, cv)
    return out
  }

  /// One fold's row of the cross-validation table: its held-out groups and traces, the
  /// configuration chosen on the other folds with its held-out statistics, or why none was.
  private static func foldRow(_ result: TuningResult, _ fold: FoldResult) -> String {
    let rule = result.options.rule
    let configurations = result.sweep.configurations
    let held = fold.groups.map { result.groups.names[$0] }
    let heldText =
      held.count <= 4
      ? held.joined(separator: ", ") : "\(held.prefix(3).joined(separator: ", ")) +\(held.count - 3)"
    var cells = ["\(fold.fold + 1)", heldText, "\(fold.heldOutTraces)"]
    if let c = fold.chosen, let heldOut = fold.heldOut {
      let s = heldOut.stage1
      let violations = fold.heldOutViolations ?? []
      cells += [
        "\(configurations[c].name) \(Markdown.describe(configurations[c]))\(c == result.chosen ? "" : " ≠")",
        value(rule.objective.statistic, fold.training.flatMap(rule.objective.statistic.value(of:))),
      ]
      cells += [Markdown.ratio(s.f1)] + Intervals.ratios(s)
      cells += ["\(s.latency.count)", Markdown.seconds(s.latency.p50), Markdown.seconds(s.latency.p90)]
      cells.append(rule.constraints.isEmpty ? "–" : violations.isEmpty ? "met" : violations.joined(separator: "; "))
    } else {
      cells += ["none"] + Array(repeating: "–", count: 8) + [fold.noChoiceReason ?? ""]
    }
    return Markdown.row(cells)
  }

  /// The held-out statistics: mean ± sd over folds, pooled, the pooled Wilson intervals and the
  /// pooled bootstrap intervals (or the note that replaces them).
  private static func heldOutTable(_ result: TuningResult, _ cv: CrossValidation) -> String {
    var out = "| held out | " + result.statistics.map(label).joined(separator: " | ") + " |\n"
    out += "|---|" + String(repeating: "--:|", count: result.statistics.count) + "\n"
    out += Markdown.row(
      ["mean ± sd over folds"]
        + cv.summaries.map { s in
          guard let mean = s.mean else { return "–" }
          return value(s.statistic, mean) + (s.standardDeviation.map { " ± " + value(s.statistic, $0) } ?? "")
            + (s.count < cv.folds.count ? " (\(TextFormat.count(s.count, "fold")))" : "")
        })
    out += Markdown.row(
      ["pooled (\(cv.pooledTraces) traces)"]
        + result.statistics.map { statistic in
          value(statistic, cv.pooled.flatMap(statistic.value(of:))) + (cv.pooled.map { count(statistic, $0) } ?? "")
        })
    if let pooled = cv.pooled {
      out += Markdown.row(["pooled Wilson 95 % CI"] + result.statistics.map { wilson($0, pooled.stage1) })
    }
    out += pooledBootstrap(result, cv)
    return out
  }

  /// The pooled bootstrap intervals' row or, when one note replaces them all, that note after
  /// the table; empty without pooled intervals.
  private static func pooledBootstrap(_ result: TuningResult, _ cv: CrossValidation) -> String {
    guard let pooled = cv.pooledIntervals, let b = result.options.bootstrap else { return "" }
    let notes = Set(pooled.map { note(result, $0) })
    if notes.count == 1, let only = notes.first, let only {
      return "\nPooled bootstrap \(TextFormat.decimal(b.confidence * 100, 0))% CI: not shown, \(only).\n"
    }
    return Markdown.row(
      ["pooled bootstrap \(TextFormat.decimal(b.confidence * 100, 0))% CI"]
        + zip(result.statistics, pooled).map { range(result, $0, $1) })
  }

  /// What pooled means, and which folds chose no configuration (their traces are left out).
  private static func pooledExplanation(_ result: TuningResult, _ cv: CrossValidation) -> String {
    var out = "\nPooled: every fold's held-out traces scored together, each by the configuration chosen without it."
    let empty = cv.folds.filter { $0.chosen == nil }.map { String($0.fold + 1) }
    if !empty.isEmpty {
      out += " Fold\(empty.count == 1 ? "" : "s") \(empty.joined(separator: ", ")) chose no configuration: "
      out += "\(empty.count == 1 ? "its" : "their") traces are left out of the pooled values"
      out += result.options.bootstrap != nil ? ", which therefore have no bootstrap interval." : "."
    }
    out += "\n"
    return out
  }

  /// The Pareto fronts of F1 against p90 |latency|: over all configurations, then each
  /// recognizer's when there are several.
  private static func paretoMarkdown(_ result: TuningResult) -> String {
    let configurations = result.sweep.configurations
    var out = "\n## Pareto front: F1 against p90 |latency|\n\n"
    out += "Configurations no other beats on both F1 (higher) and p90 |action − reference| (lower), over all traces: "
    out +=
      "an action before the intended press counts by its distance from it, like a late one, so firing early never puts a configuration on the front.\n\n"
    out += "| front | configuration | F1 | p90 abs latency | early rate | same point |\n|---|---|--:|--:|--:|--:|\n"
    func point(_ front: String, _ configuration: String, _ p: ParetoPoint) -> String {
      Markdown.row([
        front, configuration, Markdown.ratio(p.f1), Markdown.seconds(p.absoluteLatencyP90),
        Markdown.ratio(result.metrics(p.configuration).stage1.latency.earlyRate), "\(p.ties)",
      ])
    }
    for p in result.paretoFront {
      let configuration = configurations[p.configuration]
      out += point("overall", "\(configuration.name) \(Markdown.describe(configuration))", p)
    }
    if result.paretoFronts.count > 1 {
      for (spec, points) in result.paretoFronts {
        for p in points { out += point(spec.name, Markdown.describe(configurations[p.configuration]), p) }
      }
    }
    return out
  }

  static func label(_ statistic: TuningStatistic) -> String {
    switch statistic {
    case .f1: "F1"
    case .precision: "precision"
    case .recall: "recall"
    case .fpr: "FPR"
    case .latencyP50: "p50 latency"
    case .latencyP90: "p90 latency"
    case .absoluteLatencyP90: "p90 abs latency"
    case .earlyRate: "early rate"
    case .cost: "cost/trace"
    }
  }

  static func value(_ statistic: TuningStatistic, _ x: Double?) -> String {
    statistic.isLatency ? Markdown.seconds(x) : Markdown.ratio(x)
  }

  /// A bootstrap interval, or the note that replaces it (fewer than 10 clusters, every resample
  /// agreeing).
  static func range(_ result: TuningResult, _ statistic: TuningStatistic, _ interval: ConfidenceInterval) -> String {
    if let note = note(result, interval) { return "not shown: " + note }
    guard let lower = interval.lower, let upper = interval.upper else { return "–" }
    return "\(value(statistic, lower)) – \(value(statistic, upper))"
  }

  /// The Wilson interval of a proportion statistic of `m` (`k/n low–high`); `–` for others.
  static func wilson(_ statistic: TuningStatistic, _ m: StageMetrics) -> String {
    let interval: ProportionInterval?
    switch statistic {
    case .precision: interval = Intervals.precision(m)
    case .recall: interval = Intervals.recall(m)
    case .fpr: interval = Intervals.fpr(m)
    case .earlyRate: interval = Intervals.early(m)
    default: return "–"
    }
    return Intervals.text(interval)
  }

  /// ` (n = N)` after a latency quantile: the true positives it is over; empty for others.
  static func count(_ statistic: TuningStatistic, _ m: ConfigurationMetrics) -> String {
    statistic.isLatency || statistic == .earlyRate ? " (n = \(m.stage1.latency.count))" : ""
  }
}

// MARK: - The report: one entry point per format, with the optional `--by` breakdown

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
  package static func json(_ result: TuningResult, by grouped: GroupedMetrics? = nil) -> JSONValue {
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
  package static func groupsCSV(_ result: TuningResult, by grouped: GroupedMetrics) -> [UInt8] {
    let b = grouped.breakdown
    let columns = Breakdown.group(
      nil,
      ConfigurationMetrics(
        outcomes: [], truths: [], shape: OutcomeShape(twoStage: false, reportsFlaps: false, isComposition: false))
    ).flattened(skipping: ["stage2"]).map(\.0)
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
  package static func markdown(_ result: TuningResult, by grouped: GroupedMetrics? = nil) -> String {
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
