import Testing
import TouchCore
import TouchSignal
import TouchTestSupport

@Suite("Resampling")
struct ResamplingTests {
  struct InterpolationCase: Decodable {
    var method: String, rate: Double, t: [Double], force: [Double], grid: [Double], expected: [Double]
    var merged: Int?
  }

  @Test func linearAndSteffenMatchIndependentReferences() throws {
    // numpy.interp, and Steffen's monotone cubic transcribed from the 1990 paper.
    let fixture = try Fixture.load("interp.json", as: Fixture.Cases<InterpolationCase>.self)
    #expect(fixture.cases.count == 5)
    for c in fixture.cases {
      let trace = Trace.sampled(t: c.t, force: c.force)
      let resampled = try Resampling(rate: c.rate, method: InterpolationMethod(rawValue: c.method)!, maximumGap: nil)
        .apply(to: trace)
      let context = "\(c.method) at \(c.rate) Hz"
      expectAllClose(resampled.trace.t, c.grid, relative: 1e-12, context + " grid")
      expectAllClose(resampled.trace.force, c.expected, context)
      #expect(resampled.mergedSamples == (c.merged ?? 0), "\(context)")
      #expect(resampled.segments == [0..<c.grid.count])
    }
  }

  @Test func steffenNeverOvershoots() throws {
    // A step with a sharp corner: a natural cubic spline overshoots, Steffen does not.
    let t = (0..<8).map { Double($0) / 30 }
    let force = [0, 0, 0, 2, 2, 2, 2, 2.0]
    let resampled = try Resampling(rate: 300, method: .steffen).apply(to: Trace.sampled(t: t, force: force))
    #expect(resampled.trace.force.allSatisfy { (0...2).contains($0) })
    #expect(resampled.trace.force.max() == 2)
    let cubic = try Spline(.cubic, x: t, y: force)
    #expect(try cubic.value(at: 0.115) > 2)
  }

  @Test func gapsAreKeptNotBridged() throws {
    // 60 Hz samples with a 0.3 s hole after t = 0.1.
    let before: [Double] = (0..<7).map { Double($0) / 60 }
    let after: [Double] = (0..<3).map { 0.4 + Double($0) / 60 }
    let t = before + after
    let force: [Double] = [0, 0.5, 1, 1.5, 2, 2, 2, 1, 0.5, 0]
    let trace = Trace(metadata: TraceMetadata(id: "g"), t: t, force: force)
    let resampled = try Resampling(rate: 120, method: .linear, maximumGap: 0.1).apply(to: trace)
    let out = resampled.trace
    // Grid points t0 + k/120: k = 0…12 before the gap (up to 0.1 s), k = 48…52 after it.
    #expect(resampled.segments == [0..<13, 13..<18])
    #expect(out.t.count == 18)
    #expect(out.t[12] == 12.0 / 120 && out.t[13] == 48.0 / 120)
    #expect(!out.t.contains { $0 > 0.1 + 1e-12 && $0 < 0.4 - 1e-12 })
    // Interpolated between samples of the same segment only: k = 49 lies between 1 and 0.5.
    #expect(isClose(out.force[14], 0.75, relative: 1e-12))
    #expect(out.validate() == nil)
    // Without a limit the gap is bridged linearly.
    let bridged = try Resampling(rate: 120, method: .linear, maximumGap: nil).apply(to: trace)
    #expect(bridged.segments.count == 1 && bridged.trace.count == 53)
  }

  @Test func phasesAreCarriedTheUIKitWay() throws {
    let t = [0, 0.02, 0.04, 0.06, 0.08]
    let trace = Trace(
      metadata: TraceMetadata(id: "p"), t: t, force: [0, 1, 1, 1, 0.5],
      phase: [.began, .moved, .stationary, .moved, .cancelled])
    let out = try Resampling(rate: 100, method: .linear).apply(to: trace).trace
    #expect(out.t.count == 9)
    #expect(out.phase.first == .began && out.phase.last == .cancelled)
    // Force 0, 0.5, 1, 1, 1, 1, 1, 0.75, 0.5: unchanged samples after 0.02 s are stationary.
    #expect(
      out.phase == [.began, .moved, .moved, .stationary, .stationary, .stationary, .stationary, .moved, .cancelled])
    #expect(out.validate() == nil)
  }

  @Test func positionsAndMetadataAreCarried() throws {
    let trace = Trace(
      metadata: TraceMetadata(id: "d", intent: .drag, pressAt: [0.01], user: "u1", maxForce: 20.0 / 3),
      t: [0, 0.02, 0.04], force: [1, 2, 3], x: [10, 20, 40], y: [5, 5, 5], radius: [7, 8, 9])
    let out = try Resampling(rate: 200, method: .steffen).apply(to: trace).trace
    #expect(out.metadata == trace.metadata)
    #expect(out.t.count == 9)
    let x = try #require(out.x)
    #expect(x.first == 10 && x.last == 40)
    #expect(zip(x, x.dropFirst()).allSatisfy { $0 <= $1 })  // monotone data, monotone positions
    #expect(out.y == [Double](repeating: 5, count: 9))
    #expect(out.radius?.count == 9)
  }

  @Test func repeatedTimestampsAreAveraged() throws {
    let trace = Trace.sampled(t: [0, 0.01, 0.01, 0.01, 0.02], force: [0, 1, 2, 6, 1])
    let out = try Resampling(rate: 100, method: .linear).apply(to: trace)
    #expect(out.mergedSamples == 2)
    #expect(out.trace.force == [0, 3, 1])
  }

  @Test func endpointsArePreservedOnTheGrid() throws {
    // The grid is anchored at the first sample; the last grid point is the last one not after
    // the last sample.
    let trace = Trace.sampled(t: [1.0, 1.013, 1.031, 1.05], force: [0.2, 0.4, 0.9, 1.3])
    let out = try Resampling(rate: 100, method: .linear).apply(to: trace).trace
    #expect(out.t.first == 1.0 && out.force.first == 0.2)
    #expect(out.t.count == 6)
    #expect(isClose(out.t.last!, 1.05, relative: 1e-12) && isClose(out.force.last!, 1.3, relative: 1e-12))
  }

  @Test func singleSampleAndEmptyTraces() throws {
    let one = try Resampling(rate: 240).apply(to: Trace.sampled(t: [2], force: [0.5]))
    #expect(one.trace.t == [2] && one.trace.force == [0.5] && one.trace.phase == [.began])
    let none = try Resampling(rate: 240).apply(to: Trace.sampled(t: [], force: []))
    #expect(none.trace.isEmpty && none.segments.isEmpty)
  }
}

@Suite("Resampling bounds")
struct ResamplingBoundTests {
  @Test func aGridBeyondTheLimitIsAnErrorNotACrashOrAnEndlessLoop() throws {
    // 2e17 s at 240 Hz: the grid index overflowed Int (a trap); 1e20 s made the loop run until
    // memory ran out. Both are now refused, naming the trace.
    for span in [1e6, 2e17, 1e20] {
      let trace = Trace.sampled(t: [0, span], force: [0, 1])
      #expect(throws: SignalError.gridTooLarge(trace: "trace", rate: 240, limit: 1 << 24)) {
        try Resampling(rate: 240, maximumGap: nil).apply(to: trace)
      }
    }
    let message = SignalError.gridTooLarge(trace: "p1", rate: 240, limit: 1 << 24).description
    #expect(
      message
        == "trace 'p1': resampling at 240.0 Hz would need more than 16777216 grid points (lower the rate or set a maximum gap)"
    )
  }

  @Test func gapsKeepALongTraceSmall() throws {
    // With the default maximum gap the grid follows the samples, not the span.
    let trace = Trace.sampled(t: [0, 0.01, 1e6, 1e6 + 0.01], force: [0, 1, 1, 0])
    let resampled = try Resampling(rate: 100).apply(to: trace)
    #expect(resampled.segments.count == 2)
    #expect(resampled.trace.t.count == 4)
  }

  @Test func oneGridPointOverTheLimitIsRefusedBeforeAnythingIsAllocated() throws {
    // t = 0 … 2^24/rate holds 2^24 + 1 grid points.
    let rate = 1024.0
    let trace = Trace.sampled(t: [0, Double(1 << 24) / rate], force: [0, 1])
    #expect(throws: SignalError.gridTooLarge(trace: "trace", rate: rate, limit: 1 << 24)) {
      try Resampling(rate: rate, maximumGap: nil).apply(to: trace)
    }
  }
}
