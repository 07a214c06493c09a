import TouchCore
import TouchEvaluation
import TouchRecognizers
public import TouchTuning

/// The reports of an exact sweep (`touchtrace sweep --exact`, `tune --exact`): the metrics as
/// intervals of the exact parameters, and the exact optimum with its plateau, in Markdown, JSON
/// (format `touchtrace-exact`), CSV and HTML.
public enum ExactReport {
  /// The JSON format name.
  public static let format = "touchtrace-exact"
  /// The JSON schema version.
  public static let version = 1

  /// What the report compares the exact optimum with: the default grid's values of the exact
  /// parameter (k/20 of the maximum force) and its best value on them.
  public struct GridComparison: Sendable {
    /// The grid's rule, in words (`k/20 of the maximum force`).
    public var rule: String
    /// The grid's values, in the parameter's unit.
    public var values: [Double]

    /// Creates a comparison.
    public init(rule: String, values: [Double]) {
      self.rule = rule
      self.values = values
    }
  }

  // MARK: Shared pieces

  static func parameterList(_ exact: ExactSweep) -> String {
    exact.axes.map(\.parameter).joined(separator: " × ")
  }

  /// The grid's best point on a 1-parameter group: the value and the region it falls in.
  static func gridBest(_ exact: ExactSweep, group g: Int, grid: GridComparison?) -> (value: Double, region: Int, objective: Double)? {
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
    return s == .f1 ? "F1" : s == .absoluteLatencyP90 ? "p90 |action − reference|" : s == .recall ? "recall" : "cost per trace"
  }

  static func objectiveText(_ value: Double, _ rule: OperatingPointRule) -> String {
    rule.objective.statistic.isLatency ? Markdown.seconds(value) : TextFormat.decimal(value, 3)
  }

  static func toleranceText(_ value: Double, _ rule: OperatingPointRule) -> String {
    rule.objective.statistic.isLatency ? TextFormat.compact(value * 1000) + " ms" : TextFormat.compact(value)
  }

  static func width(_ b: ExactBounds) -> String { b.width.isFinite ? TextFormat.compact(b.width, significant: 3) : "unbounded" }

  // MARK: Markdown

  /// The `## Exact optimum` section (the report's verdict): per group, the optimum, its
  /// intervals, the recommended point and the plateau, and the grid's best beside it.
  public static func optimumMarkdown(_ exact: ExactSweep, grid: GridComparison? = nil) -> String {
    var out = "## Exact optimum\n\n"
    let rule = exact.rule
    let name = objectiveName(rule)
    let parameters = exact.axes.map(\.parameter)
    for (g, group) in exact.groups.enumerated() {
      let where_ = group.fixed.isEmpty ? "" : " (\(group.fixed.joined(separator: ", ")))"
      guard let optimum = group.optimum, let value = optimum.value else {
        out += "- **\(group.recognizer)\(where_)**: no interval meets the rule (\(rule.constraints)) with a defined \(name).\n"
        continue
      }
      let optimal = optimum.regions.map { r in regionText(group.regions[r], parameters) }
      let shown = optimal.prefix(4).joined(separator: "; ") + (optimal.count > 4 ? "; and \(optimal.count - 4) more" : "")
      out += "- **\(group.recognizer)\(where_)**: \(name) **\(objectiveText(value, rule))** for \(shown)"
      out += " (\(TextFormat.count(optimum.regions.count, "optimal region"))).\n"
      let point = zip(parameters, optimum.recommended).map { "\($0) = \(ParameterValue.text($1))" }.joined(separator: ", ")
      let widest = group.regions[optimum.recommendedRegion].bounds
      out += "  Recommended: **\(point)**, the middle of the widest optimal region "
        + "(width \(widest.map(width).joined(separator: " × "))).\n"
      out += "  Within \(toleranceText(optimum.tolerance, rule)) of the optimum: "
      if parameters.count == 1 {
        out += "\(parameters[0]) in \(optimum.plateau[0]) (width \(width(optimum.plateau[0])), "
          + "\(TextFormat.count(plateauCount(group, optimum), "interval")) around the recommended one).\n"
      } else {
        out += "\(TextFormat.count(optimum.withinTolerance.count, "region")), within "
          + zip(parameters, optimum.plateau).map { "\($0) in \($1)" }.joined(separator: ", ") + ".\n"
      }
      if let best = gridBest(exact, group: g, grid: grid), let grid {
        let same = best.objective == value
        out += "  The default grid (\(grid.rule), \(TextFormat.count(grid.values.count, "value"))) finds \(name) "
          + "\(objectiveText(best.objective, rule)) at best, at \(parameters[0]) = \(ParameterValue.text(best.value))"
          + (same ? ": it lands on an optimal interval.\n" : ": the exact optimum is better.\n")
      }
    }
    return out + "\n"
  }

  /// The number of intervals the 1-parameter plateau spans.
  static func plateauCount(_ group: ExactSweep.Group, _ optimum: ExactSweep.Optimum) -> Int {
    let p = optimum.plateau[0]
    return group.regions.filter { r in p.contains(r.bounds[0].lowOpen ? r.bounds[0].low.nextUp : r.bounds[0].low) }.count
  }

  static func regionText(_ region: ExactSweep.Region, _ parameters: [String]) -> String {
    zip(parameters, region.bounds).map { "\($0) in \($1)" }.joined(separator: ", ")
  }

  /// The whole Markdown report: title, the data and method, the exact optimum, then one table
  /// of intervals per group.
  public static func markdown(_ exact: ExactSweep, command: String, grid: GridComparison? = nil) -> String {
    let evaluation = exact.sweep.evaluation
    var out = "# Exact \(command): \(exact.groups.first?.recognizer ?? "") \(parameterList(exact))\n\n"
    out += Markdown.traces(evaluation.dataset)
    for axis in exact.axes {
      out += "- `\(axis.parameter)` (\(axis.scale.rawValue) scale): \(TextFormat.count(axis.count, "exact class", plural: "exact classes")) "
        + "over its whole range, cut at every force value of the data where some trace's replay can change.\n"
    }
    let regions = exact.groups.reduce(0) { $0 + $1.regions.count }
    out += "- \(TextFormat.count(exact.sweep.configurations.count, "configuration")) evaluated, "
      + "\(TextFormat.count(regions, "region")) with distinct metrics (adjacent classes with equal metrics merged).\n"
    out += "- Objective: \(exact.rule.objective) (bounds: \(exact.rule.constraints)); within-tolerance plateau "
      + "\(toleranceText(exact.groups.first?.optimum?.tolerance ?? 0, exact.rule)).\n\n"
    out += optimumMarkdown(exact, grid: grid)
    let parameters = exact.axes.map(\.parameter)
    for group in exact.groups {
      let title = group.fixed.isEmpty ? group.recognizer : "\(group.recognizer) (\(group.fixed.joined(separator: ", ")))"
      out += "## Intervals: \(title)\n\n"
      out += Markdown.row(
        parameters + ["classes", "TP", "FP", "FN", "TN", "F1", "precision", "recall", "FPR", "p50", "p90", "p90 abs", "early", "note"])
      out += Markdown.row(parameters.map { _ in "---" } + Array(repeating: "--:", count: 13) + ["---"])
      for (r, region) in group.regions.enumerated() {
        let m = region.metrics.stage1
        var note = ""
        if let optimum = group.optimum {
          note = r == optimum.recommendedRegion ? "recommended" : optimum.regions.contains(r) ? "optimal" : optimum.withinTolerance.contains(r) ? "within tolerance" : ""
        }
        out += Markdown.row(
          region.bounds.map(\.description) + ["\(region.classes)"] + Markdown.counts(m) + Markdown.accuracy(m)
            + [Markdown.seconds(m.latency.p50), Markdown.seconds(m.latency.p90), Markdown.seconds(m.latency.absoluteP90),
               Markdown.ratio(m.latency.earlyRate), note])
      }
      out += "\n"
    }
    out += Markdown.skipped(evaluation.dataset.skipped)
    return out
  }

  // MARK: JSON and CSV

  static func boundsMembers(_ b: ExactBounds) -> [(String, JSONValue)] {
    [("low", .number(b.low)), ("high", .number(b.high)), ("low_open", .bool(b.lowOpen)), ("high_open", .bool(b.highOpen))]
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
            + [("width", .number(optimum.plateau.count == 1 ? optimum.plateau[0].width : nil)),
               ("intervals", .int(optimum.plateau.count == 1 ? plateauCount(group, optimum) : optimum.withinTolerance.count))])
      ),
    ]
    if let best = gridBest(exact, group: g, grid: grid), let grid {
      members.append(
        ("grid", .object([("rule", .string(grid.rule)), ("values", .int(grid.values.count)), ("best_value", .number(best.value)),
                          ("best_objective", .number(best.objective))])))
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
  public static func json(_ exact: ExactSweep, command: String, grid: GridComparison? = nil) -> JSONValue {
    let dataset = exact.sweep.evaluation.dataset
    var members = Accounting.header(format: format, version: version, dataset: dataset)
    members += [
      ("command", .string(command)),
      ("recognizer", .string(exact.groups.first?.recognizer ?? "")),
      (
        "axes",
        .array(
          exact.axes.map { a in
            .object([("parameter", .string(a.parameter)), ("scale", .string(a.scale.rawValue)), ("classes", .int(a.count))])
          })
      ),
      ("objective", .string(exact.rule.objective.description)),
      ("constraints", .string(exact.rule.constraints.description)),
      ("configurations", .int(exact.sweep.configurations.count)),
      ("optimum", exact.groups.isEmpty ? .null : optimumObject(exact, group: 0, grid: grid)),
    ]
    if exact.groups.count > 1 {
      members.append(("optima", .array(exact.groups.indices.map { optimumObject(exact, group: $0, grid: grid) })))
    }
    members.append(
      ("intervals", .array(exact.groups.flatMap { group in group.regions.indices.map { intervalObject(exact, group: group, $0) } })))
    return .object(members)
  }

  /// The CSV table: one row per region, the JSON interval objects flattened (`fixed` joined with
  /// spaces; several exact parameters as `NAME_low`, `NAME_high`, … columns).
  public static func csv(_ exact: ExactSweep) -> [UInt8] {
    var header: [String] = []
    var rows: [[JSONValue]] = []
    for group in exact.groups {
      for r in group.regions.indices {
        guard case .object(let members) = intervalObject(exact, group: group, r) else { continue }
        var row: [(String, JSONValue)] = [("recognizer", .string(group.recognizer)), ("fixed", .string(group.fixed.joined(separator: " ")))]
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
  public static func html(_ exact: ExactSweep, command: String, grid: GridComparison? = nil, appendix: String = "") -> [UInt8] {
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
          text: "Every value inside one step gives every trace the same replay: the steps are the metrics, not a sample of them.",
          figures: figures)
      ]
    let page = HTMLPage.render(
      title: "touchtrace \(command) --exact", verdict: optimumMarkdown(exact, grid: grid), sections: sections,
      markdown: markdown(exact, command: command, grid: grid) + appendix)
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
    let shade = SeriesStyle(color: "#009E73", dash: "", width: 1)
    if let optimum = group.optimum {
      let p = optimum.plateau[0]
      marks.append(.band([(max(p.low, xMin), 0, 1), (min(p.high, xMax), 0, 1)], shade))
      legend.append(LegendEntry(label: "within \(toleranceText(optimum.tolerance, exact.rule)) of the optimum", style: shade, filled: true))
    }
    let series: [(String, (StageMetrics) -> Double?)] = [("F1", { $0.f1 }), ("precision", { $0.precision }), ("recall", { $0.recall })]
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
      legend.append(LegendEntry(label: "F1 on the default grid (\(grid.rule))", style: SeriesStyle.series(0), marker: .dot, markerOnly: true))
    }
    if let optimum = group.optimum {
      marks.append(.verticalRule(optimum.recommended[0], "recommended \(ParameterValue.text(optimum.recommended[0]))", .reference))
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
        "Steps over the exact intervals of \(parameter): each step holds for every value inside it. Shaded: the plateau around the recommended value whose objective is within the tolerance of the optimum. Dots: the default grid's values.")
  }
}
