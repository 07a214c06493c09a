import ArgumentParser
import TouchTuning

/// `--bootstrap`, `--confidence` and `--seed`: the bootstrap intervals of `tune` and `compare`
/// and the seed of their random stream.
struct ResamplingOptions: ParsableArguments {
  @Option(help: ArgumentHelp("Bootstrap resamples (0: none).", valueName: "n"))
  var bootstrap = 1000

  @Option(help: ArgumentHelp("Confidence level of the bootstrap intervals.", valueName: "level"))
  var confidence = 0.95

  @Option(help: seedHelp)
  var seed: UInt64 = 1

  func validate() throws { _ = try resampling() }

  /// The options checked: the bootstrap (`nil` for 0 resamples) and the seed of the random stream.
  func resampling() throws(ValidationError) -> (bootstrap: BootstrapOptions?, seed: UInt64) {
    guard bootstrap >= 0 else { throw ValidationError("--bootstrap must be 0 or more resamples, got \(bootstrap)") }
    guard confidence > 0 && confidence < 1 else {
      throw ValidationError("--confidence must be strictly between 0 and 1, got \(confidence)")
    }
    return (bootstrap > 0 ? BootstrapOptions(resamples: bootstrap, confidence: confidence) : nil, seed)
  }
}
