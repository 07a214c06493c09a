import Testing
import TouchCore
import TouchEvaluation
import TouchRecognizers
import TouchTestSupport

@Suite("Sweep plans and determinism")
struct PlanAndDeterminismTests {
  @Test func axesAndSettingsApplyToEveryRecognizerThatHasThem() throws {
    let plan = try SweepPlan(
      recognizers: RecognizerSpec.list("deep-press,hysteresis,long-press"),
      axes: [
        SweepAxis(parsing: "threshold=0.5,0.6"), SweepAxis(parsing: "pressThreshold=0.3:0.5:0.1"),
        SweepAxis(parsing: "releaseThreshold=0.1,0.2"),
      ],
      settings: [("minimumPressDuration", "1/4")])
    // deep-press × 2; hysteresis 3 × 2 (first axis slowest); long-press once at its settings.
    #expect(
      plan.configurations.map(\.name) == ["deep-press", "deep-press"] + Array(repeating: "hysteresis", count: 6) + [
        "long-press"
      ])
    let hysteresis = plan.configurations[2..<8].map {
      [$0.parameters.number("pressThreshold"), $0.parameters.number("releaseThreshold")]
    }
    #expect(hysteresis == [[0.3, 0.1], [0.3, 0.2], [0.4, 0.1], [0.4, 0.2], [0.5, 0.1], [0.5, 0.2]])
    #expect(plan.configurations[8].parameters.number("minimumPressDuration") == 0.25)
    #expect(
      plan.configurations[8].varied.isEmpty && plan.configurations[2].varied == ["pressThreshold", "releaseThreshold"])
  }

  @Test func invalidCombinationsAreDroppedAndListed() throws {
    let plan = try SweepPlan(
      recognizers: [RecognizerSpec(parsing: "peek-pop")], axes: [SweepAxis(parsing: "peekThreshold=0.5,0.7,0.8,0.9")])
    #expect(plan.configurations.count == 2)
    #expect(plan.dropped.map(\.values) == [["peekThreshold=0.8"], ["peekThreshold=0.9"]])
    #expect(plan.dropped[0].reason.contains("popThreshold"))
  }

  @Test func usageErrorsNameTheProblem() {
    func message(_ body: () throws -> Void) -> String {
      do {
        try body()
        return ""
      } catch { return "\(error)" }
    }
    #expect(message { _ = try RecognizerSpec.list("deep-pres") }.contains("unknown recognizer 'deep-pres'"))
    #expect(
      message { _ = try RecognizerSpec.list("deep-press+tap") }.contains(
        "only long-press, long-press-android, tap can wait"))
    #expect(
      message {
        _ = try SweepPlan(
          recognizers: [RecognizerSpec(variant: "deep-press")], axes: [SweepAxis(parsing: "thresh=0.5")])
      }.contains("--vary thresh: none of deep-press has this parameter"))
    #expect(
      message {
        _ = try SweepPlan(recognizers: [RecognizerSpec(variant: "deep-press")], settings: [("nope", "1")])
      }.contains("--set nope"))
    #expect(
      message {
        _ = try SweepPlan(
          recognizers: [RecognizerSpec(variant: "deep-press")], axes: [SweepAxis(parsing: "threshold=2,3")])
      }.contains("no valid configuration"))
    #expect(
      message {
        _ = try SweepPlan(
          recognizers: [RecognizerSpec(variant: "deep-press")], axes: [SweepAxis(parsing: "threshold=0.5")],
          settings: [("threshold", "0.4")])
      }.contains("both varied"))
    #expect(
      message {
        _ = try SweepPlan(
          recognizers: [RecognizerSpec(variant: "zones")], axes: [SweepAxis(parsing: "normalizedForceThreshholds=0.5")])
      }.contains("list parameter"))
  }

  @Test func defaultGridsSweepTheMainThreshold() throws {
    let plan = try SweepPlan(recognizers: RecognizerSpec.list("all"))
    let grids = Dictionary(uniqueKeysWithValues: plan.axesByRecognizer.map { ($0.recognizer.name, $0.axes) })
    #expect(grids["deep-press"]?.map(\.parameter) == ["threshold"])
    #expect(grids["deep-press"]?.first?.values.count == 20)
    #expect(grids["hysteresis"]?.first?.values.count == 21)  // 0.05 … 1 plus the default 0.12
    // A raw-force grid follows the data's maximum force: none without it (defaults only) …
    #expect(grids["shunkit"]?.isEmpty == true)
    #expect(plan.configurations.filter { $0.name == "shunkit" }.count == 1)
    // … k/20 of it with it: on 3D Touch (20/3) the points are exactly k/3 (equal to quantized
    // forces 20k/60 to the last bit), the default 3.0 among them.
    let iPhone = try SweepPlan(recognizers: RecognizerSpec.list("shunkit"), maximumForces: [20.0 / 3])
    let points = try #require(iPhone.axesByRecognizer.first?.axes.first?.values)
    #expect(points.count == 20)
    #expect(
      points.prefix(3).map(\.description)
        == [SweepAxis.Value.number(20.0 / 60), .number(40.0 / 60), .number(1)].map(\.description))
    #expect(points.contains(.number(3.0)) && points.last == .number(20.0 / 3))
    let tablet = try SweepPlan(recognizers: RecognizerSpec.list("shunkit"), maximumForces: [1023])
    // On a tablet (1023) the grid spans 51.15 … 1023, with the library's default 3.0 kept.
    #expect(
      tablet.axesByRecognizer.first?.axes.first?.values.prefix(3) == [.number(3), .number(51.15), .number(102.3)])
    // Mixed devices: each device's grid (Android pressure 0…1 and 3D Touch), merged.
    let mixed = try SweepPlan(recognizers: RecognizerSpec.list("shunkit"), maximumForces: [1, 20.0 / 3])
    let merged = try #require(mixed.axesByRecognizer.first?.axes.first?.values)
    #expect(merged.count == 20 + 20 - 1)  // 1.0 is on both grids; 3.0 is on the 3D Touch one
    #expect(merged.first == .number(0.05) && merged.last == .number(20.0 / 3))
    #expect(grids["long-press-android"]?.first?.parameter == "longPressTimeout")
    #expect(grids["long-press-android"]?.first?.values[5].description == "0.3")
    #expect(grids["zones"]?.isEmpty == true)
    #expect(plan.configurations.filter { $0.name == "zones" }.count == 1)
  }

  /// The same sweep on 1, 2 and 3 threads gives identical metrics for every configuration.
  @Test func resultsDoNotDependOnTheThreadCount() throws {
    var rng = SplitMix64(seed: 77)
    let traces = (0..<300).map { randomTrace(&rng, id: "r\($0)") }
    let plan = try SweepPlan(
      recognizers: RecognizerSpec.list("deep-press,deep-press-ps,peek-pop,hysteresis,long-press+deep-press"),
      axes: [
        SweepAxis(parsing: "threshold=0.2:0.8:0.1"), SweepAxis(parsing: "minimumForce=0:1:1/40"),
        SweepAxis(parsing: "peekThreshold=0.1:0.7:0.05"), SweepAxis(parsing: "pressThreshold=0.2,0.4"),
      ])
    var reference: [ConfigurationMetrics]?
    for threads in [1, 2, 3] {
      let evaluation = Evaluation(dataset: dataset(traces), threads: threads)
      let result = try evaluation.sweep(plan, threads: threads)
      if let reference {
        #expect(result.metrics == reference, "threads: \(threads)")
      } else {
        reference = result.metrics
      }
    }
  }
}
