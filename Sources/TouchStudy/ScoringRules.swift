public import TouchCore
public import TouchEvaluation
import TouchReports

/// The two rules every scoring command (`run --outcomes`, `sweep`, `tune`, `compare`, `check`)
/// applies before it scores: there must be analyzed traces, and among them positives. Either
/// failing is a ``StudyError`` (bad data, exit 65 on the command line) with a message saying what
/// is missing and which flag fixes it.
public enum ScoringRules {
  /// How many of the most frequent skip reasons a message lists.
  public static let reasonsShown = 3

  /// Throws when `dataset` has no analyzed trace left: how many traces were skipped, the most
  /// frequent reasons with their counts, and the flag or change that fixes each.
  public static func requireAnalyzed(_ dataset: Dataset, command: String) throws(StudyError) {
    guard dataset.traces.isEmpty else { return }
    throw StudyError(description: "touchtrace \(command): error: " + noAnalyzedMessage(dataset))
  }

  /// Throws when `evaluation` has no analyzed trace, or none of them is a positive (per
  /// `--positive`): the positive intents, the intents found with their counts, and `--positive`
  /// as the fix.
  public static func requireScorable(_ evaluation: Evaluation, command: String) throws(StudyError) {
    try requireAnalyzed(evaluation, command: command)
    guard evaluation.summary.positives == 0 else { return }
    throw StudyError(
      description: "touchtrace \(command): error: "
        + noPositiveMessage(evaluation.summary.intents, positives: evaluation.options.positives)
        + "; for data without presses, `touchtrace sweep` reports misfire rates (--negatives-only)")
  }

  /// `requireAnalyzed(_:command:)` (of a dataset) of an evaluation, which may keep only its
  /// traces' summary.
  public static func requireAnalyzed(_ evaluation: Evaluation, command: String) throws(StudyError) {
    guard evaluation.analyzedCount == 0 else { return }
    try requireAnalyzed(evaluation.dataset, command: command)
  }

  /// `no analyzed trace: 175 of 175 traces skipped: 175 no intent label (fix: …)`.
  public static func noAnalyzedMessage(_ dataset: Dataset) -> String {
    guard dataset.total > 0 else {
      return
        "no analyzed trace: the input holds no trace (\(dataset.files.isEmpty ? "no trace file found" : "files: \(dataset.files.joined(separator: ", "))"))"
    }
    let reasons = Accounting.reasons(dataset.skipped).sorted { $0.count > $1.count }
    var parts = reasons.prefix(reasonsShown).map {
      "\($0.count) \($0.reason)"
        + " (\(remedy(forSkipReason: $0.reason) ?? "fix the data where the warnings above say"))"
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
  public static func noPositiveMessage(_ intents: [Intent], positives: [Intent]) -> String {
    var counts = IntentCounts()
    for intent in intents { counts[intent] += 1 }
    return noPositiveMessage(counts, positives: positives)
  }

  /// `noPositiveMessage(_:positives:)` (of a list of intents) from the analyzed traces' count per intent.
  public static func noPositiveMessage(_ intents: IntentCounts, positives: [Intent]) -> String {
    let counts = Intent.allCases.compactMap { intent -> String? in
      let n = intents[intent]
      return n == 0 ? nil : "\(intent.rawValue) \(n)"
    }
    let found = Intent.allCases.filter { intents[$0] > 0 }
    let suggestion = found.isEmpty ? "" : " (one or more of \(found.map(\.rawValue).joined(separator: ", ")))"
    return
      "no positive trace: the positive intents are \(positives.map(\.rawValue).joined(separator: ", ")) (--positive), "
      + "the \(intents.total) analyzed trace\(intents.total == 1 ? "" : "s") are \(counts.joined(separator: ", ")); "
      + "recall, F1 and latency are undefined without positives: name the intents that should trigger the action with --positive\(suggestion)"
  }

  /// The flag or change that brings back traces skipped for `reason`; `nil` for problems in the
  /// data itself (the message says where).
  public static func remedy(forSkipReason reason: String) -> String? {
    if reason == "no intent label" { return "give an intent column, or labels with --labels FILE" }
    if reason.contains("maximum possible force") { return "give a max_force column or --max-force FORCE" }
    if reason.hasPrefix("not selected (") { return "widen --only" }
    if reason.hasPrefix("no "), reason.contains(" label (--group-by ") {
      return "label them with --labels FILE, or drop --group-by"
    }
    if reason.hasPrefix("no reference time") || reason.hasPrefix("intent pop needs press_at") {
      return "give press_at times, in the file or with --labels FILE"
    }
    return nil
  }
}
