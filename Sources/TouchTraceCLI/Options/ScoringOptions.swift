import ArgumentParser
import TouchCore
import TouchEvaluation

/// `--positive` and `--tolerance`: what counts as an intended press and how close an action must
/// be (shared by `sweep`, `tune` and `compare`).
struct ScoringOptions: ParsableArguments {
  @Option(help: ArgumentHelp("Intents that should trigger the action (stage 1).", valueName: "intent,..."))
  var positive: String = "press,pop"

  @Option(help: ArgumentHelp("Matching window: the largest |action − reference|, seconds.", valueName: "seconds"))
  var tolerance: Double = EvaluationOptions.defaultTolerance

  @Flag(
    help: ArgumentHelp(
      "Score every trace as a negative (no intent: none; labelled press or pop: skipped): misfire rates on data without presses."
    ))
  var negativesOnly = false

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
    return EvaluationOptions(positives: intents, tolerance: tolerance, negativesOnly: negativesOnly)
  }
}
