import Foundation
import Testing
import TouchCore
import TouchEvaluation
import TouchRecognizers
import TouchTestSupport

/// Sweeps by threshold classes (one replay per equivalence class of the comparison thresholds a
/// grid touches) against the reference: a replay of every trace through every configuration.
@Suite("Sweeps by threshold classes")
struct ThresholdClassTests {
  /// One sweep case: a recognizer, its grid axes, fixed settings.
  struct Case: CustomStringConvertible {
    var variant: String
    var axes: [(String, [Double])]
    var settings: [(name: String, value: String)] = []
    /// Whether some configurations go by classes (two-stage first crossings may all be one-pass,
    /// per fixed value of the other threshold).
    var classes = true
    var description: String { "\(variant) over \(axes.map(\.0).joined(separator: "×"))" }
  }

  /// Grids on the 1/400 normalized steps of the iPhone's 1/60 force grid (so levels tie with
  /// force values), thinned at random, plus values between the steps.
  static func grid(_ rng: inout SplitMix64, keep: Int, in range: ClosedRange<Double> = 0...1) -> [Double] {
    var values = (0...400).map { Double($0) / 400 }.filter { _ in Int.random(in: 0..<keep, using: &rng) == 0 }
    values += (0..<5).map { _ in Double(Int.random(in: 0...4000, using: &rng)) / 4000 + 1e-9 }
    return Array(Set(values.filter { range.contains($0) })).sorted()
  }

  static func cases(_ rng: inout SplitMix64) -> [Case] {
    [
      Case(variant: "deep-press", axes: [("threshold", grid(&rng, keep: 8))]),
      Case(variant: "hysteresis", axes: [("pressThreshold", grid(&rng, keep: 8, in: 0.1...1))]),
      Case(
        variant: "hysteresis", axes: [("releaseThreshold", grid(&rng, keep: 8, in: 0...0.5))],
        settings: [("pressThreshold", "0.5")]),
      Case(
        variant: "hysteresis",
        axes: [("pressThreshold", grid(&rng, keep: 40)), ("releaseThreshold", grid(&rng, keep: 40))],
        settings: [("inclusiveRelease", "true"), ("strictPress", "true")]),
      Case(
        variant: "hysteresis",
        axes: [
          ("pressThreshold", grid(&rng, keep: 90)), ("releaseThreshold", grid(&rng, keep: 90)),
          ("palmThreshold", [.nan] + grid(&rng, keep: 150, in: 0.5...1)),
        ]),
      Case(variant: "stable-press", axes: [("pressThreshold", grid(&rng, keep: 8, in: 0.3...1))]),
      Case(
        variant: "stable-press",
        axes: [("pressThreshold", grid(&rng, keep: 40)), ("releaseThreshold", grid(&rng, keep: 40))],
        settings: [("rearm", "true")]),
      Case(
        variant: "peek-pop", axes: [("peekThreshold", grid(&rng, keep: 40)), ("popThreshold", grid(&rng, keep: 40))],
        classes: false),
      Case(variant: "flutter-force-press", axes: [("startPressure", grid(&rng, keep: 8, in: 0...0.84))]),
      Case(
        variant: "flutter-force-press",
        axes: [("startPressure", grid(&rng, keep: 40)), ("peakPressure", grid(&rng, keep: 40))],
        settings: [("faithfulSlopTest", "false")], classes: false),
      Case(
        variant: "ema/hysteresis",
        axes: [("ema.alpha", [0.2, 0.5, 1]), ("pressThreshold", grid(&rng, keep: 20, in: 0.1...1))]),
      Case(
        variant: "one-euro/stable-press",
        axes: [
          ("pressThreshold", grid(&rng, keep: 40, in: 0.3...1)),
          ("releaseThreshold", grid(&rng, keep: 40, in: 0...0.3)),
        ]),
      Case(
        variant: "gt-deep-press", axes: [("threshold", grid(&rng, keep: 8))], settings: [("hardTriggerMinTime", "0.05")]
      ),
      Case(variant: "peak-release", axes: [("minimumValue", grid(&rng, keep: 8)), ("tolerance", [0.05, 0.2])]),
      Case(
        variant: "movmean/deep-press", axes: [("threshold", grid(&rng, keep: 10))], settings: [("movmean.window", "3")]),
    ]
  }

  /// Every configuration's per-trace outcomes and metrics equal the replay of every trace
  /// through it, on seeded random traces (ties with the levels, plateaus, several references,
  /// cancellations, positions), for one, two and three varied thresholds.
  @Test(arguments: [31, 32] as [UInt64])
  func classesEqualReplay(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    let traces = (0..<120).map { randomTrace(&rng, id: "r\($0)") }
    let evaluation = Evaluation(dataset: dataset(traces), options: EvaluationOptions(tolerance: 0.1))
    for testCase in Self.cases(&rng) {
      try check(testCase, on: evaluation)
    }
  }

  /// The same on the real iPhone 6s recording (shared/realdata/algal-3dtouch), cut into
  /// contacts at its zero-force samples, 60 Hz.
  @Test(.enabled(if: SharedData.hasRealData, "shared/realdata not found: the real-recording check did not run"))
  func classesEqualReplayOnARealRecording() throws {
    let traces = try realIPhoneContacts()
    #expect(traces.count >= 5, "the recording holds several contacts")
    let evaluation = Evaluation(dataset: dataset(traces), options: EvaluationOptions(tolerance: 0.1))
    var rng = SplitMix64(seed: 7)
    for testCase in Self.cases(&rng) {
      // (gt-deep-press acts only at the maximum force, which this recording's presses keep short of.)
      try check(testCase, on: evaluation, expectVariety: testCase.variant != "gt-deep-press")
    }
  }

  @Test func methodsNameTheComparedParameters() throws {
    var rng = SplitMix64(seed: 5)
    let evaluation = Evaluation(dataset: dataset((0..<20).map { randomTrace(&rng, id: "r\($0)") }))
    let plan = try SweepPlan(
      recognizers: RecognizerSpec.list("hysteresis"),
      axes: [
        SweepAxis(parameter: "pressThreshold", text: "", values: [.number(0.5), .number(0.6)]),
        SweepAxis(parameter: "releaseThreshold", text: "", values: [.number(0.1), .number(0.2)]),
      ])
    let result = try evaluation.sweep(plan)
    #expect(result.methods == Array(repeating: .classes(parameters: ["pressThreshold", "releaseThreshold"]), count: 4))
  }

  /// A recognizer behind a causal filter compares the filtered force: its classes are cut at the
  /// filtered values, one group per filter setting.
  @Test func filteredRecognizersGoByClassesPerFilterSetting() throws {
    var rng = SplitMix64(seed: 6)
    let evaluation = Evaluation(dataset: dataset((0..<20).map { randomTrace(&rng, id: "r\($0)") }))
    let plan = try SweepPlan(
      recognizers: RecognizerSpec.list("ema/hysteresis"),
      axes: [
        SweepAxis(parameter: "ema.alpha", text: "", values: [.number(0.3), .number(0.6)]),
        SweepAxis(parameter: "pressThreshold", text: "", values: [.number(0.5), .number(0.6)]),
      ])
    let result = try evaluation.sweep(plan)
    #expect(result.methods == Array(repeating: .classes(parameters: ["pressThreshold"]), count: 4))
  }

  private func check(_ testCase: Case, on evaluation: Evaluation, expectVariety: Bool = true) throws {
    let axes = testCase.axes.map { name, values in
      SweepAxis(parameter: name, text: "test", values: values.map { .number($0) })
    }
    let plan = try SweepPlan(
      recognizers: [RecognizerSpec(parsing: testCase.variant)], axes: axes, settings: testCase.settings)
    #expect(plan.configurations.count > 5, "\(testCase): a grid")
    var byClasses: [Int: [TraceOutcome]] = [:]
    let result = try evaluation.sweep(plan, threads: 2, perConfiguration: { byClasses[$0] = $1 })
    // Nothing is replayed per setting.
    let methods = Set(result.methods.map(\.description))
    #expect(
      !methods.contains("replay") && (methods.contains("classes") || !testCase.classes), "\(testCase): \(methods)")
    var fired = 0
    var distinct = Set<[TraceOutcome]>()
    for (c, configuration) in plan.configurations.enumerated() {
      let replayed = try evaluation.outcomes(of: configuration.recognizer)
      #expect(byClasses[c] == replayed, "\(testCase) at \(configuration.parameters)")
      #expect(
        result.metrics[c] == evaluation.metrics(of: replayed, shape: configuration.shape),
        "\(testCase) at \(configuration.parameters)")
      fired += replayed.filter { $0.stage1.actions > 0 }.count
      distinct.insert(replayed)
    }
    if expectVariety {
      #expect(fired > 0, "\(testCase): a test without any action")
      #expect(distinct.count > 2, "\(testCase): the grid changes outcomes")
    }
  }
}
