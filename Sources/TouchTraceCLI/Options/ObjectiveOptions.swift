import ArgumentParser
import TouchTuning

/// `--objective` and its bounds and costs: the rule `tune` chooses an operating point by.
struct ObjectiveOptions: ParsableArguments {
  @Option(help: "What to optimize.")
  var objective: ObjectiveName = .f1

  @Option(help: ArgumentHelp("Lowest acceptable precision, 0...1.", valueName: "p"))
  var minPrecision: Double?

  @Option(help: ArgumentHelp("Lowest acceptable recall, 0...1.", valueName: "r"))
  var minRecall: Double?

  @Option(help: ArgumentHelp("Highest acceptable false-positive rate, 0...1.", valueName: "f"))
  var maxFpr: Double?

  @Option(
    help: ArgumentHelp(
      "Highest acceptable early rate, 0...1: the share of true positives whose action comes before the intended press.",
      valueName: "e"))
  var maxEarly: Double?

  @Option(help: ArgumentHelp("Cost of a false positive (--objective cost; default: 1).", valueName: "c"))
  var costFp: Double?

  @Option(help: ArgumentHelp("Cost of a false negative (--objective cost; default: 1).", valueName: "c"))
  var costFn: Double?

  enum ObjectiveName: String, ExpressibleByArgument, CaseIterable {
    case f1, latency, fpr, cost
  }

  func validate() throws { _ = try rule() }

  /// The rule the options describe.
  func rule() throws(ValidationError) -> OperatingPointRule {
    let objective: TuningObjective
    switch self.objective {
    case .f1: objective = .f1
    case .latency: objective = .latency
    case .fpr: objective = .fpr
    case .cost: objective = .cost(falsePositive: costFp ?? 1, falseNegative: costFn ?? 1)
    }
    if self.objective != .cost, costFp != nil || costFn != nil {
      throw ValidationError("--cost-fp and --cost-fn apply to --objective cost only")
    }
    do throws(TuningRuleError) {
      return try OperatingPointRule(
        objective: objective,
        constraints: TuningConstraints(
          minimumPrecision: minPrecision, minimumRecall: minRecall, maximumFalsePositiveRate: maxFpr,
          maximumEarlyRate: maxEarly))
    } catch {
      throw ValidationError(error.description)
    }
  }
}
