package import TouchCore
import TouchEvaluation
import TouchSignal

/// The dataset accounting every report carries: traces total/analyzed/skipped and why.
package enum Accounting {
  /// `{"total": N, "analyzed": A, "skipped": S}`, and `"label_overrides": O` when labels replaced
  /// `O` > 0 values of the data (`--labels-override`).
  package static func traces(total: Int, analyzed: Int, skipped: Int, labelOverrides: Int = 0) -> JSONValue {
    .object(
      [("total", .int(total)), ("analyzed", .int(analyzed)), ("skipped", .int(skipped))]
        + (labelOverrides > 0 ? [("label_overrides", .int(labelOverrides))] : []))
  }

  /// The members every report document starts with: `format`, `version`, the `files` read, the
  /// `traces` accounting (with `label_overrides`, the label values `--labels-override` replaced,
  /// when there are any), the `skipped` traces and `time_synthesized_traces` (analyzed traces
  /// whose times were synthesized, see `SynthesizedTime`).
  static func header(format: String, version: Int, dataset: Dataset) -> [(String, JSONValue)] {
    header(
      format: format, version: version, files: dataset.files, analyzed: dataset.traces.count, skipped: dataset.skipped,
      labelOverrides: dataset.labelOverrides, synthesizedTime: SynthesizedTime(dataset.traces))
  }

  /// ``header(format:version:dataset:)`` of an evaluation, from its summary (which an evaluation
  /// that keeps no traces still has).
  static func header(format: String, version: Int, evaluation: Evaluation) -> [(String, JSONValue)] {
    let dataset = evaluation.dataset
    return header(
      format: format, version: version, files: dataset.files, analyzed: evaluation.analyzedCount,
      skipped: dataset.skipped, labelOverrides: dataset.labelOverrides,
      synthesizedTime: evaluation.summary.synthesizedTime)
  }

  /// ``header(format:version:dataset:)`` from the accounting alone (for a report written as
  /// its traces are read, which keeps no traces): `analyzed` traces, the `skipped` ones, and
  /// the analyzed traces' synthesized time.
  static func header(
    format: String, version: Int, files: [String], analyzed: Int, skipped: [SkippedTrace], labelOverrides: Int,
    synthesizedTime: SynthesizedTime
  ) -> [(String, JSONValue)] {
    [
      ("format", .string(format)), ("version", .int(version)),
      ("files", .array(files.map { .string($0) })),
      (
        "traces",
        traces(
          total: analyzed + skipped.count, analyzed: analyzed, skipped: skipped.count, labelOverrides: labelOverrides)
      ),
      ("skipped", self.skipped(skipped)),
      synthesizedTime.member,
    ]
  }

  /// `[{"trace": "id", "file": "path", "line": L, "column": C, "reason": "..."}]`; `trace`,
  /// `line` and `column` are `null` when unknown.
  package static func skipped(_ skipped: [SkippedTrace]) -> JSONValue {
    .array(
      skipped.map { skip in
        let position = skip.reportedPosition
        var members: [(String, JSONValue)] = [
          ("trace", .string(skip.trace)), ("file", .string(skip.origin.file)),
          ("line", .int(position?.line)), ("column", .int(position?.column)),
        ]
        if let record = skip.origin.record { members.append(("record", .int(record))) }
        members.append(("reason", .string(skip.reason)))
        return .object(members)
      })
  }

  /// Diagnostics as `[{"severity": "warning", "file": ..., "line": ..., "column": ..., "message": ...}]`.
  package static func diagnostics(_ diagnostics: [Diagnostic]) -> JSONValue {
    .array(
      diagnostics.map {
        .object([
          ("severity", .string($0.severity.rawValue)), ("file", .string($0.file)),
          ("line", .int($0.position?.line)), ("column", .int($0.position?.column)),
          ("message", .string($0.message)),
        ])
      })
  }

  /// The distinct reasons traces were skipped for, in order of first appearance, each with how
  /// many traces it covers.
  package static func reasons(_ skipped: [SkippedTrace]) -> [(reason: String, count: Int)] {
    var reasons: [(reason: String, count: Int)] = []
    for skip in skipped {
      if let k = reasons.firstIndex(where: { $0.reason == skip.reason }) {
        reasons[k].count += 1
      } else {
        reasons.append((skip.reason, 1))
      }
    }
    return reasons
  }

  /// One line per skipped trace: `path:line:col: warning: skipped trace 'id': reason`.
  package static func text(_ skipped: [SkippedTrace]) -> String {
    skipped.map { $0.description + "\n" }.joined()
  }
}
