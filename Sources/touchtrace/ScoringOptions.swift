import ArgumentParser
import TouchCore
import TouchEvaluation
import TouchRecognizers
import TouchReports
import TouchTuning

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--recognizer`, `--vary` and `--set`: the configurations of a sweep (shared by `sweep` and
/// `tune`).
struct PlanOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Recognizers: comma-separated names, `all`, or DEPENDENT+REQUIRED compositions.", valueName: "name,..."))
  var recognizer: String

  @Option(
    name: .customLong("vary"),
    help: ArgumentHelp("Sweep a parameter: NAME=START:STOP:STEP or NAME=V1,V2,... (repeatable).", valueName: "name=grid"))
  var axes: [String] = []

  @Option(
    name: .customLong("set"),
    help: ArgumentHelp("Fix a parameter: NAME=VALUE (repeatable; required.NAME for compositions).", valueName: "name=value"))
  var settings: [String] = []

  /// The configurations the options describe, once the data is loaded: default grids that follow
  /// the maximum possible force (raw-force parameters) use the analyzed traces' largest; `plan`
  /// (built before loading) is returned when no default grid depends on it.
  func makePlan(following evaluation: Evaluation, after plan: SweepPlan) throws(ValidationError) -> SweepPlan {
    guard plan.axes.isEmpty, plan.recognizers.contains(where: { SweepPlan.defaultGridFollowsMaximumForce($0) }) else {
      return plan
    }
    return try makePlan(maximumForce: SweepPlan.maximumForce(of: evaluation.dataset.traces))
  }

  /// The configurations the options describe (default grids relative to the maximum force
  /// need `maximumForce`, force units; without it such recognizers run at their defaults).
  func makePlan(maximumForce: Double? = nil) throws(ValidationError) -> SweepPlan {
    do throws(SweepPlanError) {
      let specs = try RecognizerSpec.list(recognizer)
      let axes = try self.axes.map { (text: String) throws(SweepPlanError) -> SweepAxis in try SweepAxis(parsing: text) }
      var fixed: [(name: String, value: String)] = []
      for text in settings {
        guard let setting = Self.setting(text) else { throw .malformedSetting(text) }
        fixed.append(setting)
      }
      return try SweepPlan(recognizers: specs, axes: axes, settings: fixed, maximumForce: maximumForce)
    } catch {
      throw ValidationError(error.description)
    }
  }

  /// `NAME=VALUE` split at the first `=`; `nil` without an `=` or without a name.
  static func setting(_ text: String) -> (name: String, value: String)? {
    guard let equals = text.firstIndex(of: "="), equals != text.startIndex else { return nil }
    return (String(text[..<equals]), String(text[text.index(after: equals)...]))
  }
}

/// `--positive` and `--tolerance`: what counts as an intended press and how close an action must
/// be (shared by `sweep`, `tune` and `compare`).
struct ScoringOptions: ParsableArguments {
  @Option(help: ArgumentHelp("Intents that should trigger the action (stage 1).", valueName: "intent,..."))
  var positive: String = "press,pop"

  @Option(help: ArgumentHelp("Matching window: the largest |action − reference|, seconds.", valueName: "seconds"))
  var tolerance: Double = EvaluationOptions.defaultTolerance

  /// The scoring options.
  func evaluationOptions() throws(ValidationError) -> EvaluationOptions {
    var intents: [Intent] = []
    for word in positive.split(separator: ",", omittingEmptySubsequences: false) {
      let name = word.split(separator: " ").joined()
      guard let intent = Intent(name: name) else {
        throw ValidationError(
          "--positive: unknown intent '\(name)' (intents: \(Intent.allCases.map(\.rawValue).joined(separator: ", ")))")
      }
      intents.append(intent)
    }
    guard tolerance >= 0, tolerance.isFinite else {
      throw ValidationError("--tolerance must be a number of seconds ≥ 0, got \(tolerance)")
    }
    return EvaluationOptions(positives: intents, tolerance: tolerance)
  }
}

/// Steps the commands that replay traces (`sweep`, `tune`, `compare`, `run`) take between loading
/// and scoring.
enum Scoring {
  /// Loads the traces and prepares them for scoring: traces `recognizers` cannot replay are
  /// handled as ``requireMaximumForce(_:for:skipInvalid:)`` does, traces without the `groupBy`
  /// label are skipped, and every trace skipped here is summarized on standard error, prefixed
  /// `touchtrace COMMAND:`.
  static func evaluation(
    _ input: InputOptions, for recognizers: [AnyForceRecognizer], groupBy key: GroupKey? = nil,
    options: EvaluationOptions, threads: Int, command: String
  ) throws -> Evaluation {
    var dataset = try input.load()
    try requireMaximumForce(&dataset, for: recognizers, skipInvalid: input.skipInvalid)
    let before = dataset.skipped.count
    if let key { dataset.skipTraces { key.label(of: $0.metadata) == nil ? "no \(key) label (--group-by \(key))" : nil } }
    let evaluation = Evaluation(dataset: dataset, options: options, threads: threads)
    summarize(Array(evaluation.dataset.skipped[before...]), command: command)
    return evaluation
  }

  /// Makes sure `recognizers` can replay every trace: traces without a maximum possible force,
  /// when one of them needs it, are skipped with the reason (`skipInvalid`, each printed) or
  /// reported as bad data (exit 65) naming the first.
  static func requireMaximumForce(
    _ dataset: inout Dataset, for recognizers: [AnyForceRecognizer], skipInvalid: Bool
  ) throws(DataError) {
    guard let needsMaximum = recognizers.first(where: { $0.requiresMaximumForce }) else { return }
    if skipInvalid {
      let before = dataset.skipped.count
      dataset.skipTraces { needsMaximum.unsupportedReason(for: $0) }
      for skip in dataset.skipped[before...] { Console.error(skip.description) }
    } else if let k = dataset.traces.firstIndex(where: { needsMaximum.unsupportedReason(for: $0) != nil }) {
      let origin = dataset.origins[k]
      let message = "trace '\(dataset.traces[k].name)': " + (needsMaximum.unsupportedReason(for: dataset.traces[k]) ?? "")
      throw DataError(
        description: Diagnostic(.error, message + " (use --max-force or --skip-invalid)", file: origin.file, position: origin.position)
          .description)
    }
  }

  /// One line per reason for the traces scoring skipped (no intent label, …), prefixed
  /// `touchtrace COMMAND: warning:`.
  static func summarize(_ skipped: [SkippedTrace], command: String) {
    for (reason, count) in Accounting.reasons(skipped) {
      Console.error("touchtrace \(command): warning: skipped \(count) trace\(count == 1 ? "" : "s"): \(reason)")
    }
  }

  /// `--bootstrap`, `--confidence` and `--seed` checked: the bootstrap (`nil` for 0 resamples)
  /// and the seed of the random stream.
  static func resampling(bootstrap: Int, confidence: Double, seed: Int) throws(ValidationError) -> (
    bootstrap: BootstrapOptions?, seed: UInt32
  ) {
    guard bootstrap >= 0 else { throw ValidationError("--bootstrap must be 0 or more resamples, got \(bootstrap)") }
    guard confidence > 0 && confidence < 1 else {
      throw ValidationError("--confidence must be strictly between 0 and 1, got \(confidence)")
    }
    guard let seed = UInt32(exactly: seed) else { throw ValidationError("--seed must be in 0...4294967295, got \(seed)") }
    return (bootstrap > 0 ? BootstrapOptions(resamples: bootstrap, confidence: confidence) : nil, seed)
  }

  /// Checks `--threads`: at least 1 when given.
  static func validate(threads: Int?) throws(ValidationError) {
    if let threads, threads < 1 { throw ValidationError("--threads must be at least 1, got \(threads)") }
  }

  /// The number of online processors.
  static var cores: Int { Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}

/// A progress line on standard error for work longer than about a second.
final class Progress: @unchecked Sendable {
  private let enabled: Bool
  private let command: String
  private let start = ContinuousClock.now
  private var shown = false
  private var lastShown = ContinuousClock.now

  /// A progress line prefixed `touchtrace COMMAND:`, shown only when `enabled`.
  init(enabled: Bool, command: String = "sweep") {
    self.enabled = enabled
    self.command = command
  }

  /// Shows `done / total` when a second has passed (at most ten times a second).
  func update(_ done: Int, _ total: Int) {
    guard enabled else { return }
    let now = ContinuousClock.now
    guard now - start >= .seconds(1), !shown || now - lastShown >= .milliseconds(100) || done == total else { return }
    shown = true
    lastShown = now
    let percent = total == 0 ? 100 : done * 100 / total
    write("\rtouchtrace \(command): \(done)/\(total) configurations (\(percent)%)")
  }

  /// Clears the line.
  func finish() {
    if shown { write("\r\u{1B}[K") }
  }

  private func write(_ text: String) { Console.writeError(Array(text.utf8)) }
}

/// `--group-by`: the trace label that keeps traces together.
enum GroupName: String, ExpressibleByArgument, CaseIterable {
  case user, session, device

  var key: GroupKey {
    switch self {
    case .user: .user
    case .session: .session
    case .device: .device
    }
  }
}

/// `--format` of the reporting commands that share sweep's rule.
enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
  case md, json, csv

  /// The flag, else the `--output` ending, else md on a terminal, else json.
  static func resolve(_ format: ReportFormat?, output: String?) -> ReportFormat {
    if let format { return format }
    if let output {
      if output.hasSuffix(".json") { return .json }
      if output.hasSuffix(".csv") { return .csv }
      if output.hasSuffix(".md") { return .md }
    }
    return output == nil && Console.stdoutIsTerminal ? .md : .json
  }
}
