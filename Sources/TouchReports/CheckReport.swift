import TouchCore
import TouchEvaluation
import TouchIO
package import TouchSignal
package import TouchTuning

/// Renders the regression gate (`touchtrace check`): the baseline file (JSON, format
/// `touchtrace-baseline`), the Markdown summary for a CI job and the JUnit XML report.
package enum CheckReport {
  /// The baseline's JSON format name.
  package static let format = "touchtrace-baseline"
  /// The baseline's schema version.
  package static let version = 2

  /// The names of the checks (the JUnit test cases).
  static let accuracyCheck = "accuracy (McNemar)"
  static let latencyCheck = "p90 |latency|"

  // MARK: - Baseline

  /// The baseline document: format, version, the tool, the configuration, the scoring options,
  /// the data's content hash, the stage-1 counts, the p90 latency with its n, and every contact
  /// with whether it was decided correctly; and `time_synthesized_traces`, how many scored
  /// traces have synthesized times (information only: reading a baseline ignores it).
  /// - Parameters:
  ///   - s: the scored snapshot.
  ///   - synthesizedTime: the scored traces whose times were synthesized.
  package static func baseline(
    _ s: RegressionGate.Snapshot, synthesizedTime: SynthesizedTime = SynthesizedTime(traces: 0, interval: nil)
  ) -> JSONValue {
    .object([
      ("format", .string(format)), ("version", .int(version)), ("tool", .string(s.tool)),
      ("configuration", .string(s.configuration)),
      ("positive", .array(s.positives.map { .string($0) })), ("tolerance", .number(s.tolerance)),
      ("data_hash", .string(s.dataHash)),
      ("tp", .int(s.truePositives)), ("fp", .int(s.falsePositives)), ("fn", .int(s.falseNegatives)),
      ("tn", .int(s.trueNegatives)), ("correct_contacts", .int(s.correctCount)),
      ("abs_latency_p90", .number(s.absoluteLatencyP90)), ("latency_n", .int(s.latencyCount)),
      ("early", .int(s.early)), synthesizedTime.member,
      ("contacts", .array(zip(s.traces, s.correct).map { .object([("trace", .string($0)), ("correct", .bool($1))]) })),
    ])
  }

  /// `- **Warning**: N traces have synthesized time …` for the Markdown summaries; empty when none.
  static func warning(_ synthesizedTime: SynthesizedTime) -> String {
    synthesizedTime.sentence().map { "- **Warning**: \($0).\n" } ?? ""
  }

  /// A baseline file that cannot be read: `PATH:LINE:COL: error: …`.
  package struct BaselineError: Error, Sendable, CustomStringConvertible {
    /// The message, positioned.
    package var description: String
  }

  /// Reads a baseline document.
  ///
  /// - Parameters:
  ///   - bytes: the file's content.
  ///   - file: its name, for messages.
  /// - Throws: ``BaselineError`` for malformed JSON, another format or version, or a missing or
  ///   mistyped field (with the position of the offending value).
  package static func readBaseline(_ bytes: [UInt8], file: String) throws(BaselineError) -> RegressionGate.Snapshot {
    let root: JSONNode
    do throws(TraceLoadError) {
      root = try JSONNode.parse(bytes, file: file)
    } catch {
      throw BaselineError(description: error.description)
    }
    func fail(_ node: JSONNode, _ message: String) -> BaselineError {
      BaselineError(description: Diagnostic(.error, message, file: file, position: node.position).description)
    }
    func member(_ key: String) throws(BaselineError) -> JSONNode {
      guard let m = root.member(key) else { throw fail(root, "not a touchtrace baseline: no '\(key)'") }
      return m.value
    }
    func string(_ node: JSONNode, _ what: String) throws(BaselineError) -> String {
      guard case .string(let s) = node.kind else {
        throw fail(node, "'\(what)' must be a string, got \(node.typeName)")
      }
      return s
    }
    func number(_ node: JSONNode, _ what: String) throws(BaselineError) -> Double? {
      switch node.kind {
      case .number(let x): return x
      case .null: return nil
      default: throw fail(node, "'\(what)' must be a number, got \(node.typeName)")
      }
    }
    func integer(_ key: String) throws(BaselineError) -> Int {
      let node = try member(key)
      guard case .number(let x) = node.kind, x >= 0, x == x.rounded(), x < 1e15 else {
        throw fail(node, "'\(key)' must be a count")
      }
      return Int(x)
    }
    guard case .object = root.kind else {
      throw fail(root, "not a touchtrace baseline: expected an object, got \(root.typeName)")
    }
    let formatNode = try member("format")
    guard try string(formatNode, "format") == format else {
      throw fail(formatNode, "not a touchtrace baseline: format must be '\(format)'")
    }
    let versionNode = try member("version")
    let baselineVersion = try number(versionNode, "version")
    guard baselineVersion == Double(version) else {
      let text = baselineVersion.map { TextFormat.compact($0) } ?? "null"
      throw fail(versionNode, "baseline version \(text) is not supported (this tool reads version \(version))")
    }
    var positives: [String] = []
    let positiveNode = try member("positive")
    guard case .array(let list) = positiveNode.kind else { throw fail(positiveNode, "'positive' must be an array") }
    for node in list { positives.append(try string(node, "positive")) }
    let toleranceNode = try member("tolerance")
    guard let tolerance = try number(toleranceNode, "tolerance") else {
      throw fail(toleranceNode, "'tolerance' must be a number")
    }
    let contactsNode = try member("contacts")
    guard case .array(let contacts) = contactsNode.kind else { throw fail(contactsNode, "'contacts' must be an array") }
    var traces: [String] = []
    var correct: [Bool] = []
    for contact in contacts {
      guard let trace = contact.member("trace"), let flag = contact.member("correct") else {
        throw fail(contact, "a contact needs 'trace' and 'correct'")
      }
      guard case .bool(let b) = flag.value.kind else { throw fail(flag.value, "'correct' must be true or false") }
      traces.append(try string(trace.value, "trace"))
      correct.append(b)
    }
    return RegressionGate.Snapshot(
      tool: try string(try member("tool"), "tool"),
      configuration: try string(try member("configuration"), "configuration"),
      positives: positives, tolerance: tolerance, dataHash: try string(try member("data_hash"), "data_hash"),
      traces: traces,
      correct: correct, counts: (try integer("tp"), try integer("fp"), try integer("fn"), try integer("tn")),
      absoluteLatencyP90: try number(try member("abs_latency_p90"), "abs_latency_p90"),
      latencyCount: try integer("latency_n"), early: try integer("early"))
  }

  // MARK: - Summary

  static func ms(_ x: Double?) -> String { x.map { TextFormat.decimal($0 * 1000, 1) + " ms" } ?? "–" }

  static func signedMs(_ x: Double) -> String { (x >= 0 ? "+" : "") + TextFormat.decimal(x * 1000, 1) + " ms" }

  /// The figures of the accuracy check: `b = …, c = …, p = … (α …)`.
  static func accuracyFigures(_ r: RegressionGate.Result) -> String {
    let t = r.mcnemar
    let counts = "only baseline correct \(t.onlyA), only current correct \(t.onlyB); "
    let alpha = " (α = \(TextFormat.compact(r.alpha)))"
    if let k = r.clustered {
      return counts
        + "McNemar clustered by \(r.clusterUnit ?? "cluster") (Durkalski, \(k.clusters) clusters) p = \(CompareReport.probability(k.pValue))\(alpha); "
        + "as if independent \(t.method) p = \(CompareReport.probability(t.pValue))"
    }
    return counts + "\(t.method) p = \(CompareReport.probability(t.pValue))\(alpha), assuming independent contacts"
  }

  /// The figures of the latency check.
  static func latencyFigures(_ r: RegressionGate.Result) -> String {
    let limit = "limit " + signedMs(r.maxLatencyIncrease)
    if let increase = r.latencyIncrease { return "\(signedMs(increase)) (\(limit))" }
    if r.latencyRegressed { return "no true positive now (\(limit))" }
    return "not compared: no true positive in the baseline"
  }

  /// Why the accuracy check failed, or `nil`.
  static func accuracyFailure(_ r: RegressionGate.Result) -> String? {
    guard r.accuracyRegressed else { return nil }
    return
      "accuracy dropped significantly: \(r.current.correctCount) of \(r.current.traces.count) contacts correct, baseline \(r.baseline.correctCount); "
      + accuracyFigures(r)
  }

  /// Why the latency check failed, or `nil`.
  static func latencyFailure(_ r: RegressionGate.Result) -> String? {
    guard r.latencyRegressed else { return nil }
    return
      "p90 |action − reference| grew: \(ms(r.current.absoluteLatencyP90)) (n = \(r.current.latencyCount), \(r.current.early) early), baseline \(ms(r.baseline.absoluteLatencyP90)) (n = \(r.baseline.latencyCount), \(r.baseline.early) early); "
      + latencyFigures(r)
  }

  /// The Markdown summary for a CI job: both configurations, each check with its figures and
  /// result, and the verdict; a warning when scored traces have synthesized times.
  /// - Parameters:
  ///   - r: the check's result.
  ///   - synthesizedTime: the scored traces whose times were synthesized.
  package static func markdown(
    _ r: RegressionGate.Result, synthesizedTime: SynthesizedTime = SynthesizedTime(traces: 0, interval: nil)
  ) -> String {
    let b = r.baseline
    let c = r.current
    var out = "# touchtrace check: \(r.passed ? "passed" : "FAILED")\n\n"
    out += "- Baseline: `\(b.configuration)` (\(b.tool), \(b.traces.count) contacts, data \(b.dataHash)).\n"
    out += "- Current: `\(c.configuration)`.\n" + warning(synthesizedTime) + "\n"
    out += "| check | baseline | current | figures | result |\n|---|--:|--:|---|---|\n"
    out += Markdown.row([
      accuracyCheck, "\(b.correctCount)/\(b.traces.count) correct", "\(c.correctCount)/\(c.traces.count) correct",
      accuracyFigures(r), r.accuracyRegressed ? "**fail**" : "pass",
    ])
    out += Markdown.row([
      "p90 \\|latency\\|",
      "\(ms(b.absoluteLatencyP90)) (n = \(b.latencyCount), \(b.early) early)",
      "\(ms(c.absoluteLatencyP90)) (n = \(c.latencyCount), \(c.early) early)",
      latencyFigures(r), r.latencyRegressed ? "**fail**" : "pass",
    ])
    out += "\n| counts | TP | FP | FN | TN |\n|---|--:|--:|--:|--:|\n"
    for (name, s) in [("baseline", b), ("current", c)] {
      out += Markdown.row([
        name, "\(s.truePositives)", "\(s.falsePositives)", "\(s.falseNegatives)", "\(s.trueNegatives)",
      ])
    }
    out +=
      "\nA contact is correct with no false positive and no false negative at any stage. Accuracy fails when McNemar's test on the paired decisions gives p < α and the baseline is right more often; latency fails when the p90 of |action − reference| grows by more than the limit (an action before the intended press counts by its distance, like a late one: firing early is not faster).\n"
    if let k = r.clustered {
      out +=
        "\nThe accuracy decision reads McNemar's test clustered by \(r.clusterUnit ?? "cluster") (Durkalski et al., 2003: \(k.clusters) clusters), since contacts of one \(r.clusterUnit ?? "cluster") are not independent; the plain test is given beside it.\n"
      if k.clusters < Intervals.minimumClusters {
        out +=
          "With \(k.clusters) clusters (fewer than \(Intervals.minimumClusters)) its chi-square approximation is rough.\n"
      }
    } else {
      out +=
        "\nMcNemar's test here counts every contact as independent; contacts of one person or device are not, which makes p too small. `--group-by user` (or `device`) uses the cluster-adjusted test.\n"
    }
    return out
  }

  /// The summary printed when a baseline is written.
  /// - Parameters:
  ///   - s: the snapshot written.
  ///   - path: the baseline file.
  ///   - synthesizedTime: the scored traces whose times were synthesized.
  package static func written(
    _ s: RegressionGate.Snapshot, path: String,
    synthesizedTime: SynthesizedTime = SynthesizedTime(traces: 0, interval: nil)
  ) -> String {
    "# touchtrace check: baseline written\n\n- `\(s.configuration)` on \(s.traces.count) contacts (data \(s.dataHash)): \(s.correctCount) correct, TP \(s.truePositives), FP \(s.falsePositives), FN \(s.falseNegatives), TN \(s.trueNegatives), p90 |action − reference| \(ms(s.absoluteLatencyP90)) (n = \(s.latencyCount), \(s.early) early).\n- Baseline: \(path) (\(s.tool)).\n"
      + warning(synthesizedTime)
  }

  /// The check's result as JSON (`touchtrace-check`, version 1): whether it passed, each check
  /// with its figures, both snapshots' counts, and `time_synthesized_traces`. Seconds for
  /// latencies.
  /// - Parameters:
  ///   - r: the check's result.
  ///   - synthesizedTime: the scored traces whose times were synthesized.
  package static func json(
    _ r: RegressionGate.Result, synthesizedTime: SynthesizedTime = SynthesizedTime(traces: 0, interval: nil)
  ) -> JSONValue {
    .object([
      ("format", .string("touchtrace-check")), ("version", .int(1)), ("passed", .bool(r.passed)),
      ("alpha", .number(r.alpha)), ("max_latency_increase", .number(r.maxLatencyIncrease)),
      (
        "checks",
        .array([
          .object([
            ("name", .string(accuracyCheck)), ("passed", .bool(!r.accuracyRegressed)),
            ("baseline_correct", .int(r.baseline.correctCount)), ("current_correct", .int(r.current.correctCount)),
            ("only_baseline_correct", .int(r.mcnemar.onlyA)), ("only_current_correct", .int(r.mcnemar.onlyB)),
            ("p_value", .number(r.decisivePValue)),
            ("test", .string(r.clustered == nil ? "mcnemar" : "mcnemar_clustered")),
            ("assumes_independent_traces", .bool(r.clustered == nil)),
            ("mcnemar_p_value", .number(r.mcnemar.pValue)),
            ("group_by", r.clusterUnit.map(JSONValue.string) ?? .null),
            ("mcnemar_clustered", r.clustered.map(CompareReport.clusteredJSON) ?? .null),
          ]),
          .object([
            ("name", .string(latencyCheck)), ("passed", .bool(!r.latencyRegressed)),
            ("baseline_abs_p90", .number(r.baseline.absoluteLatencyP90)),
            ("current_abs_p90", .number(r.current.absoluteLatencyP90)), ("baseline_early", .int(r.baseline.early)),
            ("current_early", .int(r.current.early)),
            ("increase", .number(r.latencyIncrease)),
          ]),
        ])
      ),
      ("baseline", snapshotSummary(r.baseline)), ("current", snapshotSummary(r.current)),
      synthesizedTime.member,
    ])
  }

  /// The JSON printed when a baseline is written (`touchtrace-check-baseline-written`), with
  /// `time_synthesized_traces`.
  /// - Parameters:
  ///   - s: the snapshot written.
  ///   - path: the baseline file.
  ///   - synthesizedTime: the scored traces whose times were synthesized.
  package static func writtenJSON(
    _ s: RegressionGate.Snapshot, path: String,
    synthesizedTime: SynthesizedTime = SynthesizedTime(traces: 0, interval: nil)
  ) -> JSONValue {
    .object([
      ("format", .string("touchtrace-check-baseline-written")), ("version", .int(1)), ("path", .string(path)),
      ("snapshot", snapshotSummary(s)),
      synthesizedTime.member,
    ])
  }

  /// A snapshot's configuration, tool, data hash and counts.
  static func snapshotSummary(_ s: RegressionGate.Snapshot) -> JSONValue {
    .object([
      ("configuration", .string(s.configuration)), ("tool", .string(s.tool)), ("data", .string(s.dataHash)),
      ("contacts", .int(s.traces.count)), ("correct", .int(s.correctCount)),
      ("tp", .int(s.truePositives)), ("fp", .int(s.falsePositives)), ("fn", .int(s.falseNegatives)),
      ("tn", .int(s.trueNegatives)), ("abs_latency_p90", .number(s.absoluteLatencyP90)),
      ("latency_n", .int(s.latencyCount)), ("early", .int(s.early)),
    ])
  }

  // MARK: - JUnit

  /// The JUnit XML report: one test suite `touchtrace check` with one test case per check; a
  /// failing check has a `<failure>` whose message and text give the figures.
  package static func junit(_ r: RegressionGate.Result) -> String {
    let cases: [(String, String?, String)] = [
      (accuracyCheck, accuracyFailure(r), accuracyFigures(r)),
      (latencyCheck, latencyFailure(r), latencyFigures(r)),
    ]
    let failures = cases.filter { $0.1 != nil }.count
    var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    out += "<testsuites name=\"touchtrace check\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\">\n"
    out +=
      "  <testsuite name=\"touchtrace check\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\">\n"
    out += "    <properties>\n"
    for (name, value) in [
      ("baseline", r.baseline.configuration), ("current", r.current.configuration), ("data_hash", r.current.dataHash),
      ("tool", r.current.tool),
    ] {
      out += "      <property name=\"\(xml(name))\" value=\"\(xml(value))\"/>\n"
    }
    out += "    </properties>\n"
    for (name, failure, figures) in cases {
      out += "    <testcase classname=\"touchtrace.check\" name=\"\(xml(name))\""
      if let failure {
        out +=
          ">\n      <failure type=\"regression\" message=\"\(xml(failure))\">\(xml(figures))</failure>\n    </testcase>\n"
      } else {
        out += ">\n      <system-out>\(xml(figures))</system-out>\n    </testcase>\n"
      }
    }
    out += "  </testsuite>\n</testsuites>\n"
    return out
  }

  /// `text` escaped for XML attributes and text (`HTMLText.escape`, which keeps to what XML 1.0
  /// can hold).
  static func xml(_ text: String) -> String { HTMLText.escape(text) }
}
