import Testing
import TouchCore

@testable import TouchRecognizers

// Expected values below are worked out by hand from the rules in recognizers.md (§1, §2, §8.1).
// Forces are k/60 (the 3D-Touch grid) with maxForce 20/3, so normalized force is k/400 — but
// computed as (k/60)/(20/3) in binary floating point, which is what the originals compare:
// (80/60)/(20/3) = 0.19999999999999998 < 0.2, (300/60)/(20/3) = 0.75 exactly,
// (180/60)/(20/3) = 0.44999999999999996 while (20/3)*0.45 = 3.0 = 180/60 exactly.

@Suite("V1 shunkit")
struct ShunkitTests {
  @Test func endsOnFirstMovedSampleStrictlyAboveMinimumForce() throws {
    // 180/60 = 3.0 exactly does not pass the strict test; 181/60 does.
    let trace = makeTrace([0, grid(60), grid(120), grid(180), grid(181), grid(240), 0])
    let result = try run(ShunkitForceTouch(), trace)
    #expect(states(result) == ["began@0", "ended@4"])
    #expect(result.action == ReplayEvent(t: trace.t[4], index: 4))
  }

  @Test func exactGridValueEqualToThresholdNeverFires() throws {
    let trace = makeTrace([0, grid(180), grid(179), grid(180), 0])
    let result = try run(ShunkitForceTouch(), trace)
    #expect(states(result) == ["began@0", "cancelled@4"])
    #expect(result.action == nil)
  }

  @Test func touchDownSampleNeverFiresByItself() throws {
    // The touch-down force 4.0 is over 3.0, but only a moved sample or the lift can end it.
    let moved = makeTrace([4, 4.5, 4.5, 0])
    #expect(try run(ShunkitForceTouch(), moved).action?.index == 1)
    // No moved sample at all (the rest repeat the touch-down): it ends at the lift, with the
    // touch-down force.
    let still = makeTrace([4, 4, 4, 4])
    let result = try run(ShunkitForceTouch(), still)
    #expect(states(result) == ["began@0", "ended@3"])
    #expect(result.action?.index == 3)
  }

  @Test func liftUsesTheLastMovedForceNotTheLiftForce() throws {
    // Last moved force 2.0 < 3.0 → cancelled, although the lift sample says 5.
    let trace = makeTrace([4, 2, 2, 5])
    #expect(states(try run(ShunkitForceTouch(), trace)) == ["began@0", "cancelled@3"])
  }

  @Test func cancelledTouchIsCancelled() throws {
    let trace = makeTrace([0, 1, 0], cancelled: true)
    #expect(states(try run(ShunkitForceTouch(), trace)) == ["began@0", "cancelled@2"])
  }

  @Test func clampToTheMaximumPersistsAcrossContactsOfOneInstance() throws {
    // Device 1 reports a maximum of 2.5: minimumForce becomes 2.5 for good.
    let first = makeTrace([0, 1, 0], maxForce: 2.5, id: "first")
    let second = makeTrace([0, 2.6, 0], maxForce: iPhoneMax, id: "second")
    let fresh = try Replay.replay(traces: [first, second], using: ShunkitForceTouch())
    #expect(fresh[1].action == nil)  // 2.6 < 3.0
    let carried = try Replay.replay(traces: [first, second], using: ShunkitForceTouch(), carryingState: true)
    #expect(carried[1].action?.index == 1)  // 2.6 > 2.5
  }

  @Test func clampNeedsTheMaximumUnlessSwitchedOff() throws {
    let trace = makeTrace([0, 3.5, 0], maxForce: nil)
    #expect(throws: ReplayError.self) { try run(ShunkitForceTouch(), trace) }
    #expect(try run(ShunkitForceTouch(faithfulClamp: false), trace).action?.index == 1)
  }
}

@Suite("V2 deep-press (FlexMonkey)")
struct DeepPressTests {
  @Test func beganAtFirstSampleAtOrAboveThresholdThenEndedBelowIt() throws {
    // 300/60 → n = 0.75 exactly (>=, fires); 299/60 → 0.7475 < 0.75 (release, terminal).
    let trace = makeTrace([0, grid(100), grid(300), grid(310), grid(299), grid(310), 0])
    let result = try run(FlexMonkeyDeepPress(), trace)
    #expect(states(result) == ["began@2", "ended@4"])
    #expect(actionList(result) == ["action@2", "release@4"])
    #expect(result.flaps == 1)
  }

  @Test func liftAfterCrossingEndsAndLiftWithoutCrossingFails() throws {
    #expect(states(try run(FlexMonkeyDeepPress(), makeTrace([0, grid(320), grid(320), 0]))) == ["began@1", "ended@3"])
    #expect(states(try run(FlexMonkeyDeepPress(), makeTrace([0, grid(299), 0]))) == ["failed@2"])
  }

  @Test func touchDownSampleCountsAndZeroForceIsIgnored() throws {
    #expect(try run(FlexMonkeyDeepPress(), makeTrace([grid(300), grid(310), 0])).action?.index == 0)
    // Zero forces neither press nor release.
    let trace = makeTrace([0, grid(310), 0, grid(305), 0])
    #expect(states(try run(FlexMonkeyDeepPress(), trace)) == ["began@1", "ended@4"])
  }

  @Test func cancelledPressLeavesDeepPressedForTheNextContact() throws {
    let pressed = makeTrace([0, grid(310), grid(310), grid(320)], cancelled: true, id: "a")
    let tap = makeTrace([0, grid(40), 0], id: "b")
    let carried = try Replay.replay(traces: [pressed, tap], using: FlexMonkeyDeepPress(), carryingState: true)
    #expect(states(carried[0]) == ["began@1", "cancelled@3*"])
    // Starts deep-pressed: the first non-zero sample below the threshold ends it.
    #expect(states(carried[1]) == ["ended@1"])
    let fresh = try Replay.replay(traces: [pressed, tap], using: FlexMonkeyDeepPress())
    #expect(states(fresh[1]) == ["failed@2"])
  }
}

@Suite("V2 presets: yusuga, ALGSqueeze, frosty, PS")
struct PresetTests {
  @Test func yusugaNeedsSaturationByDefaultOnMovedSamplesOnly() throws {
    let result = try run(YusugaForceTouch(), makeTrace([0, grid(399), grid(400), 0]))
    #expect(states(result) == ["ended@2"])
    // Saturated touch-down never checked; the rest repeat it; never failed by the recognizer.
    let still = try run(YusugaForceTouch(), makeTrace([grid(400), grid(400), 0]))
    #expect(states(still) == ["failed@2*"])
  }

  @Test func yusugaComparesWithTheScaledThresholdNotTheNormalizedForce() throws {
    // (20/3) * 0.45 = 3.0 = 180/60: >= passes. PS compares 180/60 / (20/3) = 0.4499… < 0.45.
    let trace = makeTrace([0, grid(180), grid(179), 0])
    #expect(try run(YusugaForceTouch(forceSensitivity: 0.45), trace).action?.index == 1)
    #expect(try run(PSForceTouch(minimumForce: 0.45), trace).action == nil)
  }

  @Test func algSqueezeChecksTouchDownAndLiftSamples() throws {
    #expect(try run(ALGSqueeze(), makeTrace([grid(200), grid(100), 0])).action?.index == 0)
    let lift = try run(ALGSqueeze(), makeTrace([0, grid(100), grid(250)]))
    #expect(states(lift) == ["ended@2"])
    #expect(states(try run(ALGSqueeze(), makeTrace([0, grid(250)], cancelled: true))) == ["failed@1"])
    #expect(states(try run(ALGSqueeze(), makeTrace([0, grid(199), 0]))) == ["failed@2*"])
  }

  @Test func frostyDefaultNeverRecognizes() throws {
    let result = try run(FrostyForceTouch(), makeTrace([0, grid(200), grid(400), grid(400), 0]))
    #expect(states(result) == ["began@0", "changed@1", "cancelled@4"])
    #expect(result.action == nil)
  }

  @Test func frostyIsStrictAgainstTheScaledThreshold() throws {
    // (20/3) * 0.5 = 3.3333333333333335 = 200/60: > fails there, passes at 201/60.
    let result = try run(FrostyForceTouch(forceThreshold: 0.5), makeTrace([0, grid(200), grid(201), 0]))
    #expect(states(result) == ["began@0", "changed@1", "ended@2"])
  }

  @Test func psDefaultEndsAtTheFirstMovedSample() throws {
    // Sample 1 repeats sample 0 (dropped); sample 2 changes force.
    let result = try run(PSForceTouch(), makeTrace([0, 0, grid(10), 0]))
    #expect(states(result) == ["began@0", "changed@2", "ended@2"])
    let moved = try run(PSForceTouch(), makeTrace([0, 0, 0], x: [0, 1, 1]))
    #expect(result.action?.index == 2 && moved.action?.index == 1)
  }
}

@Suite("V5 rngh-force")
struct RNGHTests {
  @Test func activatesOnFirstMovedSampleAtOrAboveMinForce() throws {
    // 80/60 → 0.19999999999999998 < 0.2; 81/60 → 0.2025.
    let result = try run(RNGHForceTouch(), makeTrace([0, grid(80), grid(81), grid(90), 0]))
    #expect(states(result) == ["began@2", "ended@4"])
    #expect(result.action?.index == 2)
  }

  @Test func touchDownIsNeverCheckedAndInactiveLiftFails() throws {
    let result = try run(RNGHForceTouch(), makeTrace([grid(100), grid(100), 0]))
    #expect(states(result) == ["failed@2"])
  }

  @Test func maxForceFailsBeforeAndAfterActivation() throws {
    let before = try run(RNGHForceTouch(maxForce: 0.5), makeTrace([0, grid(250), grid(100), 0]))
    #expect(states(before) == ["failed@1"])
    let after = try run(RNGHForceTouch(maxForce: 0.5), makeTrace([0, grid(100), grid(250), 0]))
    #expect(states(after) == ["began@1", "failed@2"])
  }
}

@Suite("V7 hysteresis")
struct HysteresisTests {
  @Test func pressesReleasesAndPressesAgainCountingFlaps() throws {
    // k/400: 48 → 0.12 (press, >=); 45, 41 stay; 40 → 0.09999999999999999 < 0.1 (release);
    // 48 presses again (changed → changed is not a new transition).
    let trace = makeTrace([0, grid(48), grid(45), grid(41), grid(40), grid(48), grid(60), 0])
    let result = try run(HysteresisLatch(), trace)
    #expect(states(result) == ["began@1", "changed@4", "ended@7"])
    #expect(actionList(result) == ["action@1", "release@4", "action@5"])
    #expect(result.allActions.map(\.index) == [1, 5])
    #expect(result.flaps == 1)
  }

  @Test func strictPressAndTabletThresholds() throws {
    let strict = try run(HysteresisLatch(strictPress: true), makeTrace([0, grid(48), grid(49), 0]))
    #expect(strict.action?.index == 2)
    // Tablet 5 % / 1 % with <=: 20/60 → 0.049999999999999996 < 0.05; 21 presses; 4/60 → 0.01 <= 0.01.
    let tablet = HysteresisLatch(pressThreshold: 0.05, releaseThreshold: 0.01, inclusiveRelease: true)
    let result = try run(tablet, makeTrace([0, grid(20), grid(21), grid(5), grid(4), 0]))
    #expect(actionList(result) == ["action@2", "release@4"])
  }

  @Test func palmRejectionIsStickyAndNeverPressedFails() throws {
    let palm = HysteresisLatch(palmThreshold: 0.5)
    #expect(states(try run(palm, makeTrace([0, grid(201), grid(60), 0]))) == ["failed@1"])
    #expect(states(try run(palm, makeTrace([0, grid(60), grid(201), 0]))) == ["began@1", "cancelled@2"])
    #expect(states(try run(HysteresisLatch(), makeTrace([0, grid(47), 0]))) == ["failed@2"])
  }
}

@Suite("Peek and pop")
struct PeekPopTests {
  @Test func peekThenPopEachWithItsOwnAction() throws {
    // 80/60 → 0.19999999999999998 (no peek); 81 → 0.2025 peek; 300 → 0.75 pop.
    let trace = makeTrace([0, grid(80), grid(81), grid(200), grid(300), grid(310), 0])
    let result = try run(PeekPop(), trace)
    #expect(states(result) == ["began@2", "ended@4"])
    #expect(result.stage1?.index == 2 && result.stage2?.index == 4)
  }

  @Test func bothStagesOnOneSampleAndLiftAfterPeekCancels() throws {
    let both = try run(PeekPop(), makeTrace([0, grid(310), 0]))
    #expect(actionList(both) == ["action@1", "stage2@1"])
    #expect(states(try run(PeekPop(), makeTrace([0, grid(100), grid(50), 0]))) == ["began@1", "cancelled@3"])
    #expect(states(try run(PeekPop(), makeTrace([0, grid(50), 0]))) == ["failed@2"])
  }
}
