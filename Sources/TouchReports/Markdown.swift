import TouchCore
import TouchEvaluation
import TouchSignal

/// The pieces the Markdown reports (sweep, tune, compare) share: table rows, the trace count
/// line, the skipped-traces section and the formats of ratios and latencies.
enum Markdown {
  /// A table row: `| a | b |` and a line feed.
  static func row(_ cells: [String]) -> String {
    "| " + cells.joined(separator: " | ") + " |\n"
  }

  /// `- Traces: T total, A analyzed, S skipped.` and a line feed.
  static func traces(_ evaluation: Evaluation) -> String {
    traces(
      analyzed: evaluation.analyzedCount, skipped: evaluation.dataset.skipped.count,
      synthesizedTime: evaluation.summary.synthesizedTime)
  }

  /// ``traces(_:)`` of a dataset.
  static func traces(_ dataset: Dataset) -> String {
    traces(
      analyzed: dataset.traces.count, skipped: dataset.skipped.count, synthesizedTime: SynthesizedTime(dataset.traces))
  }

  private static func traces(analyzed: Int, skipped: Int, synthesizedTime: SynthesizedTime) -> String {
    "- Traces: \(analyzed + skipped) total, \(analyzed) analyzed, \(skipped) skipped.\n"
      + (synthesizedTime.sentence().map { "- **Warning**: \($0).\n" } ?? "")
  }

  /// The `## Skipped traces` section, one line per reason with its count (`- 3 × no intent
  /// label`); empty when no trace was skipped.
  static func skipped(_ skipped: [SkippedTrace]) -> String {
    guard !skipped.isEmpty else { return "" }
    var out = "\n## Skipped traces\n\n"
    for (reason, count) in Accounting.reasons(skipped) { out += "- \(count) × \(reason)\n" }
    return out
  }

  /// A ratio with three decimals (`0.875`); `–` when undefined.
  static func ratio(_ value: Double?) -> String { value.map { TextFormat.decimal($0, 3) } ?? "–" }

  /// Seconds as whole milliseconds (`45 ms`); `–` when undefined.
  static func seconds(_ value: Double?) -> String { value.map { TextFormat.decimal($0 * 1000, 0) + " ms" } ?? "–" }

  /// The cells F1, precision, recall and false-positive rate of `m`.
  static func accuracy(_ m: StageMetrics) -> [String] {
    [ratio(m.f1), ratio(m.precision), ratio(m.recall), ratio(m.falsePositiveRate)]
  }

  /// The cells TP, FP, FN and TN of `m`.
  static func counts(_ m: StageMetrics) -> [String] {
    ["\(m.truePositives)", "\(m.falsePositives)", "\(m.falseNegatives)", "\(m.trueNegatives)"]
  }

  /// The varied parameter values of `configuration`, `name=value` each, in order.
  static func varied(_ configuration: Configuration) -> [String] {
    configuration.varied.compactMap { name in configuration.parameters[name].map { "\(name)=\($0)" } }
  }

  /// The varied parameter values joined by spaces (`threshold=0.5 minimumDuration=0.1`);
  /// `defaults` when none.
  static func describe(_ configuration: Configuration) -> String {
    let parts = varied(configuration)
    return parts.isEmpty ? "defaults" : parts.joined(separator: " ")
  }
}
