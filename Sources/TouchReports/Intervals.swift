import TouchEvaluation
import TouchTuning

/// The 95 % Wilson score intervals of a stage's proportions and the notes that replace a
/// bootstrap interval the reports do not print, shared by the sweep, tune and compare reports.
enum Intervals {
  /// The fewest resampling units (clusters: groups, or traces) a bootstrap interval is printed
  /// for; with fewer, a report gives a note instead.
  static let minimumClusters = 10

  /// The precision interval, TP of TP + FP; `nil` when nothing was predicted.
  static func precision(_ m: StageMetrics) -> ProportionInterval? {
    ProportionInterval.wilson(m.truePositives, of: m.truePositives + m.falsePositives)
  }

  /// The recall interval, TP of TP + FN; `nil` without references.
  static func recall(_ m: StageMetrics) -> ProportionInterval? {
    ProportionInterval.wilson(m.truePositives, of: m.truePositives + m.falseNegatives)
  }

  /// The false-positive-rate interval, negative traces with an action of negative traces; `nil`
  /// without negative traces.
  static func fpr(_ m: StageMetrics) -> ProportionInterval? {
    ProportionInterval.wilson(m.falsePositiveTraces, of: m.negativeTraces)
  }

  /// The early-rate interval: true positives acting before their reference of true positives;
  /// `nil` without true positives.
  static func early(_ m: StageMetrics) -> ProportionInterval? {
    ProportionInterval.wilson(m.latency.early, of: m.latency.count)
  }

  /// An interval in JSON: `[low, high]`, or `null` when undefined.
  static func json(_ interval: ProportionInterval?) -> JSONValue {
    guard let interval else { return .null }
    return .array([.number(interval.low), .number(interval.high)])
  }

  /// `precision_ci`, `recall_ci` and `fpr_ci` of `m` (see ``json(_:)``).
  static func members(_ m: StageMetrics) -> [(String, JSONValue)] {
    [("precision_ci", json(precision(m))), ("recall_ci", json(recall(m))), ("fpr_ci", json(fpr(m)))]
  }

  /// `low – high` with three decimals (`0.610–1.000`); `–` when undefined.
  static func text(_ interval: ProportionInterval?) -> String {
    guard let interval else { return "–" }
    return TextFormat.decimal(interval.low, 3) + "–" + TextFormat.decimal(interval.high, 3)
  }

  /// The cells precision, recall and FPR of `m`, each as two: `k/n` and the interval
  /// (`6/6`, `0.610–1.000`); `–` when undefined.
  static func cells(_ m: StageMetrics) -> [String] {
    func pair(_ k: Int, _ n: Int) -> [String] {
      n > 0 ? ["\(k)/\(n)", text(ProportionInterval.wilson(k, of: n))] : ["–", "–"]
    }
    return pair(m.truePositives, m.truePositives + m.falsePositives)
      + pair(m.truePositives, m.truePositives + m.falseNegatives)
      + pair(m.falsePositiveTraces, m.negativeTraces)
  }

  /// A ratio with its interval: `0.667 (0.588–0.738)`; `–` when undefined.
  static func ratio(_ value: Double?, _ interval: ProportionInterval?) -> String {
    guard let value else { return "–" }
    return Markdown.ratio(value) + (interval.map { " (" + text($0) + ")" } ?? "")
  }

  /// The cells precision, recall and FPR of `m`, each a ratio with its interval (``ratio(_:_:)``).
  static func ratios(_ m: StageMetrics) -> [String] {
    [ratio(m.precision, precision(m)), ratio(m.recall, recall(m)), ratio(m.falsePositiveRate, fpr(m))]
  }

  /// Why a bootstrap interval is not printed, or `nil` when it is: fewer than
  /// ``minimumClusters`` resampling units (`fewer than 10 clusters (6 users)`), no resample
  /// where the statistic is defined, or every resample giving the same value (`all 1000
  /// resamples agree`).
  ///
  /// - Parameters:
  ///   - interval: the bootstrap interval.
  ///   - clusters: the number of resampling units.
  ///   - unit: what a unit is (`user`, `trace`).
  static func note(_ interval: ConfidenceInterval, clusters: Int, unit: String) -> String? {
    if clusters < minimumClusters {
      return "fewer than \(minimumClusters) clusters (\(clusters) \(unit)\(clusters == 1 ? "" : "s"))"
    }
    guard let lower = interval.lower, let upper = interval.upper else { return "undefined in every resample" }
    if lower == upper { return "all \(interval.defined) resamples agree" }
    return nil
  }
}
