public import TouchEvaluation

/// A number read off a configuration's metrics (stage 1, the action), as tuning reports it.
public enum TuningStatistic: Sendable, Hashable, CustomStringConvertible {
  /// F1 = 2·TP / (2·TP + FP + FN).
  case f1
  /// TP / (TP + FP).
  case precision
  /// TP / (TP + FN).
  case recall
  /// Negative traces with an action / negative traces.
  case fpr
  /// The median of `action − reference` over true positives, seconds.
  case latencyP50
  /// The 90th percentile of `action − reference` over true positives, seconds (signed: an
  /// early action lowers it).
  case latencyP90
  /// The 90th percentile of `|action − reference|` over true positives, seconds: the timing
  /// error, which an early action cannot lower (`--objective latency` minimizes it).
  case absoluteLatencyP90
  /// The share of true positives that act before their reference, 0…1.
  case earlyRate
  /// The mean cost per analyzed trace: (`falsePositive` × FP + `falseNegative` × FN) / traces.
  case cost(falsePositive: Double, falseNegative: Double)

  /// The statistics every tuning report gives (the bootstrap's and the cross-validation's).
  public static let standard: [TuningStatistic] = [
    .f1, .precision, .recall, .fpr, .latencyP50, .latencyP90, .absoluteLatencyP90, .earlyRate,
  ]

  /// The name reports use: `f1`, `precision`, `recall`, `fpr`, `latency_p50`, `latency_p90`,
  /// `abs_latency_p90`, `early_rate`, `cost`.
  public var name: String {
    switch self {
    case .f1: "f1"
    case .precision: "precision"
    case .recall: "recall"
    case .fpr: "fpr"
    case .latencyP50: "latency_p50"
    case .latencyP90: "latency_p90"
    case .absoluteLatencyP90: "abs_latency_p90"
    case .earlyRate: "early_rate"
    case .cost: "cost"
    }
  }

  /// The same as ``name``.
  public var description: String { name }

  /// Whether the statistic is a time in seconds.
  public var isLatency: Bool { self == .latencyP50 || self == .latencyP90 || self == .absoluteLatencyP90 }

  /// The statistic of `metrics` (stage 1); `nil` when it is undefined there (see the Metrics
  /// article of TouchEvaluation; the cost is undefined over no trace).
  public func value(of metrics: ConfigurationMetrics) -> Double? {
    let m = metrics.stage1
    switch self {
    case .f1: return m.f1
    case .precision: return m.precision
    case .recall: return m.recall
    case .fpr: return m.falsePositiveRate
    case .latencyP50: return m.latency.p50
    case .latencyP90: return m.latency.p90
    case .absoluteLatencyP90: return m.latency.absoluteP90
    case .earlyRate: return m.latency.earlyRate
    case .cost(let fp, let fn):
      guard metrics.traces > 0 else { return nil }
      return (fp * Double(m.falsePositives) + fn * Double(m.falseNegatives)) / Double(metrics.traces)
    }
  }
}

/// What an operating point optimizes.
public enum TuningObjective: Sendable, Hashable, CustomStringConvertible {
  /// The highest F1.
  case f1
  /// The lowest p90 timing error (`|action − reference|`), subject to a minimum precision and/or
  /// recall: an action before the intended press is premature, not fast, so it counts by its
  /// distance from the reference like a late one (``TuningStatistic/absoluteLatencyP90``).
  case latency
  /// The highest recall, subject to a maximum false-positive rate.
  case fpr
  /// The lowest mean cost per trace, (`falsePositive` × FP + `falseNegative` × FN) / traces.
  case cost(falsePositive: Double, falseNegative: Double)

  /// The command-line name: `f1`, `latency`, `fpr`, `cost`.
  public var name: String {
    switch self {
    case .f1: "f1"
    case .latency: "latency"
    case .fpr: "fpr"
    case .cost: "cost"
    }
  }

  /// The statistic the objective optimizes.
  public var statistic: TuningStatistic {
    switch self {
    case .f1: .f1
    case .latency: .absoluteLatencyP90
    case .fpr: .recall
    case .cost(let fp, let fn): .cost(falsePositive: fp, falseNegative: fn)
    }
  }

  /// Whether a higher value is better (F1, recall) or a lower one (latency, cost).
  public var maximizes: Bool {
    switch self {
    case .f1, .fpr: true
    case .latency, .cost: false
    }
  }

  /// `maximum F1`, `minimum p90 |action − reference|`, `maximum recall`, `minimum cost per trace (1 × FP + 5 × FN)`.
  public var description: String {
    switch self {
    case .f1: "maximum F1"
    case .latency: "minimum p90 |action − reference|"
    case .fpr: "maximum recall"
    case .cost(let fp, let fn): "minimum cost per trace (\(Self.text(fp)) × FP + \(Self.text(fn)) × FN)"
    }
  }

  static func text(_ x: Double) -> String {
    x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : "\(x)"
  }
}

/// Bounds an operating point must meet (stage 1). A bound is met when the metric is defined and
/// within it; an undefined metric (a precision with nothing predicted, a rate without negatives)
/// never meets a bound.
public struct TuningConstraints: Sendable, Hashable, CustomStringConvertible {
  /// The lowest acceptable precision, 0…1.
  public var minimumPrecision: Double?
  /// The lowest acceptable recall, 0…1.
  public var minimumRecall: Double?
  /// The highest acceptable false-positive rate, 0…1.
  public var maximumFalsePositiveRate: Double?
  /// The highest acceptable early rate (true positives acting before their reference over true
  /// positives), 0…1.
  public var maximumEarlyRate: Double?

  /// Creates constraints; `nil` bounds are not applied.
  public init(
    minimumPrecision: Double? = nil, minimumRecall: Double? = nil, maximumFalsePositiveRate: Double? = nil,
    maximumEarlyRate: Double? = nil
  ) {
    self.minimumPrecision = minimumPrecision
    self.minimumRecall = minimumRecall
    self.maximumFalsePositiveRate = maximumFalsePositiveRate
    self.maximumEarlyRate = maximumEarlyRate
  }

  /// Whether no bound is set.
  public var isEmpty: Bool {
    minimumPrecision == nil && minimumRecall == nil && maximumFalsePositiveRate == nil && maximumEarlyRate == nil
  }

  /// The bounds, `precision ≥ 0.9, recall ≥ 0.8, FPR ≤ 0.05, early ≤ 0.1`, or `none`.
  public var description: String {
    var parts: [String] = []
    if let p = minimumPrecision { parts.append("precision ≥ \(p)") }
    if let r = minimumRecall { parts.append("recall ≥ \(r)") }
    if let f = maximumFalsePositiveRate { parts.append("FPR ≤ \(f)") }
    if let e = maximumEarlyRate { parts.append("early ≤ \(e)") }
    return parts.isEmpty ? "none" : parts.joined(separator: ", ")
  }

  /// The bounds `metrics` breaks, as readable text (empty when it meets them all).
  public func violations(of metrics: StageMetrics) -> [String] {
    var out: [String] = []
    if let bound = minimumPrecision {
      if let p = metrics.precision {
        if p < bound { out.append("precision \(Self.format(p)) < \(bound)") }
      } else {
        out.append("precision undefined (no action)")
      }
    }
    if let bound = minimumRecall {
      if let r = metrics.recall {
        if r < bound { out.append("recall \(Self.format(r)) < \(bound)") }
      } else {
        out.append("recall undefined (no reference)")
      }
    }
    if let bound = maximumFalsePositiveRate {
      if let f = metrics.falsePositiveRate {
        if f > bound { out.append("FPR \(Self.format(f)) > \(bound)") }
      } else {
        out.append("FPR undefined (no negative trace)")
      }
    }
    if let bound = maximumEarlyRate {
      if let e = metrics.latency.earlyRate {
        if e > bound { out.append("early rate \(Self.format(e)) > \(bound)") }
      } else {
        out.append("early rate undefined (no true positive)")
      }
    }
    return out
  }

  static func format(_ x: Double) -> String {
    let scaled = (x * 10000).rounded() / 10000
    return "\(scaled)"
  }
}

/// An option combination that does not define an operating point (a usage error).
public enum TuningRuleError: Error, Sendable, Hashable, CustomStringConvertible {
  /// A bound (`--min-precision`, `--min-recall`, `--max-fpr`, `--max-early`) outside 0…1.
  case boundOutOfRange(flag: String, value: Double)
  /// `--objective latency` without a minimum precision or recall.
  case latencyNeedsBound
  /// `--objective fpr` without a maximum false-positive rate.
  case fprNeedsBound
  /// A cost that is negative or not finite.
  case invalidCosts(falsePositive: Double, falseNegative: Double)
  /// Both costs 0.
  case zeroCosts

  /// The message, naming the flags.
  public var description: String {
    switch self {
    case .boundOutOfRange(let flag, let value): "\(flag) must be a number in 0...1, got \(value)"
    case .latencyNeedsBound:
      "--objective latency needs --min-precision and/or --min-recall (otherwise the fastest configuration wins whatever it gets wrong)"
    case .fprNeedsBound: "--objective fpr needs --max-fpr (the highest recall is reached by acting on everything)"
    case .invalidCosts(let fp, let fn): "--cost-fp and --cost-fn must be finite numbers ≥ 0, got \(fp) and \(fn)"
    case .zeroCosts: "--cost-fp and --cost-fn cannot both be 0"
    }
  }
}

/// How one configuration scores under an ``OperatingPointRule``.
public struct OperatingPointScore: Sendable, Hashable {
  /// The configuration's index in the sweep plan.
  public var configuration: Int
  /// The objective's value; `nil` when undefined.
  public var value: Double?
  /// Stage-1 F1 (the first tie-breaker); `nil` when undefined.
  public var f1: Double?
  /// Stage-1 p90 timing error `|action − reference|`, seconds (the second tie-breaker); `nil`
  /// without true positives.
  public var absoluteLatencyP90: Double?
  /// Why the configuration cannot be chosen: unmet constraints, an undefined objective. Empty
  /// when it can.
  public var violations: [String]

  /// Creates a score.
  public init(configuration: Int, value: Double?, f1: Double?, absoluteLatencyP90: Double?, violations: [String]) {
    self.configuration = configuration
    self.value = value
    self.f1 = f1
    self.absoluteLatencyP90 = absoluteLatencyP90
    self.violations = violations
  }

  /// Whether the configuration can be chosen: its objective is defined and it meets every bound.
  public var isEligible: Bool { value != nil && violations.isEmpty }
}

/// The rule that picks an operating point: an objective, bounds, and a tie rule.
///
/// Among the configurations that meet every bound and whose objective is defined, the chosen
/// one is the best by, in order:
/// 1. the objective (higher F1 or recall; lower p90 |latency| or cost);
/// 2. the higher F1 (undefined ranks last);
/// 3. the lower p90 |latency| (`|action − reference|`: an early action is no faster; undefined
///    ranks last);
/// 4. the earlier configuration in the plan — recognizers as listed, then grid order (the first
///    `--vary` slowest), so on an ascending grid the smaller threshold.
///
/// Values are compared exactly: they are ratios of integer counts or order statistics, so equal
/// counts give equal values.
public struct OperatingPointRule: Sendable, Hashable {
  /// What is optimized.
  public let objective: TuningObjective
  /// The bounds.
  public let constraints: TuningConstraints

  /// The tie rule, as reports state it.
  public static let tieRule =
    "the objective, then higher F1, then lower p90 |latency| (|action − reference|; undefined ranks last), then the earlier configuration in plan order (recognizers as listed, first --vary slowest: on an ascending grid the smaller value)"

  /// Creates a rule.
  ///
  /// - Throws: ``TuningRuleError`` when a bound is not in 0…1, `latency` has neither a minimum
  ///   precision nor a minimum recall, `fpr` has no maximum false-positive rate, or a cost is
  ///   negative, not finite, or both costs are 0.
  public init(objective: TuningObjective, constraints: TuningConstraints = TuningConstraints()) throws(TuningRuleError)
  {
    for (flag, bound) in [
      ("--min-precision", constraints.minimumPrecision), ("--min-recall", constraints.minimumRecall),
      ("--max-fpr", constraints.maximumFalsePositiveRate), ("--max-early", constraints.maximumEarlyRate),
    ] {
      if let bound, !(bound >= 0 && bound <= 1) {
        throw .boundOutOfRange(flag: flag, value: bound)
      }
    }
    switch objective {
    case .f1: break
    case .latency:
      guard constraints.minimumPrecision != nil || constraints.minimumRecall != nil else {
        throw .latencyNeedsBound
      }
    case .fpr:
      guard constraints.maximumFalsePositiveRate != nil else {
        throw .fprNeedsBound
      }
    case .cost(let fp, let fn):
      guard fp >= 0 && fp.isFinite && fn >= 0 && fn.isFinite else {
        throw .invalidCosts(falsePositive: fp, falseNegative: fn)
      }
      guard fp > 0 || fn > 0 else { throw .zeroCosts }
    }
    self.objective = objective
    self.constraints = constraints
  }

  /// Scores a configuration's metrics.
  public func score(_ metrics: ConfigurationMetrics, configuration: Int) -> OperatingPointScore {
    let value = objective.statistic.value(of: metrics)
    var violations: [String] = []
    if value == nil {
      switch objective {
      case .f1: violations.append("F1 undefined (no reference and no action)")
      case .latency: violations.append("p90 |latency| undefined (no true positive)")
      case .fpr: violations.append("recall undefined (no reference)")
      case .cost: violations.append("cost undefined (no trace)")
      }
    }
    violations += constraints.violations(of: metrics.stage1)
    return OperatingPointScore(
      configuration: configuration, value: value, f1: metrics.stage1.f1,
      absoluteLatencyP90: metrics.stage1.latency.absoluteP90,
      violations: violations)
  }

  /// Whether `a` ranks above `b` by the objective and the tie rule (both assumed eligible).
  public func prefers(_ a: OperatingPointScore, over b: OperatingPointScore) -> Bool {
    let va = a.value ?? (objective.maximizes ? -.infinity : .infinity)
    let vb = b.value ?? (objective.maximizes ? -.infinity : .infinity)
    if va != vb { return objective.maximizes ? va > vb : va < vb }
    let fa = a.f1 ?? -.infinity
    let fb = b.f1 ?? -.infinity
    if fa != fb { return fa > fb }
    let la = a.absoluteLatencyP90 ?? .infinity
    let lb = b.absoluteLatencyP90 ?? .infinity
    if la != lb { return la < lb }
    return a.configuration < b.configuration
  }

  /// The eligible score that ranks first, or `nil` when none is eligible.
  public func best(of scores: some Sequence<OperatingPointScore>) -> OperatingPointScore? {
    var best: OperatingPointScore?
    for score in scores where score.isEligible {
      if let current = best, !prefers(score, over: current) { continue }
      best = score
    }
    return best
  }

  /// Why no configuration of `metrics` can be chosen: the bounds, and the best value any
  /// configuration reached for each bounded metric.
  public func explainNoChoice(_ metrics: [ConfigurationMetrics]) -> String {
    var reach = RuleReach()
    for m in metrics { reach.add(m, objective: objective) }
    return explainNoChoice(reach)
  }

  /// The same explanation from running extremes.
  func explainNoChoice(_ reach: RuleReach) -> String {
    var text = "no configuration meets the rule (\(objective)"
    if !constraints.isEmpty { text += " subject to \(constraints)" }
    text += ")"
    var reached: [String] = []
    var eachReachable = true
    func report(_ name: String, _ value: Double?, highest: Bool, bound: Double) {
      guard let value else {
        eachReachable = false
        return reached.append("\(name) is undefined in every configuration")
      }
      let fails = highest ? value < bound : value > bound
      if fails { eachReachable = false }
      reached.append(
        "the \(highest ? "highest" : "lowest") \(name) reached is \(TuningConstraints.format(value))"
          + (fails ? "" : ", which meets the bound"))
    }
    if let bound = constraints.minimumPrecision { report("precision", reach.precision, highest: true, bound: bound) }
    if let bound = constraints.minimumRecall { report("recall", reach.recall, highest: true, bound: bound) }
    if let bound = constraints.maximumFalsePositiveRate {
      report("FPR", reach.falsePositiveRate, highest: false, bound: bound)
    }
    if reach.undefinedObjective > 0 {
      reached.append(
        "the objective is undefined in \(reach.undefinedObjective) of \(reach.configurations) configurations")
    }
    if !constraints.isEmpty && eachReachable && reach.undefinedObjective < reach.configurations {
      reached.append("each bound is met by some configuration, but none meets all of them with a defined objective")
    }
    return text + (reached.isEmpty ? "" : ": " + reached.joined(separator: "; "))
  }
}

/// The best value of each bounded metric over a set of configurations, for explaining why none
/// was chosen.
struct RuleReach: Sendable {
  var precision: Double?
  var recall: Double?
  var falsePositiveRate: Double?
  var undefinedObjective = 0
  var configurations = 0

  mutating func add(_ metrics: ConfigurationMetrics, objective: TuningObjective) {
    let m = metrics.stage1
    configurations += 1
    if objective.statistic.value(of: metrics) == nil { undefinedObjective += 1 }
    if let p = m.precision { precision = Swift.max(precision ?? p, p) }
    if let r = m.recall { recall = Swift.max(recall ?? r, r) }
    if let f = m.falsePositiveRate { falsePositiveRate = Swift.min(falsePositiveRate ?? f, f) }
  }
}
