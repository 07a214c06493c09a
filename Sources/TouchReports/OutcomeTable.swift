package import TouchCore
package import TouchEvaluation

/// The per-trace outcome table (`--outcomes FILE` of `run`, `sweep`, `tune`, `compare`): one row
/// per configuration × trace × counted outcome (see `OutcomeRow` in TouchEvaluation), as CSV or as
/// JSON Lines (one object a line, the same names). Rows summed per configuration and stage give
/// exactly the report's TP, FP, FN and TN.
///
/// Columns, in order: `configuration` (the index in the report's configuration list), `recognizer`,
/// `parameters` (`name=value,…` of the given or varied parameters, `defaults` when none),
/// `trace` (the trace's name), `id`, `touch` (the contact number), `user`, `device`, `session`,
/// `intent`, `stage` (1, or 2 for stage 2 of a two-stage recognizer), `outcome` (`TP`, `FP`, `FN`,
/// `TN`), `action_t` and `reference_t` (seconds on the trace's clock), `latency` (`action_t −
/// reference_t`, seconds, for `TP`). A value that does not apply is an empty cell (CSV) or `null`
/// (JSON Lines). When traces carry extra labels (`TraceMetadata.labels`), the CSV table ends with
/// one `label:NAME` column per name (in name order; empty for traces without it) and each JSON
/// Lines object with a `labels` object of the row's trace.
package enum OutcomeTable {
  /// The column names, in order.
  package static let columns = [
    "configuration", "recognizer", "parameters", "trace", "id", "touch", "user", "device", "session", "intent", "stage",
    "outcome", "action_t", "reference_t", "latency",
  ]

  /// The header line of the CSV table (empty for JSON Lines, which has none).
  ///
  /// - Parameters:
  ///   - jsonLines: whether the table is JSON Lines.
  ///   - labels: the extra label names (``labelNames(_:)``), each a `label:NAME` column.
  package static func header(jsonLines: Bool, labels: [String] = []) -> [UInt8] {
    jsonLines ? [] : CSVWriter.table(header: columns + labels.map { TraceMetadata.csvLabelPrefix + $0 }, rows: [])
  }

  /// The extra label names any of `traces` has, in name order.
  package static func labelNames(_ traces: [Trace]) -> [String] {
    Set(traces.flatMap { $0.metadata.labels.keys }).sorted()
  }

  /// `name=value,…` of the parameters `configuration` was given or varied over (the reports'
  /// text); `defaults` when none.
  package static func parameters(_ configuration: Configuration) -> String {
    let parts = Markdown.varied(configuration)
    return parts.isEmpty ? "defaults" : parts.joined(separator: ",")
  }

  /// The lines of `rows` of configuration `index`.
  ///
  /// - Parameters:
  ///   - rows: the rows (their `trace` indexes `traces`).
  ///   - index: the configuration's index in the report.
  ///   - configuration: the configuration.
  ///   - traces: the evaluation's traces.
  ///   - jsonLines: JSON Lines rather than CSV.
  ///   - labels: the extra label columns of the table (as given to ``header(jsonLines:labels:)``).
  /// - Returns: the encoded lines, each ending in a line feed.
  package static func lines(
    _ rows: [OutcomeRow], index: Int, configuration: Configuration, traces: [Trace], jsonLines: Bool,
    labels: [String] = []
  ) -> [UInt8] {
    let recognizer = JSONValue.string(configuration.name)
    let parameters = JSONValue.string(parameters(configuration))
    var out: [UInt8] = []
    for row in rows {
      let m = traces[row.trace].metadata
      let cells: [JSONValue] = [
        .int(index), recognizer, parameters, .string(m.name), .string(m.id), .int(m.touch), .string(m.user),
        .string(m.device), .string(m.session), .string(m.intent?.rawValue), .int(row.stage), .string(row.kind.rawValue),
        .number(row.action), .number(row.reference), .number(row.latency),
      ]
      if jsonLines {
        var members = Array(zip(columns, cells))
        if !labels.isEmpty {
          members.append(("labels", .object(labels.compactMap { name in m.labels[name].map { (name, .string($0)) } })))
        }
        out += JSONValue.object(members).encoded(pretty: false)
        out.append(0x0A)
      } else {
        out += CSVWriter.rows([cells + labels.map { .string(m.labels[$0]) }], quotingCommentMarks: false)
      }
    }
    return out
  }
}
