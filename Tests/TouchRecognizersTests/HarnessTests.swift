import Testing
import TouchCore

@testable import TouchRecognizers

/// A recognizer that records what the harness delivers, as `kind@index` (timers as `timer@index`
/// with the deadline kept separately). It can ask for stationary samples, set one timer, and
/// finish on a given sample.
struct Probe: ForceRecognizer {
  static let descriptor = RecognizerDescription(
    name: "probe", code: "", title: "probe", summary: "records deliveries",
    source: RecognizerSource(library: "tests", version: nil, link: nil, reference: "tests"), style: .continuous,
    actionEvent: "none",
    rules: "records deliveries", parameters: [])
  var variant: RecognizerDescription { Self.descriptor }
  var parameters: ParameterValues { Self.descriptor.defaults }
  var requiresMaximumForce: Bool { false }
  static var usesTimers: Bool { true }

  var log: [String] = []
  var deadlines: [Double] = []
  var timerDeadline = Double.infinity
  var finishAt: Int? = nil
  var timerDelay: Double? = nil

  mutating func note(_ kind: String, _ sample: TouchSample, _ context: inout GestureContext) {
    log.append("\(kind)@\(sample.index)")
    if sample.index == finishAt, kind != "timer" { context.setState(.failed, at: sample) }
  }
  mutating func touchesBegan(_ sample: TouchSample, _ context: inout GestureContext) {
    note("began", sample, &context)
    if let timerDelay { timerDeadline = sample.t + timerDelay }
  }
  mutating func touchesMoved(_ sample: TouchSample, _ context: inout GestureContext) { note("moved", sample, &context) }
  mutating func touchesEnded(_ sample: TouchSample, _ context: inout GestureContext) { note("ended", sample, &context) }
  mutating func touchesCancelled(_ sample: TouchSample, _ context: inout GestureContext) {
    note("cancelled", sample, &context)
  }
  mutating func timerFired(_ sample: TouchSample, _ context: inout GestureContext) {
    log.append("timer@\(sample.index)")
    deadlines.append(sample.t)
    timerDeadline = .infinity
    context.setState(.began, at: sample)
  }
  mutating func reset() {}
}

/// The same probe, also receiving stationary samples.
struct StationaryProbe: ForceRecognizer {
  var probe = Probe()
  var variant: RecognizerDescription { probe.variant }
  var parameters: ParameterValues { probe.parameters }
  var requiresMaximumForce: Bool { false }
  static var receivesStationary: Bool { true }
  mutating func touchesBegan(_ sample: TouchSample, _ context: inout GestureContext) {
    probe.touchesBegan(sample, &context)
  }
  mutating func touchesMoved(_ sample: TouchSample, _ context: inout GestureContext) {
    probe.touchesMoved(sample, &context)
  }
  mutating func touchesStationary(_ sample: TouchSample, _ context: inout GestureContext) {
    probe.note("stationary", sample, &context)
  }
  mutating func touchesEnded(_ sample: TouchSample, _ context: inout GestureContext) {
    probe.touchesEnded(sample, &context)
  }
  mutating func reset() {}
}

/// Replays through a probe and returns what it saw, with the context.
func deliveries<R: ForceRecognizer>(_ recognizer: R, _ trace: Trace, log: (R) -> [String]) -> ([String], GestureContext)
{
  var r = recognizer
  var context = GestureContext()
  Replay.replayContact(&r, trace: trace, into: &context)
  return (log(r), context)
}

@Suite("Replay harness: UIKit delivery rules")
struct HarnessTests {
  @Test func forceOnlyChangesAreMovedAndUnchangedSamplesAreDropped() {
    // 0 began; 1 force changed; 2 unchanged; 3 unchanged; 4 force changed; 5 lift.
    let trace = makeTrace([0, 1, 1, 1, 2, 0])
    let (log, _) = deliveries(Probe(), trace) { $0.log }
    #expect(log == ["began@0", "moved@1", "moved@4", "ended@5"])
  }

  @Test func positionOnlyChangesAreMoved() {
    let trace = makeTrace([1, 1, 1, 1], x: [0, 0, 3, 3], y: [0, 0, 0, 0])
    let (log, _) = deliveries(Probe(), trace) { $0.log }
    #expect(log == ["began@0", "moved@2", "ended@3"])
  }

  @Test func stationarySamplesReachOnlyRecognizersThatAskForThem() {
    let trace = makeTrace([0, 1, 1, 2, 2, 0])
    let (log, _) = deliveries(StationaryProbe(), trace) { $0.probe.log }
    #expect(log == ["began@0", "moved@1", "stationary@2", "moved@3", "stationary@4", "ended@5"])
  }

  @Test func lastSampleIsEndedOrCancelledByItsPhase() {
    let (ended, _) = deliveries(Probe(), makeTrace([0, 1, 0])) { $0.log }
    #expect(ended == ["began@0", "moved@1", "ended@2"])
    let (cancelled, _) = deliveries(Probe(), makeTrace([0, 1, 0], cancelled: true)) { $0.log }
    #expect(cancelled == ["began@0", "moved@1", "cancelled@2"])
  }

  @Test func traceWithoutEndSampleIsClosedAsEndedAtItsLastSample() {
    let (log, _) = deliveries(Probe(), makeTrace([0, 1, 2], lastPhase: .moved)) { $0.log }
    #expect(log == ["began@0", "moved@1", "ended@2"])
  }

  @Test func oneSampleTraceGetsBeganThenEnded() {
    let (log, _) = deliveries(Probe(), makeTrace([3])) { $0.log }
    #expect(log == ["began@0", "ended@0"])
  }

  @Test func nothingIsDeliveredAfterATerminalState() {
    var probe = Probe()
    probe.finishAt = 2
    let (log, context) = deliveries(probe, makeTrace([0, 1, 2, 3, 4, 0])) { $0.log }
    #expect(log == ["began@0", "moved@1", "moved@2"])
    #expect(context.transitions.map(\.state) == [.failed])
  }

  @Test func endOfSequenceFailsARecognizerLeftPossible() {
    let (_, context) = deliveries(Probe(), makeTrace([0, 1, 0])) { $0.log }
    #expect(context.transitions.count == 1)
    #expect(context.transitions[0].state == .failed)
    #expect(context.transitions[0].implicit)
    #expect(context.transitions[0].index == 2)
  }

  @Test func timerFiresAtItsExactDeadlineDuringASilentStretch() {
    // Samples at 0, 1/64, 2/64, then silence until the lift at 1 s; timer 0.5 s after touch-down.
    var probe = Probe()
    probe.timerDelay = 0.5
    let trace = makeTrace([0, 1, 1, 0], times: [0, 1.0 / 64, 2.0 / 64, 1.0])
    let (log, context) = deliveries(probe, trace) { $0.log + $0.deadlines.map { "t=\($0)" } }
    #expect(log == ["began@0", "moved@1", "timer@2", "ended@3", "t=0.5"])
    #expect(context.transitions.first == StateTransition(state: .began, t: 0.5, index: 2))
  }

  @Test func timerDueAtASampleTimeFiresBeforeThatSample() {
    // Samples every 1/64 s: sample 32 is at exactly 0.5 s.
    var probe = Probe()
    probe.timerDelay = 0.5
    let trace = makeTrace((0..<40).map { Double($0 % 2) })
    let (log, _) = deliveries(probe, trace) { $0.log }
    let timer = log.firstIndex(of: "timer@31")
    let sample32 = log.firstIndex(of: "moved@32")
    #expect(timer != nil && sample32 != nil && timer! < sample32!)
  }

  @Test func timerAfterTheLiftNeverFires() {
    var probe = Probe()
    probe.timerDelay = 0.5
    let (log, _) = deliveries(probe, makeTrace([0, 1, 0], times: [0, 0.1, 0.2])) { $0.log }
    #expect(log == ["began@0", "moved@1", "ended@2"])
  }

  @Test func emptyTraceProducesNothing() throws {
    let trace = makeTrace([])
    let result = try run(ShunkitForceTouch(), trace)
    #expect(result.transitions.isEmpty && result.actions.isEmpty)
  }

  @Test func normalizedVariantRejectsTraceWithoutMaximumForce() {
    let trace = makeTrace([0, 4, 0], maxForce: nil, id: "nomax")
    #expect(throws: ReplayError.missingMaximumForce(trace: "nomax", variant: "deep-press")) {
      try run(FlexMonkeyDeepPress(), trace)
    }
    let any = AnyForceRecognizer(FlexMonkeyDeepPress())
    #expect(
      any.unsupportedReason(for: trace)
        == "recognizer 'deep-press' needs the trace's maximum possible force and the trace has none")
    #expect(AnyForceRecognizer(DFContinuousForceTouch()).unsupportedReason(for: trace) == nil)
  }

  @Test func batchReplayChecksEveryTraceBeforeReplaying() {
    let good = makeTrace([0, 4, 0], id: "good")
    let bad = makeTrace([0, 4, 0], maxForce: nil, id: "bad")
    #expect(throws: ReplayError.missingMaximumForce(trace: "bad", variant: "deep-press")) {
      try Replay.replay(traces: [good, bad], using: FlexMonkeyDeepPress())
    }
  }

  @Test func flatLogSplitsTracesBySpan() throws {
    let traces = [makeTrace([0, grid(310), 0], id: "a"), makeTrace([0, grid(10), 0], id: "b")]
    var log = ReplayLog()
    try Replay.replay(traces: traces, using: FlexMonkeyDeepPress(), into: &log)
    #expect(log.count == 2)
    let a = log.result(0, trace: "a", variant: FlexMonkeyDeepPress.descriptor)
    let b = log.result(1, trace: "b", variant: FlexMonkeyDeepPress.descriptor)
    #expect(states(a) == ["began@1", "ended@2"])
    #expect(states(b) == ["failed@2"])
  }
}
