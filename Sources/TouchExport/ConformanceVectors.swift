package import TouchCore
package import TouchRecognizers

/// Conformance vectors: contacts with the replay's actions and state transitions, in a line format
/// every exported language reads in a few lines, so an exported core is checked against the
/// replay here and again in the app's own tests.
///
/// The format (version 1), one record per line, fields separated by one space; every number is
/// the 16 hexadecimal digits of an IEEE 754 double's bits, so values cross languages exactly:
///
/// ```
/// touchtrace-vectors 1 RECOGNIZER
/// contact NAME
/// s PHASE T FORCE MAXFORCE X Y      a sample: began, moved, ended or cancelled
/// a STAGE T                         an expected action: action, stage2 or release
/// e STATE T IMPLICIT                an expected transition (IMPLICIT 1: closed by the system)
/// end
/// ```
///
/// A contact's samples are delivered in order; a contact of one sample is a single `ended` (or
/// `cancelled`) line. Forces are in the trace's device units, times in seconds, positions in
/// points (0 when the trace has none).
package enum ConformanceVectors {
  /// The first line's tag.
  package static let tag = "touchtrace-vectors 1"

  /// The bits of `value` as 16 lowercase hexadecimal digits.
  package static func hex(_ value: Double) -> String {
    let digits = String(value.bitPattern, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// Writes `traces` replayed through `recognizer`, each through a fresh instance, as
  /// `touchtrace run` replays them.
  ///
  /// - Throws: `ReplayError` when a trace lacks the maximum force the recognizer needs.
  package static func text(_ traces: [Trace], recognizer: AnyForceRecognizer) throws(ReplayError) -> String {
    var out = header(recognizer)
    try append(traces, recognizer: recognizer, to: &out)
    return out
  }

  /// The first line, naming `recognizer`: what a file of vectors written a batch at a time by
  /// ``append(_:recognizer:to:)`` starts with.
  package static func header(_ recognizer: AnyForceRecognizer) -> String {
    "\(tag) \(recognizer.name)\n"
  }

  /// Appends the records of `traces` (empty ones left out) replayed through `recognizer`, each
  /// through a fresh instance, to `out`: ``header(_:)`` and the batches of a read in order give
  /// the bytes ``text(_:recognizer:)`` gives for all the traces at once.
  ///
  /// - Throws: `ReplayError` when a trace lacks the maximum force the recognizer needs.
  package static func append(_ traces: [Trace], recognizer: AnyForceRecognizer, to out: inout String)
    throws(ReplayError)
  {
    let contacts = traces.filter { !$0.isEmpty }
    let results = try recognizer.replay(traces: contacts)
    for (trace, result) in zip(contacts, results) { append(trace, result, to: &out) }
  }

  static func append(_ trace: Trace, _ result: ReplayResult, to out: inout String) {
    let n = trace.count
    let maxForce = hex(trace.metadata.maxForce ?? .nan)
    let xs = trace.hasPosition ? trace.x : nil
    let ys = trace.hasPosition ? trace.y : nil
    let last = trace.phase.last == .cancelled ? "cancelled" : "ended"
    out += "contact \(trace.name.isEmpty ? "-" : trace.name.replacing(" ", with: "_"))\n"
    for i in 0..<n {
      let phase = i == n - 1 ? last : i == 0 ? "began" : "moved"
      let x = xs.map { hex($0[i]) } ?? hex(0)
      let y = ys.map { hex($0[i]) } ?? hex(0)
      out += "s \(phase) \(hex(trace.t[i])) \(hex(trace.force[i])) \(maxForce) \(x) \(y)\n"
    }
    for a in result.actions { out += "a \(a.kind.name) \(hex(a.t))\n" }
    for e in result.transitions { out += "e \(e.state.name) \(hex(e.t)) \(e.implicit ? 1 : 0)\n" }
    out += "end\n"
  }
}
