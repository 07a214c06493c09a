import TouchCore
public import TouchEvaluation
import TouchIO
import TouchRecognizers

/// Renders a sweep (`touchtrace sweep`) as versioned JSON, flat CSV or a Markdown summary.
///
/// Every number is in seconds (latencies) or a count or a ratio; undefined values are `null` in
/// JSON and empty cells in CSV, never 0 or NaN. The output depends only on the data and the
/// options, never on the number of threads.
public enum SweepReport {
  /// The JSON format name.
  public static let format = "touchtrace-sweep"
  /// The JSON schema version.
  public static let version = 1

  /// The JSON document (format `touchtrace-sweep`, version 1): files, trace accounting, skipped
  /// traces, the options used, the ground truth (counts by intent, how many traces took their
  /// references from `press_at` and how many from the rule, and each trace that needs references
  /// with their source and times), one result object per configuration.
  public static func json(_ result: SweepResult) -> JSONValue {
    let dataset = result.evaluation.dataset
    return .object([
      ("format", .string(format)), ("version", .int(version)),
      ("files", .array(dataset.files.map { .string($0) })),
      ("traces", Accounting.traces(total: dataset.total, analyzed: dataset.traces.count, skipped: dataset.skipped.count)),
      ("skipped", Accounting.skipped(dataset.skipped)),
      ("options", options(result)),
      ("ground_truth", groundTruth(result.evaluation)),
      ("results", .array(result.configurations.indices.map { resultObject(result, $0, filled: false) })),
    ])
  }

  /// The CSV table: a header, then one row per configuration, with the same names as the JSON
  /// result objects flattened with `_` (`latency_p50`, `stage2_tp`, `fp_by_intent_tap`,
  /// `confusion_pop_press`), parameters as `param_NAME` columns (the union over recognizers, in
  /// order of first appearance; empty where a recognizer has no such parameter). Every row has
  /// the same columns; an empty cell is a missing value. Lists are written `a;b`.
  public static func csv(_ result: SweepResult) -> [UInt8] {
    var parameterNames: [String] = []
    var seen = Set<String>()
    for configuration in result.configurations {
      for entry in configuration.parameters where seen.insert(entry.name).inserted { parameterNames.append(entry.name) }
    }
    var header = ["recognizer", "method"] + parameterNames.map { "param_" + $0 }
    var rows: [[JSONValue]] = []
    for c in result.configurations.indices {
      let configuration = result.configurations[c]
      var row: [JSONValue] = [.string(configuration.name), .string(result.methods[c].description)]
      for name in parameterNames { row.append(configuration.parameters[name].map(parameterCell) ?? .null) }
      var flat: [(String, JSONValue)] = []
      flatten(resultObject(result, c, filled: true), prefix: "", into: &flat, skipping: ["recognizer", "method", "params", "varied"])
      if c == 0 { header += flat.map(\.0) }
      row += flat.map(\.1)
      rows.append(row)
    }
    var out: [UInt8] = []
    appendRow(header.map { .string($0) }, to: &out)
    for row in rows { appendRow(row, to: &out) }
    return out
  }

  /// The Markdown summary: the dataset and options, the best configuration of each recognizer by
  /// F1 with its latency (sorted by F1), false positives by intent, two-stage results, the
  /// latency compositions add, skipped traces and dropped configurations.
  public static func markdown(_ result: SweepResult) -> String {
    let evaluation = result.evaluation
    let dataset = evaluation.dataset
    let options = evaluation.options
    let truths = evaluation.truths
    var out = "# Sweep\n\n"
    let positives = truths.filter(\.isPositive).count
    let sources = evaluation.referenceSources
    out += "- Traces: \(dataset.total) total, \(dataset.traces.count) analyzed, \(dataset.skipped.count) skipped.\n"
    out += "- Positives (stage 1): \(options.positives.map(\.rawValue).joined(separator: ", ")) — \(positives) traces, "
    out += "\(truths.reduce(0) { $0 + $1.references.count }) reference times; stage 2: pop — \(truths.filter(\.isStage2Positive).count) traces.\n"
    out += "- Reference times: \(sources.pressAt) traces from press_at, \(sources.rule) from the rule (\(options.referenceRule)).\n"
    out += "- Matching: one-to-one, |action − reference| ≤ \(TextFormat.compact(options.tolerance)) s (inclusive, rounded to 1 µs).\n"
    let onePass = result.methods.filter { $0 != .replay }.count
    out += "- \(result.configurations.count) configurations of \(result.plan.recognizers.count) recognizers: "
    out += "\(onePass) in one pass, \(result.configurations.count - onePass) replayed"
    out += result.plan.dropped.isEmpty ? ".\n" : "; \(result.plan.dropped.count) grid points dropped (see the JSON report).\n"

    let best = result.bestConfigurations().sorted { a, b in
      let ma = result.metrics[a.configuration]
      let mb = result.metrics[b.configuration]
      if SweepResult.isBetter(ma, than: mb) { return true }
      if SweepResult.isBetter(mb, than: ma) { return false }
      return a.configuration < b.configuration
    }
    out += "\n## Best configuration per recognizer (by F1)\n\n"
    out += "Latency is action − reference for true positives; \"from down\" is action − touch-down. Sorted by F1.\n\n"
    out += "| recognizer | parameters | configs | F1 | precision | recall | FPR | TP | FP | FN | TN | p50 | p90 | p99 | from down p50 | early |\n"
    out += "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n"
    for (spec, c) in best {
      let m = result.metrics[c].stage1
      let configs = result.configurations.filter { $0.spec == spec }.count
      out += "| \(spec.name) | \(describe(result.configurations[c])) | \(configs) | \(ratio(m.f1)) | \(ratio(m.precision)) | "
      out += "\(ratio(m.recall)) | \(ratio(m.falsePositiveRate)) | \(m.truePositives) | \(m.falsePositives) | "
      out += "\(m.falseNegatives) | \(m.trueNegatives) | \(seconds(m.latency.p50)) | \(seconds(m.latency.p90)) | "
      out += "\(seconds(m.latency.p99)) | \(seconds(m.latencyFromDown.p50)) | \(m.latency.early) |\n"
    }

    out += "\n## False positives by intent (best configurations)\n\n"
    out += "Per negative trace with any action, plus each unmatched action on a positive trace. Hard taps are labelled `tap`.\n\n"
    out += "| recognizer | " + Intent.allCases.map(\.rawValue).joined(separator: " | ") + " | flaps |\n"
    out += "|---|" + String(repeating: "--:|", count: Intent.allCases.count + 1) + "\n"
    for (spec, c) in best {
      let m = result.metrics[c]
      out += "| \(spec.name) | " + Intent.allCases.map { "\(m.stage1.falsePositivesByIntent[$0])" }.joined(separator: " | ")
      out += " | \(m.flaps.map(String.init) ?? "–") |\n"
    }

    let twoStage = best.filter { result.metrics[$0.configuration].stage2 != nil }
    if !twoStage.isEmpty {
      out += "\n## Two-stage recognizers (best configurations)\n\n"
      out += "Stage 2 is scored against pop traces. Confusion: rows are the intended class, columns the recognized one (none / press / pop).\n\n"
      out += "| recognizer | stage 2 F1 | precision | recall | p50 | p90 | none→ | press→ | pop→ |\n"
      out += "|---|--:|--:|--:|--:|--:|---|---|---|\n"
      for (spec, c) in twoStage {
        let m = result.metrics[c]
        let s = m.stage2!
        let rows = PressClass.allCases.map { actual in
          PressClass.allCases.map { "\(m.confusion![actual, $0])" }.joined(separator: " / ")
        }
        out += "| \(spec.name) | \(ratio(s.f1)) | \(ratio(s.precision)) | \(ratio(s.recall)) | \(seconds(s.latency.p50)) | "
        out += "\(seconds(s.latency.p90)) | \(rows[0]) | \(rows[1]) | \(rows[2]) |\n"
      }
    }

    let compositions = result.configurations.indices.filter { result.metrics[$0].addedLatency != nil }
    if !compositions.isEmpty {
      out += "\n## Require-to-fail compositions\n\n"
      out += "The latency the wait for the other recognizer to fail adds to the dependent recognizer's action, over traces where it acted.\n\n"
      out += "| composition | parameters | acted | waited | added p50 | p90 | max |\n|---|---|--:|--:|--:|--:|--:|\n"
      for c in compositions {
        let m = result.metrics[c]
        let added = m.addedLatency!
        out += "| \(result.configurations[c].name) | \(describe(result.configurations[c])) | \(added.count) | \(m.waited ?? 0) | "
        out += "\(seconds(added.p50)) | \(seconds(added.p90)) | \(seconds(added.maximum)) |\n"
      }
    }

    if !dataset.skipped.isEmpty {
      out += "\n## Skipped traces\n\n"
      var reasons: [(String, Int)] = []
      for skip in dataset.skipped {
        if let k = reasons.firstIndex(where: { $0.0 == skip.reason }) { reasons[k].1 += 1 } else { reasons.append((skip.reason, 1)) }
      }
      for (reason, count) in reasons { out += "- \(count) × \(reason)\n" }
    }
    return out
  }

  // MARK: - Pieces

  static func options(_ result: SweepResult) -> JSONValue {
    let options = result.evaluation.options
    let plan = result.plan
    return .object([
      ("recognizers", .array(plan.recognizers.map { .string($0.name) })),
      ("vary", .array(plan.axes.map { .object([("parameter", .string($0.parameter)), ("values", .string($0.text))]) })),
      ("set", .array(plan.settings.map { .object([("parameter", .string($0.name)), ("value", .string($0.value))]) })),
      (
        "grids",
        .array(
          plan.axesByRecognizer.map { entry in
            .object([
              ("recognizer", .string(entry.recognizer.name)),
              ("axes", .array(entry.axes.map { axis in
                .object([("parameter", .string(axis.parameter)), ("values", .array(axis.values.map(axisValue)))])
              })),
            ])
          })
      ),
      ("positive", .array(options.positives.map { .string($0.rawValue) })),
      ("stage2_positive", ["pop"]),
      ("tolerance", .number(options.tolerance)),
      (
        "window",
        "inclusive: an action matches a reference when |action − reference| − tolerance, rounded to whole microseconds (half to even), is ≤ 0"
      ),
      (
        "matching",
        "one-to-one per trace: the most pairs, then the smallest total |action − reference| (ties: earlier references and actions)"
      ),
      (
        "counting",
        "positive traces per event (matched action TP, unmatched reference FN, unmatched action FP); negative traces once (FP if any action, else TN)"
      ),
      ("reference_rule", .string(options.referenceRule.description)),
      (
        "pop_references",
        "press_at of a pop trace lists (peek, pop) pairs: odd positions are stage-1 references, even positions stage-2 references; without press_at the rule's times serve both stages"
      ),
      ("quantiles", "linear interpolation between order statistics (R type 7, gsl_stats_quantile_from_sorted_data)"),
      (
        "dropped",
        .array(
          plan.dropped.map {
            .object([
              ("recognizer", .string($0.recognizer)), ("values", .array($0.values.map { .string($0) })),
              ("reason", .string($0.reason)),
            ])
          })
      ),
    ])
  }

  static func groundTruth(_ evaluation: Evaluation) -> JSONValue {
    var intents = IntentCounts()
    for truth in evaluation.truths { intents[truth.intent] += 1 }
    let sources = evaluation.referenceSources
    return .object([
      ("intents", .object(Intent.allCases.map { ($0.rawValue, .int(intents[$0])) })),
      ("positive_traces", .int(evaluation.truths.filter(\.isPositive).count)),
      ("negative_traces", .int(evaluation.truths.filter { !$0.isPositive }.count)),
      ("stage2_positive_traces", .int(evaluation.truths.filter(\.isStage2Positive).count)),
      ("references", .object([("press_at", .int(sources.pressAt)), ("rule", .int(sources.rule))])),
      (
        "references_by_trace",
        .array(
          zip(evaluation.traces, evaluation.truths).compactMap { trace, truth in
            guard let source = truth.referenceSource else { return nil }
            var members: [(String, JSONValue)] = [
              ("trace", .string(trace.name)), ("intent", .string(truth.intent.rawValue)),
              ("source", .string(source.rawValue)), ("references", .array(truth.references.map { .number($0) })),
            ]
            if truth.isStage2Positive { members.append(("stage2_references", .array(truth.stage2References.map { .number($0) }))) }
            return .object(members)
          })
      ),
    ])
  }

  /// One result object; with `filled`, sections a configuration lacks hold `null` leaves of the
  /// same shape (for CSV columns) instead of being `null`.
  static func resultObject(_ result: SweepResult, _ c: Int, filled: Bool) -> JSONValue {
    let configuration = result.configurations[c]
    let m = result.metrics[c]
    var members: [(String, JSONValue)] = [
      ("recognizer", .string(configuration.name)),
      ("params", .object(configuration.parameters.map { ($0.name, parameterJSON($0.value)) })),
      ("varied", .array(configuration.varied.map { .string($0) })),
      ("method", .string(result.methods[c].description)),
      ("traces", .int(m.traces)),
    ]
    members += stage(m.stage1)
    members.append(("flaps", .int(m.flaps)))
    members.append(("stage2", m.stage2.map { .object(stage($0)) } ?? (filled ? nulls(.object(stage(StageMetrics()))) : .null)))
    let confusion: JSONValue? = m.confusion.map { matrix in
      .object(PressClass.allCases.map { actual in
        (actual.description, .object(PressClass.allCases.map { ($0.description, .int(matrix[actual, $0])) }))
      })
    }
    members.append(("confusion", confusion ?? (filled ? nulls(.object(PressClass.allCases.map { a in
      (a.description, .object(PressClass.allCases.map { ($0.description, .null) }))
    })) : .null)))
    members.append(("added_latency", m.addedLatency.map(latency) ?? (filled ? nulls(latency(LatencySummary([]))) : .null)))
    members.append(("waited", .int(m.waited)))
    return .object(members)
  }

  static func stage(_ m: StageMetrics) -> [(String, JSONValue)] {
    [
      ("tp", .int(m.truePositives)), ("fp", .int(m.falsePositives)), ("tn", .int(m.trueNegatives)),
      ("fn", .int(m.falseNegatives)), ("precision", .number(m.precision)), ("recall", .number(m.recall)),
      ("f1", .number(m.f1)), ("accuracy", .number(m.accuracy)), ("fpr", .number(m.falsePositiveRate)),
      ("positive_traces", .int(m.positiveTraces)), ("negative_traces", .int(m.negativeTraces)),
      ("fp_traces", .int(m.falsePositiveTraces)), ("references", .int(m.references)), ("actions", .int(m.actions)),
      ("fp_by_intent", .object(Intent.allCases.map { ($0.rawValue, .int(m.falsePositivesByIntent[$0])) })),
      ("latency", latency(m.latency)), ("latency_from_down", latency(m.latencyFromDown)),
    ]
  }

  static func latency(_ s: LatencySummary) -> JSONValue {
    .object([
      ("n", .int(s.count)), ("mean", .number(s.mean)), ("sd", .number(s.standardDeviation)),
      ("min", .number(s.minimum)), ("p50", .number(s.p50)), ("p90", .number(s.p90)), ("p95", .number(s.p95)),
      ("p99", .number(s.p99)), ("max", .number(s.maximum)), ("early", .int(s.early)),
    ])
  }

  /// The same structure with every leaf `null`.
  static func nulls(_ value: JSONValue) -> JSONValue {
    switch value {
    case .object(let members): .object(members.map { ($0.0, nulls($0.1)) })
    case .array(let elements): .array(elements.map(nulls))
    default: .null
    }
  }

  static func flatten(_ value: JSONValue, prefix: String, into out: inout [(String, JSONValue)], skipping: Set<String> = []) {
    guard case .object(let members) = value else { return out.append((prefix, value)) }
    for (key, member) in members where !skipping.contains(key) {
      flatten(member, prefix: prefix.isEmpty ? key : prefix + "_" + key, into: &out)
    }
  }

  static func parameterJSON(_ value: ParameterValue) -> JSONValue {
    switch value {
    case .number(let x): x.isFinite ? .number(x) : .string(SweepAxisText.text(x))
    case .flag(let b): .bool(b)
    case .list(let xs): .array(xs.map { .number($0) })
    }
  }

  static func parameterCell(_ value: ParameterValue) -> JSONValue {
    switch value {
    case .number(let x): x.isFinite ? .number(x) : .string(SweepAxisText.text(x))
    case .flag(let b): .string(b ? "true" : "false")
    case .list(let xs): .string(xs.map(SweepAxisText.text).joined(separator: ";"))
    }
  }

  static func axisValue(_ value: SweepAxis.Value) -> JSONValue {
    switch value {
    case .number(let x): x.isFinite ? .number(x) : .string(SweepAxisText.text(x))
    case .word(let w): .string(w)
    }
  }

  static func appendRow(_ cells: [JSONValue], to out: inout [UInt8]) {
    for (k, cell) in cells.enumerated() {
      if k > 0 { out.append(UInt8(ascii: ",")) }
      switch cell {
      case .null: break
      case .string(let text): appendField(text, to: &out)
      case .int(let value): out.append(contentsOf: String(value).utf8)
      case .number(let value): if value.isFinite { NumberText.append(value, to: &out) }
      case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
      case .array, .object: preconditionFailure("CSV cells are scalars")
      }
    }
    out.append(0x0A)
  }

  /// A CSV field, quoted (RFC 4180) when it holds a comma, quote, line break or edge spaces, or is
  /// empty.
  static func appendField(_ text: String, to out: inout [UInt8]) {
    let bytes = Array(text.utf8)
    let quote = UInt8(ascii: "\"")
    let needsQuotes =
      bytes.isEmpty || bytes.first == 0x20 || bytes.last == 0x20
      || bytes.contains { $0 == UInt8(ascii: ",") || $0 == quote || $0 == 0x0A || $0 == 0x0D }
    guard needsQuotes else { return out.append(contentsOf: bytes) }
    out.append(quote)
    for byte in bytes {
      if byte == quote { out.append(quote) }
      out.append(byte)
    }
    out.append(quote)
  }

  /// The varied parameter values, `name=value` joined by spaces; `defaults` when none.
  static func describe(_ configuration: Configuration) -> String {
    let parts = configuration.varied.compactMap { name in configuration.parameters[name].map { "\(name)=\($0)" } }
    return parts.isEmpty ? "defaults" : parts.joined(separator: " ")
  }

  static func ratio(_ value: Double?) -> String { value.map { TextFormat.decimal($0, 3) } ?? "–" }

  static func seconds(_ value: Double?) -> String { value.map { TextFormat.decimal($0 * 1000, 0) + " ms" } ?? "–" }
}

/// Special values as parameter texts.
enum SweepAxisText {
  static func text(_ x: Double) -> String {
    if x.isNaN { return "nan" }
    if x.isInfinite { return x < 0 ? "-inf" : "inf" }
    return NumberText.shortest(x)
  }
}
