import ArgumentParser
import TouchCore
import TouchEvaluation
import TouchRecognizers
import TouchReports
import TouchStudy
import TouchTuning

/// Steps the commands that replay traces (`sweep`, `tune`, `compare`, `run`) take between loading
/// and scoring.
enum Scoring {
  /// Loads the traces and prepares them for scoring: traces `recognizers` cannot replay are
  /// handled as ``requireMaximumForce(_:for:skipInvalid:)`` does, traces without the `groupBy`
  /// label are skipped, and every trace skipped here is summarized on standard error, prefixed
  /// `touchtrace COMMAND:`. No analyzed trace, or no positive among them, is bad data (exit 65;
  /// ``ScoringRules``).
  static func evaluation(
    _ input: InputOptions, for recognizers: [AnyForceRecognizer], groupBy key: GroupKey? = nil,
    options: EvaluationOptions, threads: Int, command: String
  ) throws -> Evaluation {
    var dataset = try input.load()
    try requireMaximumForce(&dataset, for: recognizers, skipInvalid: input.skipInvalid)
    let before = dataset.skipped.count
    if let key {
      dataset.skipTraces { key.label(of: $0.metadata) == nil ? "no \(key) label (--group-by \(key))" : nil }
    }
    let evaluation = Evaluation(dataset: dataset, options: options, threads: threads)
    summarize(Array(evaluation.dataset.skipped[before...]), command: command)
    try ScoringRules.requireScorable(evaluation, command: command)
    return evaluation
  }

  /// Makes sure `recognizers` can replay every trace: traces without a maximum possible force,
  /// when one of them needs it, are skipped with the reason (`skipInvalid`, each printed) or
  /// reported as bad data (exit 65) naming the first.
  static func requireMaximumForce(
    _ dataset: inout Dataset, for recognizers: [AnyForceRecognizer], skipInvalid: Bool
  ) throws(StudyError) {
    guard let needsMaximum = recognizers.first(where: { $0.requiresMaximumForce }) else { return }
    if skipInvalid {
      let before = dataset.skipped.count
      dataset.skipTraces { needsMaximum.unsupportedReason(for: $0) }
      Console.report(skipped: Array(dataset.skipped[before...]))
    } else if let k = dataset.traces.firstIndex(where: { needsMaximum.unsupportedReason(for: $0) != nil }) {
      throw StudyError.maximumForce(
        dataset, index: k, reason: needsMaximum.unsupportedReason(for: dataset.traces[k]) ?? "")
    }
  }

  /// One line per reason for the traces scoring skipped (no intent label, …), prefixed
  /// `touchtrace COMMAND: warning:`.
  static func summarize(_ skipped: [SkippedTrace], command: String) {
    for (reason, count) in Accounting.reasons(skipped) {
      Console.diagnose(
        "touchtrace \(command): warning: skipped \(count) trace\(count == 1 ? "" : "s"): \(reason)"
          + (ScoringRules.remedy(forSkipReason: reason).map { "; \($0)" } ?? ""))
    }
  }
}
