import TouchCore
import TouchEvaluation
import TouchRecognizers
package import TouchTuning

/// The reports of an exact sweep (`touchtrace sweep --exact`, `tune --exact`): the metrics as
/// intervals of the exact parameters, and the exact optimum with its plateau, in Markdown, JSON
/// (format `touchtrace-exact`), CSV and HTML.
package enum ExactReport {
  /// The JSON format name.
  package static let format = "touchtrace-exact"
  /// The JSON schema version.
  package static let version = 1

  /// What the report compares the exact optimum with: the default grid's values of the exact
  /// parameter (k/20 of the maximum force) and its best value on them.
  package struct GridComparison: Sendable {
    /// The grid's rule, in words (`k/20 of the maximum force`).
    package var rule: String
    /// The grid's values, in the parameter's unit.
    package var values: [Double]

    /// Creates a comparison.
    package init(rule: String, values: [Double]) {
      self.rule = rule
      self.values = values
    }
  }

  // MARK: Shared pieces

  static func parameterList(_ exact: ExactSweep) -> String {
    exact.axes.map(\.parameter).joined(separator: " × ")
  }

  /// The grid's best point on a 1-parameter group: the value and the region it falls in.
  static func gridBest(_ exact: ExactSweep, group g: Int, grid: GridComparison?) -> (
    value: Double, region: Int, objective: Double
  )? {
    guard let grid, exact.axes.count == 1 else { return nil }
    let rule = exact.rule
    var best: (value: Double, region: Int, objective: Double)?
    for x in grid.values {
      guard let r = exact.region(holding: [x], in: g),
        let v = ExactSweep.feasibleValue(exact.groups[g].regions[r], rule: rule)
      else { continue }
      if best == nil || (rule.objective.maximizes ? v > best!.objective : v < best!.objective) { best = (x, r, v) }
    }
    return best
  }

  static func objectiveName(_ rule: OperatingPointRule) -> String {
    let s = rule.objective.statistic
    return s == .f1
      ? "F1" : s == .absoluteLatencyP90 ? "p90 |action − reference|" : s == .recall ? "recall" : "cost per trace"
  }

  static func objectiveText(_ value: Double, _ rule: OperatingPointRule) -> String {
    rule.objective.statistic.isLatency ? Markdown.seconds(value) : TextFormat.decimal(value, 3)
  }

  static func toleranceText(_ value: Double, _ rule: OperatingPointRule) -> String {
    rule.objective.statistic.isLatency ? TextFormat.compact(value * 1000) + " ms" : TextFormat.compact(value)
  }

  static func width(_ b: ExactBounds) -> String {
    b.width.isFinite ? TextFormat.compact(b.width, significant: 3) : "unbounded"
  }

  // MARK: Markdown

  /// The `## Verdict` section: what to ship (the recommended value of the best group), then per
  /// group the exact optimum, its intervals, the recommended point and the plateau, and the
  /// default grid's best beside it.
  package static func optimumMarkdown(_ exact: ExactSweep, grid: GridComparison? = nil) -> String {
    var out = "## Verdict\n\n"
    let rule = exact.rule
    let name = objectiveName(rule)
    if let (recognizer, values) = exact.shipped, let g = exact.bestGroup, let optimum = exact.groups[g].optimum,
      let value = optimum.value
    {
      out +=
        "**Ship \(([recognizer] + values).joined(separator: " "))**: \(name) \(objectiveText(value, rule)) holds on the whole "
        + "optimal region it is the middle of (\(regionText(exact.groups[g].regions[optimum.recommendedRegion], exact.axes.map(\.parameter)))), "
        + (optimum.regions.count == 1
          ? "the only optimal region" : "the widest of \(optimum.regions.count) optimal regions") + ".\n\n"
    } else {
      out += "**Nothing to ship**: no interval meets the rule (\(rule.constraints)) with a defined \(name).\n\n"
    }
    let parameters = exact.axes.map(\.parameter)
    for (g, group) in exact.groups.enumerated() {
      let title =
        group.fixed.isEmpty ? group.recognizer : "\(group.recognizer) (\(group.fixed.joined(separator: ", ")))"
      if exact.groups.count > 1 { out += "### \(title)\n\n" }
      guard let optimum = group.optimum, let value = optimum.value else {
        out += "- **\(title)**: no interval meets the rule (\(rule.constraints)) with a defined \(name).\n\n"
        continue
      }
      let optimal = optimum.regions.map { r in regionText(group.regions[r], parameters) }
      let shown =
        optimal.prefix(4).joined(separator: "; ") + (optimal.count > 4 ? "; and \(optimal.count - 4) more" : "")
      out += "- **\(title)**: \(name) **\(objectiveText(value, rule))** for \(shown)"
      out += " (\(TextFormat.count(optimum.regions.count, "optimal region"))).\n"
      let point = zip(parameters, optimum.recommended).map { "\($0) = \(ParameterValue.text($1))" }.joined(
        separator: ", ")
      let widest = group.regions[optimum.recommendedRegion].bounds
      out +=
        "- Recommended: **\(point)**, the middle of the widest optimal region "
        + "(width \(widest.map(width).joined(separator: " × "))).\n"
      out += "- Within \(toleranceText(optimum.tolerance, rule)) of the optimum: "
      if parameters.count == 1 {
        out +=
          "\(parameters[0]) in \(text(optimum.plateau[0])) (width \(width(optimum.plateau[0])), "
          + "\(TextFormat.count(plateauCount(group, optimum), "interval")) around the recommended one).\n"
      } else {
        out +=
          "\(TextFormat.count(optimum.withinTolerance.count, "region")), within "
          + zip(parameters, optimum.plateau).map { "\($0) in \(text($1))" }.joined(separator: ", ") + ".\n"
      }
      if let best = gridBest(exact, group: g, grid: grid), let grid {
        let same = best.objective == value
        out +=
          "- The default grid (\(grid.rule), \(TextFormat.count(grid.values.count, "value"))) finds \(name) "
          + "\(objectiveText(best.objective, rule)) at best, at \(parameters[0]) = \(ParameterValue.text(best.value))"
          + (same ? ": it lands on an optimal interval.\n" : ": the exact optimum is better.\n")
      }
      out += "\n"
    }
    return out
  }

  /// The number of intervals the 1-parameter plateau spans.
  static func plateauCount(_ group: ExactSweep.Group, _ optimum: ExactSweep.Optimum) -> Int {
    let p = optimum.plateau[0]
    return group.regions.filter { r in p.contains(r.bounds[0].lowOpen ? r.bounds[0].low.nextUp : r.bounds[0].low) }
      .count
  }

  static func regionText(_ region: ExactSweep.Region, _ parameters: [String]) -> String {
    zip(parameters, region.bounds).map { "\($0) in \(text($1))" }.joined(separator: ", ")
  }

  /// An interval as Markdown shows it: ends to 6 significant digits (the JSON report has the
  /// exact doubles), `inf` for no bound.
  static func text(_ b: ExactBounds) -> String {
    func end(_ x: Double) -> String { x.isFinite ? TextFormat.compact(x, significant: 6) : (x < 0 ? "-inf" : "inf") }
    return "\(b.lowOpen ? "(" : "[")\(end(b.low)), \(end(b.high))\(b.highOpen ? ")" : "]")"
  }

  /// The whole Markdown report: title, the data and method, the verdict, then one table of
  /// intervals per group.
  ///
  /// - Parameters:
  ///   - exact: the exact sweep.
  ///   - command: `sweep` or `tune`.
  ///   - grid: the default grid to compare the optimum with, if any.
  ///   - optimum: whether to include the `## Verdict` section (the HTML page shows it first, above
  ///     the figures, instead).
  ///   - tuning: `tune --exact`'s cross-validation and bootstrap, reported after the verdict.
  package static func markdown(
    _ exact: ExactSweep, command: String, grid: GridComparison? = nil, optimum: Bool = true, tuning: ExactTuning? = nil
  ) -> String {
    let evaluation = exact.sweep.evaluation
    var out = "# Exact \(command): \(exact.groups.first?.recognizer ?? "") \(parameterList(exact))\n\n"
    out += Markdown.traces(evaluation)
    for axis in exact.axes {
      out +=
        "- `\(axis.parameter)` (\(axis.scale.rawValue) scale): \(TextFormat.count(axis.count, "exact class", plural: "exact classes")) "
        + "over its whole range, cut at every force value of the data where some trace's replay can change.\n"
    }
    out +=
      "- Interval ends are shown to 6 significant digits; the JSON report gives them exactly (every double inside an interval gives the same replays).\n"
    let regions = exact.groups.reduce(0) { $0 + $1.regions.count }
    out +=
      "- \(TextFormat.count(exact.sweep.configurations.count, "configuration")) evaluated, "
      + "\(TextFormat.count(regions, "region")) with distinct metrics (adjacent classes with equal metrics merged).\n"
    out +=
      "- Objective: \(exact.rule.objective) (bounds: \(exact.rule.constraints)); within-tolerance plateau "
      + "\(toleranceText(exact.groups.first?.optimum?.tolerance ?? 0, exact.rule)).\n\n"
    if optimum { out += optimumMarkdown(exact, grid: grid) }
    if let tuning { out += tuningMarkdown(tuning) }
    let parameters = exact.axes.map(\.parameter)
    for group in exact.groups {
      let title =
        group.fixed.isEmpty ? group.recognizer : "\(group.recognizer) (\(group.fixed.joined(separator: ", ")))"
      out += "## Intervals: \(title)\n\n"
      out += Markdown.row(
        parameters + [
          "classes", "TP", "FP", "FN", "TN", "F1", "precision", "recall", "FPR", "p50", "p90", "p90 abs", "early",
          "note",
        ])
      out += Markdown.row(parameters.map { _ in "---" } + Array(repeating: "--:", count: 13) + ["---"])
      for (r, region) in group.regions.enumerated() {
        let m = region.metrics.stage1
        var note = ""
        if let optimum = group.optimum {
          note =
            r == optimum.recommendedRegion
            ? "recommended"
            : optimum.regions.contains(r) ? "optimal" : optimum.withinTolerance.contains(r) ? "within tolerance" : ""
        }
        out += Markdown.row(
          region.bounds.map(text) + ["\(region.classes)"] + Markdown.counts(m) + Markdown.accuracy(m)
            + [
              Markdown.seconds(m.latency.p50), Markdown.seconds(m.latency.p90), Markdown.seconds(m.latency.absoluteP90),
              Markdown.ratio(m.latency.earlyRate), note,
            ])
      }
      out += "\n"
    }
    out += Markdown.skipped(evaluation.dataset.skipped)
    return out
  }

  // MARK: Tuning (cross-validation, bootstrap)

  static func statisticText(_ s: TuningStatistic, _ value: Double?) -> String {
    s.isLatency ? Markdown.seconds(value) : Markdown.ratio(value)
  }

  /// `## Cross-validation (exact)`: each fold's exact choice on its training part and its
  /// held-out score, mean ± sd, pooled; then the recommended value's bootstrap intervals.
  static func tuningMarkdown(_ tuning: ExactTuning) -> String {
    var out = ""
    let names = tuning.exact.axes.map(\.parameter)
    let objective = objectiveName(tuning.exact.rule)
    if !tuning.folds.isEmpty {
      out += "## Cross-validation (exact)\n\n"
      out +=
        "Each fold takes the middle of the widest optimal interval of its training part and replays it on the part it held out"
        + " (groups: \(tuning.groups.unit), \(tuning.groups.count)).\n\n"
      out += Markdown.row([
        "fold", "training", "held out", "chosen", "training \(objective)", "held-out F1", "precision", "recall",
        "p90 abs",
      ])
      out += Markdown.row(["--:", "--:", "--:", "---", "--:", "--:", "--:", "--:", "--:"])
      for fold in tuning.folds {
        let chosen =
          fold.chosen.map { values in
            zip(names, values).map { "\($0)=\(ParameterValue.text($1))" }.joined(separator: " ")
              + (fold.fixed.isEmpty ? "" : " " + fold.fixed.joined(separator: " "))
          } ?? "none"
        let m = fold.heldOut?.stage1
        out += Markdown.row(
          [
            "\(fold.fold + 1)", "\(fold.trainingTraces)", "\(fold.heldOutTraces)", chosen,
            fold.trainingValue.map { objectiveText($0, tuning.exact.rule) } ?? "–", Markdown.ratio(m?.f1),
            Markdown.ratio(m?.precision),
            Markdown.ratio(m?.recall), Markdown.seconds(m?.latency.absoluteP90),
          ])
      }
      out += "\n"
      for summary in tuning.summaries where summary.mean != nil {
        out +=
          "- Held-out \(summary.statistic): \(statisticText(summary.statistic, summary.mean))"
          + (summary.standardDeviation.map { " ± " + statisticText(summary.statistic, $0) } ?? "")
          + " over \(summary.count) folds.\n"
      }
      if let pooled = tuning.pooled?.stage1 {
        out +=
          "- Pooled held-out: F1 \(Markdown.ratio(pooled.f1)), precision \(Markdown.ratio(pooled.precision)), "
          + "recall \(Markdown.ratio(pooled.recall)), FPR \(Markdown.ratio(pooled.falsePositiveRate)).\n"
      }
      out += "\n"
    }
    if let intervals = tuning.intervals {
      out += "## Bootstrap of the recommended value\n\n"
      out += Markdown.row(["statistic", "estimate", "low", "high", "resamples"])
      out += Markdown.row(["---", "--:", "--:", "--:", "--:"])
      for (s, i) in zip(tuning.statistics, intervals) {
        out += Markdown.row([
          s.name, statisticText(s, i.estimate), statisticText(s, i.lower), statisticText(s, i.upper), "\(i.resamples)",
        ])
      }
      out += "\n"
    }
    return out
  }

  static func tuningMembers(_ tuning: ExactTuning) -> [(String, JSONValue)] {
    var members: [(String, JSONValue)] = []
    if let intervals = tuning.intervals {
      members.append(
        (
          "recommended_intervals",
          .array(
            zip(tuning.statistics, intervals).map { s, i in
              .object([
                ("statistic", .string(s.name)), ("estimate", .number(i.estimate)), ("low", .number(i.lower)),
                ("high", .number(i.upper)), ("confidence", .number(i.confidence)), ("resamples", .int(i.resamples)),
              ])
            })
        ))
    }
    if !tuning.folds.isEmpty {
      let names = tuning.exact.axes.map(\.parameter)
      let folds: [JSONValue] = tuning.folds.map { fold in
        var f: [(String, JSONValue)] = [
          ("fold", .int(fold.fold)), ("training_traces", .int(fold.trainingTraces)),
          ("held_out_traces", .int(fold.heldOutTraces)),
          ("chosen", fold.chosen.map { values in .object(zip(names, values).map { ($0, .number($1)) }) } ?? .null),
          ("fixed", .array(fold.fixed.map { .string($0) })),
          ("training_objective", .number(fold.trainingValue)),
          ("interval", fold.interval.map { .object(boundsObject(tuning.exact, $0)) } ?? .null),
        ]
        f.append(("held_out", fold.heldOut.map { .object(EvaluationJSON.stage($0.stage1)) } ?? .null))
        return .object(f)
      }
      members.append(
        (
          "cross_validation",
          .object([
            ("group_by", .string(tuning.groups.unit)), ("folds", .array(folds)),
            (
              "summaries",
              .array(
                tuning.summaries.map { s in
                  .object([
                    ("statistic", .string(s.statistic.name)), ("n", .int(s.count)), ("mean", .number(s.mean)),
                    ("sd", .number(s.standardDeviation)),
                  ])
                })
            ),
            ("pooled", tuning.pooled.map { .object(EvaluationJSON.stage($0.stage1)) } ?? .null),
          ])
        ))
    }
    return members
  }

  // MARK: JSON and CSV

  static func boundsMembers(_ b: ExactBounds) -> [(String, JSONValue)] {
    [
      ("low", .number(b.low)), ("high", .number(b.high)), ("low_open", .bool(b.lowOpen)),
      ("high_open", .bool(b.highOpen)),
    ]
  }

  static func boundsObject(_ exact: ExactSweep, _ bounds: [ExactBounds]) -> [(String, JSONValue)] {
    if bounds.count == 1 { return boundsMembers(bounds[0]) }
    return [("bounds", .object(zip(exact.axes, bounds).map { ($0.parameter, .object(boundsMembers($1))) }))]
  }

  static func intervalObject(_ exact: ExactSweep, group: ExactSweep.Group, _ r: Int) -> JSONValue {
    let region = group.regions[r]
    var members: [(String, JSONValue)] = []
    if !group.fixed.isEmpty { members.append(("fixed", .array(group.fixed.map { .string($0) }))) }
    members += boundsObject(exact, region.bounds)
    members.append(("classes", .int(region.classes)))
    members += EvaluationJSON.stage(region.metrics.stage1)
    members.append(("optimal", .bool(group.optimum?.regions.contains(r) ?? false)))
    members.append(("within_tolerance", .bool(group.optimum?.withinTolerance.contains(r) ?? false)))
    return .object(members)
  }

  /// `verdict`: `ship` (`deep-press threshold=0.348`), the recognizer and the values to set;
  /// `null` members when nothing meets the rule.
  static func verdictObject(_ exact: ExactSweep) -> JSONValue {
    guard let (recognizer, values) = exact.shipped else {
      return .object([("ship", .null), ("recognizer", .null), ("set", .null)])
    }
    return .object([
      ("ship", .string(([recognizer] + values).joined(separator: " "))), ("recognizer", .string(recognizer)),
      ("set", .array(values.map { .string($0) })),
    ])
  }

  static func optimumObject(_ exact: ExactSweep, group g: Int, grid: GridComparison?) -> JSONValue {
    let group = exact.groups[g]
    guard let optimum = group.optimum else { return .null }
    var members: [(String, JSONValue)] = []
    if !group.fixed.isEmpty { members.append(("fixed", .array(group.fixed.map { .string($0) }))) }
    members += [
      ("objective", .string(exact.rule.objective.statistic.name)), ("value", .number(optimum.value)),
      ("intervals", .array(optimum.regions.map { .object(boundsObject(exact, group.regions[$0].bounds)) })),
      ("recommended", .object(zip(exact.axes, optimum.recommended).map { ($0.parameter, .number($1)) })),
      ("recommended_interval", .object(boundsObject(exact, group.regions[optimum.recommendedRegion].bounds))),
      (
        "plateau",
        .object(
          [("tolerance", .number(optimum.tolerance))] + boundsObject(exact, optimum.plateau)
            + [
              ("width", .number(optimum.plateau.count == 1 ? optimum.plateau[0].width : nil)),
              (
                "intervals",
                .int(optimum.plateau.count == 1 ? plateauCount(group, optimum) : optimum.withinTolerance.count)
              ),
            ])
      ),
    ]
    if let best = gridBest(exact, group: g, grid: grid), let grid {
      members.append(
        (
          "grid",
          .object([
            ("rule", .string(grid.rule)), ("values", .int(grid.values.count)), ("best_value", .number(best.value)),
            ("best_objective", .number(best.objective)),
          ])
        ))
    }
    return .object(members)
  }

  /// The JSON document (format `touchtrace-exact`, version 1): the accounting, `axes` (each
  /// exact parameter's scale and class count), `intervals[]` (every region of every group:
  /// `low`, `high`, `low_open`, `high_open` in the parameter's unit, or `bounds` by parameter
  /// with several; `classes` merged; the counts, rates with Wilson intervals and latency
  /// summaries of the sweep report's result objects; `optimal`, `within_tolerance`), and
  /// `optimum` (the first group's; `optima[]` has each group's when grid parameters vary): the
  /// objective and its value, the optimal `intervals`, the `recommended` point, the
  /// `recommended_interval`, the `plateau` (tolerance, bounds, width, interval count) and the
  /// default `grid`'s best.
  /// With `tuning` (`tune --exact`): `recommended_intervals` (bootstrap intervals of the
  /// recommended value's statistics) and `cross_validation` (per fold the chosen values, the
  /// training objective and the held-out counts and rates; `summaries` mean ± sd; `pooled`).
  package static func json(
    _ exact: ExactSweep, command: String, grid: GridComparison? = nil, tuning: ExactTuning? = nil
  )
    -> JSONValue
  {
    let dataset = exact.sweep.evaluation.dataset
    var members = Accounting.header(format: format, version: version, dataset: dataset)
    members += [
      ("command", .string(command)),
      ("recognizer", .string(exact.groups.first?.recognizer ?? "")),
      (
        "axes",
        .array(
          exact.axes.map { a in
            .object([
              ("parameter", .string(a.parameter)), ("scale", .string(a.scale.rawValue)), ("classes", .int(a.count)),
            ])
          })
      ),
      ("verdict", verdictObject(exact)),
      ("objective", .string(exact.rule.objective.description)),
      ("constraints", .string(exact.rule.constraints.description)),
      ("configurations", .int(exact.sweep.configurations.count)),
      ("optimum", exact.groups.isEmpty ? .null : optimumObject(exact, group: 0, grid: grid)),
    ]
    if exact.groups.count > 1 {
      members.append(("optima", .array(exact.groups.indices.map { optimumObject(exact, group: $0, grid: grid) })))
    }
    if let tuning { members += tuningMembers(tuning) }
    members.append(
      (
        "intervals",
        .array(exact.groups.flatMap { group in group.regions.indices.map { intervalObject(exact, group: group, $0) } })
      ))
    return .object(members)
  }

  /// The CSV table: one row per region, the JSON interval objects flattened (`fixed` joined with
  /// spaces; several exact parameters as `NAME_low`, `NAME_high`, … columns).
  package static func csv(_ exact: ExactSweep) -> [UInt8] {
    var header: [String] = []
    var rows: [[JSONValue]] = []
    for group in exact.groups {
      for r in group.regions.indices {
        guard case .object(let members) = intervalObject(exact, group: group, r) else { continue }
        var row: [(String, JSONValue)] = [
          ("recognizer", .string(group.recognizer)), ("fixed", .string(group.fixed.joined(separator: " "))),
        ]
        for (key, value) in members where key != "fixed" {
          if key == "bounds", case .object(let byParameter) = value {
            for (name, b) in byParameter { row += b.flattened(prefix: name + "_") }
          } else {
            row += JSONValue.object([(key, value)]).flattened()
          }
        }
        if header.isEmpty { header = row.map(\.0) }
        rows.append(row.map(\.1))
      }
    }
    return CSVWriter.table(header: header, rows: rows)
  }

  // MARK: HTML

  /// One self-contained page: the exact optimum first, then per group (one exact parameter) the
  /// figure `fig-exact-<group>` (F1, precision and recall as steps over the exact intervals,
  /// the plateau shaded, the recommended point and the default grid's points marked), then the
  /// Markdown tables.
  package static func html(
    _ exact: ExactSweep, command: String, grid: GridComparison? = nil, tuning: ExactTuning? = nil, appendix: String = ""
  ) -> [UInt8] {
    var figures: [Figure] = []
    if exact.axes.count == 1 {
      for g in exact.groups.indices.prefix(12) { figures.append(figure(exact, group: g, grid: grid)) }
    }
    let sections =
      figures.isEmpty
      ? []
      : [
        HTMLPage.Section(
          title: "Metrics over the exact intervals",
          text:
            "Every value inside one step gives every trace the same replay: the steps are the metrics, not a sample of them.",
          figures: figures)
      ]
    let page = HTMLPage.render(
      title: "touchtrace \(command) --exact", verdict: optimumMarkdown(exact, grid: grid), sections: sections,
      markdown: markdown(exact, command: command, grid: grid, optimum: false, tuning: tuning) + appendix)
    return Array(page.utf8)
  }

  static func figure(_ exact: ExactSweep, group g: Int, grid: GridComparison?) -> Figure {
    let group = exact.groups[g]
    let parameter = exact.axes[0].parameter
    let regions = group.regions
    // The x extent: the finite ends, an unbounded last interval drawn to 5 % beyond its start.
    let finiteHighs = regions.map(\.bounds[0].high).filter(\.isFinite)
    let lows = regions.map(\.bounds[0].low).filter(\.isFinite)
    let xMin = lows.min() ?? 0
    var xMax = max(finiteHighs.max() ?? xMin, lows.max() ?? xMin)
    if regions.last.map({ !$0.bounds[0].high.isFinite }) ?? false { xMax += max(0.05 * (xMax - xMin), 1e-9) }
    func steps(_ value: (StageMetrics) -> Double?) -> [(x: Double, y: Double)] {
      var points: [(x: Double, y: Double)] = []
      for region in regions {
        let b = region.bounds[0]
        let y = value(region.metrics.stage1) ?? .nan
        points.append((max(b.low, xMin), y))
      }
      if let last = regions.last { points.append((min(last.bounds[0].high, xMax), value(last.metrics.stage1) ?? .nan)) }
      return points
    }
    var marks: [PlotMark] = []
    var legend: [LegendEntry] = []
    let shade = SeriesStyle(color: "#7F7F7F", dash: "", width: 1)
    if let optimum = group.optimum {
      let p = optimum.plateau[0]
      marks.append(.band([(max(p.low, xMin), 0, 1), (min(p.high, xMax), 0, 1)], shade))
      legend.append(
        LegendEntry(
          label: "within \(toleranceText(optimum.tolerance, exact.rule)) of the optimum", style: shade, filled: true))
    }
    let series: [(String, (StageMetrics) -> Double?)] = [
      ("F1", { $0.f1 }), ("precision", { $0.precision }), ("recall", { $0.recall }),
    ]
    for (k, (name, value)) in series.enumerated() {
      marks.append(.steps(steps(value), SeriesStyle.series(k)))
      legend.append(LegendEntry(label: name, style: SeriesStyle.series(k)))
    }
    if let grid {
      let points: [(x: Double, y: Double, label: String?)] = grid.values.compactMap { x in
        guard let r = exact.region(holding: [x], in: g), let f1 = regions[r].metrics.stage1.f1 else { return nil }
        return (x, f1, "grid \(parameter) = \(ParameterValue.text(x)): F1 \(TextFormat.decimal(f1, 3))")
      }
      marks.append(.markers(points, .dot, SeriesStyle.series(0)))
      legend.append(
        LegendEntry(
          label: "F1 on the default grid (\(grid.rule))", style: SeriesStyle.series(0), marker: .dot, markerOnly: true))
    }
    if let optimum = group.optimum {
      marks.append(
        .verticalRule(optimum.recommended[0], "recommended \(ParameterValue.text(optimum.recommended[0]))", .reference))
    }
    let title = group.fixed.isEmpty ? group.recognizer : "\(group.recognizer) (\(group.fixed.joined(separator: ", ")))"
    let plot = Plot(
      title: "\(title): metrics over \(parameter)",
      description:
        "F1, precision and recall of \(title) on each exact interval of \(parameter) (\(TextFormat.count(regions.count, "interval"))), drawn as steps; the shaded band is the plateau within the tolerance of the optimum and the vertical line the recommended value.",
      x: PlotAxis(label: parameter, domain: (xMin, xMax)), y: PlotAxis(label: "metric", domain: (0, 1)), marks: marks,
      legend: legend)
    let slug = (group.recognizer + (group.fixed.isEmpty ? "" : "-" + group.fixed.joined(separator: "-")))
      .map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined()
    return Figure(
      id: "fig-exact-\(slug)", title: "\(title): exact intervals of \(parameter)", plots: [plot],
      caption:
        "Steps over the exact intervals of \(parameter): each step holds for every value inside it. Shaded: the plateau around the recommended value whose objective is within the tolerance of the optimum. Dots: the default grid's values."
    )
  }
}
