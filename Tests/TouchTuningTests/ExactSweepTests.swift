import Foundation
import Testing
import TouchCore
import TouchEvaluation
import TouchRecognizers
import TouchTestSupport
import TouchTuning

/// Exact sweeps (`--exact`): the intervals' metrics against replays at values strictly inside
/// every interval, the breakpoints by hand, and the exact optimum against a fine grid.
@Suite("Exact sweeps")
struct ExactSweepTests {
  /// One exact case: a recognizer, its exact parameters, fixed settings.
  struct Case: CustomStringConvertible {
    var variant: String
    var exact: [String]
    var settings: [(name: String, value: String)] = []
    var description: String { "\(variant) exact over \(exact.joined(separator: "×"))" }
  }

  static let cases: [Case] = [
    Case(variant: "deep-press", exact: ["threshold"]),
    Case(variant: "shunkit", exact: ["minimumForce"]),
    Case(variant: "deep-press-yusuga", exact: ["forceSensitivity"]),
    Case(variant: "hysteresis", exact: ["pressThreshold"]),
    Case(variant: "hysteresis", exact: ["releaseThreshold"], settings: [("pressThreshold", "0.5")]),
    Case(
      variant: "hysteresis", exact: ["pressThreshold"],
      settings: [("strictPress", "true"), ("inclusiveRelease", "true"), ("palmThreshold", "0.9")]),
    Case(variant: "hysteresis", exact: ["palmThreshold"], settings: [("pressThreshold", "0.3")]),
    Case(variant: "peak-release", exact: ["minimumValue"]),
    Case(variant: "gt-deep-press", exact: ["threshold"], settings: [("hardTriggerMinTime", "0.05")]),
    Case(variant: "stable-press", exact: ["pressThreshold"]),
    Case(variant: "peek-pop", exact: ["peekThreshold"]),
    Case(variant: "peek-pop", exact: ["popThreshold"]),
    Case(variant: "flutter-force-press", exact: ["startPressure"]),
    Case(variant: "one-euro/deep-press", exact: ["threshold"]),
    Case(variant: "ema/stable-press", exact: ["pressThreshold"], settings: [("ema.alpha", "0.4")]),
  ]

  static let twoParameterCases: [Case] = [
    Case(variant: "hysteresis", exact: ["pressThreshold", "releaseThreshold"]),
    Case(variant: "peek-pop", exact: ["peekThreshold", "popThreshold"]),
  ]

  static func rule() throws -> OperatingPointRule { try OperatingPointRule(objective: .f1) }

  /// The exact sweep of `testCase` over `evaluation`'s traces.
  static func exactSweep(_ testCase: Case, _ evaluation: Evaluation, tolerance: Double = 0.01) throws -> ExactSweep {
    let spec = try RecognizerSpec(parsing: testCase.variant)
    var fixed: [String: ParameterValue] = [:]
    for (name, value) in testCase.settings { fixed[name] = try spec.value(value, of: name) }
    var builder = try ExactAxisBuilder(spec: spec, parameters: testCase.exact, fixed: fixed)
    builder.add(evaluation.dataset.traces)
    let axes = builder.axes()
    let plan = try SweepPlan(recognizers: [spec], axes: axes.map(\.sweepAxis), settings: testCase.settings)
    return ExactSweep(try evaluation.sweep(plan, threads: 2), axes: axes, rule: try rule(), tolerance: tolerance)
  }

  /// Values strictly inside `b` where it holds more than its ends (else its one value): the
  /// middle, and a random double between the ends.
  static func inside(_ b: ExactBounds, _ rng: inout SplitMix64) -> [Double] {
    let first = b.lowOpen ? b.low.nextUp : b.low
    let high = b.high.isFinite ? b.high : first + 10
    let last = b.highOpen ? high.nextDown : high
    guard last > first else { return [first] }
    var values = [first / 2 + last / 2]
    let u = Double(Int.random(in: 1..<1_000_000, using: &rng)) / 1_000_000
    values.append(min(max(first + (last - first) * u, first), last))
    return values.filter { b.contains($0) }
  }

  /// Replays `testCase` at `values` (one per exact parameter) and returns its metrics, or `nil`
  /// when the values break a rule of the recognizer.
  static func replayed(_ testCase: Case, at values: [Double], _ evaluation: Evaluation) throws -> ConfigurationMetrics?
  {
    let spec = try RecognizerSpec(parsing: testCase.variant)
    var set: [String: ParameterValue] = [:]
    for (name, value) in testCase.settings { set[name] = try spec.value(value, of: name) }
    for (name, x) in zip(testCase.exact, values) { set[name] = .number(x) }
    guard let recognizer = try? spec.makeRecognizer(set) else { return nil }
    let outcomes = try evaluation.outcomes(of: recognizer)
    return evaluation.metrics(of: outcomes, shape: OutcomeShape(recognizer: recognizer))
  }

  /// Every region's metrics equal a replay at values strictly inside it (its middle and a random
  /// point), and at both of its ends.
  static func checkRegions(_ testCase: Case, _ evaluation: Evaluation, seed: UInt64, expectVariety: Bool = true) throws
  {
    var rng = SplitMix64(seed: seed)
    let exact = try exactSweep(testCase, evaluation)
    #expect(exact.groups.count == 1, "\(testCase)")
    let regions = exact.groups[0].regions
    #expect(!regions.isEmpty, "\(testCase)")
    if expectVariety { #expect(Set(regions.map(\.metrics)).count > 2, "\(testCase): the threshold changes outcomes") }
    var checked = 0
    for region in regions {
      var points: [[Double]] = [[]]
      for b in region.bounds {
        var ends = [b.lowOpen ? b.low.nextUp : b.low]
        if b.high.isFinite { ends.append(b.highOpen ? b.high.nextDown : b.high) }
        let candidates = inside(b, &rng) + ends
        points = points.flatMap { p in candidates.prefix(region.bounds.count > 1 ? 2 : 4).map { p + [$0] } }
      }
      for values in points {
        guard let metrics = try replayed(testCase, at: values, evaluation) else { continue }
        #expect(metrics == region.metrics, "\(testCase) at \(values) in \(region.bounds)")
        checked += 1
      }
    }
    #expect(checked >= regions.count, "\(testCase): every region replayed")
  }

  @Test(arguments: [41, 42] as [UInt64])
  func intervalsEqualReplayInsideThem(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    let traces = (0..<80).map { randomTrace(&rng, id: "r\($0)") }
    let evaluation = Evaluation(dataset: dataset(traces), options: EvaluationOptions(tolerance: 0.1))
    for testCase in Self.cases { try Self.checkRegions(testCase, evaluation, seed: seed) }
  }

  @Test func boxesEqualReplayInsideThem() throws {
    var rng = SplitMix64(seed: 43)
    let traces = (0..<12).map { randomTrace(&rng, id: "r\($0)") }
    let evaluation = Evaluation(dataset: dataset(traces), options: EvaluationOptions(tolerance: 0.1))
    for testCase in Self.twoParameterCases { try Self.checkRegions(testCase, evaluation, seed: 43) }
  }

  /// The real iPhone 6s recording (shared/realdata/algal-3dtouch), cut into contacts at its
  /// zero-force samples, 60 Hz.
  @Test(.enabled(if: SharedData.hasRealData, "shared/realdata not found: the real-recording check did not run"))
  func intervalsEqualReplayOnARealRecording() throws {
    let traces = try realIPhoneContacts()
    #expect(traces.count >= 5)
    let evaluation = Evaluation(dataset: dataset(traces), options: EvaluationOptions(tolerance: 0.1))
    for testCase in Self.cases where ["deep-press", "stable-press", "hysteresis", "shunkit"].contains(testCase.variant)
    {
      try Self.checkRegions(testCase, evaluation, seed: 44, expectVariety: false)
    }
  }

  /// The exact optimum is at least as good as the best of a 1000-point grid, equal when the grid
  /// lands on an optimal interval; every grid point's metrics are its interval's.
  @Test func exactOptimumBeatsAThousandPointGrid() throws {
    var rng = SplitMix64(seed: 45)
    let traces = (0..<150).map { randomTrace(&rng, id: "r\($0)") }
    let evaluation = Evaluation(dataset: dataset(traces), options: EvaluationOptions(tolerance: 0.1))
    let chosen = ["deep-press", "hysteresis", "stable-press", "flutter-force-press"].map { name in
      Self.cases.first { $0.variant == name && $0.settings.isEmpty }!
    }
    for testCase in chosen {
      let exact = try Self.exactSweep(testCase, evaluation)
      let optimum = try #require(exact.groups[0].optimum)
      let best = try #require(optimum.value)
      let spec = try RecognizerSpec(parsing: testCase.variant)
      let grid = (0...999).map { Double($0) / 999 }
      let plan = try SweepPlan(
        recognizers: [spec],
        axes: [SweepAxis(parameter: testCase.exact[0], text: "grid", values: grid.map { .number($0) })],
        settings: testCase.settings)
      let sweep = try evaluation.sweep(plan, threads: 2)
      var gridBest = -1.0
      var landed = false
      for (c, configuration) in sweep.configurations.enumerated() {
        let x = configuration.parameters.number(testCase.exact[0])
        let f1 = sweep.metrics[c].stage1.f1 ?? -1
        let r = try #require(exact.region(holding: [x], in: 0), "\(testCase): \(x) in some interval")
        #expect(exact.groups[0].regions[r].metrics == sweep.metrics[c], "\(testCase) at \(x)")
        if optimum.regions.contains(r) { landed = true }
        gridBest = max(gridBest, f1)
      }
      #expect(gridBest <= best, "\(testCase)")
      #expect(landed == (gridBest == best), "\(testCase): equal exactly when the grid lands on the optimum")
      // The recommended point is inside the widest optimal interval, and replays to the optimum.
      let widest = exact.groups[0].regions[optimum.recommendedRegion]
      #expect(widest.bounds[0].contains(optimum.recommended[0]))
      for r in optimum.regions {
        #expect(exact.groups[0].regions[r].bounds[0].width <= widest.bounds[0].width)
      }
      let replayed = try #require(try Self.replayed(testCase, at: optimum.recommended, evaluation))
      #expect(replayed.stage1.f1 == best)
      // The plateau: adjacent intervals within the tolerance, and no wider.
      let plateau = optimum.plateau[0]
      let regions = exact.groups[0].regions
      for region in regions
      where plateau.contains(region.bounds[0].lowOpen ? region.bounds[0].low.nextUp : region.bounds[0].low) {
        #expect(abs((region.metrics.stage1.f1 ?? -9) - best) <= 0.01, "\(testCase): \(region.bounds[0]) in the plateau")
      }
      if let below = regions.lastIndex(where: {
        $0.bounds[0].high <= plateau.low && !plateau.contains($0.bounds[0].high)
      }),
        regions[below].bounds[0].high == plateau.low || regions[below].bounds[0].high.nextUp == plateau.low.nextUp
      {
        #expect(
          abs((regions[below].metrics.stage1.f1 ?? -9) - best) > 0.01, "\(testCase): the plateau stops where F1 falls")
      }
    }
  }

  /// Breakpoints by hand: quantities 0, 0.25, 0.5 of a trace with maximum force 1. deep-press
  /// compares `n >= threshold` and `n < threshold` only, so its outcomes change where the
  /// threshold passes a quantity: [0, 0], (0, 0.25], (0.25, 0.5], (0.5, 1]. Without that
  /// knowledge (both kinds of breakpoint), [0, 0], (0, 0.25), [0.25, 0.25], (0.25, 0.5), [0.5, 0.5],
  /// (0.5, 1].
  @Test func breakpointsByHand() throws {
    let spec = try RecognizerSpec(parsing: "deep-press")
    let a = trace("a", t: [0, 0.1, 0.2, 0.3], force: [0, 0.25, 0.5, 0.25], maxForce: 1)
    var builder = try ExactAxisBuilder(spec: spec, parameters: ["threshold"])
    #expect(builder.sides == [.atLeast])
    builder.add([a])
    let axis = try #require(builder.axes().first)
    #expect(axis.points == [0, Double(0).nextUp, Double(0.25).nextUp, Double(0.5).nextUp])
    #expect(
      axis.points.indices.map { axis.bounds($0).description } == ["[0, 0]", "(0, 0.25]", "(0.25, 0.5]", "(0.5, 1]"])
    #expect(axis.interval(of: 0.3) == 2 && axis.interval(of: 0.5) == 2 && axis.interval(of: 1) == 3)
    #expect(axis.interval(of: 1.5) == nil)
    var both = try ExactAxisBuilder(spec: spec, parameters: ["threshold"], sides: [nil])
    both.add([a])
    let all = try #require(both.axes().first)
    #expect(all.points == [0, Double(0).nextUp, 0.25, Double(0.25).nextUp, 0.5, Double(0.5).nextUp])
    #expect(
      all.points.indices.map { all.bounds($0).description } == [
        "[0, 0]", "(0, 0.25)", "[0.25, 0.25]", "(0.25, 0.5)", "[0.5, 0.5]", "(0.5, 1]",
      ])
    // shunkit: force > min(minimumForce, max) only; nothing changes above the maximum 2.
    var clamped = try ExactAxisBuilder(
      spec: try RecognizerSpec(parsing: "shunkit"), parameters: ["minimumForce"], fixed: [:])
    #expect(clamped.sides == [.above])
    clamped.add([trace("b", t: [0, 0.1, 0.2], force: [1, 2, 3], maxForce: 2)])
    let c = try #require(clamped.axes().first)
    #expect(c.points == [0, 1, 2])
    #expect(c.points.indices.map { c.bounds($0).description } == ["[0, 1)", "[1, 2)", "[2, inf)"])
    // deep-press-yusuga: force ≥ maxForce × forceSensitivity; each breakpoint is the first double
    // whose product passes (with both kinds: also reaches) the force.
    let forces = [1.0 / 60, 2, 100.0 / 60, 3.3]
    let m = iPhoneMaximum
    let yusuga = try RecognizerSpec(parsing: "deep-press-yusuga")
    for sides in [nil, [nil]] as [[ThresholdSide?]?] {
      var scaled = try ExactAxisBuilder(spec: yusuga, parameters: ["forceSensitivity"], sides: sides)
      scaled.add([trace("c", t: [0, 0.1, 0.2, 0.3], force: forces, maxForce: m)])
      let s = try #require(scaled.axes().first)
      #expect(s.points.count == 1 + (sides == nil ? 1 : 2) * forces.count)
      for u in forces {
        let pass = try #require(s.points.first { m * $0 > u })
        #expect(m * pass.nextDown <= u)
        #expect(s.opensAt[s.points.firstIndex(of: pass)!])
        if sides != nil {
          let reach = try #require(s.points.first { m * $0 >= u })
          #expect(m * reach.nextDown < u && !s.opensAt[s.points.firstIndex(of: reach)!])
        }
      }
    }
  }

  /// The sides the recognizers declare: hysteresis's depend on its flags.
  @Test func sidesFollowTheComparisons() throws {
    func side(_ text: String, _ parameter: String) throws -> ThresholdSide? {
      try Configuration(parsing: text).recognizer.thresholdSide(of: parameter)
    }
    #expect(try side("hysteresis:strictPress=true", "pressThreshold") == .above)
    #expect(try side("hysteresis", "pressThreshold") == .atLeast)
    #expect(try side("hysteresis:inclusiveRelease=true", "releaseThreshold") == .above)
    #expect(try side("hysteresis", "palmThreshold") == .above)
    #expect(try side("flutter-force-press", "startPressure") == .above)
    #expect(try side("ema/stable-press", "pressThreshold") == .atLeast)
    #expect(try side("stable-press", "dwellTime") == nil)
    #expect(try side("tap+deep-press", "threshold") == nil)
  }

  @Test func middleIsTheShortestDecimalNearTheCentre() {
    #expect(ExactBounds(low: 0.25, lowOpen: true, high: 0.4, highOpen: false).middle == 0.3)
    #expect(ExactBounds(low: 0.2917, lowOpen: true, high: 0.3083, highOpen: false).middle == 0.3)
    #expect(ExactBounds(low: 0.347, lowOpen: true, high: 0.349, highOpen: false).middle == 0.348)
    #expect(ExactBounds(low: 0.5, lowOpen: false, high: 0.5, highOpen: false).middle == 0.5)
    #expect(ExactBounds(low: 2, lowOpen: false, high: .infinity, highOpen: true).middle == 2)
    #expect(ExactBounds(low: 10, lowOpen: true, high: 1000, highOpen: true).middle == 500)
  }

  @Test func refusesParametersThatAreNotThresholds() throws {
    #expect(throws: SweepPlanError.self) {
      _ = try ExactAxisBuilder(spec: try RecognizerSpec(parsing: "stable-press"), parameters: ["dwellTime"])
    }
    #expect(throws: SweepPlanError.self) {
      _ = try ExactAxisBuilder(spec: try RecognizerSpec(parsing: "tap+deep-press"), parameters: ["threshold"])
    }
    let names = ExactAxisBuilder.exactParameters(of: try RecognizerSpec(parsing: "peek-pop")).map(\.name)
    #expect(names == ["peekThreshold", "popThreshold"])
  }
}
