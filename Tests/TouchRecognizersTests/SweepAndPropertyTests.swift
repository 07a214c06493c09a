import Testing
import TouchCore
import TouchTestSupport

@_spi(Benchmarks) @testable import TouchRecognizers

@Suite("Threshold sweep metadata")
struct SweepTests {
  @Test func variantsDeclareTheirSweepsExactly() throws {
    func sweep(_ name: String, _ parameter: String) throws -> ThresholdSweep {
      try #require(try AnyForceRecognizer(variant: name).thresholdSweeps.first { $0.parameter == parameter })
    }
    let v1 = try sweep("shunkit", "minimumForce")
    #expect(v1.comparison == .greaterThan && v1.scale == .clampedRaw && v1.event == .action)
    let v2 = try sweep("deep-press", "threshold")
    #expect(v2.comparison == .greaterThanOrEqual && v2.scale == .normalized)
    #expect(try sweep("deep-press-yusuga", "forceSensitivity").scale == .scaledThreshold)
    #expect(try sweep("deep-press-frosty", "forceThreshold").comparison == .greaterThan)
    #expect(try sweep("rngh-force", "minForce").comparison == .greaterThanOrEqual)
    #expect(try sweep("hysteresis", "pressThreshold").comparison == .greaterThanOrEqual)
    #expect(try sweep("flutter-force-press", "startPressure").scale == .clampedNormalized)
    #expect(try sweep("flutter-force-press", "peakPressure").event == .stage2)
    #expect(try sweep("peek-pop", "popThreshold").event == .stage2)
    #expect(try AnyForceRecognizer(variant: "gt-deep-press").thresholdSweeps.isEmpty)
  }

  /// Sweeps built from the same settings are equal and hash alike, also when a setting is NaN
  /// ("no limit"), whatever the NaN's payload; different settings stay different.
  @Test func sweepsWithNaNSettingsEqualThemselves() throws {
    let unlimited = try #require(RNGHForceTouch(minForce: 0.2).thresholdSweeps.first)
    let again = try #require(RNGHForceTouch(minForce: 0.2, maxForce: -Double.nan).thresholdSweeps.first)
    let payload = try #require(
      RNGHForceTouch(minForce: 0.2, maxForce: Double(nan: 7, signaling: false)).thresholdSweeps.first)
    let limited = try #require(RNGHForceTouch(minForce: 0.2, maxForce: 0.8).thresholdSweeps.first)
    #expect(unlimited == again && unlimited == payload)
    #expect(unlimited.hashValue == again.hashValue && unlimited.hashValue == payload.hashValue)
    #expect(Set([unlimited, again, payload]).count == 1)
    #expect(unlimited != limited)
    #expect(limited == RNGHForceTouch(minForce: 0.2, maxForce: 0.8).thresholdSweeps.first)
    // Every variant at its defaults: each sweep equals the same sweep built again.
    for name in RecognizerCatalog.builtIn.names {
      let a = try AnyForceRecognizer(variant: name).thresholdSweeps
      let b = try AnyForceRecognizer(variant: name).thresholdSweeps
      #expect(a == b, "\(name)")
    }
  }

  @Test func shunkitCandidatesAreMovedSamplesOrTheLiftWithTheTouchDownForce() {
    let sweep = ShunkitForceTouch().thresholdSweeps[0]
    let moved = makeTrace([4, 4, 5, 5, 0])
    #expect(sweep.candidates(in: moved).map(\.index) == [2])
    let still = makeTrace([4, 4, 4, 4])
    #expect(sweep.candidates(in: still) == [ThresholdSweep.Candidate(index: 3, force: 4)])
    #expect(sweep.candidates(in: makeTrace([4, 4, 4, 4], cancelled: true)).isEmpty)
    #expect(sweep.firstCrossing(in: makeTrace([0, grid(180), grid(181), 0]), threshold: 3) == 2)
  }

  /// Replays with the swept parameter set to `threshold` and compares the event index with the
  /// sweep's first crossing, on seeded random traces.
  @Test(arguments: [1, 2, 3] as [UInt64])
  func firstCrossingMatchesTheReplayForEverySweep(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    let traces = (0..<60).map { randomTrace(&rng, id: "r\($0)", positions: $0 % 2 == 0) }
    let normalized = stride(from: 0.05, through: 1.0, by: 0.05).map { $0 } + [0.2, 0.45, 0.75, 0.5]
    let raw = [0.5, 1, 2, 2.5, 3, 3.5, 5, 6.65, 6.666666666666667]
    for descriptor in RecognizerCatalog.builtIn.descriptions {
      let base = try AnyForceRecognizer(variant: descriptor.name)
      for sweep in base.thresholdSweeps {
        var fired = 0
        var silent = 0
        defer { #expect(fired > 0 && silent > 0, "\(descriptor.name) \(sweep.parameter): a one-sided test") }
        let grid = sweep.scale == .raw || sweep.scale == .clampedRaw ? raw : normalized
        for threshold in grid {
          var values: [String: ParameterValue] = [sweep.parameter: .number(threshold)]
          // Keep the two-stage orderings valid while sweeping one stage.
          if descriptor.name == "flutter-force-press" {
            if sweep.parameter == "startPressure" { values["peakPressure"] = .number(Swift.min(1, threshold + 0.01)) }
            if sweep.parameter == "peakPressure" { values["startPressure"] = .number(Swift.max(0, threshold - 0.3)) }
          }
          if descriptor.name == "peek-pop" {
            if sweep.parameter == "peekThreshold" { values["popThreshold"] = .number(1) }
            if sweep.parameter == "popThreshold" { values["peekThreshold"] = .number(Swift.min(threshold, 0.2)) }
          }
          if descriptor.name == "hysteresis" { values["releaseThreshold"] = .number(Swift.min(threshold, 0.05)) }
          if descriptor.name == "flutter-force-press" && threshold >= 1 { continue }
          let recognizer = try AnyForceRecognizer(variant: descriptor.name, values: values)
          let rule = try #require(recognizer.thresholdSweeps.first { $0.parameter == sweep.parameter })
          for trace in traces {
            let result = try recognizer.replay(trace: trace)
            let event = sweep.event == .action ? result.action : result.stage2
            if event == nil { silent += 1 } else { fired += 1 }
            #expect(
              event?.index == rule.firstCrossing(in: trace, threshold: threshold),
              "\(descriptor.name) \(sweep.parameter)=\(threshold) trace \(trace.name)")
          }
        }
      }
    }
  }
}

@Suite("Properties on seeded random traces")
struct PropertyTests {
  static let variants = RecognizerCatalog.builtIn.names + ["tap+deep-press", "long-press+pressure-js"]

  func recognizer(_ name: String) throws -> AnyForceRecognizer {
    if let plus = name.firstIndex(of: "+") {
      let dependent = try AnyForceRecognizer(variant: String(name[..<plus]))
      return try dependent.requiringFailure(of: AnyForceRecognizer(variant: String(name[name.index(after: plus)...])))
    }
    return try AnyForceRecognizer(variant: name)
  }

  @Test(arguments: variants)
  func resultsAreInvariantUnderATimeShift(variant: String) throws {
    var rng = SplitMix64(seed: 0x5eed)
    let r = try recognizer(variant)
    for k in 0..<40 {
      let trace = randomTrace(&rng, id: "p\(k)", positions: k % 3 != 0)
      let shift = 1024.0
      let a = try r.replay(trace: trace)
      let b = try r.replay(trace: shifted(trace, by: shift))
      #expect(a.transitions.map(\.state) == b.transitions.map(\.state), "\(variant) \(trace.name)")
      #expect(a.transitions.map(\.index) == b.transitions.map(\.index), "\(variant) \(trace.name)")
      #expect(a.actions.map(\.kind) == b.actions.map(\.kind), "\(variant) \(trace.name)")
      #expect(a.actions.map(\.index) == b.actions.map(\.index), "\(variant) \(trace.name)")
      for (x, y) in zip(a.transitions, b.transitions) { #expect(abs((y.t - shift) - x.t) < 1e-9) }
      for (x, y) in zip(a.actions, b.actions) { #expect(abs((y.t - shift) - x.t) < 1e-9) }
    }
  }

  @Test(arguments: variants)
  func eventsAreOrderedAndFollowTheStateMachine(variant: String) throws {
    var rng = SplitMix64(seed: 0x0de7)
    let r = try recognizer(variant)
    for k in 0..<40 {
      let trace = randomTrace(&rng, id: "o\(k)", positions: k % 2 == 0)
      let result = try r.replay(trace: trace)
      for list in [result.transitions.map { ($0.t, $0.index) }, result.actions.map { ($0.t, $0.index) }] {
        for (p, q) in zip(list, list.dropFirst()) {
          #expect(p.0 <= q.0 && p.1 <= q.1, "\(variant) \(trace.name) out of order")
        }
      }
      for e in result.transitions { #expect(e.index >= 0 && e.index < trace.count) }
      // At most one terminal state, and it is last.
      let terminal = result.transitions.filter { $0.state.isTerminal }
      #expect(terminal.count <= 1)
      if let last = result.transitions.last { #expect(last.state.isTerminal, "\(variant) \(trace.name) left open") }
      // No transition back to possible; began at most once, first.
      #expect(!result.transitions.contains { $0.state == .possible })
      let began = result.transitions.indices.filter { result.transitions[$0].state == .began }
      #expect(began.count <= 1 && (began.first ?? 0) == 0)
    }
  }

  @Test func reusingOneInstanceWithoutQuirksMatchesFreshInstances() throws {
    var rng = SplitMix64(seed: 77)
    let traces = (0..<30).map { randomTrace(&rng, id: "c\($0)", positions: true) }
    // Variants whose reset() clears everything the contact used.
    for name in ["deep-press-yusuga", "rngh-force", "hysteresis", "long-press", "peek-pop", "stable-press", "tap"] {
      let r = try AnyForceRecognizer(variant: name)
      #expect(try r.replay(traces: traces) == r.replay(traces: traces, carryingState: true), "\(name)")
    }
  }
}

@Suite("Bare kernels")
struct KernelTests {
  // Three traces: [0, 1, 2, 3] [0.5, 0.4] [2, 0, 2, 2, 2] (offsets 0, 4, 6, 11).
  let force: [Float] = [0, 1, 2, 3, 0.5, 0.4, 2, 0, 2, 2, 2]
  let t: [Double] = [0, 0.1, 0.2, 0.3, 1.0, 1.1, 2.0, 2.1, 2.2, 2.3, 2.4]
  let offsets = [0, 4, 6, 11]

  func events(
    _ body: (UnsafeBufferPointer<Float>, UnsafeBufferPointer<Int>, UnsafeMutableBufferPointer<ForceKernels.Event>) ->
      Int
  )
    -> [ForceKernels.Event]
  {
    var out = [ForceKernels.Event](repeating: .init(trace: -1, kind: -1, index: -1), count: 32)
    let n = force.withUnsafeBufferPointer { f in
      offsets.withUnsafeBufferPointer { o in out.withUnsafeMutableBufferPointer { body(f, o, $0) } }
    }
    return Array(out.prefix(n))
  }

  func compact(_ events: [ForceKernels.Event]) -> [String] { events.map { "\($0.trace):\($0.kind)@\($0.index)" } }

  @Test func firstCrossingIsStrictAndLeavesTheTrace() {
    let result = events { ForceKernels.firstCrossing(force: $0, offsets: $1, threshold: 1, into: $2) }
    // Trace 0: 1 is not > 1, 2 at index 2 is. Trace 1: none. Trace 2: 2 at index 6.
    #expect(compact(result) == ["0:0@2", "2:0@6"])
  }

  @Test func hysteresisPeekPopAndReleases() {
    let result = events {
      ForceKernels.hysteresis(force: $0, offsets: $1, peek: 0.9, pop: 2.5, release: 0.45, into: $2)
    }
    // Trace 0: peek at 1 (1 > 0.9), pop at 3 (3 > 2.5). Trace 1: nothing (0.5 < 0.9).
    // Trace 2: peek at 6, release at 7 (0 < 0.45), peek at 8.
    #expect(compact(result) == ["0:1@1", "0:2@3", "2:1@6", "2:3@7", "2:1@8"])
  }

  @Test func emaThresholdWithRearm() {
    // alpha 0.5, threshold 1.2, rearm 0.6. Trace 0: s = 0, 0.5, 1.25 (> 1.2 at 2), 2.125.
    // Trace 1: 0.25, 0.325. Trace 2 (still armed): 1, 0.5, 1.25 (fires at 8), 1.625, 1.8125.
    let result = events {
      ForceKernels.emaThreshold(force: $0, offsets: $1, alpha: 0.5, threshold: 1.2, rearm: 0.6, into: $2)
    }
    #expect(compact(result) == ["0:5@2", "2:5@8"])
  }

  @Test func dwellNeedsTheForceHeldAboveTheLevel() {
    // level 1.5, duration 0.15: trace 0 above from 0.2 (index 2) to 0.3: 0.1 < 0.15, none.
    // Trace 2: above at 2.0, broken at 2.1; above from 2.2: 2.4 − 2.2 = 0.2 >= 0.15 at index 10.
    var out = [ForceKernels.Event](repeating: .init(trace: -1, kind: -1, index: -1), count: 8)
    let n = t.withUnsafeBufferPointer { tp in
      force.withUnsafeBufferPointer { f in
        offsets.withUnsafeBufferPointer { o in
          out.withUnsafeMutableBufferPointer {
            ForceKernels.dwell(t: tp, force: f, offsets: o, level: 1.5, duration: 0.15, into: $0)
          }
        }
      }
    }
    #expect(compact(Array(out.prefix(n))) == ["2:6@10"])
  }

  @Test func eventsBeyondTheBufferAreCountedNotWritten() {
    var out = [ForceKernels.Event](repeating: .init(trace: -1, kind: -1, index: -1), count: 1)
    let n = force.withUnsafeBufferPointer { f in
      offsets.withUnsafeBufferPointer { o in
        out.withUnsafeMutableBufferPointer { ForceKernels.firstCrossing(force: f, offsets: o, threshold: 1, into: $0) }
      }
    }
    #expect(n == 2)
    #expect(out[0] == ForceKernels.Event(trace: 0, kind: 0, index: 2))
  }
}
