package import TouchEvaluation
import TouchRecognizers

/// The ROC and precision–recall curves of one recognizer over its swept threshold, with the
/// area under the ROC curve and the average precision where the sweep spans the threshold's
/// range.
///
/// **The curve.** A recognizer's threshold axis is the swept parameter its one-pass threshold
/// sweep declares (its main force threshold), else its first swept parameter. When other
/// parameters are swept too, the curve is the slice through the recognizer's best configuration
/// (by F1, as in the Markdown report): the configurations whose other swept values equal the
/// best one's. Each configuration gives a point (FPR, recall, precision) of stage 1: FPR is the
/// share of negative traces with any action, recall and precision count events.
///
/// **Spanning.** The sweep spans the threshold range when, among the points whose FPR and
/// recall are defined, one has FPR = 0 and one has FPR = 1: the grid reaches a threshold strict
/// enough that no negative trace fires and one loose enough that every negative trace fires.
/// Otherwise (or with fewer than two points) ``rocAUC`` and ``averagePrecision`` are `nil`
/// (`null` in JSON, `–` in Markdown).
///
/// **ROC AUC.** The points are ordered by FPR, then recall, ascending, and joined by straight
/// lines; the area is the trapezoid sum Σ (Fₙ − Fₙ₋₁)(Rₙ + Rₙ₋₁)/2. No end point is added: with
/// FPR reaching 0 and 1, closing the curve at (0, 0) and (1, 1) would add vertical segments of
/// zero area. On scored data with a threshold at every distinct score this is scikit-learn's
/// `roc_auc_score`.
///
/// **Average precision**, two ways, over the points whose precision is defined (some action),
/// each a step sum Σ (Rₙ − Rₙ₋₁) Pₙ with R₀ = 0 and no interpolation:
/// - ``averagePrecisionThresholdOrder`` (JSON `average_precision_threshold_order`): the points
///   in threshold order, from the strictest threshold (the end of the swept range with the lower
///   false-positive rate; the higher value when both ends have the same) to the loosest. This is
///   what scikit-learn's `average_precision_score` computes, walking the thresholds of a score;
///   where recall falls as the threshold loosens (actions too early leave their window) its
///   term is negative, as scikit-learn's would be.
/// - ``averagePrecision`` (JSON `average_precision`): the points ordered by recall ascending,
///   ties by precision descending. It equals the first when recall never falls as the threshold
///   loosens (always so for a score), and differs where it does; it reads the curve as a
///   function of recall rather than as a walk of the threshold.
package struct ThresholdCurve: Sendable {
  /// One configuration on the curve.
  package struct Point: Sendable, Hashable {
    /// The configuration's index in the sweep plan.
    package var configuration: Int
    /// The threshold parameter's value (the parameter's unit).
    package var value: Double
    /// The stage-1 false-positive rate (negative traces with an action / negative traces).
    package var falsePositiveRate: Double?
    /// The stage-1 recall (matched references / references).
    package var recall: Double?
    /// The stage-1 precision (matched actions / actions).
    package var precision: Double?

    /// Creates a point.
    package init(configuration: Int, value: Double, falsePositiveRate: Double?, recall: Double?, precision: Double?) {
      self.configuration = configuration
      self.value = value
      self.falsePositiveRate = falsePositiveRate
      self.recall = recall
      self.precision = precision
    }
  }

  /// The recognizer's name.
  package var recognizer: String
  /// The threshold parameter.
  package var parameter: String
  /// The points, in ascending order of the parameter's value.
  package var points: [Point]
  /// Whether the sweep spans the threshold range (see the type's description).
  package var spans: Bool
  /// The area under the ROC curve; `nil` when the sweep does not span the range.
  package var rocAUC: Double?
  /// The recall-ordered average precision (see the type's description); `nil` when the sweep
  /// does not span the range.
  package var averagePrecision: Double?
  /// The average precision with the thresholds walked from strictest to loosest, as
  /// scikit-learn's `average_precision_score` computes it; `nil` when the sweep does not span
  /// the range.
  package var averagePrecisionThresholdOrder: Double?

  /// The curves of every recognizer of `result` that has a swept numeric parameter, in the
  /// plan's recognizer order.
  package static func curves(_ result: SweepResult) -> [ThresholdCurve] {
    let best = Dictionary(
      result.bestConfigurations().map { ($0.recognizer.name, $0.configuration) }, uniquingKeysWith: { a, _ in a })
    return result.plan.axesByRecognizer.compactMap { entry -> ThresholdCurve? in
      guard let bestIndex = best[entry.recognizer.name], !entry.axes.isEmpty else { return nil }
      let bestConfiguration = result.configurations[bestIndex]
      let thresholds = Set(bestConfiguration.recognizer.thresholdSweeps.map(\.parameter))
      let axis = entry.axes.first { thresholds.contains($0.parameter) } ?? entry.axes[0]
      let slice = Self.slice(result, through: bestIndex, along: axis.parameter)
      guard !slice.isEmpty else { return nil }
      let points = slice.map { c -> Point in
        let m = result.metrics[c.configuration].stage1
        return Point(
          configuration: c.configuration, value: c.value, falsePositiveRate: m.falsePositiveRate, recall: m.recall,
          precision: m.precision)
      }
      let roc = points.compactMap { p in p.falsePositiveRate.flatMap { f in p.recall.map { (f, $0) } } }
      let pr = points.compactMap { p in p.recall.flatMap { r in p.precision.map { (r, $0) } } }
      let spans = Self.spans(roc)
      let walk = Self.strictestFirst(points)
      let walked = walk.compactMap { p in p.recall.flatMap { r in p.precision.map { (r, $0) } } }
      return ThresholdCurve(
        recognizer: entry.recognizer.name, parameter: axis.parameter, points: points, spans: spans,
        rocAUC: spans ? Self.rocArea(roc) : nil, averagePrecision: spans ? Self.averagePrecision(pr) : nil,
        averagePrecisionThresholdOrder: spans ? Self.averagePrecisionInThresholdOrder(walked) : nil)
    }
  }

  /// The configurations of the best configuration's recognizer whose swept values other than
  /// `parameter` equal the best one's, with their numeric `parameter` value, ascending.
  static func slice(_ result: SweepResult, through best: Int, along parameter: String) -> [(
    configuration: Int, value: Double
  )] {
    let bestConfiguration = result.configurations[best]
    var slice: [(configuration: Int, value: Double)] = []
    for (c, configuration) in result.configurations.enumerated() where configuration.spec == bestConfiguration.spec {
      let others = configuration.varied.filter { $0 != parameter }
      guard others.allSatisfy({ configuration.parameters[$0] == bestConfiguration.parameters[$0] }),
        case .number(let value)? = configuration.parameters[parameter], value.isFinite
      else { continue }
      slice.append((c, value))
    }
    return slice.sorted { $0.value != $1.value ? $0.value < $1.value : $0.configuration < $1.configuration }
  }

  /// Whether the points (FPR, recall) reach FPR = 0 and FPR = 1 (at least two points).
  package static func spans(_ points: [(falsePositiveRate: Double, recall: Double)]) -> Bool {
    points.count >= 2 && points.contains { $0.falsePositiveRate == 0 } && points.contains { $0.falsePositiveRate == 1 }
  }

  /// The trapezoid area under the points (FPR, recall) ordered by FPR, then recall, ascending;
  /// `nil` without any point. Spanning is not checked here (see ``spans(_:)``).
  package static func rocArea(_ points: [(falsePositiveRate: Double, recall: Double)]) -> Double? {
    guard !points.isEmpty else { return nil }
    let sorted = points.sorted {
      $0.falsePositiveRate != $1.falsePositiveRate ? $0.falsePositiveRate < $1.falsePositiveRate : $0.recall < $1.recall
    }
    var area = 0.0
    for k in sorted.indices.dropFirst() {
      area +=
        (sorted[k].falsePositiveRate - sorted[k - 1].falsePositiveRate) * (sorted[k].recall + sorted[k - 1].recall) / 2
    }
    return area
  }

  /// `points` (ascending values) from the strictest threshold to the loosest: the end with the
  /// lower false-positive rate first; the higher value first when the ends' rates are equal or
  /// undefined.
  package static func strictestFirst(_ points: [Point]) -> [Point] {
    let rated = points.filter { $0.falsePositiveRate != nil }
    if let low = rated.first?.falsePositiveRate, let high = rated.last?.falsePositiveRate, low < high {
      return points
    }
    return points.reversed()
  }

  /// Σ (Rₙ − Rₙ₋₁) Pₙ with R₀ = 0 over the points (recall, precision) in the order given, the
  /// strictest threshold first; `nil` without any point. A fall in recall contributes a negative
  /// term, as in scikit-learn's `average_precision_score`.
  package static func averagePrecisionInThresholdOrder(_ points: [(recall: Double, precision: Double)]) -> Double? {
    guard !points.isEmpty else { return nil }
    var previous = 0.0
    var sum = 0.0
    for p in points {
      sum += (p.recall - previous) * p.precision
      previous = p.recall
    }
    return sum
  }

  /// Σ (Rₙ − Rₙ₋₁) Pₙ over the points (recall, precision) ordered by recall ascending, ties by
  /// precision descending, with R₀ = 0; `nil` without any point.
  package static func averagePrecision(_ points: [(recall: Double, precision: Double)]) -> Double? {
    averagePrecisionInThresholdOrder(
      points.sorted { $0.recall != $1.recall ? $0.recall < $1.recall : $0.precision > $1.precision })
  }
}

extension ThresholdCurve {
  /// The JSON array `curves` of the sweep and tune reports: per recognizer its threshold
  /// `parameter`, whether the sweep `spans` it, `roc_auc`, `average_precision` (recall order)
  /// and `average_precision_threshold_order` (`null` when it does not span), and the `points` (`value`, `fpr`, `recall`, `precision`; `null` where
  /// undefined).
  static func json(_ curves: [ThresholdCurve]) -> JSONValue {
    .array(
      curves.map { curve in
        .object([
          ("recognizer", .string(curve.recognizer)),
          ("parameter", .string(curve.parameter)),
          ("spans", .bool(curve.spans)),
          ("roc_auc", curve.rocAUC.map(JSONValue.number) ?? .null),
          ("average_precision", curve.averagePrecision.map(JSONValue.number) ?? .null),
          (
            "average_precision_threshold_order",
            curve.averagePrecisionThresholdOrder.map(JSONValue.number) ?? .null
          ),
          (
            "points",
            .array(
              curve.points.map { p in
                .object([
                  ("value", .number(p.value)),
                  ("fpr", p.falsePositiveRate.map(JSONValue.number) ?? .null),
                  ("recall", p.recall.map(JSONValue.number) ?? .null),
                  ("precision", p.precision.map(JSONValue.number) ?? .null),
                ])
              })
          ),
        ])
      })
  }

  /// The Markdown section `## Threshold curves`: per recognizer the threshold parameter, its
  /// swept range, the points, whether the sweep spans it, ROC AUC and average precision.
  static func markdown(_ curves: [ThresholdCurve]) -> String {
    guard !curves.isEmpty else { return "" }
    var out = "\n## Threshold curves (ROC AUC, average precision)\n\n"
    out +=
      "Over each recognizer's swept threshold (through its best configuration). Areas only where the sweep spans the "
    out += "threshold range: some swept value gives FPR = 0 and some FPR = 1. ROC AUC: trapezoids over (FPR, recall); "
    out += "average precision: Σ (Rₙ − Rₙ₋₁) Pₙ, with the thresholds walked from strictest to loosest (scikit-learn's "
    out += "`average_precision_score`), and over the points in recall order (the same unless recall falls as the "
    out += "threshold loosens).\n\n"
    out += "| recognizer | parameter | range | points | spans | ROC AUC | AP | AP (recall order) |\n"
    out += "|---|---|---|--:|---|--:|--:|--:|\n"
    for curve in curves {
      let range =
        curve.points.count > 1
        ? TextFormat.compact(curve.points[0].value) + " … "
          + TextFormat.compact(curve.points[curve.points.count - 1].value)
        : TextFormat.compact(curve.points[0].value)
      out += Markdown.row([
        curve.recognizer, curve.parameter, range, "\(curve.points.count)", curve.spans ? "yes" : "no",
        Markdown.ratio(curve.rocAUC), Markdown.ratio(curve.averagePrecisionThresholdOrder),
        Markdown.ratio(curve.averagePrecision),
      ])
    }
    return out
  }
}
