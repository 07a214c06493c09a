import TouchCore
import TouchEvaluation

/// The kinds of plot the sweep (and tune) report and the compare report both draw: latency
/// CDFs, false positives by intent, confusion matrices and example traces.
extension Plot {
  /// The steps of the empirical CDF of `sorted` (ascending, not empty): the first value at 0,
  /// then each value at the share of values up to it.
  static func cdfSteps(_ sorted: [Double]) -> [(x: Double, y: Double)] {
    let n = Double(sorted.count)
    var points: [(x: Double, y: Double)] = [(sorted[0], 0)]
    for (j, value) in sorted.enumerated() { points.append((value, Double(j + 1) / n)) }
    return points
  }

  /// Empirical CDFs of stage-1 latency, action − reference in milliseconds (steps of
  /// ``cdfSteps(_:)`` among `marks`), 640 wide.
  static func latencyCDF(description: String, marks: [PlotMark], legend: [LegendEntry], height: Double) -> Plot {
    Plot(
      title: "Empirical CDF of action − reference", description: description,
      x: PlotAxis(label: "latency, action − reference", unit: "ms"),
      y: PlotAxis(label: "share of true positives", domain: (0, 1)),
      marks: marks, legend: legend, width: 640, height: height)
  }

  /// A heat map of stage-1 false positives: one row of counts per intent for each of `rows`,
  /// named by `names` on the y axis (labelled `what`), 20 units a row and at least 60.
  static func falsePositivesByIntent(
    title: String, description: String, what: String, names: [String], rows: [StageMetrics]
  ) -> Plot {
    Plot(
      title: title, description: description,
      x: PlotAxis(label: "intent of the trace", categories: Intent.allCases.map(\.rawValue)),
      y: PlotAxis(label: what, categories: names),
      marks: [.cells(rows.map { m in Intent.allCases.map { m.falsePositivesByIntent[$0] } })], width: 480,
      height: max(60, 20 * Double(names.count)))
  }

  /// A two-stage confusion matrix: traces by intended class (rows) and recognized class
  /// (columns), 210 × 150.
  static func confusion(_ matrix: ClassConfusion, title: String, description: String) -> Plot {
    let classes = PressClass.allCases.map(\.description)
    return Plot(
      title: title, description: description,
      x: PlotAxis(label: "recognized", categories: classes), y: PlotAxis(label: "intended", categories: classes),
      marks: [.cells(PressClass.allCases.map { actual in PressClass.allCases.map { matrix[actual, $0] } })],
      width: 210, height: 150)
  }

  /// An example trace, 380 × 180: its force (force units, drawn with `force`, the y axis up to
  /// 5 % above the highest of its finite forces and `levels`, or to 1 when that is not positive) against
  /// time (seconds), then `marks`.
  static func trace(
    _ trace: Trace, title: String, description: String, force: SeriesStyle, levels: [Double] = [],
    marks: [PlotMark], legend: [LegendEntry]
  ) -> Plot {
    let peak = trace.force.filter(\.isFinite).max() ?? 1
    let top = max(peak, levels.max() ?? 0)
    return Plot(
      title: title, description: description,
      x: PlotAxis(label: "time", unit: "s"),
      y: PlotAxis(label: "force", unit: "force units", domain: (0, top > 0 ? top * 1.05 : 1)),
      marks: [.line(zip(trace.t, trace.force).map { (x: $0, y: $1) }, force)] + marks, legend: legend,
      width: 380, height: 180)
  }
}
