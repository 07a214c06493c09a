import Testing
import TouchCore

@testable import TouchSynth

@Suite struct DeviceProfileTests {
  @Test(arguments: [(DeviceProfile.iphone6s, 60.0), (.iphone6sLight, 48.0), (.iphone6sFirm, 72.0)])
  func iPhoneGrids(_ profile: DeviceProfile, _ steps: Double) {
    #expect(profile.maxForce == 20.0 / 3.0)
    // 400, 320 and 480 levels below the maximum.
    #expect((profile.maxForce * steps).rounded() == [60.0: 400.0, 48: 320, 72: 480][steps])
    var units = 0.0
    while units < 8 {
      let reported = profile.report(units: units)
      let level = (units * steps).rounded()
      #expect(reported == min(level, (20.0 / 3.0 * steps).rounded()) / steps)
      units += 0.0071
    }
    #expect(profile.report(units: 100) == 20.0 / 3.0)
    #expect(profile.report(units: -1) == 0)
  }

  @Test func iPhoneForceScale() {
    // 1 unit ≈ 0.740 N at the default sensitivity; Light reads 60/48 as much per newton.
    #expect(abs(DeviceProfile.iphone6s.response.units(newtons: 0.740) - 1) < 1e-12)
    #expect(abs(DeviceProfile.iphone6sLight.response.units(newtons: 0.740) - 1.25) < 1e-12)
    #expect(abs(DeviceProfile.iphone6sFirm.response.units(newtons: 0.740) - 60.0 / 72.0) < 1e-12)
  }

  @Test func contactSizeSaturates() {
    let response = DeviceProfile.touchpad.response
    #expect(response.units(newtons: 0) == 0)
    // 75 (1 − e^−1) + 8 × 0.35 at the knee.
    #expect(abs(response.units(newtons: 0.35) - (75 * (1 - 0.36787944117144233) + 2.8)) < 1e-12)
    // Doubling a light force adds much more than doubling a firm one.
    let light = response.units(newtons: 0.4) - response.units(newtons: 0.2)
    let firm = response.units(newtons: 4) - response.units(newtons: 2)
    #expect(light > firm)
    // Android readings above 1 are clamped to the maximum.
    #expect(DeviceProfile.android.report(units: DeviceProfile.android.response.units(newtons: 10)) == 1)
    #expect(DeviceProfile.android.report(units: 0.4321) == 0.43)
  }

  @Test func lookup() {
    #expect(DeviceProfile.named("iPhone6s") == .iphone6s)
    #expect(DeviceProfile.named("iphone6s-firm") == .iphone6sFirm)
    #expect(DeviceProfile.named("pencil")?.frameInterval == 1.0 / 240)
    #expect(DeviceProfile.named("nokia") == nil)
    #expect(Set(DeviceProfile.all.map(\.name)).count == DeviceProfile.all.count)
  }
}

@Suite struct IntentMixTests {
  @Test func parsing() throws {
    let mix = try IntentMix(parsing: "tap=3, press=1,hard-tap=0.5")
    #expect(mix.weight(of: .tap) == 3)
    #expect(mix.weight(of: .press) == 1)
    #expect(mix.weight(of: .hardTap) == 0.5)
    #expect(mix.weight(of: .drag) == 0)
    #expect(try IntentMix(parsing: "hardtap=1").weight(of: .hardTap) == 1)
    #expect(mix.description == "tap=3,hard-tap=0.5,press=1,pop=0,hold=0,drag=0,none=0")
  }

  @Test(arguments: ["tap", "tap=x", "tap=-1", "swipe=1", "tap=0", "tap=1,tap=2", "", "tap=inf"])
  func invalidMixes(_ text: String) {
    #expect(throws: IntentMixError.self) { try IntentMix(parsing: text) }
  }

  @Test func largestRemainderCounts() throws {
    // 10 × 3/4 = 7.5 and 10 × 1/4 = 2.5: the tie goes to the first in order (tap).
    let counts = try IntentMix(parsing: "tap=3,press=1").counts(total: 10)
    #expect(counts[.tap] == 8)
    #expect(counts[.press] == 2)
    #expect(counts[.pop] == 0)
    // 100 over 7 equal weights: 14 each, the 2 left over to the first two.
    let uniform = IntentMix.uniform.counts(total: 100)
    #expect(uniform[.tap] == 15 && uniform[.hardTap] == 15)
    #expect(GestureKind.allCases.dropFirst(2).allSatisfy { uniform[$0] == 14 })
    #expect(IntentMix.uniform.counts(total: 0).values.allSatisfy { $0 == 0 })
  }
}

@Suite struct GesturePlanTests {
  let user = SynthUser(id: "u01", forceScale: 1.2, speed: 0.8, tremorGain: 1, tremorFrequency: 10, driftGain: 1)

  @Test func minimumJerkProfile() {
    #expect(minimumJerk(0) == 0)
    #expect(minimumJerk(1) == 1)
    #expect(minimumJerk(0.5) == 0.5)
    // 10/64 − 15/256 + 6/1024.
    #expect(minimumJerk(0.25) == 0.103515625)
    #expect(minimumJerk(-1) == 0 && minimumJerk(2) == 1)
  }

  @Test func pressAtIsHalfWayUpTheRamp() {
    var rng = SynthRandom(seed: 1)
    for _ in 0..<50 {
      let plan = GesturePlan.make(.press, user: user, rng: &rng)
      #expect(plan.pressAt.count == 1)
      // The deliberate ramp is the third segment (touch-down ramp, dwell, press ramp).
      let ramp = plan.segments[2]
      let at = plan.pressAt[0]
      #expect(abs(at - (ramp.start + ramp.end) / 2) < 1e-12)
      #expect(abs(plan.force(at: at) - (ramp.from + ramp.to) / 2) < 1e-12)
      #expect(ramp.to > ramp.from)
      // Forces are the ranges times the user's force scale; times divided by the speed.
      #expect(ramp.to >= 2.2 * 1.2 && ramp.to <= 4.0 * 1.2)
      #expect(ramp.end - ramp.start >= 0.12 / 0.8 && ramp.end - ramp.start <= 0.35 / 0.8)
    }
  }

  @Test func popHasTwoPresses() {
    var rng = SynthRandom(seed: 2)
    for _ in 0..<50 {
      let plan = GesturePlan.make(.pop, user: user, rng: &rng)
      #expect(plan.pressAt.count == 2)
      #expect(plan.pressAt[1] > plan.pressAt[0])
      #expect(plan.force(at: plan.pressAt[1]) > plan.force(at: plan.pressAt[0]))
    }
  }

  @Test func otherGesturesHaveNoPress() {
    var rng = SynthRandom(seed: 3)
    for kind in [GestureKind.tap, .hardTap, .hold, .drag, .none] {
      let plan = GesturePlan.make(kind, user: user, rng: &rng)
      #expect(plan.pressAt.isEmpty, "\(kind)")
      #expect(plan.force(at: 0) == 0)
    }
  }

  @Test func dragMovesFarOthersDoNot() {
    var rng = SynthRandom(seed: 4)
    for _ in 0..<50 {
      let drag = GesturePlan.make(.drag, user: user, rng: &rng)
      let end = drag.displacement(at: drag.duration)
      let distance = (end.dx * end.dx + end.dy * end.dy).squareRoot()
      #expect(distance >= 30 - 1e-9 && distance <= 250 + 1e-9)
      let press = GesturePlan.make(.press, user: user, rng: &rng)
      #expect(press.movement == nil)
    }
  }

  @Test func intents() {
    #expect(GestureKind.hardTap.intent == .tap)
    #expect(GestureKind.allCases.map(\.intent) == [.tap, .tap, .press, .pop, .hold, .drag, .none])
    #expect(GestureKind(name: "HARD-TAP") == .hardTap)
    #expect(GestureKind(name: "long") == nil)
  }
}
