import TouchCore
import TouchEvaluation
import TouchIO
import TouchRecognizers

/// The JSON and CSV renderings of scoring results that the sweep, tune, compare and export
/// reports share: configurations and their parameters, stage metrics, latency summaries.
enum EvaluationJSON {
  /// `("params", {...})` and `("varied", [...])`: every parameter value of `configuration` and the
  /// names of those the user gave or the sweep varied.
  static func parameters(_ configuration: Configuration) -> [(String, JSONValue)] {
    [
      ("params", .object(configuration.parameters.map { ($0.name, parameter($0.value)) })),
      ("varied", .array(configuration.varied.map { .string($0) })),
    ]
  }

  /// The parameter names of `configurations`, each once, in order of first appearance (the
  /// `param_NAME` columns of the CSV tables).
  static func parameterNames(_ configurations: [Configuration]) -> [String] {
    var names: [String] = []
    var seen = Set<String>()
    for configuration in configurations {
      for entry in configuration.parameters where seen.insert(entry.name).inserted { names.append(entry.name) }
    }
    return names
  }

  /// A parameter value in JSON: a number (`"inf"`, `"-inf"` or `"nan"` as text; infinities as
  /// `null` when `infinityAsNull`), a boolean or an array of numbers.
  static func parameter(_ value: ParameterValue, infinityAsNull: Bool = false) -> JSONValue {
    switch value {
    case .number(let x): x.isFinite || (infinityAsNull && !x.isNaN) ? .number(x) : .string(SweepAxisText.text(x))
    case .flag(let b): .bool(b)
    case .list(let xs): .array(xs.map { .number($0) })
    }
  }

  /// A parameter value as a CSV cell: a number, `true`/`false`, or a list written `a;b`.
  static func parameterCell(_ value: ParameterValue) -> JSONValue {
    switch value {
    case .number(let x): x.isFinite ? .number(x) : .string(SweepAxisText.text(x))
    case .flag(let b): .string(b ? "true" : "false")
    case .list(let xs): .string(xs.map(SweepAxisText.text).joined(separator: ";"))
    }
  }

  /// One value of a sweep axis: a number (special values as text) or a word.
  static func axisValue(_ value: SweepAxis.Value) -> JSONValue {
    switch value {
    case .number(let x): x.isFinite ? .number(x) : .string(SweepAxisText.text(x))
    case .word(let w): .string(w)
    }
  }

  /// The counts, ratios with their 95 % Wilson intervals (`precision_ci`, `recall_ci`,
  /// `fpr_ci`), false positives by intent and latency summaries of one stage.
  static func stage(_ m: StageMetrics) -> [(String, JSONValue)] {
    [
      ("tp", .int(m.truePositives)), ("fp", .int(m.falsePositives)), ("tn", .int(m.trueNegatives)),
      ("fn", .int(m.falseNegatives)), ("precision", .number(m.precision)), ("recall", .number(m.recall)),
      ("f1", .number(m.f1)), ("accuracy", .number(m.accuracy)), ("fpr", .number(m.falsePositiveRate)),
    ] + Intervals.members(m) + [
      ("positive_traces", .int(m.positiveTraces)), ("negative_traces", .int(m.negativeTraces)),
      ("fp_traces", .int(m.falsePositiveTraces)), ("references", .int(m.references)), ("actions", .int(m.actions)),
      ("fp_by_intent", .object(Intent.allCases.map { ($0.rawValue, .int(m.falsePositivesByIntent[$0])) })),
      ("latency", latency(m.latency)), ("latency_from_down", latency(m.latencyFromDown)),
    ]
  }

  /// A latency summary, seconds: `n`, `mean`, `sd`, `min`, `p50`, `p90`, `p95`, `p99`, `max`,
  /// `early` (how many were negative), `early_rate` (`early / n`), and `abs_p50`, `abs_p90`,
  /// `abs_p99`, quantiles of the absolute values (`|action − reference|`, which an early action
  /// cannot lower).
  static func latency(_ s: LatencySummary) -> JSONValue {
    .object([
      ("n", .int(s.count)), ("mean", .number(s.mean)), ("sd", .number(s.standardDeviation)),
      ("min", .number(s.minimum)), ("p50", .number(s.p50)), ("p90", .number(s.p90)), ("p95", .number(s.p95)),
      ("p99", .number(s.p99)), ("max", .number(s.maximum)), ("early", .int(s.early)),
      ("early_rate", .number(s.earlyRate)), ("abs_p50", .number(s.absoluteP50)), ("abs_p90", .number(s.absoluteP90)),
      ("abs_p99", .number(s.absoluteP99)),
    ])
  }
}

/// Special values as parameter texts.
enum SweepAxisText {
  static func text(_ x: Double) -> String {
    if x.isNaN { return "nan" }
    if x.isInfinite { return x < 0 ? "-inf" : "inf" }
    return NumberText.shortest(x)
  }
}

extension JSONValue {
  /// The same structure with every leaf `null`.
  var nulled: JSONValue {
    switch self {
    case .object(let members): .object(members.map { ($0.0, $0.1.nulled) })
    case .array(let elements): .array(elements.map(\.nulled))
    default: .null
    }
  }

  /// The leaves of nested objects, named by their keys joined with `_` after `prefix`
  /// (`latency_p50`); members of the outermost object named in `skipping` are left out. Arrays
  /// are leaves, except an interval (a member named `…_ci`: `[low, high]` or `null`), which gives
  /// two columns `…_ci_low` and `…_ci_high`.
  func flattened(prefix: String = "", skipping: Set<String> = []) -> [(String, JSONValue)] {
    if prefix.hasSuffix("_ci") {
      if case .array(let bounds) = self, bounds.count == 2 {
        return [(prefix + "_low", bounds[0]), (prefix + "_high", bounds[1])]
      }
      if case .null = self { return [(prefix + "_low", .null), (prefix + "_high", .null)] }
    }
    guard case .object(let members) = self else { return [(prefix, self)] }
    var out: [(String, JSONValue)] = []
    for (key, member) in members where !skipping.contains(key) {
      out += member.flattened(prefix: prefix.isEmpty ? key : prefix + "_" + key)
    }
    return out
  }
}
