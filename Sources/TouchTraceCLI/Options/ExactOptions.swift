import ArgumentParser

/// `--exact`, `--exact-parameter` and `--plateau-tolerance`: an exact sweep of threshold
/// parameters (shared by `sweep` and `tune`).
struct ExactOptions: ParsableArguments {
  @Flag(
    help: ArgumentHelp(
      "Sweep the recognizer's main threshold exactly: every class of values between two force values of the data, reported as intervals, with the exact optimum and its plateau."
    ))
  var exact = false

  @Option(
    name: .customLong("exact-parameter"),
    help: ArgumentHelp(
      "A threshold parameter to sweep exactly instead of the main one (repeatable, up to 3; implies --exact).",
      valueName: "name"))
  var parameters: [String] = []

  @Option(
    help: ArgumentHelp(
      "How far below the optimum (above, for latency and cost) the plateau reaches: objective units (0.01 F1; seconds for latency). Default 0.01, or 0.005 s for --objective latency.",
      valueName: "delta"))
  var plateauTolerance: Double?

  @Option(
    help: ArgumentHelp(
      "The most exact classes (the product over exact parameters) a run evaluates: dense force (every sample a distinct value) has about two per sample, and the cost grows with classes × contacts. Above it the run stops (exit 65) saying how many there are.",
      valueName: "n"))
  var exactMaxClasses = 20_000

  /// Whether an exact sweep was asked for.
  var isOn: Bool { exact || !parameters.isEmpty }

  func validate() throws {
    if let plateauTolerance, !(plateauTolerance >= 0 && plateauTolerance.isFinite) {
      throw ValidationError("--plateau-tolerance must be 0 or more, got \(plateauTolerance)")
    }
    if plateauTolerance != nil && !isOn { throw ValidationError("--plateau-tolerance applies to --exact sweeps only") }
    if parameters.count > 3 {
      throw ValidationError(
        "--exact-parameter: at most 3 exact parameters (\(parameters.count) given); sweep the others with --vary")
    }
    if exactMaxClasses < 1 { throw ValidationError("--exact-max-classes must be at least 1, got \(exactMaxClasses)") }
    if Set(parameters).count < parameters.count {
      throw ValidationError("--exact-parameter: a parameter is named twice")
    }
  }

  /// The tolerance for an objective measured in seconds (`latency`) or not.
  func tolerance(latency: Bool) -> Double { plateauTolerance ?? (latency ? 0.005 : 0.01) }
}
