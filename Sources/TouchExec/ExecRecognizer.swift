package import TouchCore
package import TouchRecognizers

/// A recognizer in another process, in any language: `exec:COMMAND` on the command line. The
/// command is started through `/bin/sh -c` (once per thread that replays at the same time, and
/// reused), and decides on each contact through the ``ExecProtocol`` (JSON Lines); the harness
/// then records its decisions (`ScriptPlayback`), so reports, sweeps and compositions treat it
/// like any recognizer.
///
/// Parameters: any name (`acceptsAnyParameter`), as numbers, sent in
/// every request. Every contact is sent once per configuration.
package struct ExecRecognizer: ForceRecognizer {
  /// `exec:COMMAND`, its stages as the command declared them, any parameter accepted.
  package let variant: RecognizerDescription
  /// The values set with `--set`/`--vary` (no defaults: unset parameters are not sent).
  package let parameters: ParameterValues
  /// How far after the lift an action may come (the matching tolerance), seconds.
  let slack: Double
  let pool: ExecPool
  // The per-sample path: the contact so far.
  private var samples: [TouchSample] = []

  init(variant: RecognizerDescription, parameters: ParameterValues, slack: Double, pool: ExecPool) {
    self.variant = variant
    self.parameters = parameters
    self.slack = slack
    self.pool = pool
  }

  /// Whether the command said, in its hello, that it needs the maximum possible force
  /// (`"needs_max_force": true`); otherwise traces without one are sent with null.
  package var requiresMaximumForce: Bool { pool.hello.needsMaximumForce }

  // MARK: Batch path: what `run`, `sweep`, `tune` and `compare` call.

  /// Asks the command for every trace's decisions, then records them.
  ///
  /// - Throws: `external(trace:variant:message:)` when the command fails.
  package func replay(traces: [Trace], carryingState: Bool, into log: inout ReplayLog) throws(ReplayError) {
    let scripts = try decisions(traces)
    ScriptPlayback.replay(traces: traces, scripts: scripts, variant: variant, parameters: parameters, into: &log)
  }

  /// Columns: rebuilt as traces (ids `contact-K`) and replayed as such; a failure of the command
  /// stops the process (this entry point cannot throw: use ``replay(traces:carryingState:into:)``).
  package func replay(
    t: UnsafeBufferPointer<Double>, force: UnsafeBufferPointer<Double>, offsets: UnsafeBufferPointer<Int>,
    maxForce: Double, into log: inout ReplayLog
  ) {
    var traces: [Trace] = []
    for k in 0..<max(0, offsets.count - 1) {
      let range = offsets[k]..<offsets[k + 1]
      traces.append(
        Trace(
          metadata: TraceMetadata(id: "contact-\(k)", maxForce: maxForce.isNaN ? nil : maxForce), t: Array(t[range]),
          force: Array(force[range]), phase: TouchPhase.defaultSequence(count: range.count)))
    }
    do throws(ReplayError) {
      try replay(traces: traces, carryingState: false, into: &log)
    } catch {
      preconditionFailure(error.description)
    }
  }

  /// `dependent` waiting for this recognizer to fail: the decisions first, then the composition
  /// replayed with them.
  package func compositionReplay(waiting dependent: any ForceRecognizer) -> CompositionReplay {
    let me = self
    func compose<D: ForceRecognizer>(_ d: D) -> any ForceRecognizer { RequireToFail(d, requiringFailureOf: me) }
    let composed = compose(dependent)
    return CompositionReplay(recognizer: composed) { traces, carryingState, log throws(ReplayError) in
      let scripts = try me.decisions(traces)
      ScriptPlayback.replay(
        traces: traces, scripts: scripts, variant: me.variant, parameters: me.parameters, waiting: dependent,
        carryingState: carryingState, into: &log)
    }
  }

  /// The command's decisions on `traces`, each checked against its contact.
  func decisions(_ traces: [Trace]) throws(ReplayError) -> [ActionScript] {
    var scripts: [ActionScript] = []
    scripts.reserveCapacity(traces.count)
    var current = 0
    do throws(ChildFailure) {
      try pool.withChild { child throws(ChildFailure) in
        let first = child.nextSeq
        var request: [UInt8] = []
        for (k, trace) in traces.enumerated() {
          ExecProtocol.appendRequest(seq: first + k, trace: trace, params: parameters, to: &request)
        }
        child.nextSeq += traces.count
        try child.exchange(request, expecting: traces.count, timeout: pool.timeout) { line, k throws(ChildFailure) in
          current = k  // the request whose answer this is (or, after it, the next one due)
          let trace = traces[k]
          let script = try ExecProtocol.readAnswer(line, seq: first + k, trace: trace)
          if let problem = script.problem(touchDown: trace.t.first ?? 0, lift: trace.t.last ?? 0, slack: slack) {
            throw ChildFailure(message: "\(problem): \(ExecProtocol.excerpt(line))")
          }
          if variant.stage2Event == nil, script.actions.contains(where: { $0.stage == 2 }) {
            throw ChildFailure(
              message: "a stage-2 action from a command whose hello declared one stage (send \"stages\": 2)")
          }
          scripts.append(script)
          current = k + 1
        }
      }
    } catch {
      let trace = traces.isEmpty ? "-" : traces[min(current, traces.count - 1)].name
      throw .external(
        trace: trace, variant: variant.name, message: "the command `\(pool.command)` failed: \(error.message)")
    }
    return scripts
  }

  // MARK: Per-sample path: the contact is collected, then decided at its end.
  //
  // For code that drives the recognizer sample by sample (`Replay.replay(trace:using:)`): the
  // command needs the whole contact, so its decisions are recorded at the lift (at their own
  // times). A composition driven this way would hold its dependent until the lift; the tool's
  // entry points above replay compositions with the decisions known in advance instead.

  /// Every sample is collected.
  package static var receivesStationary: Bool { true }

  /// The touch-down.
  package mutating func touchesBegan(_ sample: TouchSample, _ context: inout GestureContext) {
    samples.removeAll(keepingCapacity: true)
    samples.append(sample)
  }
  /// A changed sample.
  package mutating func touchesMoved(_ sample: TouchSample, _ context: inout GestureContext) { samples.append(sample) }
  /// An unchanged sample.
  package mutating func touchesStationary(_ sample: TouchSample, _ context: inout GestureContext) {
    samples.append(sample)
  }
  /// The lift: the command decides on the collected contact.
  package mutating func touchesEnded(_ sample: TouchSample, _ context: inout GestureContext) {
    decideCollected(sample, cancelled: false, &context)
  }
  /// The cancellation: the command decides on the collected contact.
  package mutating func touchesCancelled(_ sample: TouchSample, _ context: inout GestureContext) {
    decideCollected(sample, cancelled: true, &context)
  }
  /// Forgets the contact.
  package mutating func reset() { samples.removeAll(keepingCapacity: true) }

  /// Sends the collected contact and records the decisions into `context` (a failure of the
  /// command stops the process: the per-sample protocol cannot throw).
  private mutating func decideCollected(_ last: TouchSample, cancelled: Bool, _ context: inout GestureContext) {
    if samples.last?.index != last.index { samples.append(last) }
    var phase = TouchPhase.defaultSequence(count: samples.count)
    if cancelled && samples.count > 1 { phase[samples.count - 1] = .cancelled }
    let hasPosition = samples.contains { $0.x != 0 || $0.y != 0 }
    let trace = Trace(
      metadata: TraceMetadata(id: "contact", maxForce: last.maxForce.isNaN ? nil : last.maxForce), t: samples.map(\.t),
      force: samples.map(\.force), phase: phase, x: hasPosition ? samples.map(\.x) : nil,
      y: hasPosition ? samples.map(\.y) : nil)
    let script: ActionScript
    do throws(ReplayError) {
      script = try decisions([trace])[0]
    } catch {
      preconditionFailure(error.description)
    }
    var playback = ScriptPlayback(script, times: trace.t, variant: variant, parameters: parameters)
    Replay.replayContact(&playback, trace: trace, into: &context)
  }
}
