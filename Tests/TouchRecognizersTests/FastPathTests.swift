import Testing
import TouchCore
import TouchTestSupport

@testable import TouchRecognizers

/// Forwards everything to `base` but never skips samples: the slow path as reference.
struct NoFastPath<Base: ForceRecognizer>: ForceRecognizer {
  var base: Base
  var variant: RecognizerDescription { base.variant }
  var parameters: ParameterValues { base.parameters }
  var requiresMaximumForce: Bool { base.requiresMaximumForce }
  static var receivesStationary: Bool { Base.receivesStationary }
  static var usesTimers: Bool { Base.usesTimers }
  var timerDeadline: Double { base.timerDeadline }
  mutating func touchesBegan(_ s: TouchSample, _ c: inout GestureContext) { base.touchesBegan(s, &c) }
  mutating func touchesMoved(_ s: TouchSample, _ c: inout GestureContext) { base.touchesMoved(s, &c) }
  mutating func touchesStationary(_ s: TouchSample, _ c: inout GestureContext) { base.touchesStationary(s, &c) }
  mutating func touchesEnded(_ s: TouchSample, _ c: inout GestureContext) { base.touchesEnded(s, &c) }
  mutating func touchesCancelled(_ s: TouchSample, _ c: inout GestureContext) { base.touchesCancelled(s, &c) }
  mutating func timerFired(_ s: TouchSample, _ c: inout GestureContext) { base.timerFired(s, &c) }
  mutating func reset() { base.reset() }
}

@Suite("Fast path and column replay")
struct FastPathTests {
  func check<R: ForceRecognizer>(_ recognizer: R, seed: UInt64) throws {
    #expect(R.skipsInertSamples && !NoFastPath<R>.skipsInertSamples)
    var rng = SplitMix64(seed: seed)
    let traces = (0..<80).map { randomTrace(&rng, id: "f\($0)", positions: $0 % 2 == 0) }
    let fast = try Replay.replay(traces: traces, using: recognizer)
    let slow = try Replay.replay(traces: traces, using: NoFastPath(base: recognizer))
    #expect(fast == slow)
    let fastCarried = try Replay.replay(traces: traces, using: recognizer, carryingState: true)
    let slowCarried = try Replay.replay(traces: traces, using: NoFastPath(base: recognizer), carryingState: true)
    #expect(fastCarried == slowCarried)
  }

  @Test(arguments: [11, 12] as [UInt64])
  func skippingInertSamplesChangesNothing(seed: UInt64) throws {
    for threshold in [0.5, 2.0, 3.0, 180.0 / 60, 6.0] {
      try check(ShunkitForceTouch(minimumForce: threshold), seed: seed)
    }
    for threshold in [0.0, 0.2, 0.45, 0.5, 0.75] { try check(FlexMonkeyDeepPress(threshold: threshold), seed: seed) }
    for threshold in [0.0, 0.2, 0.45] {
      try check(RNGHForceTouch(minForce: threshold), seed: seed)
      try check(RNGHForceTouch(minForce: threshold, maxForce: 0.6), seed: seed)
    }
    try check(RNGHForceTouch(maxForce: -0.5), seed: seed)
    for (h, l) in [(0.12, 0.1), (0.3, 0.3), (0.5, 0.2)] {
      try check(HysteresisLatch(pressThreshold: h, releaseThreshold: l), seed: seed)
      try check(HysteresisLatch(pressThreshold: h, releaseThreshold: l, palmThreshold: 0.8), seed: seed)
      try check(
        HysteresisLatch(pressThreshold: h, releaseThreshold: l, strictPress: true, inclusiveRelease: true), seed: seed)
    }
  }

  @Test func columnReplayMatchesTraceReplay() throws {
    var rng = SplitMix64(seed: 5)
    // Lift-ended traces without positions, one maximum force.
    let traces = (0..<50).map { k -> Trace in
      var trace = randomTrace(&rng, id: "c\(k)", positions: false)
      trace.phase = TouchPhase.defaultSequence(count: trace.count)
      return trace
    }
    let t = traces.flatMap(\.t)
    let force = traces.flatMap(\.force)
    var offsets = [0]
    for trace in traces { offsets.append(offsets[offsets.count - 1] + trace.count) }
    var log = ReplayLog()
    t.withUnsafeBufferPointer { t in
      force.withUnsafeBufferPointer { f in
        offsets.withUnsafeBufferPointer { o in
          Replay.replay(t: t, force: f, offsets: o, maxForce: iPhoneMax, using: FlexMonkeyDeepPress(), into: &log)
        }
      }
    }
    let expected = try Replay.replay(traces: traces, using: FlexMonkeyDeepPress())
    #expect(log.count == traces.count)
    for k in traces.indices {
      #expect(log.result(k, trace: traces[k].name, variant: FlexMonkeyDeepPress.descriptor) == expected[k])
    }
  }
}
