import TouchCore
package import TouchEvaluation
import TouchRecognizers
package import TouchTuning

/// The verdict as every report gives it first: a Markdown section (also the top of the HTML
/// page) and the JSON `verdict` object. See the ReadingTheVerdict article of TouchTuning for the fields.
package enum VerdictReport {
  /// The `## Verdict` section: what to ship and how sure the data is, then the caveats.
  ///
  /// - Parameters:
  ///   - verdict: the verdict.
  ///   - configurations: the configurations its indices refer to.
  ///   - metrics: their metrics on all traces (parallel).
  ///   - f1Interval: a bootstrap interval of the recommended configuration's F1, when computed,
  ///     with the number of clusters resampled and their unit (`user`): shown only where the
  ///     report's tables show it (10 clusters or more, resamples that differ).
  package static func markdown(
    _ verdict: Verdict, configurations: [Configuration], metrics: [ConfigurationMetrics],
    f1Interval: (interval: ConfidenceInterval, clusters: Int, unit: String)? = nil
  ) -> String {
    var out = "## Verdict\n\n"
    guard let c = verdict.recommended else {
      out +=
        "**Nothing to ship by \(verdict.rule.objective.description)**: \(verdict.noChoiceReason ?? "no configuration is eligible").\n\n"
      return out
    }
    let m = metrics[c].stage1
    out += "**Ship \(name(configurations[c]))**, chosen by \(verdict.rule.objective.description)"
    out += verdict.rule.constraints.isEmpty ? "" : " with \(verdict.rule.constraints.description)"
    if case .f1 = verdict.rule.objective {
      out += " (ties: lower p90 |action − reference|, then the earlier configuration).\n\n"
    } else {
      out += " (ties: higher F1, then lower p90 |action − reference|, then the earlier configuration).\n\n"
    }
    var f1 = "F1 \(Markdown.ratio(m.f1))"
    if let (interval, clusters, unit) = f1Interval {
      if let note = Intervals.note(interval, clusters: clusters, unit: unit) {
        f1 += " (bootstrap interval not shown: \(note))"
      } else if let low = interval.lower, let high = interval.upper {
        let level = TextFormat.decimal(interval.confidence * 100, 0)
        f1 += " (bootstrap \(level) % \(TextFormat.decimal(low, 3))–\(TextFormat.decimal(high, 3)))"
      }
    }
    out += "- Accuracy: \(f1); precision \(Intervals.ratio(m.precision, Intervals.precision(m))), "
    out +=
      "recall \(Intervals.ratio(m.recall, Intervals.recall(m))), FPR \(Intervals.ratio(m.falsePositiveRate, Intervals.fpr(m))) "
    out +=
      "(95 % Wilson intervals; TP \(m.truePositives), FP \(m.falsePositives), FN \(m.falseNegatives), negatives \(m.negativeTraces)).\n"
    out +=
      "- Timing: |action − reference| p50 \(Markdown.seconds(m.latency.absoluteP50)), p90 \(Markdown.seconds(m.latency.absoluteP90)) "
    out +=
      "on n = \(m.latency.count) true positives; early \(m.latency.earlyRate.map { TextFormat.decimal($0 * 100, 0) + " %" } ?? "–") "
    out += "(\(m.latency.early) acted before the intended press); signed p90 \(Markdown.seconds(m.latency.p90)).\n"
    if !verdict.sameScores.isEmpty {
      out += "- Same scores: " + verdict.sameScores.map { name(configurations[$0]) }.joined(separator: ", ")
      out += " (identical counts and latencies: any of them does as well).\n"
    }
    if let r = verdict.runnerUp {
      let s = metrics[r].stage1
      out +=
        "- Runner-up: \(name(configurations[r])) — F1 \(Markdown.ratio(s.f1)), precision \(Markdown.ratio(s.precision)), "
      out +=
        "recall \(Markdown.ratio(s.recall)), FPR \(Markdown.ratio(s.falsePositiveRate)), p90 |action − reference| \(Markdown.seconds(s.latency.absoluteP90)).\n"
      if let p = verdict.paired {
        let t = p.mcnemar
        out +=
          "- Paired on the same \(t.total) traces: correct only with the recommended \(t.onlyA), only with the runner-up \(t.onlyB); "
        out += "McNemar \(Verdict.pValueText(t.pValue)) (\(t.method.description))"
        if let k = verdict.clustered {
          out += ", clustered by \(k.clusters) groups (Durkalski) \(Verdict.pValueText(k.pValue))"
        }
        let pValue = verdict.pValue ?? t.pValue
        out +=
          pValue < Verdict.significance
          ? ": the recommended is better beyond chance.\n" : ": not distinguishable at 5 %.\n"
        let d = p.latencyDifferences
        if d.count > 0 {
          let e = p.timingErrorDifferences
          out +=
            "- Timing, paired on \(d.count) references both matched (runner-up − recommended): action time median \(signed(d.median)), "
          out +=
            "mean \(signed(d.mean)); |action − reference| median \(signed(e.median)), mean \(signed(e.mean)) (positive: the runner-up is later, or further from the press).\n"
        }
      }
    }
    if let w = verdict.worstGroup {
      let g = w.metrics.stage1
      out +=
        "- Worst \(w.column): \(w.name ?? "(none)") — F1 \(Markdown.ratio(g.f1)), recall \(Markdown.ratio(g.recall)), "
      out += "FPR \(Markdown.ratio(g.falsePositiveRate)) on \(w.traces) traces.\n"
    }
    if !verdict.caveats.isEmpty {
      out += "\nCaveats:\n\n"
      for caveat in verdict.caveats { out += "- `\(caveat.code)`: \(caveat.text)\n" }
    }
    out += "\nThe figures and tables below are the evidence.\n"
    return out
  }

  /// The JSON `verdict` object.
  ///
  /// - Parameters:
  ///   - verdict: the verdict.
  ///   - configurations: the configurations its indices refer to.
  ///   - metrics: their metrics on all traces (parallel).
  package static func json(_ verdict: Verdict, configurations: [Configuration], metrics: [ConfigurationMetrics])
    -> JSONValue
  {
    func configuration(_ c: Int?) -> JSONValue {
      guard let c else { return .null }
      let m = metrics[c].stage1
      return .object(
        [("recognizer", .string(configurations[c].name))] + EvaluationJSON.parameters(configurations[c]) + [
          ("f1", number(m.f1)), ("precision", number(m.precision)),
          ("precision_ci", Intervals.json(Intervals.precision(m))),
          ("recall", number(m.recall)), ("recall_ci", Intervals.json(Intervals.recall(m))),
          ("fpr", number(m.falsePositiveRate)), ("fpr_ci", Intervals.json(Intervals.fpr(m))),
          ("tp", .int(m.truePositives)), ("fp", .int(m.falsePositives)),
          ("fn", .int(m.falseNegatives)), ("latency_n", .int(m.latency.count)),
          ("abs_p50", number(m.latency.absoluteP50)), ("abs_p90", number(m.latency.absoluteP90)),
          ("p90", number(m.latency.p90)), ("early", .int(m.latency.early)), ("early_rate", number(m.latency.earlyRate)),
        ])
    }
    var paired: JSONValue = .null
    if let p = verdict.paired {
      let t = p.mcnemar
      paired = .object([
        ("traces", .int(t.total)), ("both_correct", .int(t.bothCorrect)),
        ("only_recommended", .int(t.onlyA)), ("only_runner_up", .int(t.onlyB)),
        ("neither", .int(t.neither)), ("mcnemar_method", .string(t.method.description)),
        ("mcnemar_statistic", number(t.statistic)), ("p_value", .number(t.pValue)),
        ("latency_pairs", .int(p.latencyDifferences.count)),
        ("latency_difference_median", number(p.latencyDifferences.median)),
        ("latency_difference_mean", number(p.latencyDifferences.mean)),
        ("timing_error_difference_median", number(p.timingErrorDifferences.median)),
        ("timing_error_difference_mean", number(p.timingErrorDifferences.mean)),
        ("clustered", verdict.clustered.map(CompareReport.clusteredJSON) ?? .null),
      ])
    }
    var worst: JSONValue = .null
    if let w = verdict.worstGroup {
      let g = w.metrics.stage1
      worst = .object([
        ("column", .string(w.column)), ("group", w.name.map { .string($0) } ?? .null), ("traces", .int(w.traces)),
        ("f1", number(g.f1)), ("precision", number(g.precision)), ("recall", number(g.recall)),
        ("fpr", number(g.falsePositiveRate)),
      ])
    }
    return .object([
      ("objective", .string(verdict.rule.objective.name)), ("rule", .string(verdict.rule.objective.description)),
      ("constraints", .string(verdict.rule.constraints.description)), ("tie_rule", .string(OperatingPointRule.tieRule)),
      ("recommended", configuration(verdict.recommended)),
      ("no_choice_reason", verdict.noChoiceReason.map { .string($0) } ?? .null),
      ("same_scores", .array(verdict.sameScores.map { configuration($0) })),
      ("runner_up", configuration(verdict.runnerUp)),
      ("paired", paired),
      ("paired_unavailable", verdict.pairedUnavailable.map { .string($0) } ?? .null),
      ("worst_group", worst),
      ("caveats", .array(verdict.caveats.map { .object([("code", .string($0.code)), ("text", .string($0.text))]) })),
    ])
  }

  /// `report` with `section` after its title (the first paragraph): the verdict comes first.
  package static func inserting(_ section: String, into report: String) -> String {
    let bytes = Array(report.utf8)
    guard let k = bytes.indices.dropLast().first(where: { bytes[$0] == 0x0A && bytes[$0 + 1] == 0x0A }) else {
      return section + report
    }
    return String(decoding: bytes[...(k + 1)], as: UTF8.self) + section + "\n"
      + String(decoding: bytes[(k + 2)...], as: UTF8.self)
  }

  /// `document` with `("verdict", verdict)` before its `options` (after the files and the trace
  /// accounting).
  package static func inserting(_ verdict: JSONValue, into document: JSONValue) -> JSONValue {
    document.inserting(("verdict", verdict), before: "options")
  }

  /// `recognizer name=value …`: the configuration as `--a`/`--b` and the study file name it.
  static func name(_ configuration: Configuration) -> String {
    let parameters = Markdown.describe(configuration)
    return "`" + configuration.name + (configuration.varied.isEmpty ? "" : " " + parameters) + "`"
  }

  static func number(_ x: Double?) -> JSONValue { x.map { $0.isFinite ? .number($0) : .null } ?? .null }

  /// A signed duration in milliseconds: `+16 ms`, `−4 ms`, `0 ms`.
  static func signed(_ seconds: Double?) -> String {
    guard let seconds else { return "–" }
    let ms = (seconds * 1000).rounded()
    if ms == 0 { return "0 ms" }
    return (ms > 0 ? "+" : "−") + TextFormat.decimal(Swift.abs(ms), 0) + " ms"
  }
}
