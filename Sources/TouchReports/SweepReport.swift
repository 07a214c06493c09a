import TouchCore
import TouchEvaluation
import TouchRecognizers

/// Renders a sweep (`touchtrace sweep`) as versioned JSON, flat CSV or a Markdown summary.
///
/// Every number is in seconds (latencies) or a count or a ratio; undefined values are `null` in
/// JSON and empty cells in CSV, never 0 or NaN. The output depends only on the data and the
/// options, never on the number of threads.
package enum SweepReport {
  /// The JSON format name.
  package static let format = "touchtrace-sweep"
  /// The JSON schema version.
  package static let version = 1

  /// The document without the optional parts of ``json(_:by:intervals:)``.
  static func baseJSON(_ result: SweepResult) -> JSONValue {
    .object(
      Accounting.header(format: format, version: version, evaluation: result.evaluation) + [
        ("options", options(result)),
        ("ground_truth", groundTruth(result.evaluation)),
        ("results", .array(result.configurations.indices.map { resultObject(result, $0, filled: false) })),
        ("curves", ThresholdCurve.json(ThresholdCurve.curves(result))),
      ])
  }

  /// The summary without the optional sections of ``markdown(_:by:intervals:)``.
  static func baseMarkdown(_ result: SweepResult) -> String {
    let evaluation = result.evaluation
    let options = evaluation.options
    let summary = evaluation.summary
    var out = "# Sweep\n\n"
    let sources = evaluation.referenceSources
    out += Markdown.traces(evaluation)
    out +=
      "- Positives (stage 1): \(options.positives.map(\.rawValue).joined(separator: ", ")) — \(summary.positives) traces, "
    out +=
      "\(summary.stage1References) reference times; stage 2: pop — \(summary.stage2Positives) traces.\n"
    out +=
      "- Reference times: \(sources.pressAt) traces from press_at, \(sources.rule) from the rule (\(options.referenceRule)).\n"
    out +=
      "- Matching: one-to-one, |action − reference| ≤ \(TextFormat.compact(options.tolerance)) s (inclusive, rounded to 1 µs).\n"
    let onePass = result.methods.filter { $0.description == "one-pass" }.count
    let classes = result.methods.filter { $0.description == "classes" }.count
    let replayed = result.configurations.count - onePass - classes
    out +=
      "- \(TextFormat.count(result.configurations.count, "configuration")) of \(TextFormat.count(result.plan.recognizers.count, "recognizer")): "
    out += "\(onePass) in one pass, \(classes) by threshold classes, \(replayed) replayed each"
    out +=
      result.plan.dropped.isEmpty
      ? ".\n"
      : "; \(TextFormat.count(result.plan.dropped.count, "grid point")) dropped as invalid: \(DroppedConfiguration.summary(result.plan.dropped)).\n"

    let best = result.bestConfigurations().sorted { a, b in
      let ma = result.metrics[a.configuration]
      let mb = result.metrics[b.configuration]
      if SweepResult.isBetter(ma, than: mb) { return true }
      if SweepResult.isBetter(mb, than: ma) { return false }
      return a.configuration < b.configuration
    }
    out += "\n## Best configuration per recognizer (by F1)\n\n"
    out +=
      "Latency is action − reference for true positives (n of them): below zero the action came before the intended press. "
    out +=
      "\"abs p90\" is the 90th percentile of |action − reference|, which firing early cannot lower; \"early\" counts the true positives that acted before their reference. "
    out +=
      "\"from down\" is action − touch-down. FP counts actions (a trace can hold several); FPR and TN count negative traces, so FP + TN can exceed the negatives. Sorted by F1.\n\n"
    out +=
      "| recognizer | parameters | configs | F1 | precision | recall | FPR (traces) | TP | FP (actions) | FN | TN (traces) | n | p50 | p90 | p99 | abs p90 | early | from down p50 |\n"
    out += "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n"
    for (spec, c) in best {
      let m = result.metrics[c].stage1
      let configs = result.configurations.filter { $0.spec == spec }.count
      out += Markdown.row(
        [spec.name, Markdown.describe(result.configurations[c]), "\(configs)"] + Markdown.accuracy(m)
          + Markdown.counts(m)
          + [
            "\(m.latency.count)", Markdown.seconds(m.latency.p50), Markdown.seconds(m.latency.p90),
            Markdown.seconds(m.latency.p99),
            Markdown.seconds(m.latency.absoluteP90), "\(m.latency.early)", Markdown.seconds(m.latencyFromDown.p50),
          ])
    }

    out += intervalSection(result, best)

    out += "\n## False positives by intent (best configurations)\n\n"
    out +=
      "Per negative trace with any action, plus each unmatched action on a positive trace. Hard taps are labelled `tap`.\n\n"
    out += "| recognizer | " + Intent.allCases.map(\.rawValue).joined(separator: " | ") + " | flaps |\n"
    out += "|---|" + String(repeating: "--:|", count: Intent.allCases.count + 1) + "\n"
    for (spec, c) in best {
      let m = result.metrics[c]
      out += Markdown.row(
        [spec.name] + Intent.allCases.map { "\(m.stage1.falsePositivesByIntent[$0])" } + [
          m.flaps.map(String.init) ?? "–"
        ])
    }

    let twoStage = best.filter { result.metrics[$0.configuration].stage2 != nil }
    if !twoStage.isEmpty {
      out += "\n## Two-stage recognizers (best configurations)\n\n"
      out +=
        "Stage 2 is scored against pop traces. Confusion: rows are the intended class, columns the recognized one (none / press / pop).\n\n"
      out += "| recognizer | stage 2 F1 | precision | recall | n | p50 | p90 | none→ | press→ | pop→ |\n"
      out += "|---|--:|--:|--:|--:|--:|--:|---|---|---|\n"
      for (spec, c) in twoStage {
        let m = result.metrics[c]
        let s = m.stage2!
        let rows = PressClass.allCases.map { actual in
          PressClass.allCases.map { "\(m.confusion![actual, $0])" }.joined(separator: " / ")
        }
        out += Markdown.row(
          [
            spec.name, Markdown.ratio(s.f1), Markdown.ratio(s.precision), Markdown.ratio(s.recall),
            "\(s.latency.count)", Markdown.seconds(s.latency.p50), Markdown.seconds(s.latency.p90),
          ] + rows)
      }
    }

    let compositions = result.configurations.indices.filter { result.metrics[$0].addedLatency != nil }
    if !compositions.isEmpty {
      out += "\n## Require-to-fail compositions\n\n"
      out +=
        "The latency the wait for the other recognizer to fail adds to the dependent recognizer's action, over traces where it acted.\n\n"
      out += "| composition | parameters | acted | waited | added p50 | p90 | max |\n|---|---|--:|--:|--:|--:|--:|\n"
      for c in compositions {
        let m = result.metrics[c]
        let added = m.addedLatency!
        out += Markdown.row([
          result.configurations[c].name, Markdown.describe(result.configurations[c]), "\(added.count)",
          "\(m.waited ?? 0)",
          Markdown.seconds(added.p50), Markdown.seconds(added.p90), Markdown.seconds(added.maximum),
        ])
      }
    }

    out += ThresholdCurve.markdown(ThresholdCurve.curves(result))
    out += Markdown.skipped(evaluation.dataset.skipped)
    return out
  }

  // MARK: - Pieces

  /// The `## 95 % intervals` section: each best configuration's precision, recall and FPR with
  /// its count and Wilson score interval (stage 2 too for two-stage recognizers).
  static func intervalSection(_ result: SweepResult, _ best: [(recognizer: RecognizerSpec, configuration: Int)])
    -> String
  {
    var out = "\n## 95 % intervals (best configurations)\n\n"
    out +=
      "Wilson score intervals: precision = TP/(TP+FP), recall = TP/(TP+FN), FPR = negative traces with an action / negative traces.\n\n"
    out += "| recognizer | precision | 95 % CI | recall | 95 % CI | FPR | 95 % CI |\n|---|--:|--:|--:|--:|--:|--:|\n"
    for (spec, c) in best {
      let m = result.metrics[c]
      out += Markdown.row([spec.name] + Intervals.cells(m.stage1))
      if let s = m.stage2 { out += Markdown.row(["\(spec.name) (stage 2)"] + Intervals.cells(s)) }
    }
    return out
  }

  static func options(_ result: SweepResult) -> JSONValue {
    let options = result.evaluation.options
    let plan = result.plan
    return .object([
      ("recognizers", .array(plan.recognizers.map { .string($0.name) })),
      (
        "vary", .array(plan.axes.map { .object([("parameter", .string($0.parameter)), ("values", .string($0.text))]) })
      ),
      ("set", .array(plan.settings.map { .object([("parameter", .string($0.name)), ("value", .string($0.value))]) })),
      (
        "grids",
        .array(
          plan.axesByRecognizer.map { entry in
            .object([
              ("recognizer", .string(entry.recognizer.name)),
              (
                "axes",
                .array(
                  entry.axes.map { axis in
                    .object([
                      ("parameter", .string(axis.parameter)),
                      ("values", .array(axis.values.map(EvaluationJSON.axisValue))),
                    ])
                  })
              ),
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
    let summary = evaluation.summary
    return .object([
      ("intents", .object(Intent.allCases.map { ($0.rawValue, .int(summary.intents[$0])) })),
      ("positive_traces", .int(summary.positives)),
      ("negative_traces", .int(summary.analyzed - summary.positives)),
      ("stage2_positive_traces", .int(summary.stage2Positives)),
      ("references", .object([("press_at", .int(summary.pressAtTraces)), ("rule", .int(summary.ruleTraces))])),
      ("references_by_trace", referenceList(summary.references)),
    ])
  }

  /// `references_by_trace`, made record by record as it is written (a long input lists a
  /// record per positive).
  static func referenceList(_ records: ReferenceRecords) -> JSONValue {
    .lazyArray(.init(count: records.count) { records.lazy.map(referenceObject).makeIterator() })
  }

  /// One trace's reference times: `trace`, `intent`, `source`, `references` and, for a pop,
  /// `stage2_references`.
  static func referenceObject(_ record: ReferenceRecords.Record) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("trace", .string(record.trace)), ("intent", .string(record.intent.rawValue)),
      ("source", .string(record.source.rawValue)), ("references", .array(record.references.map { .number($0) })),
    ]
    if record.intent == .pop {
      members.append(("stage2_references", .array(record.stage2References.map { .number($0) })))
    }
    return .object(members)
  }

  /// A confusion matrix with every count `null`.
  static let nullConfusion = JSONValue.object(
    PressClass.allCases.map { a in (a.description, .object(PressClass.allCases.map { ($0.description, .null) })) })

  /// One result object (of `metrics` when given, a group's, else of the configuration on all
  /// traces); with `filled`, sections a configuration lacks hold `null` leaves of the same shape
  /// (for CSV columns) instead of being `null`.
  static func resultObject(_ result: SweepResult, _ c: Int, filled: Bool, metrics: ConfigurationMetrics? = nil)
    -> JSONValue
  {
    let configuration = result.configurations[c]
    let m = metrics ?? result.metrics[c]
    var members: [(String, JSONValue)] =
      [
        ("recognizer", .string(configuration.name))
      ] + EvaluationJSON.parameters(configuration) + [
        ("method", .string(result.methods[c].description)),
        ("traces", .int(m.traces)),
      ]
    members += EvaluationJSON.stage(m.stage1)
    members.append(("flaps", .int(m.flaps)))
    let stage2: JSONValue? = m.stage2.map { .object(EvaluationJSON.stage($0)) }
    members.append(
      ("stage2", stage2 ?? (filled ? JSONValue.object(EvaluationJSON.stage(StageMetrics())).nulled : .null)))
    let confusion: JSONValue? = m.confusion.map { matrix in
      .object(
        PressClass.allCases.map { actual in
          (actual.description, .object(PressClass.allCases.map { ($0.description, .int(matrix[actual, $0])) }))
        })
    }
    members.append(("confusion", confusion ?? (filled ? nullConfusion : .null)))
    let added = m.addedLatency.map(EvaluationJSON.latency)
    members.append(("added_latency", added ?? (filled ? EvaluationJSON.latency(LatencySummary([])).nulled : .null)))
    members.append(("waited", .int(m.waited)))
    return .object(members)
  }
}
