import TouchCore
import TouchEvaluation
import TouchReports

/// The two rules every scoring command (`run --outcomes`, `sweep`, `tune`, `compare`, `check`)
/// applies before it scores: there must be analyzed traces, and among them positives. Either
/// failing is bad data (exit 65) with a message saying what is missing and which flag fixes it.
enum ScoringRules {
  /// How many of the most frequent skip reasons a message lists.
  static let reasonsShown = 3

  /// Throws when `dataset` has no analyzed trace left: how many traces were skipped, the most
  /// frequent reasons with their counts, and the flag or change that fixes each.
  static func requireAnalyzed(_ dataset: Dataset, command: String) throws(DataError) {
    guard dataset.traces.isEmpty else { return }
    throw DataError(description: "touchtrace \(command): error: " + noAnalyzedMessage(dataset))
  }

  /// Throws when `evaluation` has no analyzed trace, or none of them is a positive (per
  /// `--positive`): the positive intents, the intents found with their counts, and `--positive`
  /// as the fix.
  static func requireScorable(_ evaluation: Evaluation, command: String) throws(DataError) {
    try requireAnalyzed(evaluation.dataset, command: command)
    guard !evaluation.truths.contains(where: \.isPositive) else { return }
    throw DataError(
      description: "touchtrace \(command): error: "
        + noPositiveMessage(evaluation.truths.map(\.intent), positives: evaluation.options.positives)
        + "; for data without presses, `touchtrace sweep` reports misfire rates (--negatives-only)")
  }

  /// `no analyzed trace: 175 of 175 traces skipped: 175 no intent label (fix: …)`.
  static func noAnalyzedMessage(_ dataset: Dataset) -> String {
    guard dataset.total > 0 else {
      return
        "no analyzed trace: the input holds no trace (\(dataset.files.isEmpty ? "no trace file found" : "files: \(dataset.files.joined(separator: ", "))"))"
    }
    let reasons = Accounting.reasons(dataset.skipped).sorted { $0.count > $1.count }
    var parts = reasons.prefix(reasonsShown).map {
      "\($0.count) \($0.reason)"
        + " (\(Console.remedy(forSkipReason: $0.reason) ?? "fix the data where the warnings above say"))"
    }
    if reasons.count > reasonsShown {
      let rest = reasons.dropFirst(reasonsShown).reduce(0) { $0 + $1.count }
      parts.append(
        "\(rest) for \(reasons.count - reasonsShown) other reason\(reasons.count - reasonsShown == 1 ? "" : "s")")
    }
    let total = dataset.total
    return "no analyzed trace: \(dataset.skipped.count) of \(total) trace\(total == 1 ? "" : "s") skipped: "
      + parts.joined(separator: "; ")
  }

  /// `no positive trace: --positive press,pop, and the analyzed intents are tap 3, hold 2 (…)`.
  static func noPositiveMessage(_ intents: [Intent], positives: [Intent]) -> String {
    let counts = Intent.allCases.compactMap { intent -> String? in
      let n = intents.count(where: { $0 == intent })
      return n == 0 ? nil : "\(intent.rawValue) \(n)"
    }
    let found = Intent.allCases.filter(intents.contains)
    let suggestion = found.isEmpty ? "" : " (one or more of \(found.map(\.rawValue).joined(separator: ", ")))"
    return
      "no positive trace: the positive intents are \(positives.map(\.rawValue).joined(separator: ", ")) (--positive), "
      + "the \(intents.count) analyzed trace\(intents.count == 1 ? "" : "s") are \(counts.joined(separator: ", ")); "
      + "recall, F1 and latency are undefined without positives: name the intents that should trigger the action with --positive\(suggestion)"
  }
}
