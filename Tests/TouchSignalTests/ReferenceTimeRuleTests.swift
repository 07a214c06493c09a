import Testing
import TouchCore
import TouchSignal
import TouchTestSupport

@Suite("Reference-time rule")
struct ReferenceTimeRuleTests {
  /// A trapezoidal press at 60 Hz: rest to 0.1 s, linear rise to `height` at 0.3 s, plateau to
  /// 0.6 s, linear release to 0 at 0.8 s, rest to 1 s.
  static func press(height: Double, start: Double = 0, maxForce: Double? = nil) -> Trace {
    let t = (0...60).map { Double($0) / 60 }
    let force = t.map { s -> Double in
      switch s {
      case ..<0.1: 0
      case ..<0.3: height * (s - 0.1) / 0.2
      case ..<0.6: height
      case ..<0.8: height * (0.8 - s) / 0.2
      default: 0
      }
    }
    return Trace.sampled(t: t.map { $0 + start }, force: force, id: "press", maxForce: maxForce)
  }

  @Test func halfRiseOfASymmetricRampIsFoundExactly() throws {
    // Half the peak is reached at 0.2 s, 0.1 s from both corners, farther than the kernel reaches
    // (±0.05 s): the smoothed ramp is the ramp there, and linear resampling of a line is exact.
    let times = try ReferenceTimeRule.standard.referenceTimes(for: Self.press(height: 2))
    #expect(times.count == 1)
    #expect(isClose(times[0], 0.2, relative: 1e-9))
  }

  @Test func theRuleIsScaleFreeAndNeedsNoMaximum() throws {
    let light = try ReferenceTimeRule.standard.referenceTimes(for: Self.press(height: 0.5))
    let hard = try ReferenceTimeRule.standard.referenceTimes(for: Self.press(height: 6, maxForce: 20.0 / 3))
    #expect(light.count == 1 && hard.count == 1)
    #expect(isClose(light[0], hard[0], relative: 1e-9))
  }

  @Test func followsTheTraceClock() throws {
    let times = try ReferenceTimeRule.standard.referenceTimes(for: Self.press(height: 2, start: 100))
    #expect(isClose(times[0], 100.2, relative: 1e-12))
  }

  @Test func normalizedLevelsNeedAMaximum() throws {
    let rule = ReferenceTimeRule(level: .normalized(0.25))
    // 0.25 of max force 4 = 1 = half of the 2-unit press.
    let times = try rule.referenceTimes(for: Self.press(height: 2, maxForce: 4))
    #expect(isClose(times[0], 0.2, relative: 1e-9))
    let error = #expect(throws: SignalError.self) { try rule.referenceTimes(for: Self.press(height: 2)) }
    #expect(error == .noMaximumForce(trace: "press", operation: "the reference-time rule (0.25 of max force)"))
    // A press that never reaches the level has no reference time.
    #expect(
      try ReferenceTimeRule(level: .normalized(0.9)).referenceTimes(for: Self.press(height: 2, maxForce: 4)) == [])
  }

  @Test func twoPressesWithAReleaseBetweenGiveTwoTimes() throws {
    var trace = Self.press(height: 2)
    let second = Self.press(height: 2, start: 1 + 1.0 / 60)
    trace.t += second.t
    trace.force += second.force
    trace.phase = TouchPhase.defaultSequence(count: trace.t.count)
    let times = try ReferenceTimeRule.standard.referenceTimes(for: trace)
    #expect(times.count == 2)
    #expect(isClose(times[0], 0.2, relative: 1e-9) && isClose(times[1], 1 + 1.0 / 60 + 0.2, relative: 1e-9))
  }

  @Test func tremorAroundTheLevelIsOnePress() throws {
    // Rise to 2, then wobble between 0.8 and 1.3 (never below the re-arm level 0.5), then release.
    let force: [Double] = [0, 0.5, 1, 1.5, 2, 1.5, 1, 0.8, 1.3, 0.8, 1.3, 0.9, 0.3, 0]
    let rule = ReferenceTimeRule(window: 0.001)  // (almost) no smoothing: K = 1
    let times = try rule.referenceTimes(for: Trace.uniform(force, rate: 60))
    #expect(times.count == 1)
    #expect(isClose(times[0], 2.0 / 60, relative: 1e-9))
  }

  @Test func restingTracesHaveNoReferenceTime() throws {
    #expect(try ReferenceTimeRule.standard.referenceTimes(for: Trace.uniform([0, 0, 0, 0])) == [])
    #expect(try ReferenceTimeRule.standard.referenceTimes(for: Trace.sampled(t: [], force: [])) == [])
  }

  @Test func labelsWinOverTheRule() throws {
    var trace = Self.press(height: 2)
    let fromRule = try ReferenceTimeRule.standard.resolvedReferenceTimes(for: trace)
    #expect(fromRule.source == .rule && fromRule.times.count == 1)
    trace.metadata.pressAt = [0.25]
    let fromLabels = try ReferenceTimeRule.standard.resolvedReferenceTimes(for: trace)
    #expect(fromLabels == ReferenceTimes(times: [0.25], source: .pressAt))
  }

  @Test func theRuleDescribesItself() {
    #expect(
      ReferenceTimeRule.standard.description
        == "upward crossings of 0.5 of the smoothed peak; force resampled at 240.0 Hz (linear, gaps > 0.1 s kept), centred Gaussian 0.1 s (alpha 3.0); re-armed below 0.5 × level"
    )
  }
}
