import ArgumentParser
import TouchCore
import TouchEvaluation
import TouchRecognizers

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

  /// The configurations the options describe.
  func makePlan() throws(ValidationError) -> SweepPlan {
    do throws(SweepPlanError) {
      let specs = try RecognizerSpec.list(recognizer)
      let axes = try self.axes.map { (text: String) throws(SweepPlanError) -> SweepAxis in try SweepAxis(parsing: text) }
      var fixed: [(name: String, value: String)] = []
      for setting in settings {
        guard let equals = setting.firstIndex(of: "="), equals != setting.startIndex else {
          throw SweepPlanError("--set expects NAME=VALUE, got '\(setting)'")
        }
        fixed.append((String(setting[..<equals]), String(setting[setting.index(after: equals)...])))
      }
      return try SweepPlan(recognizers: specs, axes: axes, settings: fixed)
    } catch {
      throw ValidationError(error.description)
    }
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

/// Steps every scoring command (`sweep`, `tune`, `compare`) takes between loading and scoring.
enum Scoring {
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
    var reasons: [(String, Int)] = []
    for skip in skipped {
      if let k = reasons.firstIndex(where: { $0.0 == skip.reason }) { reasons[k].1 += 1 } else { reasons.append((skip.reason, 1)) }
    }
    for (reason, count) in reasons {
      Console.error("touchtrace \(command): warning: skipped \(count) trace\(count == 1 ? "" : "s"): \(reason)")
    }
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
