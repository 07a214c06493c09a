import Testing
import TouchCore
import TouchEvaluation
import TouchRecognizers
import TouchTestSupport

@Suite("One-pass threshold sweeps")
struct OnePassTests {
  /// The kernel against a direct scan per level: level k is first crossed at the first position
  /// whose quantity crosses it.
  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func kernelMatchesADirectScanPerLevel(seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    for round in 0..<300 {
      let n = Int.random(in: 0...40, using: &rng)
      let quantities: [Double] = (0..<n).map { _ in
        Int.random(in: 0..<20, using: &rng) == 0 ? .nan : Double(Int.random(in: 0...24, using: &rng)) / 8
      }
      // Few levels, many levels with duplicates, and fine grids where one sample crosses dozens
      // (the galloping path).
      let k = [
        Int.random(in: 1...3, using: &rng), Int.random(in: 1...50, using: &rng),
        Int.random(in: 100...1000, using: &rng),
      ][round % 3]
      let levels = (0..<k).map { _ in
        k >= 100
          ? Double(Int.random(in: -80...1000, using: &rng)) / 333 : Double(Int.random(in: -2...26, using: &rng)) / 8
      }.sorted()
      check(StrictlyAbove.self, quantities, levels) { $0 > $1 }
      check(AtOrAbove.self, quantities, levels) { $0 >= $1 }
    }
  }

  @Test func kernelOverManyTracesWritesStepsPerTrace() {
    // By the offsets below: trace 1 is 0.1…0.8, trace 2 is 0.9, trace 3 is empty, trace 4 is 0.2, 0.3.
    let quantities = [0.1, 0.6, 0.4, 0.8, 0.9, 0.2, 0.3]
    let offsets = [0, 4, 5, 5, 7]
    let levels = [0.25, 0.5, 0.75]
    var steps = [CrossingStep](repeating: CrossingStep(lower: 0, upper: 0, position: 0), count: 10)
    var stepOffsets = [Int](repeating: -1, count: offsets.count)
    let count = quantities.withUnsafeBufferPointer { q in
      offsets.withUnsafeBufferPointer { o in
        levels.withUnsafeBufferPointer { l in
          steps.withUnsafeMutableBufferPointer { s in
            stepOffsets.withUnsafeMutableBufferPointer { so in
              RunningMaxSweep.firstCrossings(
                AtOrAbove.self, quantities: q, offsets: o, levels: l, steps: s, stepOffsets: so)
            }
          }
        }
      }
    }
    #expect(count == 4)
    #expect(stepOffsets == [0, 2, 3, 3, 4])
    #expect(
      Array(steps[0..<4]) == [
        CrossingStep(lower: 0, upper: 2, position: 1), CrossingStep(lower: 2, upper: 3, position: 3),
        CrossingStep(lower: 0, upper: 3, position: 4), CrossingStep(lower: 0, upper: 1, position: 6),
      ])
  }

  /// The one-pass path and a replay per configuration give identical per-trace outcomes and
  /// identical metrics, on seeded random traces on the 1/60 grid with thresholds on exact grids
  /// that hit the force values (ties), for every variant the one-pass path handles.
  @Test(arguments: [21, 22, 23] as [UInt64])
  func onePassEqualsReplay(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    let traces = (0..<150).map { randomTrace(&rng, id: "r\($0)") }
    let evaluation = Evaluation(dataset: dataset(traces), options: EvaluationOptions(tolerance: 0.1))
    let normalized =
      try SweepAxis.range("0:1:1/400").filter { _ in Int.random(in: 0..<4, using: &rng) == 0 } + [0.45, 0.75]
    let cases: [(String, String, [Double], [(name: String, value: String)])] = [
      ("shunkit", "minimumForce", try SweepAxis.range("0:7:1/60"), []),
      ("shunkit", "minimumForce", try SweepAxis.range("0:7:1/60"), [("faithfulClamp", "false")]),
      ("deep-press-yusuga", "forceSensitivity", normalized, []),
      ("deep-press-alg-squeeze", "squeezeThreshhold", normalized, []),
      ("deep-press-frosty", "forceThreshold", normalized, []),
      ("deep-press-ps", "minimumForce", normalized, []),
      ("rngh-force", "minForce", normalized, []),
      ("rngh-force", "minForce", normalized, [("maxForce", "0.8")]),
      ("peek-pop", "peekThreshold", normalized.filter { $0 <= 0.75 }, []),
      ("peek-pop", "popThreshold", normalized.filter { $0 >= 0.2 }, []),
      ("flutter-force-press", "peakPressure", normalized.filter { $0 > 0.4 }, []),
      ("flutter-force-press", "peakPressure", normalized.filter { $0 > 0.4 }, [("aloneInArena", "true")]),
    ]
    for (variant, parameter, values, settings) in cases {
      let axis = SweepAxis(parameter: parameter, text: "test", values: values.map { .number($0) })
      let plan = try SweepPlan(recognizers: [RecognizerSpec(parsing: variant)], axes: [axis], settings: settings)
      var onePass: [Int: [TraceOutcome]] = [:]
      let result = try evaluation.sweep(plan, threads: 2, perConfiguration: { onePass[$0] = $1 })
      #expect(result.methods.allSatisfy { $0 == .onePass(parameter: parameter) }, "\(variant) \(parameter)")
      #expect(onePass.count == plan.configurations.count)
      var fired = 0
      for (c, configuration) in plan.configurations.enumerated() {
        let replayed = try evaluation.outcomes(of: configuration.recognizer)
        #expect(onePass[c] == replayed, "\(variant) \(parameter)=\(configuration.parameters[parameter]!)")
        #expect(result.metrics[c] == evaluation.metrics(of: replayed, shape: configuration.shape))
        fired += replayed.filter { $0.stage1.actions > 0 || ($0.stage2?.actions ?? 0) > 0 }.count
      }
      #expect(fired > 0, "\(variant): a test without any action")
    }
  }

  @Test func variantsWithReleasesAndCompositionsAreNotOnePass() throws {
    var rng = SplitMix64(seed: 5)
    let evaluation = Evaluation(dataset: dataset((0..<20).map { randomTrace(&rng, id: "r\($0)") }))
    let plan = try SweepPlan(
      recognizers: RecognizerSpec.list("deep-press,hysteresis,flutter-force-press,tap+deep-press,deep-press-ps"),
      axes: [
        SweepAxis(parameter: "threshold", text: "", values: [.number(0.5), .number(0.6)]),
        SweepAxis(parameter: "pressThreshold", text: "", values: [.number(0.5), .number(0.6)]),
        SweepAxis(parameter: "startPressure", text: "", values: [.number(0.3), .number(0.4)]),
        SweepAxis(parameter: "required.threshold", text: "", values: [.number(0.5)]),
        SweepAxis(parameter: "minimumForce", text: "", values: [.number(0.5), .number(0.6)]),
      ])
    let result = try evaluation.sweep(plan)
    // deep-press, hysteresis and flutter's startPressure go by threshold classes (ThresholdClassTests).
    #expect(
      result.methods.map(\.description) == [
        "classes", "classes", "classes", "classes", "classes", "classes", "replay", "one-pass", "one-pass",
      ])
    #expect(
      plan.configurations.map(\.name) == [
        "deep-press", "deep-press", "hysteresis", "hysteresis", "flutter-force-press", "flutter-force-press",
        "tap+deep-press", "deep-press-ps", "deep-press-ps",
      ])
  }

  private func check<Test: CrossingTest>(
    _ test: Test.Type, _ quantities: [Double], _ levels: [Double], _ crosses: (Double, Double) -> Bool
  ) {
    var steps = [CrossingStep](
      repeating: CrossingStep(lower: 0, upper: 0, position: 0), count: max(1, min(quantities.count, levels.count)))
    let count = quantities.withUnsafeBufferPointer { q in
      levels.withUnsafeBufferPointer { l in
        steps.withUnsafeMutableBufferPointer { s in
          RunningMaxSweep.firstCrossings(test, quantities: q, range: 0..<q.count, levels: l, into: s.baseAddress!)
        }
      }
    }
    var first = [Int?](repeating: nil, count: levels.count)
    for s in steps[0..<count] {
      for k in Int(s.lower)..<Int(s.upper) { first[k] = s.position }
    }
    for k in levels.indices {
      #expect(first[k] == quantities.firstIndex { crosses($0, levels[k]) }, "level \(levels[k]) in \(quantities)")
    }
    // Steps are contiguous from level 0 and advance in position.
    for (a, b) in zip(steps[0..<count], steps[0..<count].dropFirst()) {
      #expect(a.upper == b.lower && a.position < b.position)
    }
    if count > 0 { #expect(steps[0].lower == 0) }
  }
}
