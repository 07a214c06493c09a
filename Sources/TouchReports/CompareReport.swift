import TouchCore
package import TouchEvaluation
import TouchRecognizers
package import TouchTuning

/// Renders a paired comparison (`touchtrace compare`) as versioned JSON, a one-row CSV table or a
/// Markdown summary.
///
/// Latency differences are `B − A` in seconds (positive: B acts later); timing-error differences
/// `|B| − |A|` (negative: B acts nearer the intended press, which acting earlier alone does not
/// achieve); undefined values are `null` in JSON and empty cells in CSV.
package enum CompareReport {
  /// The JSON format name.
  package static let format = "touchtrace-compare"
  /// The JSON schema version.
  package static let version = 1

  static let mcnemarRule =
    "per-trace decisions (correct: no false positive and no false negative at any stage); b = only A correct, c = only B correct; b + c < 25: exact two-sided binomial p = min(1, 2·P(X ≤ min(b, c))), X ~ Bin(b + c, 1/2); otherwise chi-square with 1 degree of freedom of max(0, |b − c| − 1)² / (b + c) (continuity-corrected) or (b − c)² / (b + c)"

  /// The document without the optional `by` member of ``json(_:by:)``.
  static func baseJSON(_ run: ComparisonResult) -> JSONValue {
    let options = run.evaluation.options
    let c = run.comparison
    let t = c.mcnemar
    let d = c.latencyDifferences
    let e = c.timingErrorDifferences
    return .object(
      Accounting.header(format: format, version: version, evaluation: run.evaluation) + [
        (
          "options",
          .object([
            ("positive", .array(options.positives.map { .string($0.rawValue) })), ("stage2_positive", ["pop"]),
            ("tolerance", .number(options.tolerance)), ("reference_rule", .string(options.referenceRule.description)),
            ("group_by", .string(run.groups.key?.rawValue)), ("bootstrap", .int(run.bootstrap?.resamples ?? 0)),
            ("confidence", .number(run.bootstrap?.confidence)), ("seed", .int(Int(run.seed))),
            ("continuity_correction", .bool(run.continuityCorrection)), ("exact_below", .int(McNemarTest.exactBelow)),
            ("mcnemar", .string(mcnemarRule)),
            (
              "latency_difference",
              "for every reference time both configurations matched (stage 1): latency_B − latency_A = B's action − A's action, seconds"
            ),
            (
              "timing_error_difference",
              "on the same pairs: |latency_B| − |latency_A|, seconds; negative where B acts nearer the reference (an action before the reference is premature, so acting earlier is not faster)"
            ),
          ])
        ),
        ("a", configuration(run.a, c.a, correct: t.bothCorrect + t.onlyA)),
        ("b", configuration(run.b, c.b, correct: t.bothCorrect + t.onlyB)),
        (
          "mcnemar",
          .object([
            ("both_correct", .int(t.bothCorrect)), ("only_a_correct", .int(t.onlyA)), ("only_b_correct", .int(t.onlyB)),
            ("neither_correct", .int(t.neither)), ("discordant", .int(t.discordant)),
            ("method", .string(t.method.rawValue)),
            ("statistic", .number(t.statistic)), ("p_value", .number(t.pValue)),
            ("assumes_independent_traces", .bool(run.clustered == nil)),
          ])
        ),
        ("mcnemar_clustered", run.clustered.map(clusteredJSON) ?? .null),
        (
          "latency_difference",
          .object([
            ("pairs", .int(d.count)), ("traces", .int(c.tracesBothDetect)), ("mean", .number(d.mean)),
            ("sd", .number(d.standardDeviation)), ("median", .number(d.median)), ("min", .number(d.minimum)),
            ("max", .number(d.maximum)), ("b_earlier", .int(d.negative)), ("same", .int(d.zero)),
            ("a_earlier", .int(d.positive)),
            ("mean_interval", interval(run.comparison.meanDifferenceInterval, run)),
          ])
        ),
        (
          "timing_error_difference",
          .object([
            ("pairs", .int(e.count)), ("mean", .number(e.mean)), ("sd", .number(e.standardDeviation)),
            ("median", .number(e.median)), ("min", .number(e.minimum)), ("max", .number(e.maximum)),
            ("b_nearer", .int(e.negative)), ("same", .int(e.zero)), ("a_nearer", .int(e.positive)),
            ("mean_interval", interval(run.comparison.meanTimingErrorDifferenceInterval, run)),
          ])
        ),
      ])
  }

  static func configuration(_ configuration: Configuration, _ m: ConfigurationMetrics, correct: Int) -> JSONValue {
    .object(
      [("text", .string(text(configuration))), ("recognizer", .string(configuration.name))]
        + EvaluationJSON.parameters(configuration) + [("correct_traces", .int(correct)), ("traces", .int(m.traces))]
        + EvaluationJSON.stage(m.stage1))
  }

  static func interval(_ interval: ConfidenceInterval?, _ run: ComparisonResult) -> JSONValue {
    guard let i = interval else { return .null }
    return .object([
      ("confidence", .number(i.confidence)), ("lower", .number(i.lower)), ("upper", .number(i.upper)),
      ("resamples", .int(i.resamples)), ("defined", .int(i.defined)), ("unit", .string(run.groups.unit)),
      ("units", .int(run.groups.count)),
      ("note", .string(Intervals.note(i, clusters: run.groups.count, unit: run.groups.unit))),
    ])
  }

  /// `deep-press:threshold=0.5`: the recognizer and the parameters given.
  static func text(_ configuration: Configuration) -> String {
    let given = Markdown.varied(configuration)
    return given.isEmpty
      ? configuration.name
      : configuration.name + Configuration.parameterSeparator(for: configuration.name) + given.joined(separator: ",")
  }

  /// The bootstrap interval of a mean paired difference as a Markdown paragraph; empty without a
  /// bootstrap.
  static func meanInterval(_ interval: ConfidenceInterval?, _ run: ComparisonResult) -> String {
    guard let i = interval else { return "" }
    var out = "\n\(TextFormat.decimal(i.confidence * 100, 0))% bootstrap interval of the mean: "
    if let note = Intervals.note(i, clusters: run.groups.count, unit: run.groups.unit) {
      out += "not shown, \(note)"
    } else if let lower = i.lower, let upper = i.upper {
      out += "\(ms(lower)) to \(ms(upper))"
    } else {
      out += "undefined"
    }
    out +=
      " (\(i.resamples) resamples of \(run.groups.count) \(run.groups.unit)s, seed \(run.seed); \(i.defined) with a pair).\n"
    return out
  }

  /// The summary without the optional section of ``markdown(_:by:)``.
  static func baseMarkdown(_ run: ComparisonResult) -> String {
    let dataset = run.evaluation.dataset
    let c = run.comparison
    let t = c.mcnemar
    let d = c.latencyDifferences
    var out = "# Compare\n\n"
    out += Markdown.traces(run.evaluation)
    out += "- A: `\(text(run.a))`\n- B: `\(text(run.b))`\n\n"
    out +=
      "| | correct traces | F1 | precision (95 % CI) | recall (95 % CI) | FPR (traces, 95 % CI) | TP | FP (actions) | FN | TN (traces) | n | p50 | p90 |\n"
    out += "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n"
    for (name, m, correct) in [("A", c.a, t.bothCorrect + t.onlyA), ("B", c.b, t.bothCorrect + t.onlyB)] {
      let s = m.stage1
      out += Markdown.row(
        [name, "\(correct)", Markdown.ratio(s.f1)] + Intervals.ratios(s) + Markdown.counts(s)
          + ["\(s.latency.count)", Markdown.seconds(s.latency.p50), Markdown.seconds(s.latency.p90)])
    }
    out += "\n## McNemar's test on per-trace decisions\n\n"
    out += "A trace is decided correctly when the configuration has no false positive and no false negative on it.\n\n"
    out += "| | B correct | B wrong |\n|---|--:|--:|\n"
    out += "| A correct | \(t.bothCorrect) | \(t.onlyA) |\n| A wrong | \(t.onlyB) | \(t.neither) |\n\n"
    switch t.method {
    case .exactBinomial:
      out += "\(t.discordant) discordant traces (< \(McNemarTest.exactBelow)): exact two-sided binomial test, "
    case .chiSquareCorrected:
      out +=
        "\(t.discordant) discordant traces (≥ \(McNemarTest.exactBelow)): chi-square (1 df, continuity-corrected) = \(TextFormat.compact(t.statistic ?? 0)), "
    case .chiSquare:
      out +=
        "\(t.discordant) discordant traces (≥ \(McNemarTest.exactBelow)): chi-square (1 df) = \(TextFormat.compact(t.statistic ?? 0)), "
    }
    out += "p = \(probability(t.pValue)).\n"
    if let k = run.clustered {
      out += "\nThat test counts every trace as independent. Traces of one \(run.groups.unit) are not: "
      out +=
        "clustered by \(run.groups.unit) (Durkalski et al., 2003; \(k.clusters) clusters, \(k.onlyA) traces only A gets right, \(k.onlyB) only B), "
      out +=
        "chi-square (1 df) = \(TextFormat.compact(k.statistic)), p = \(probability(k.pValue)). This is the p-value to read.\n"
      if k.clusters < Intervals.minimumClusters {
        out +=
          "With \(k.clusters) clusters (fewer than \(Intervals.minimumClusters)) the chi-square approximation is rough: collect more \(run.groups.unit)s before trusting it.\n"
      }
    } else {
      out +=
        "\nThe test assumes the traces are independent; traces of one person or device are not, which makes p too small. With `--group-by user` (or `device`) the report adds the cluster-adjusted test.\n"
    }
    out +=
      "\nIntervals of precision, recall and FPR are 95 % Wilson score intervals; n is the number of true positives the latency quantiles are over.\n"
    out += "\n## Latency difference (B − A)\n\n"
    if d.count == 0 {
      out += "No reference was matched by both configurations.\n"
    } else {
      out +=
        "On \(d.count) references both matched (\(c.tracesBothDetect) traces): mean \(ms(d.mean)), sd \(ms(d.standardDeviation)), "
      out += "median \(ms(d.median)), min \(ms(d.minimum)), max \(ms(d.maximum)); B earlier on \(d.negative), "
      out += "same time on \(d.zero), A earlier on \(d.positive).\n"
      out += meanInterval(c.meanDifferenceInterval, run)
      let e = c.timingErrorDifferences
      out += "\n## Timing error difference (|B| − |A|)\n\n"
      out +=
        "Acting earlier is not acting faster: an action before the reference is premature. On the same references, "
      out +=
        "|B's latency| − |A's latency|: mean \(ms(e.mean)), sd \(ms(e.standardDeviation)), median \(ms(e.median)), "
      out += "min \(ms(e.minimum)), max \(ms(e.maximum)); B nearer the press on \(e.negative), as near on \(e.zero), "
      out += "A nearer on \(e.positive).\n"
      out += meanInterval(c.meanTimingErrorDifferenceInterval, run)
    }
    out += Markdown.skipped(dataset.skipped)
    return out
  }

  /// A p-value: four significant digits, in scientific notation below 0.0001 (`3.082e-10`).
  static func probability(_ p: Double) -> String {
    guard p > 0 && p < 1e-4 else { return TextFormat.compact(p, significant: 4) }
    var mantissa = p
    var exponent = 0
    while mantissa < 1 {
      mantissa *= 10
      exponent -= 1
    }
    var text = TextFormat.decimal(mantissa, 3)
    if text.hasPrefix("10.") {  // rounding carried into a new digit
      text = TextFormat.decimal(mantissa / 10, 3)
      exponent += 1
    }
    return "\(text)e\(exponent)"
  }

  static func ms(_ x: Double?) -> String { x.map { TextFormat.decimal($0 * 1000, 1) + " ms" } ?? "–" }
}

extension CompareReport {
  /// The JSON object of the cluster-adjusted test: `method` (`durkalski`), `clusters`, `traces`,
  /// `only_a_correct`, `only_b_correct`, `statistic` (chi-square, 1 df), `p_value`.
  static func clusteredJSON(_ k: ClusteredMcNemarTest) -> JSONValue {
    .object([
      ("method", .string("durkalski")), ("clusters", .int(k.clusters)), ("traces", .int(k.traces)),
      ("only_a_correct", .int(k.onlyA)), ("only_b_correct", .int(k.onlyB)), ("statistic", .number(k.statistic)),
      ("p_value", .number(k.pValue)),
    ])
  }
}

// MARK: - The report: one entry point per format, with the optional `--by` breakdown

extension CompareReport {
  /// The JSON document (format `touchtrace-compare`, version 1): files, trace accounting, skipped
  /// traces, the options, both configurations with their metrics, McNemar's test and the paired
  /// latency difference with its bootstrap interval.
  ///
  /// With `grouped`, a `by` member: `column`, `groups`, and `a` and `b`, each an object of its
  /// metrics per group keyed by the group's name (`(none)` for the traces without one).
  ///
  /// - Parameters:
  ///   - run: the comparison.
  ///   - grouped: configurations 0 (A) and 1 (B) per group (`--by`); `nil` for none.
  package static func json(_ run: ComparisonResult, by grouped: GroupedMetrics? = nil) -> JSONValue {
    guard let grouped else { return baseJSON(run) }
    guard case .object(var members) = baseJSON(run) else { preconditionFailure("an object") }
    members.append(("by", byJSON(grouped)))
    return .object(members)
  }

  static func byJSON(_ grouped: GroupedMetrics) -> JSONValue {
    let b = grouped.breakdown
    func side(_ c: Int) -> JSONValue {
      guard let metrics = grouped.metrics(ofConfiguration: c) else { return .null }
      return .object(
        zip(b.names, metrics).map { name, m in
          guard case .object(let members) = Breakdown.group(name, m) else { preconditionFailure("an object") }
          return (name ?? "(none)", .object(members.filter { $0.0 != "group" && $0.0 != "stage2" }))
        })
    }
    return .object([("column", .string(b.column.rawValue)), ("a", side(0)), ("b", side(1))])
  }

  /// The CSV table: a header and one row, the JSON's names flattened with `_` (`a_f1`,
  /// `mcnemar_p_value`, `latency_difference_mean_interval_lower`); the configurations' parameters
  /// are in `a_text` and `b_text`.
  /// With `grouped`, the breakdown's columns follow the others (`by_a_u01_tp`, …).
  ///
  /// - Parameters:
  ///   - run: the comparison.
  ///   - grouped: configurations 0 (A) and 1 (B) per group (`--by`); `nil` for none.
  package static func csv(_ run: ComparisonResult, by grouped: GroupedMetrics? = nil) -> [UInt8] {
    guard case .object(let members) = baseJSON(run) else { preconditionFailure("an object") }
    var flat: [(String, JSONValue)] = [("traces", .int(run.evaluation.analyzedCount))]
    for (key, value) in members
    where ["a", "b", "mcnemar", "latency_difference", "timing_error_difference"].contains(key) {
      flat += value.flattened(prefix: key).filter { name, _ in
        !name.hasPrefix("a_params") && !name.hasPrefix("b_params") && !name.hasSuffix("_varied")
      }
    }
    if let grouped { flat += byJSON(grouped).flattened(prefix: "by") }
    return CSVWriter.table(header: flat.map(\.0), rows: [flat.map(\.1)])
  }

  /// The Markdown summary: both configurations' accuracy and latency, the 2 × 2 table of paired
  /// decisions with McNemar's test, and the paired latency difference.
  ///
  /// With `grouped`, a `## By COLUMN` section: A and B per group.
  ///
  /// - Parameters:
  ///   - run: the comparison.
  ///   - grouped: configurations 0 (A) and 1 (B) per group (`--by`); `nil` for none.
  package static func markdown(_ run: ComparisonResult, by grouped: GroupedMetrics? = nil) -> String {
    guard let grouped else { return baseMarkdown(run) }
    let b = grouped.breakdown
    var out = "\n## By \(b.column.rawValue)\n\n" + Breakdown.note(b.column) + "\n"
    out += Breakdown.tableHeader([b.column.rawValue, "configuration"])
    let a = grouped.metrics(ofConfiguration: 0) ?? []
    let bb = grouped.metrics(ofConfiguration: 1) ?? []
    for (g, name) in b.names.enumerated() {
      out += Breakdown.row([Breakdown.text(name, b.column), "A"], a[g])
      out += Breakdown.row([Breakdown.text(name, b.column), "B"], bb[g])
    }
    return SweepReport.insert(out, into: baseMarkdown(run), dataset: run.evaluation.dataset)
  }
}
