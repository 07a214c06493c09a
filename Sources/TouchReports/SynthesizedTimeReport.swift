import TouchCore
package import TouchSignal

extension SynthesizedTime {
  /// The JSON member every report that depends on time carries: `"time_synthesized_traces": N`
  /// (0 when every trace's times were recorded).
  static func member(_ traces: [Trace]) -> (String, JSONValue) {
    SynthesizedTime(traces).member
  }

  /// `("time_synthesized_traces", N)`.
  var member: (String, JSONValue) { ("time_synthesized_traces", .int(traces)) }

  /// The warning reports state, e.g. `12 traces have synthesized time (import --interval 0.01):
  /// latencies depend on it`; `nil` when no trace has synthesized time.
  /// - Parameter dependents: what depends on the times, e.g. `latencies`.
  package func sentence(dependents: String = "latencies") -> String? {
    guard traces > 0 else { return nil }
    let flag = "import --interval " + (interval.map { TextFormat.compact($0, significant: 7) } ?? "S")
    return "\(traces) trace\(traces == 1 ? " has" : "s have") synthesized time (\(flag)): \(dependents) depend on it"
  }
}
