public import TouchRecognizers

/// The result of a sweep: every configuration of the plan with its metrics.
public struct SweepResult: Sendable {
  /// The evaluation swept (traces, truths, options).
  public let evaluation: Evaluation
  /// The plan.
  public let plan: SweepPlan
  /// The metrics of each configuration (parallel to `plan.configurations`).
  public let metrics: [ConfigurationMetrics]
  /// How each configuration was evaluated (parallel to `plan.configurations`).
  public let methods: [SweepMethod]

  /// The result of a sweep from every configuration's metrics.
  ///
  /// - Parameters:
  ///   - evaluation: the evaluation swept (its traces may hold metadata only).
  ///   - plan: the plan swept.
  ///   - metrics: each configuration's metrics, in plan order.
  ///   - methods: how each configuration was evaluated.
  public init(evaluation: Evaluation, plan: SweepPlan, metrics: [ConfigurationMetrics], methods: [SweepMethod]) {
    precondition(metrics.count == plan.configurations.count && methods.count == metrics.count, "one per configuration")
    self.evaluation = evaluation
    self.plan = plan
    self.metrics = metrics
    self.methods = methods
  }

  /// The configurations.
  public var configurations: [Configuration] { plan.configurations }

  /// The per-trace outcomes of configuration `index` (replayed again; the one-pass path gives
  /// the same outcomes, which the tests check).
  ///
  /// - Throws: `ReplayError.external(trace:variant:message:)` when an external (`exec:`)
  ///   recognizer fails.
  public func outcomes(configuration index: Int, threads: Int = 1) throws(ReplayError) -> [TraceOutcome] {
    try evaluation.outcomes(of: plan.configurations[index].recognizer, threads: threads)
  }
}

extension SweepResult {
  /// The best configuration of each recognizer, in the plan's recognizer order: the highest
  /// stage-1 F1; on a tie the lower p90 of |action − reference| (firing early cannot lower it;
  /// none ranks last); then the
  /// earlier configuration. A recognizer whose F1 is undefined everywhere gets its first
  /// configuration.
  public func bestConfigurations() -> [(recognizer: RecognizerSpec, configuration: Int)] {
    plan.recognizers.compactMap { spec in
      var best: Int?
      for (c, configuration) in configurations.enumerated() where configuration.spec == spec {
        guard let current = best else {
          best = c
          continue
        }
        if Self.isBetter(metrics[c], than: metrics[current]) { best = c }
      }
      return best.map { (spec, $0) }
    }
  }

  /// Whether `a` ranks above `b` by the rule of ``bestConfigurations()`` (equal: `false`).
  public static func isBetter(_ a: ConfigurationMetrics, than b: ConfigurationMetrics) -> Bool {
    let fa = a.stage1.f1 ?? -1
    let fb = b.stage1.f1 ?? -1
    if fa != fb { return fa > fb }
    let la = a.stage1.latency.absoluteP90 ?? .infinity
    let lb = b.stage1.latency.absoluteP90 ?? .infinity
    return la < lb
  }
}
