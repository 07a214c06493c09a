package import TouchCore
package import TouchRecognizers

/// The replays `touchtrace try` sends its page: one contact through every configuration tried.
package enum TryReport {
  /// The JSON array of results, one per recognizer in order, each as ``RunReport`` writes a
  /// result (``RunReport/result(_:composed:)``) plus `configuration` (its index). For a contact
  /// still going on (`complete` false) only the events strictly before its last sample's time
  /// (`ReplayResult.before(_:)`): those the whole contact's replay has as well. A recognizer
  /// that cannot replay the trace gives `{"configuration", "error"}`.
  ///
  /// - Parameters:
  ///   - recognizers: the configurations tried.
  ///   - trace: the contact, complete or so far.
  ///   - complete: whether the contact has ended.
  package static func results(_ recognizers: [AnyForceRecognizer], trace: Trace, complete: Bool) -> [UInt8] {
    let until = trace.count > 0 ? trace.t[trace.count - 1] : 0
    let rows: [JSONValue] = recognizers.enumerated().map { k, recognizer in
      do throws(ReplayError) {
        let replay = try recognizer.replay(trace: trace)
        let shown = complete ? replay : replay.before(until)
        guard case .object(let members) = RunReport.result(shown, composed: recognizer.isComposition) else {
          preconditionFailure("a result is an object")
        }
        return .object([("configuration", .int(k))] + members)
      } catch {
        return .object([("configuration", .int(k)), ("error", .string(error.description))])
      }
    }
    return JSONValue.array(rows).encoded(pretty: false)
  }
}
