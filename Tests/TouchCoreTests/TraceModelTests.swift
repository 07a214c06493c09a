import Testing
import TouchCore

@Suite("Trace model")
struct TraceModelTests {
  @Test func defaultPhasesRunFromBeganToEnded() {
    #expect(TouchPhase.defaultSequence(count: 0) == [])
    #expect(TouchPhase.defaultSequence(count: 1) == [.began])
    #expect(TouchPhase.defaultSequence(count: 2) == [.began, .ended])
    #expect(TouchPhase.defaultSequence(count: 4) == [.began, .moved, .moved, .ended])
  }

  @Test func wordsReadBackToTheSameCases() {
    for phase in TouchPhase.allCases { #expect(TouchPhase(name: phase.name) == phase) }
    for intent in Intent.allCases { #expect(Intent(name: intent.rawValue) == intent) }
    #expect(TouchPhase(name: "Began") == nil)
    #expect(Intent(name: "peek") == nil)
  }

  @Test func namesIncludeTheContactOnlyWhenNotZero() {
    #expect(TraceMetadata(id: "rec").name == "rec")
    #expect(TraceMetadata(id: "rec", touch: 2).name == "rec#2")
  }

  @Test func validatorAcceptsAValidTraceAndCountsIt() {
    var validator = SampleValidator(maxForce: 20.0 / 3)
    #expect(validator.check(t: 0, force: 0, phase: .began) == nil)
    #expect(validator.check(t: 0, force: 1, phase: .moved) == nil)  // equal times are allowed
    #expect(validator.check(t: 0.1, force: 20.0 / 3, phase: .stationary) == nil)
    #expect(validator.check(t: 0.2, force: 0.5, phase: .ended) == nil)
    #expect(validator.count == 4)
  }

  @Test func validatorNamesEachBrokenRule() {
    func first(_ samples: [(Double, Double, TouchPhase?)], max: Double? = 6) -> TraceProblem? {
      var validator = SampleValidator(maxForce: max)
      for (t, force, phase) in samples {
        if let problem = validator.check(t: t, force: force, phase: phase) { return problem }
      }
      return nil
    }
    #expect(first([(0, .nan, nil)]) == .notANumberValue(field: "force", text: "nan"))
    #expect(first([(.infinity, 0, nil)]) == .infinite(field: "t", text: "inf"))
    #expect(first([(0, -0.1, nil)]) == .negativeForce(-0.1))
    #expect(first([(0, 6.1, nil)]) == .forceAboveMaximum(force: 6.1, maximum: 6))
    #expect(first([(0, 6.000000005, nil)]) == nil)  // within 1e-9 relative
    #expect(first([(0, 100, nil)], max: nil) == nil)  // no known maximum
    #expect(first([(1, 0, nil), (0.5, 0, nil)]) == .timeDecreasing(previous: 1, current: 0.5))
    #expect(first([(0, 0, .moved)]) == .firstNotBegan(.moved))
    #expect(first([(0, 0, .began), (1, 0, .began)]) == .beganNotFirst(sample: 1))
    #expect(first([(0, 0, .began), (1, 0, .cancelled), (2, 0, .moved)]) == .sampleAfterEnd(closedBy: .cancelled))
    #expect(first([(0, 0, nil), (1, 0, nil)]) == nil)  // without phases the order is not checked
  }

  @Test func problemsPointAtTheirField() {
    #expect(TraceProblem.timeDecreasing(previous: 1, current: 0).field == "t")
    #expect(TraceProblem.negativeForce(-1).field == "force")
    #expect(TraceProblem.beganNotFirst(sample: 2).field == "phase")
    #expect(TraceProblem.metadataDiffers(field: "user", first: "a", now: "b").field == "user")
    #expect(TraceProblem.pressAtNotIncreasing.field == "press_at")
    #expect(TraceProblem.emptyTrace.field == nil)
  }

  @Test func wholeTraceValidation() throws {
    let good = Trace(
      metadata: TraceMetadata(id: "a", pressAt: [0.1], maxForce: 6), t: [0, 0.1, 0.2], force: [0, 3, 0],
      x: [1, 2, 3], y: [1, 1, 1], radius: [5, 6, 7])
    #expect(good.validate() == nil)

    var outside = good
    outside.metadata.pressAt = [0.3]
    #expect(outside.validate()?.problem == .pressAtOutsideTrace(time: 0.3, start: 0, end: 0.2))

    var radius = good
    radius.radius = [5, -1, 7]
    let problem = try #require(radius.validate())
    #expect(problem.sample == 1)
    #expect(problem.problem == .negativeRadius(-1))

    var maximum = good
    maximum.metadata.maxForce = 0
    #expect(maximum.validate()?.problem == .invalidMaximumForce(0))

    let empty = Trace(metadata: TraceMetadata(id: "e"), t: [], force: [])
    #expect(empty.validate()?.problem == .emptyTrace)
    #expect(empty.duration == nil)
    #expect(good.duration == 0.2)
  }

  @Test func skippingKeepsTheAccountingWhole() {
    let traces = (0..<5).map { k in
      Trace(metadata: TraceMetadata(id: "t\(k)", maxForce: k.isMultiple(of: 2) ? 6 : nil), t: [0], force: [1])
    }
    var dataset = Dataset(
      traces: traces,
      origins: traces.indices.map { TraceOrigin(file: "f.csv", position: TextPosition(line: $0 + 2, column: 1)) },
      skipped: [SkippedTrace(trace: "bad", origin: TraceOrigin(file: "f.csv"), reason: "broken")])
    #expect(dataset.total == 6)
    dataset.skipTraces { $0.metadata.maxForce == nil ? "no known maximum force" : nil }
    #expect(dataset.traces.map(\.name) == ["t0", "t2", "t4"])
    #expect(dataset.origins.map { $0.position?.line } == [2, 4, 6])
    #expect(dataset.skipped.map(\.trace) == ["bad", "t1", "t3"])
    #expect(dataset.skipped[1].reportedPosition == TextPosition(line: 3, column: 1))
    #expect(dataset.total == 6)
  }

  @Test func filtersKeepMatchingTracesAndAccountForTheRest() throws {
    let rows: [(String, String?, Intent)] = [
      ("a", "iphone6s", .press), ("b", "android", .tap), ("c", "iphone6s", .tap), ("d", nil, .pop),
    ]
    let traces = rows.map { row in
      Trace(metadata: TraceMetadata(id: row.0, intent: row.2, device: row.1), t: [0], force: [0])
    }
    var dataset = Dataset(traces: traces, origins: traces.map { _ in TraceOrigin(file: "f.csv") })
    let device = try #require(TraceFilter(parsing: "device=iphone6s"))
    let intent = try #require(TraceFilter(parsing: "intent=press,pop"))
    #expect(device.description == "device=iphone6s")
    #expect(TraceFilter(parsing: "colour=red")?.field.rawValue == "colour")  // an extra label
    #expect(TraceFilter(parsing: "force=1") == nil)  // a trace-file column, not a label
    #expect(TraceFilter(parsing: "Colour=red") == nil)  // label names are lowercase
    #expect(TraceFilter(parsing: "device=") == nil)
    #expect(TraceFilter(parsing: "device") == nil)
    #expect(dataset.keep(matching: [device, intent]) == 3)
    #expect(dataset.traces.map(\.name) == ["a"])
    #expect(
      dataset.skipped.map(\.reason) == [
        "not selected (device=iphone6s)", "not selected (intent=press,pop)", "not selected (device=iphone6s)",
      ])
    #expect(dataset.total == 4)
  }

  @Test func diagnosticsRenderLikeACompiler() {
    #expect(
      Diagnostic(.error, "bad", file: "a.csv", position: TextPosition(line: 3, column: 7)).description
        == "a.csv:3:7: error: bad")
    #expect(Diagnostic(.warning, "hm", file: "a.csv").description == "a.csv: warning: hm")
    #expect(Diagnostic(.note, "fyi").description == "note: fyi")
    let skip = SkippedTrace(
      trace: "x", origin: TraceOrigin(file: "a.csv", position: TextPosition(line: 2, column: 1)), reason: "r")
    #expect(skip.description == "a.csv:2:1: warning: skipped trace 'x': r")
  }
}
