import Testing
import TouchCore

@testable import TouchRecognizers

// Expected values are worked out by hand from recognizers.md (§0.1, §2–3, §6, §8.1). Unless
// given, samples are 1/64 s apart (exact in binary, so sample i is at exactly i/64 s).

/// `count` samples alternating between two forces (all moved).
func alternating(_ a: Double, _ b: Double, count: Int) -> [Double] {
  (0..<count).map { $0 % 2 == 0 ? a : b }
}

@Suite("V3 gt-deep-press")
struct GTTests {
  /// Crossing at sample 1 (t = 1/64); saturation (n == 1.0 exactly) at sample 20 (0.297 s after
  /// the crossing: too early) and at sample 40 (0.609 s after: > 0.5, ends).
  func hardTriggerTrace(saturateAt40: Bool = true) -> Trace {
    var f = [0, grid(300)]
    f += alternating(grid(310), grid(320), count: 18)  // 2…19
    f.append(grid(400))  // 20
    f += alternating(grid(390), grid(380), count: 19)  // 21…39
    f.append(saturateAt40 ? grid(400) : grid(399))  // 40
    f += [grid(390), 0]  // 41, lift 42
    return makeTrace(f, id: "hard")
  }

  @Test func actionFiresAtLiftAfterCrossing() throws {
    let result = try run(GTForceTouch(), makeTrace([0, grid(299), grid(300), grid(350), 0]))
    #expect(states(result) == ["began@2", "ended@4"])
    #expect(result.action?.index == 4)
    #expect(states(try run(GTForceTouch(), makeTrace([0, grid(299), 0]))) == ["failed@2"])
  }

  @Test func exactSaturationMoreThanHardTriggerMinTimeAfterCrossingEndsEarly() throws {
    let result = try run(GTForceTouch(), hardTriggerTrace())
    #expect(states(result) == ["began@1", "ended@40"])
    #expect(result.action?.index == 40)
    // 399/60 is 0.9975, not 1.0: no hard trigger, the action waits for the lift.
    let almost = try run(GTForceTouch(), hardTriggerTrace(saturateAt40: false))
    #expect(almost.action?.index == 42)
  }

  @Test func staleStateAfterHardTriggerMakesTheNextPlainTapFire() throws {
    let tap = makeTrace([0, grid(50), 0], id: "tap")
    let traces = [hardTriggerTrace(), tap]
    let carried = try Replay.replay(traces: traces, using: GTForceTouch(), carryingState: true)
    #expect(states(carried[1]) == ["ended@2"])
    #expect(carried[1].action?.index == 2)
    let fresh = try Replay.replay(traces: traces, using: GTForceTouch())
    #expect(states(fresh[1]) == ["failed@2"])
    let fixed = try Replay.replay(
      traces: traces, using: GTForceTouch(faithfulStaleState: false), carryingState: true)
    #expect(states(fixed[1]) == ["failed@2"])
  }
}

@Suite("V4 flutter-force-press")
struct FlutterTests {
  @Test func startAndPeakAreStrictOnTheInterpolatedPressure() throws {
    // 160/60 → 0.39999999999999997, 161 → 0.4025 (> 0.4); 340 → 0.85 (not > 0.85), 341 → 0.8525.
    let trace = makeTrace([0, grid(160), grid(161), grid(340), grid(341), grid(300), 0])
    let result = try run(FlutterForcePress(), trace)
    #expect(states(result) == ["began@2", "changed@4", "ended@6"])
    #expect(actionList(result) == ["action@2", "stage2@4"])
    #expect(result.stage2?.index == 4)
  }

  @Test func startAndPeakOnTheSameEvent() throws {
    let result = try run(FlutterForcePress(), makeTrace([0, grid(380), 0]))
    #expect(states(result) == ["began@1", "changed@1", "ended@2"])
    #expect(actionList(result) == ["action@1", "stage2@1"])
  }

  @Test func oneMoveOfMoreThanFourPixelsRejectsWhilePossible() throws {
    // Squared per-event delta 25 > 18 (the unsquared slop).
    let rejected = try run(FlutterForcePress(), makeTrace([0, grid(10), grid(20), 0], x: [0, 5, 5, 5]))
    #expect(states(rejected) == ["failed@1"])
    // Steps of 4 px (16 <= 18) never reject; the lift in possible rejects.
    let x = [0.0, 4, 8, 12, 16, 20, 24]
    let forces = [0, grid(10), grid(20), grid(30), grid(40), grid(50), 0]
    #expect(states(try run(FlutterForcePress(), makeTrace(forces, x: x))) == ["failed@6"])
    // Cumulative option: the distance from touch-down exceeds 18 at x = 20.
    let cumulative = FlutterForcePress(faithfulSlopTest: false)
    #expect(states(try run(cumulative, makeTrace(forces, x: x))) == ["failed@5"])
  }

  @Test func aloneInTheArenaThereIsNoSlopTest() throws {
    let trace = makeTrace([0, grid(10), grid(300), 0], x: [0, 5, 5, 5])
    #expect(try run(FlutterForcePress(aloneInArena: true), trace).action?.index == 2)
  }

  @Test func deviceWithoutPressureIsRejected() throws {
    let result = try run(FlutterForcePress(), makeTrace([0, 0.9, 0], maxForce: 1.0))
    #expect(states(result) == ["failed@0"])
  }
}

@Suite("V6 df-continuous")
struct DFTests {
  @Test func firmStartFiresAfterTheDelayAtTheExactDeadline() throws {
    // Touch-down 2.4 > 1.0 → detected; trunc(2.4) = 2 > 1.0 → timer at 0.5 s. Moves stay below
    // 2.5. Sample 32 is at exactly 0.5 s: the timer fires first, on the index of sample 31.
    let trace = makeTrace(alternating(2.4, 2.3, count: 40) + [0])
    let result = try run(DFContinuousForceTouch(), trace)
    #expect(result.action == ReplayEvent(t: 0.5, index: 31))
    #expect(states(result) == ["ended@40"])  // never leaves possible before the lift
  }

  @Test func softStartFiresWhenForceReachesTheTrigger() throws {
    // 0.5 not detected; 1.5 detected (trunc 1, not > 1: no timer); 2.4 no; 2.5 >= 2.5 fires.
    let result = try run(DFContinuousForceTouch(), makeTrace([0.5, 1.5, 2.4, 2.5, 2.4, 0]))
    #expect(result.action?.index == 3)
  }

  @Test func integerTruncationKeepsATouchStartingAt1_9FromEverFiring() throws {
    let trace = makeTrace(alternating(1.9, 2.0, count: 40) + [0])
    #expect(try run(DFContinuousForceTouch(), trace).action == nil)
    let untruncated = try run(DFContinuousForceTouch(faithfulIntTruncation: false), trace)
    #expect(untruncated.action == ReplayEvent(t: 0.5, index: 31))
  }

  @Test func delayTimerIsNotCancelledWhenForceDrops() throws {
    let trace = makeTrace([2.0] + alternating(0.5, 0.6, count: 39) + [0])
    #expect(try run(DFContinuousForceTouch(), trace).action == ReplayEvent(t: 0.5, index: 31))
    #expect(try run(DFContinuousForceTouch(faithfulUncancelledDelay: false), trace).action == nil)
  }

  @Test func restingFingerTimesOut() throws {
    // Last event at 0.25 s, then nothing until the lift at 3 s: fails at 0.25 + 1.5 s.
    let trace = makeTrace([0.5, 0.6, 0.6], times: [0, 0.25, 3.0])
    let result = try run(DFContinuousForceTouch(), trace)
    #expect(result.transitions == [StateTransition(state: .failed, t: 1.75, index: 1)])
  }

  @Test func liftIsRecognizedWhenDetectedElseCancelled() throws {
    #expect(states(try run(DFContinuousForceTouch(), makeTrace([0.5, 0.6, 0]))) == ["cancelled@2"])
    #expect(states(try run(DFContinuousForceTouch(), makeTrace([1.2, 1.3, 0]))) == ["ended@2"])
  }

  @Test func startThresholdIsHardCoded() throws {
    let trace = makeTrace([2.0, 2.1, 0])
    #expect(states(try run(DFContinuousForceTouch(baseForceTouchPressure: 3), trace)) == ["ended@2"])
    let honest = DFContinuousForceTouch(baseForceTouchPressure: 3, faithfulHardCodedStart: false)
    #expect(states(try run(honest, trace)) == ["cancelled@2"])
  }
}

@Suite("V8 pressure-js")
struct PressureJSTests {
  @Test func polyfillFiresADeepPressAboutHalfASecondIntoAHoldWithoutForceData() throws {
    // Constant force: no touchforcechange. The probe fails at 0.07 s (between samples 4 and 5);
    // the polyfill ticks at 0.07 + k·0.01 s; after 50 ticks its force is 0.5000000000000002.
    let trace = makeTrace([Double](repeating: 0.3, count: 65))
    let result = try run(PressureJSDeepPress(), trace)
    #expect(states(result) == ["began@4", "changed@35", "ended@64"])
    let began = try #require(result.transitions.first)
    #expect(abs(began.t - 0.07) < 1e-12)
    let action = try #require(result.action)
    #expect(action.index == 35)
    #expect(abs(action.t - 0.56) < 1e-12)
  }

  @Test func nativeForceStartsRepeatsAndReleasesWithoutHysteresis() throws {
    // n = 0.25, 0.5 (>=), 0.375, 0.525.
    let trace = makeTrace([0, grid(100), grid(200), grid(150), grid(210), 0])
    let result = try run(PressureJSDeepPress(), trace)
    #expect(states(result) == ["began@1", "changed@2", "ended@5"])
    #expect(actionList(result) == ["action@2", "release@3", "action@4"])
    #expect(result.flaps == 1)
  }

  @Test func withoutPolyfillTheProbeCallsUnsupportedButALaterForceEventStillStarts() throws {
    // `unsupported` at 70 ms changes nothing: with no force event the contact ends unstarted…
    let result = try run(PressureJSDeepPress(polyfill: false), makeTrace([Double](repeating: 0.3, count: 10)))
    #expect(states(result) == ["failed@9*"])
    // …and a force event after the probe (sample 6, 0.09375 s) starts the press.
    let late = try run(PressureJSDeepPress(polyfill: false), makeTrace([0.3, 0.3, 0.3, 0.3, 0.3, 0.3, 4.0, 4.0, 0]))
    #expect(states(late) == ["began@6", "changed@6", "ended@8"])
    #expect(actionList(late) == ["action@6"])
  }

  @Test func polyfillTicksMeetASampleAtTheSameDecimalTimeWhateverTheTouchDownTime() throws {
    // The 50th tick is 560 ms after touch-down; a lift written at touch-down + 0.56 s meets it:
    // timers first, so the deep press happens, at every touch-down time. In floating point
    // 12.345 + 0.07 + 0.49 is 12.905000000000001, one unit past the sample's 12.905.
    let cases = [
      (0.0, 0.56, 0.49), (1.0, 1.56, 1.49), (12.345, 12.905, 12.835), (3.21, 3.77, 3.7),
      (123456.789, 123457.349, 123457.279),
    ]
    for (t0, lift, pointerLift) in cases {
      let times = [t0, t0 + 0.1, lift]
      let result = try run(PressureJSDeepPress(), makeTrace([0.3, 0.3, 0.3], times: times))
      #expect(actionList(result) == ["action@1"], "touch-down \(t0)")
      #expect(result.action?.t == lift, "touch-down \(t0)")
      // The pointer adapter's polyfill starts at touch-down: its 50th tick is at 490 ms.
      let pointer = try run(
        PressureJSPointerDeepPress(), makeTrace([0, 0, 0], times: [t0, t0 + 0.1, pointerLift], maxForce: 1))
      #expect(pointer.action?.t == pointerLift, "touch-down \(t0)")
    }
    // One microsecond earlier, the lift wins.
    let early = try run(PressureJSDeepPress(), makeTrace([0.3, 0.3, 0.3], times: [12.345, 12.5, 12.904999]))
    #expect(early.action == nil)
  }

  @Test func nativeForceStopsARunningPolyfillAndThePressNeverEnds() throws {
    // Polyfill from 0.07 s; at sample 17 (0.265625 s) its force is 0.2; then native n = 0.6.
    // `_startPress` is skipped (already pressed), so `runningPolyfill` stays set and the lift's
    // `_endPress` only clears `pressed`: no `end`; the end-of-sequence rule cancels the press.
    let f = [Double](repeating: 0.3, count: 17) + [Double](repeating: 4.0, count: 13) + [0]
    let result = try run(PressureJSDeepPress(), makeTrace(f))
    #expect(actionList(result) == ["action@17"])
    #expect(states(result) == ["began@4", "changed@17", "cancelled@30*"])
  }

  @Test func cancelledTouchIsNotHandledByPressureJS() throws {
    // Only touchend is bound: the open press is cancelled by the end-of-sequence rule.
    let result = try run(PressureJSDeepPress(), makeTrace([0, grid(100), grid(210), grid(210)], cancelled: true))
    #expect(states(result) == ["began@1", "changed@2", "cancelled@3*"])
  }

  @Test func liftBeforeTheProbeEndsLeavesItPossible() throws {
    let result = try run(PressureJSDeepPress(), makeTrace([0.3, 0.3, 0.3]))
    #expect(states(result) == ["failed@2*"])
  }
}

@Suite("V8-pointer pressure-js-pointer")
struct PressureJSPointerTests {
  // maxForce 1: the force is the pressure. Samples 1/64 s apart.
  @Test func aValidPressureStartsAtTouchDownWithoutADeepPressTestAndNeverPolyfills() throws {
    // 0.7 at touch-down: start, no deep press until a move; a constant valid pressure never
    // polyfills (the 3D Touch adapter would deep-press at 560 ms).
    let still = try run(PressureJSPointerDeepPress(), makeTrace([Double](repeating: 0.7, count: 50), maxForce: 1))
    #expect(states(still) == ["began@0", "ended@49"])
    #expect(still.action == nil)
  }

  @Test func positionOnlyMovesRunTheDeepPressTest() throws {
    let result = try run(
      PressureJSPointerDeepPress(),
      makeTrace([0.7, 0.7, 0.7, 0.2, 0], maxForce: 1, x: [10, 10, 11, 11, 11], y: [5, 5, 5, 5, 5]))
    // Sample 1 is unchanged (dropped); sample 2 moves only: deep press; sample 3: release.
    #expect(actionList(result) == ["action@2", "release@3"])
    #expect(states(result) == ["began@0", "changed@2", "ended@4"])
  }

  @Test func pressureHalfIsIgnoredAndZeroOrHalfAtTouchDownPolyfillsAtOnce() throws {
    // 0.5 at touch-down: polyfill from touch-down, its 50th tick at 0.49 s (sample 31 at
    // 0.484375 s is before it; the action is reported at the tick time).
    let held = try run(PressureJSPointerDeepPress(), makeTrace([Double](repeating: 0.5, count: 40), maxForce: 1))
    #expect(states(held) == ["began@0", "changed@31", "ended@39"])
    #expect(held.action?.t == 0.49)
    // Moves at exactly 0.5 are ignored: they neither stop the polyfill nor deep-press.
    let moves = try run(
      PressureJSPointerDeepPress(), makeTrace([0, 0.5, 0.25, 0.5, 0], maxForce: 1))
    #expect(moves.action == nil)
    #expect(states(moves) == ["began@0", "cancelled@4*"])  // native 0.25 took over the polyfill: no end
  }

  @Test func withoutPolyfillAnUnsupportedTouchDownFailsTheContact() throws {
    let result = try run(PressureJSPointerDeepPress(polyfill: false), makeTrace([0, 0.6, 0.8, 0], maxForce: 1))
    #expect(states(result) == ["failed@0"])
  }

  @Test func aCancellationEndsThePressAsALiftDoes() throws {
    // pointercancel is not bound, but browsers follow it with pointerleave, which is.
    let result = try run(PressureJSPointerDeepPress(), makeTrace([0.3, 0.6, 0.6], maxForce: 1, cancelled: true))
    #expect(states(result) == ["began@0", "changed@1", "ended@2"])
  }
}

@Suite("V9 long press")
struct LongPressTests {
  @Test func firesAtTheExactDeadlineOnASilentStretch() throws {
    let trace = makeTrace([0, 1, 1, 0], times: [0, 1.0 / 64, 2.0 / 64, 1.0])
    let result = try run(IOSLongPress(), trace)
    #expect(result.action == ReplayEvent(t: 0.5, index: 2))
    #expect(states(result) == ["began@2", "ended@3"])
  }

  @Test func deadlineOnASampleTimeFiresBeforeThatSample() throws {
    let result = try run(IOSLongPress(), makeTrace(alternating(1, 2, count: 40)))
    #expect(result.action == ReplayEvent(t: 0.5, index: 31))
    #expect(states(result) == ["began@31", "changed@32", "ended@39"])
  }

  @Test func movementBeyondAllowableMovementFailsOnlyBeforeBegan() throws {
    let times = [0.0, 0.1, 0.2, 1.0]
    let far = makeTrace([0, 0, 0, 0], times: times, x: [0, 0, 11, 11])
    #expect(states(try run(IOSLongPress(), far)) == ["failed@2"])
    let edge = makeTrace([0, 0, 0, 0], times: times, x: [0, 10, 10, 10])
    #expect(states(try run(IOSLongPress(), edge)) == ["began@2", "ended@3"])
    let after = makeTrace([0, 0, 0, 0, 0], times: [0, 0.1, 0.6, 0.7, 1.0], x: [0, 0, 0, 50, 50])
    #expect(states(try run(IOSLongPress(), after)) == ["began@1", "changed@3", "ended@4"])
  }

  @Test func earlyLiftFails() throws {
    #expect(states(try run(IOSLongPress(), makeTrace([0, 1, 0], times: [0, 0.1, 0.4]))) == ["failed@2"])
  }

  @Test func androidDeepPressFiresThePendingLongPressAtOnce() throws {
    let trace = makeTrace([0, grid(100), grid(200), 0], times: [0, 0.1, 0.2, 1.0])
    let deep = try run(AndroidLongPress(deepPressThreshold: 0.5), trace)
    #expect(deep.action == ReplayEvent(t: 0.2, index: 2))
    #expect(try run(AndroidLongPress(), trace).action == ReplayEvent(t: 0.4, index: 2))
    // Deep press is disabled when the long-press timeout exceeds 400 ms.
    let gated = try run(AndroidLongPress(longPressTimeout: 0.5, deepPressThreshold: 0.5), trace)
    #expect(gated.action == ReplayEvent(t: 0.5, index: 2))
  }

  @Test func androidSlopIsStrict() throws {
    let times = [0.0, 0.1, 1.0]
    #expect(states(try run(AndroidLongPress(), makeTrace([0, 0, 0], times: times, x: [0, 8.1, 8.1]))) == ["failed@1"])
    #expect(
      states(try run(AndroidLongPress(), makeTrace([0, 0, 0], times: times, x: [0, 8, 8]))) == ["began@1", "ended@2"])
  }
}

@Suite("V10 peak-release")
struct PeakReleaseTests {
  @Test func defaultToleranceNeverEndsByADropSoTheLiftCommits() throws {
    let result = try run(PeakRelease(), makeTrace([0, 0.2, 0.5, 0.3, 0.1, 0], maxForce: 1))
    #expect(states(result) == ["began@1", "changed@2", "ended@5"])
    #expect(result.action?.index == 5)
  }

  @Test func endsWhenForceDropsBelowTheLaggedMaximumMinusTolerance() throws {
    // maxValue lags: 0 at sample 2, 0.5 from sample 3; 0.41 is not < 0.4, 0.39 is.
    let trace = makeTrace([0, 0.2, 0.5, 0.45, 0.41, 0.39, 0], maxForce: 1)
    #expect(try run(PeakRelease(tolerance: 0.1), trace).action?.index == 5)
    // The drop right after the peak is checked against the old maximum (0): it does not end.
    let lag = makeTrace([0, 0.2, 0.6, 0.45, 0.44, 0], maxForce: 1)
    #expect(try run(PeakRelease(tolerance: 0.1), lag).action?.index == 4)
  }

  @Test func demoModeEndsOnADecreaseBelowTheValueTwoSamplesBack() throws {
    let trace = makeTrace([0, 0.2, 0.5, 0.6, 0.55, 0.5, 0], maxForce: 1)
    let result = try run(PeakRelease(endOnAnyDecrease: true), trace)
    #expect(states(result) == ["began@1", "changed@2", "ended@5"])
  }

  @Test func minimumValueIsStrict() throws {
    let result = try run(PeakRelease(minimumValue: 0.1), makeTrace([0, 0.1, 0.11, 0], maxForce: 1))
    #expect(states(result) == ["began@2", "ended@3"])
  }
}

@Suite("V11 zones")
struct ZonesTests {
  @Test func reportsReachesAndCrossingsUpAndDown() throws {
    let trace = makeTrace([0, 0.2, 0.4, 0.6, 0.9, 0.3, 0.3, 0], maxForce: 1)
    let single = try run(ThresholdZones(), trace)
    #expect(states(single) == ["began@0", "changed@1", "ended@7"])
    #expect(actionList(single) == ["action@2(1)", "action@4(2)", "action@5(-1)"])
    let every = try run(ThresholdZones(faithfulSingleReport: false), trace)
    #expect(actionList(every) == ["action@2(1)", "action@4(2)", "action@5(-2)", "action@5(-1)"])
  }

  @Test func touchDownIsComparedWithAnImputedZero() throws {
    #expect(actionList(try run(ThresholdZones(), makeTrace([0.85, 0.85, 0.85], maxForce: 1))) == ["action@0(2)"])
    #expect(actionList(try run(ThresholdZones(), makeTrace([0.9, 0.9, 0.9], maxForce: 1))) == ["action@0(2)"])
    let every = try run(ThresholdZones(faithfulSingleReport: false), makeTrace([0.9, 0.9, 0.9], maxForce: 1))
    #expect(actionList(every) == ["action@0(1)", "action@0(2)"])
    let zero = try run(ThresholdZones(thresholds: [0, 0.5]), makeTrace([0, 0.1, 0.1], maxForce: 1))
    #expect(actionList(zero) == ["action@0(-1)"])
  }
}

@Suite("Tap and require-to-fail")
struct TapTests {
  @Test func tapIsRecognizedAtLiftUnlessMovedOrHeldTooLong() throws {
    let times = [0.0, 0.05, 0.1]
    #expect(states(try run(TapRecognizer(), makeTrace([0, 0.5, 0], times: times))) == ["ended@2"])
    #expect(states(try run(TapRecognizer(), makeTrace([0, 0.5, 0], times: times, x: [0, 11, 11]))) == ["failed@1"])
    #expect(states(try run(TapRecognizer(), makeTrace([0, 0.5, 0], times: times, x: [0, 0, 11]))) == ["failed@2"])
    let long = try run(TapRecognizer(maximumTapDuration: 0.3), makeTrace([0, 0.5, 0], times: [0, 0.1, 0.5]))
    #expect(long.transitions == [StateTransition(state: .failed, t: 0.3, index: 1)])
  }

  @Test func tapWaitingForDeepPressToFailRecognizesAtLiftWithoutDelay() throws {
    let composed = RequireToFail(TapRecognizer(), requiringFailureOf: FlexMonkeyDeepPress())
    let result = try run(composed, makeTrace([0, grid(50), 0], times: [0, 0.05, 0.1]))
    #expect(states(result) == ["ended@2"])
    #expect(result.action == ReplayEvent(t: 0.1, index: 2))
    #expect(result.held == nil && result.addedLatency == 0)
    #expect(result.requiredTransitions.map(\.state) == [.failed])
  }

  @Test func deepPressRecognizingFailsTheTap() throws {
    let composed = RequireToFail(TapRecognizer(), requiringFailureOf: FlexMonkeyDeepPress())
    let result = try run(composed, makeTrace([0, grid(310), grid(320), 0]))
    #expect(states(result) == ["failed@1*"])
    #expect(result.action == nil)
    #expect(result.requiredActions.map(\.index) == [1])
    #expect(result.requiredTransitions.map(\.state) == [.began, .ended])
  }

  @Test func shunkitBeginsAtTouchDownSoATapWaitingForItAlwaysFails() throws {
    let composed = RequireToFail(TapRecognizer(), requiringFailureOf: ShunkitForceTouch())
    #expect(states(try run(composed, makeTrace([0, 0.5, 0]))) == ["failed@0*"])
  }

  @Test func longPressWaitingForDeepPressIsHeldUntilTheLift() throws {
    // The long press is due at 0.5 s; deep press fails only at the lift (1.0 s): 0.5 s added.
    let trace = makeTrace([0, grid(50), grid(60), 0], times: [0, 0.1, 0.2, 1.0])
    let composed = RequireToFail(IOSLongPress(), requiringFailureOf: FlexMonkeyDeepPress())
    let result = try run(composed, trace)
    #expect(result.held == ReplayEvent(t: 0.5, index: 2))
    #expect(result.action == ReplayEvent(t: 1.0, index: 3))
    #expect(result.addedLatency == 0.5)
    #expect(states(result) == ["began@3", "ended@3"])
  }

  @Test func recognizerThatNeverFailsItselfIsFailedAtTheEndOfTheSequence() throws {
    let composed = RequireToFail(TapRecognizer(), requiringFailureOf: YusugaForceTouch())
    let result = try run(composed, makeTrace([0, grid(50), 0], times: [0, 0.05, 0.1]))
    #expect(actionList(result) == ["held@2", "action@2"])
    #expect(result.addedLatency == 0)
    #expect(result.requiredTransitions.map { "\($0.state.name)\($0.implicit ? "*" : "")" } == ["failed*"])
  }

  @Test func anyForceRecognizerComposesByName() throws {
    let tap = try AnyForceRecognizer(variant: "tap")
    let composed = try tap.requiringFailure(of: AnyForceRecognizer(variant: "deep-press"))
    #expect(composed.name == "tap+deep-press")
    #expect(composed.parameters["required.threshold"] == .number(0.75))
    let result = try composed.replay(trace: makeTrace([0, grid(310), 0]))
    #expect(states(result) == ["failed@1*"])
    #expect(throws: ParameterError.self) {
      try AnyForceRecognizer(variant: "deep-press").requiringFailure(of: tap)
    }
  }
}

@Suite("stable-press (ours)")
struct StablePressTests {
  @Test func pressFiresWhenForceHeldForTheDwellAndTheTapTimeoutHasPassed() throws {
    // n = 0.5 from sample 1 (1/64 s) and held (no more samples until the lift at 0.25 s):
    // due at max(1/64 + 0.03, 0 + 0.1) = 0.1 s, between samples 1 and the lift.
    let trace = makeTrace([0, 0.5, 0.5, 0], times: [0, 1.0 / 64, 0.2, 0.25], maxForce: 1)
    let result = try run(StablePress(), trace)
    #expect(result.action == ReplayEvent(t: 0.1, index: 1))
    #expect(states(result) == ["began@1", "ended@3"])
    // Without the tap guard the dwell decides: 1/64 + 0.03 s.
    let quick = try run(StablePress(tapTimeout: 0), trace)
    #expect(quick.action == ReplayEvent(t: 1.0 / 64 + 0.03, index: 1))
  }

  @Test func hardTapIsRejected() throws {
    // Force 0.9 but lifted at 0.08 s, before the tap timeout.
    let trace = makeTrace([0, 0.9, 0.9, 0], times: [0, 0.02, 0.05, 0.08], maxForce: 1)
    #expect(states(try run(StablePress(), trace)) == ["failed@3"])
  }

  @Test func dipBelowThresholdDuringTheDwellDisarms() throws {
    let trace = makeTrace([0, 0.5, 0.4, 0.5, 0], times: [0, 0.1, 0.11, 0.12, 0.2], maxForce: 1)
    // Armed at 0.1 (due 0.13), disarmed at 0.11, re-armed at 0.12 (due 0.15).
    let result = try run(StablePress(), trace)
    #expect(result.action?.index == 3)
    #expect(abs(result.action!.t - 0.15) < 1e-12)
  }

  @Test func dragBeforeThePressFails() throws {
    let trace = makeTrace(
      [0, 0.2, 0.9, 0.9, 0], times: [0, 0.05, 0.1, 0.3, 0.4], maxForce: 1, x: [0, 11, 11, 11, 11])
    #expect(states(try run(StablePress(), trace)) == ["failed@1"])
  }

  @Test func hysteresisCountsFlapsAndRearms() throws {
    let trace = makeTrace(
      [0, 0.5, 0.35, 0.29, 0.46, 0], times: [0, 0.2, 0.3, 0.4, 0.5, 0.9], maxForce: 1)
    let result = try run(StablePress(dwellTime: 0, tapTimeout: 0), trace)
    #expect(actionList(result) == ["action@1", "release@3", "action@4"])
    #expect(result.flaps == 1)
    let once = try run(StablePress(dwellTime: 0, tapTimeout: 0, rearm: false), trace)
    #expect(actionList(once) == ["action@1", "release@3"])
  }
}

@Suite("V8 pressure-js timer bound")
struct PressureJSTimerBoundTests {
  @Test func theDeepPressEndsThePolyfillSoALongHoldCostsNoTicks() throws {
    // A million-second hold without force events (nanoseconds read as seconds look like this).
    // Before: a 10 ms tick replayed over the whole span, 1e8 timer firings; now none after
    // the deep press at 0.56 s.
    let trace = makeTrace([0.3, 0.3, 0.3], times: [0, 0.01, 1e6])
    let clock = ContinuousClock()
    var result: ReplayResult?
    let elapsed = try clock.measure { result = try run(PressureJSDeepPress(), trace) }
    let replay = try #require(result)
    #expect(states(replay) == ["began@1", "changed@1", "ended@2"])
    let action = try #require(replay.action)
    #expect(abs(action.t - 0.56) < 1e-12)
    #expect(elapsed < .seconds(5), "the replay stepped through the span")
  }

  @Test func aPolyfillThatNeverReachesTheThresholdStopsAfterItsCap() throws {
    // 1e12 ms to ramp: the threshold would take 5e10 ticks; the polyfill stops after 100 000.
    #expect(PressureJSDeepPress.maximumTicks == 100_000)
    let trace = makeTrace([0.3, 0.3, 0.3], times: [0, 0.01, 1e6])
    let clock = ContinuousClock()
    var result: ReplayResult?
    let elapsed = try clock.measure { result = try run(PressureJSDeepPress(polyfillSpeedUp: 1e12), trace) }
    let replay = try #require(result)
    #expect(states(replay) == ["began@1", "ended@2"])
    #expect(replay.action == nil)
    #expect(elapsed < .seconds(5), "the replay stepped through the span")
  }
}
