package import TouchCore
package import TouchRecognizers
import TouchSignal

/// Renders a replay (`touchtrace run`): per trace, the state transitions and the action events of
/// one recognizer, as versioned JSON, a flat CSV table or a Markdown summary.
///
/// Times are seconds on the trace's clock; an event's index is the sample index in its trace (for
/// a timer: the last sample before it). Undefined values are `null` in JSON and empty cells in CSV.
package enum RunReport {
  /// The JSON format name.
  package static let format = "touchtrace-run"
  /// The JSON schema version.
  package static let version = 1

  /// The CSV columns, in order.
  package static let columns = [
    "trace", "action_t", "action_index", "stage2_t", "stage2_index", "actions", "flaps", "final_state", "held_t",
    "added_latency",
  ]

  /// The JSON document (format `touchtrace-run`, version 1): the recognizer with its parameters,
  /// whether state carried over between traces, the trace accounting, the skipped traces and one
  /// result object per replayed trace. A require-to-fail composition's results also hold the
  /// time its action was held, the added latency (seconds) and the required recognizer's events.
  ///
  /// - Parameters:
  ///   - results: one replay per analyzed trace of `dataset`, in order.
  ///   - recognizer: the recognizer replayed.
  ///   - carryState: whether consecutive traces of a session shared one recognizer instance.
  ///   - dataset: the traces, for the accounting.
  package static func json(
    _ results: [ReplayResult], recognizer: AnyForceRecognizer, carryState: Bool, dataset: Dataset
  ) -> JSONValue {
    let parameters: [(String, JSONValue)] = recognizer.parameters.map {
      ($0.name, EvaluationJSON.parameter($0.value, infinityAsNull: true))
    }
    let composed = recognizer.isComposition
    let rows = results.map { result($0, composed: composed) }
    return .object([
      ("format", .string(format)), ("version", .int(version)),
      ("recognizer", .object([("name", .string(recognizer.name)), ("parameters", .object(parameters))])),
      ("carry_state", .bool(carryState)),
      (
        "traces",
        Accounting.traces(
          total: dataset.total, analyzed: dataset.traces.count, skipped: dataset.skipped.count,
          labelOverrides: dataset.labelOverrides)
      ),
      ("skipped", Accounting.skipped(dataset.skipped)),
      SynthesizedTime.member(dataset.traces),
      ("results", .array(rows)),
    ])
  }

  /// One result object of the JSON document: `trace`, `action_t`, `action_index`, `stage2_t`,
  /// `stage2_index`, `flaps`, `final_state`, `events` (the state transitions: `state`, `t`,
  /// `index`, `implicit` when the harness closed the contact) and `actions` (`kind`, `t`, `index`,
  /// `detail` when not 0); for a composition also `held_t`, `added_latency`, `required_events`
  /// and `required_actions`. Times are seconds.
  ///
  /// - Parameters:
  ///   - r: the replay of one trace.
  ///   - composed: whether the recognizer is a require-to-fail composition.
  package static func result(_ r: ReplayResult, composed: Bool) -> JSONValue {
    var members: [(String, JSONValue)] = [
      ("trace", .string(r.trace)),
      ("action_t", .number(r.action?.t)), ("action_index", .int(r.action?.index)),
      ("stage2_t", .number(r.stage2?.t)), ("stage2_index", .int(r.stage2?.index)),
      ("flaps", .int(r.flaps)), ("final_state", .string(r.finalState.name)),
      ("events", transitions(r.transitions)), ("actions", actions(r.actions)),
    ]
    if composed {
      members.append(("held_t", .number(r.held?.t)))
      members.append(("added_latency", .number(r.addedLatency)))
      members.append(("required_events", transitions(r.requiredTransitions)))
      members.append(("required_actions", actions(r.requiredActions)))
    }
    return .object(members)
  }

  /// The CSV table: ``columns``, then one row per replayed trace (`actions` counts every action
  /// event, `held_t` and `added_latency` are empty unless a composition held the action).
  package static func csv(_ results: [ReplayResult]) -> [UInt8] {
    let rows: [[JSONValue]] = results.map { r in
      [
        .string(r.trace), .number(r.action?.t), .int(r.action?.index), .number(r.stage2?.t), .int(r.stage2?.index),
        .int(r.allActions.count), .int(r.flaps), .string(r.finalState.name), .number(r.held?.t),
        .number(r.held == nil ? nil : r.addedLatency),
      ]
    }
    return CSVWriter.table(header: columns, rows: rows, quotingCommentMarks: true)
  }

  /// The Markdown summary: the recognizer and its parameters, the trace accounting, then one
  /// table row per replayed trace — its first action and stage-2 times (seconds on the trace's
  /// clock, `–` when none), the number of actions, flaps and the final state; for a composition
  /// also when the action was held and the latency that added — and the skipped traces.
  ///
  /// - Parameters:
  ///   - results: one replay per analyzed trace of `dataset`, in order.
  ///   - recognizer: the recognizer replayed.
  ///   - carryState: whether consecutive traces of a session shared one recognizer instance.
  ///   - dataset: the traces, for the accounting.
  package static func markdown(
    _ results: [ReplayResult], recognizer: AnyForceRecognizer, carryState: Bool, dataset: Dataset
  ) -> String {
    let parameters = recognizer.parameters.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
    var out = "# Run\n\n"
    out += "- Recognizer: \(recognizer.name)" + (parameters.isEmpty ? "" : " (\(parameters))") + ".\n"
    out += Markdown.traces(dataset)
    if carryState { out += "- State carried over between the traces of a session.\n" }
    let composed = recognizer.isComposition
    out += "\n| trace | action (s) | stage 2 (s) | actions | flaps | final state |"
    out +=
      composed ? " held (s) | added latency |\n|---|--:|--:|--:|--:|---|--:|--:|\n" : "\n|---|--:|--:|--:|--:|---|\n"
    func time(_ t: Double?) -> String { t.map { TextFormat.compact($0) } ?? "–" }
    for r in results {
      var cells = [
        r.trace, time(r.action?.t), time(r.stage2?.t), "\(r.allActions.count)", r.flaps.map(String.init) ?? "–",
        r.finalState.name,
      ]
      if composed { cells += [time(r.held?.t), r.held == nil ? "–" : Markdown.seconds(r.addedLatency)] }
      out += Markdown.row(cells)
    }
    return out + Markdown.skipped(dataset.skipped)
  }

  private static func transitions(_ list: [StateTransition]) -> JSONValue {
    .array(
      list.map { e in
        var members: [(String, JSONValue)] = [
          ("state", .string(e.state.name)), ("t", .number(e.t)), ("index", .int(e.index)),
        ]
        if e.implicit { members.append(("implicit", true)) }
        return .object(members)
      })
  }

  private static func actions(_ list: [ActionEvent]) -> JSONValue {
    .array(
      list.map { a in
        var members: [(String, JSONValue)] = [
          ("kind", .string(a.kind.name)), ("t", .number(a.t)), ("index", .int(a.index)),
        ]
        if a.detail != 0 { members.append(("detail", .int(a.detail))) }
        return .object(members)
      })
  }
}
