import TouchCore
public import TouchEvaluation
import TouchRecognizers
import TouchSignal

/// What a report tells its reader to ship: the recommended configuration for the objective, the
/// runner-up and the paired difference between them, the worst group, and the caveats the data
/// raises. `sweep`, `tune` and `compare` put it first in every format (see the ReadingTheVerdict article).
///
/// **Candidates.** Each recognizer's best eligible configuration by the rule (objective, then the
/// tie rule of ``OperatingPointRule``). The recommended configuration is the first of them; the
/// runner-up is the next one whose stage-1 scores differ from the recommended's (recognizers
/// with exactly the same counts and latencies are named with it, not as a rival). With a single
/// recognizer, the runner-up is its next configuration with other scores.
public struct Verdict: Sendable {
  /// One caveat: a stable code (for scripts) and a sentence (for readers).
  public struct Caveat: Sendable, Hashable {
    /// The code: `grid_edge`, `small_n`, `raw_force_mixed_maximum`, `references_near_touch_down`,
    /// `early_firing`, `indistinguishable`, `paired_unavailable`, `no_choice`, and those the
    /// command adds about its inputs (`time_scale`: times that look like milliseconds or
    /// nanoseconds).
    public let code: String
    /// What it means for this study, one line.
    public let text: String

    /// Creates a caveat.
    public init(code: String, text: String) {
      self.code = code
      self.text = text
    }
  }

  /// The group in which the recommended configuration scores lowest (`--by`).
  public struct WorstGroup: Sendable, Hashable {
    /// The column the traces are grouped by (`device`, `user`, …).
    public let column: String
    /// The group's value; `nil` for traces without it.
    public let name: String?
    /// Traces in the group.
    public let traces: Int
    /// The recommended configuration's metrics in the group.
    public let metrics: ConfigurationMetrics

    /// Creates a worst group.
    public init(column: String, name: String?, traces: Int, metrics: ConfigurationMetrics) {
      self.column = column
      self.name = name
      self.traces = traces
      self.metrics = metrics
    }
  }

  /// The rule configurations are ranked by.
  public let rule: OperatingPointRule
  /// The recommended configuration (an index into the report's configurations); `nil` when no
  /// configuration is eligible.
  public let recommended: Int?
  /// Why nothing is recommended; `nil` when something is.
  public let noChoiceReason: String?
  /// Best configurations of other recognizers with exactly the recommended's stage-1 scores.
  public let sameScores: [Int]
  /// The runner-up; `nil` when there is no other candidate.
  public let runnerUp: Int?
  /// The paired comparison, A the recommended and B the runner-up; `nil` when not computed
  /// (``pairedUnavailable`` says why).
  public let paired: PairedComparison?
  /// Why there is no paired comparison although there is a runner-up.
  public let pairedUnavailable: String?
  /// The paired decisions tested with the traces clustered (`--group-by`); `nil` without a
  /// grouping. When present, its p-value is the one the verdict reads.
  public let clustered: ClusteredMcNemarTest?

  /// The p-value the verdict reads: the clustered test's when there is one, else McNemar's.
  public var pValue: Double? { clustered?.pValue ?? paired?.mcnemar.pValue }
  /// The worst group of the recommended configuration; `nil` without `--by`.
  public let worstGroup: WorstGroup?
  /// The caveats, in a fixed order.
  public let caveats: [Caveat]

  /// The rule of `sweep` and `compare`, which have no objective option: maximum F1, then the tie
  /// rule.
  public static let maximumF1: OperatingPointRule = {
    do {
      return try OperatingPointRule(objective: .f1)
    } catch {
      preconditionFailure("maximum F1 without bounds is a valid rule")
    }
  }()

  /// The p-value below which the verdict calls the recommended and the runner-up distinguishable.
  public static let significance = 0.05
  /// Latency quantiles from fewer true positives than this are flagged (`small_n`).
  public static let smallSample = 10
  /// Rule-derived references closer than this to touch-down are flagged, seconds, when more
  /// than a quarter of them are (`references_near_touch_down`).
  public static let nearTouchDown = EvaluationSummary.nearTouchDown
  /// An early rate at or above this is flagged (`early_firing`).
  public static let highEarlyRate = 0.25

  /// Chooses the recommended configuration and the runner-up of `configurations` by `rule`.
  ///
  /// - Parameters:
  ///   - configurations: the configurations scored.
  ///   - metrics: their metrics on all traces (parallel).
  ///   - rule: objective, bounds and tie rule.
  /// - Returns: the recommended, the others with its scores, the runner-up.
  public static func candidates(
    _ configurations: [Configuration], metrics: [ConfigurationMetrics], rule: OperatingPointRule
  ) -> (recommended: Int?, sameScores: [Int], runnerUp: Int?) {
    let scores = metrics.enumerated().map { rule.score($1, configuration: $0) }
    var bestOf: [(spec: RecognizerSpec, score: OperatingPointScore)] = []
    for score in scores where score.isEligible {
      let spec = configurations[score.configuration].spec
      if let i = bestOf.firstIndex(where: { $0.spec == spec }) {
        if rule.prefers(score, over: bestOf[i].score) { bestOf[i].score = score }
      } else {
        bestOf.append((spec, score))
      }
    }
    let ranked = bestOf.map(\.score).sorted { rule.prefers($0, over: $1) }
    guard let first = ranked.first?.configuration else { return (nil, [], nil) }
    let others = ranked.dropFirst().map(\.configuration)
    let same = others.filter { scoresAlike(metrics[$0], metrics[first]) }
    var runnerUp = others.first { !scoresAlike(metrics[$0], metrics[first]) }
    if bestOf.count == 1 {
      runnerUp =
        scores.filter {
          $0.isEligible && $0.configuration != first && !scoresAlike(metrics[$0.configuration], metrics[first])
        }
        .sorted { rule.prefers($0, over: $1) }.first?.configuration
    }
    return (first, same.sorted(), runnerUp)
  }

  /// Whether two configurations score alike at stage 1: the same counts and latency quantiles.
  static func scoresAlike(_ a: ConfigurationMetrics, _ b: ConfigurationMetrics) -> Bool {
    let x = a.stage1
    let y = b.stage1
    return x.truePositives == y.truePositives && x.falsePositives == y.falsePositives
      && x.falseNegatives == y.falseNegatives && x.falsePositiveTraces == y.falsePositiveTraces
      && x.latency.p50 == y.latency.p50 && x.latency.p90 == y.latency.p90
      && x.latency.absoluteP90 == y.latency.absoluteP90
      && x.latency.early == y.latency.early
  }

  /// The verdict on scored configurations.
  ///
  /// - Parameters:
  ///   - configurations: the configurations scored (a sweep's plan, or A and B).
  ///   - metrics: their metrics on all traces (parallel).
  ///   - rule: objective, bounds and tie rule.
  ///   - evaluation: the traces and their ground truth (metadata is enough).
  ///   - paired: the paired comparison of the recommended (A) and the runner-up (B), when computed.
  ///   - pairedUnavailable: why it was not, when there is a runner-up.
  ///   - grouped: metrics per group (`--by`), when asked for.
  ///   - noChoiceReason: why nothing is eligible, as the command explains it.
  ///   - clustered: the recommended (A) against the runner-up (B) with the traces clustered.
  ///   - inputCaveats: caveats the command found in its inputs, listed first (the data comes
  ///     before the choice made on it).
  public init(
    configurations: [Configuration], metrics: [ConfigurationMetrics], rule: OperatingPointRule, evaluation: Evaluation,
    paired: PairedComparison?, pairedUnavailable: String?, grouped: GroupedMetrics?, noChoiceReason: String? = nil,
    clustered: ClusteredMcNemarTest? = nil, inputCaveats: [Caveat] = []
  ) {
    // Without a positive trace (misfire mode) there is nothing to find: accuracy is not defined,
    // so no configuration is chosen, whatever the rule.
    let scorable = evaluation.summary.analyzed == 0 || evaluation.summary.positives > 0
    let (recommended, same, runnerUp) =
      scorable ? Self.candidates(configurations, metrics: metrics, rule: rule) : (nil, [], nil)
    self.rule = rule
    self.recommended = recommended
    self.sameScores = same
    self.runnerUp = runnerUp
    self.paired = runnerUp == nil ? nil : paired
    self.clustered = runnerUp == nil || paired == nil ? nil : clustered
    self.pairedUnavailable = runnerUp == nil || paired != nil ? nil : pairedUnavailable
    self.noChoiceReason = recommended == nil ? (noChoiceReason ?? rule.explainNoChoice(metrics)) : nil
    var worst: WorstGroup?
    if let recommended, let grouped, let perGroup = grouped.metrics(ofConfiguration: recommended) {
      for (g, m) in perGroup.enumerated() where grouped.breakdown.traceCounts[g] > 0 {
        let f1 = m.stage1.f1 ?? -1
        if let current = worst, (current.metrics.stage1.f1 ?? -1) <= f1 { continue }
        worst = WorstGroup(
          column: grouped.breakdown.column.rawValue, name: grouped.breakdown.names[g],
          traces: grouped.breakdown.traceCounts[g],
          metrics: m)
      }
    }
    self.worstGroup = worst
    var caveats: [Caveat] = inputCaveats
    if let recommended {
      caveats += Self.caveats(
        recommended: recommended, runnerUp: runnerUp, configurations: configurations, metrics: metrics,
        evaluation: evaluation, paired: self.paired, pairedUnavailable: self.pairedUnavailable,
        clustered: self.clustered)
    } else {
      caveats.append(Caveat(code: "no_choice", text: "No configuration meets the rule: \(self.noChoiceReason ?? "")"))
    }
    self.caveats = caveats
  }

  // MARK: - Caveats

  static func caveats(
    recommended c: Int, runnerUp: Int?, configurations: [Configuration], metrics: [ConfigurationMetrics],
    evaluation: Evaluation, paired: PairedComparison?, pairedUnavailable: String?, clustered: ClusteredMcNemarTest?
  ) -> [Caveat] {
    var out: [Caveat] = []
    let chosen = configurations[c]
    let m = metrics[c].stage1
    // The optimum at the grid's edge, for each parameter the sweep varied.
    let siblings = configurations.indices.filter { configurations[$0].spec == chosen.spec }
    for name in chosen.varied {
      guard let value = number(chosen.parameters[name]) else { continue }
      // Configurations that differ from the chosen one in this parameter alone.
      let line = siblings.filter { s in
        configurations[s].varied.allSatisfy { other in
          other == name || configurations[s].parameters[other] == chosen.parameters[other]
        }
      }
      let values = sweptNumbers(line.compactMap { number(configurations[$0].parameters[name]) })
      guard values.count >= 3 else { continue }
      if value == values.first {
        out.append(
          Caveat(
            code: "grid_edge",
            text:
              "\(name) = \(text(value)) is the smallest value swept for \(chosen.name): the optimum may lie below it; widen the grid below \(text(value))."
          ))
      } else if value == values.last {
        out.append(
          Caveat(
            code: "grid_edge",
            text:
              "\(name) = \(text(value)) is the largest value swept for \(chosen.name): the optimum may lie above it; widen the grid above \(text(value))."
          ))
      }
    }
    // Small samples behind the latency quantiles.
    for (who, index) in [("the recommended", c), ("the runner-up", runnerUp)] {
      guard let index else { continue }
      let n = metrics[index].stage1.latency.count
      if n < smallSample {
        out.append(
          Caveat(
            code: "small_n",
            text:
              "The latency quantiles of \(who) configuration (\(label(configurations[index]))) rest on n = \(n) true positive\(n == 1 ? "" : "s") (fewer than \(smallSample)): treat them as anecdotes."
          ))
      }
    }
    // A raw-force parameter over devices with different maximum forces.
    let maxima = evaluation.summary.maximumForces
    if maxima.count > 1 {
      let raw = chosen.varied.filter { name in
        chosen.spec.catalog.entry(chosen.spec.variant)?.descriptor.parameter(name)?.unit == .force
      }
      for name in raw {
        out.append(
          Caveat(
            code: "raw_force_mixed_maximum",
            text:
              "\(name) is in raw force units and was swept over traces whose maximum forces differ (\(maxima.map(text).joined(separator: ", "))): one value is a different pressure on each device; break the results down by device (--by device) or prefer a normalized threshold."
          ))
      }
    }
    // References the rule placed at touch-down.
    let ruleReferences = evaluation.summary.ruleReferences
    let nearDown = evaluation.summary.ruleReferencesNearTouchDown
    // More than a quarter of them: a few references near touch-down are fast presses.
    if nearDown * 4 > ruleReferences {
      out.append(
        Caveat(
          code: "references_near_touch_down",
          text:
            "\(nearDown) of \(ruleReferences) references derived by the rule lie within \(Int(nearTouchDown * 1000)) ms of touch-down: the rule may be marking the contact, not the press; label press_at or check the reference rule."
        ))
    }
    // Early firing.
    if let rate = m.latency.earlyRate, rate >= highEarlyRate {
      out.append(
        Caveat(
          code: "early_firing",
          text:
            "\(percent(rate)) of the recommended configuration's true positives (\(m.latency.early) of \(m.latency.count)) act before the intended press: users will feel it fire early; bound it with --max-early."
        ))
    }
    // The rival the data cannot tell apart.
    if let paired, let runnerUp {
      let p = clustered?.pValue ?? paired.mcnemar.pValue
      if p >= significance {
        let test = clustered.map { "clustered McNemar (\($0.clusters) clusters)" } ?? "McNemar"
        out.append(
          Caveat(
            code: "indistinguishable",
            text:
              "The data cannot tell \(label(configurations[c])) from the runner-up \(label(configurations[runnerUp])): \(test) \(pValueText(p)) on \(paired.mcnemar.discordant) discordant traces; more traces (or a cost that separates them) are needed."
          ))
      }
    }
    if let pairedUnavailable {
      out.append(
        Caveat(code: "paired_unavailable", text: "No paired comparison with the runner-up: \(pairedUnavailable)."))
    }
    return out
  }

  /// `name p=v …`: the recognizer and the parameters the sweep varied.
  static func label(_ configuration: Configuration) -> String {
    ([configuration.name]
      + configuration.varied.compactMap { name in configuration.parameters[name].map { "\(name)=\($0)" } })
      .joined(separator: " ")
  }

  /// A p-value as reports print it: `p = 0.118` (three decimals), `p < 0.001` below that.
  public static func pValueText(_ p: Double) -> String {
    p < 0.001 ? "p < 0.001" : "p = " + text(p, digits: 3)
  }

  /// The distinct numbers of a swept axis, ascending, without NaN: NaN ("off", "no limit") is a
  /// setting, not a point of the axis, and has no place in an ascending order (a `Set` holding
  /// it sorted to an order that changed from run to run with the hash seed, and the grid-edge
  /// caveat with it).
  static func sweptNumbers(_ values: [Double]) -> [Double] {
    Set(values.filter { !$0.isNaN }).sorted()
  }

  static func number(_ value: ParameterValue?) -> Double? {
    guard case .number(let x)? = value else { return nil }
    return x
  }

  static func percent(_ x: Double) -> String { "\(Int((x * 100).rounded())) %" }

  static func text(_ x: Double) -> String { text(x, digits: 4) }

  /// `x` rounded to `digits` places after the point, without trailing zeros.
  static func text(_ x: Double, digits: Int) -> String {
    if x == x.rounded() && abs(x) < 1e15 { return String(Int64(x)) }
    let scale = pow10(digits)
    return String((x * scale).rounded() / scale)
  }

  static func pow10(_ n: Int) -> Double { (0..<n).reduce(1.0) { value, _ in value * 10 } }
}
