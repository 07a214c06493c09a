import Testing
import TouchCore
import TouchRecognizers

/// V12, marmelroy/PeekPop: expected times computed by hand from the library's constants (0.2 s
/// delay, progress +0.02 per 60 Hz frame toward 0.66, or 0.99 once r0/r < 0.6; commit at 0.99).
@Suite("V12 radius-peek-pop")
struct RadiusPeekPopTests {
  /// A still contact (force and position constant) whose radius follows `radius`.
  func trace(times: [Double], radius: [Double]?, force: [Double]? = nil) -> Trace {
    Trace(
      metadata: TraceMetadata(id: "r", maxForce: nil), t: times,
      force: force ?? [Double](repeating: 0, count: times.count),
      phase: TouchPhase.defaultSequence(count: times.count), radius: radius)
  }

  @Test func radiusGrowthCommitsWhenTheAnimationReachesTheCommitProgress() throws {
    // Began by the timer at 0.2 s (last sample before it: index 1). The radius doubles at 0.3 s
    // (r0/r = 0.5 < 0.6): the target becomes 0.99, reached at frame 50 (0.02 × 50, capped),
    // 0.2 + 50/60 s after touch-down.
    let t = trace(times: [0, 0.1, 0.25, 0.3, 2.0], radius: [5, 5, 5, 10, 10])
    let result = try Replay.replay(trace: t, using: RadiusPeekPop())
    #expect(states(result) == ["began@1", "ended@3"])
    #expect(result.action?.t == 0.2 + 50.0 / 60)
    #expect(result.action?.index == 3)
  }

  @Test func aFasterDisplayCommitsSooner() throws {
    let t = trace(times: [0, 0.1, 0.3, 2.0], radius: [5, 5, 10, 10])
    let values = try RadiusPeekPop.descriptor.resolve(settings: [RadiusPeekPop.frameRate(120)])
    let result = try Replay.replay(trace: t, using: RadiusPeekPop(parameters: values))
    #expect(result.action?.t == 0.2 + 50.0 / 120)
  }

  @Test func anyMoveBeforeTheDelayCancels() throws {
    // A radius change at 0.1 s is a move (UIKit's touchesMoved) while possible.
    let grown = try Replay.replay(trace: trace(times: [0, 0.1, 1.5], radius: [5, 6, 10]), using: RadiusPeekPop())
    #expect(states(grown) == ["cancelled@1"])
    #expect(grown.action == nil)
    // So does a force change.
    let pressed = try Replay.replay(
      trace: trace(times: [0, 0.1, 1.5], radius: [5, 5, 10], force: [0, 1, 1]), using: RadiusPeekPop())
    #expect(states(pressed) == ["cancelled@1"])
  }

  @Test func aLongStillPreviewPausesTheFrameClockAndAGrowthResumesItOnTheFrameGrid() throws {
    // The progress reaches 0.66 at frame 33 and stays: no frames are replayed over the next
    // 1e6 s (before: 6e7 firings). The radius doubles at 1e5 + 0.001 s; the clock resumes at the
    // first frame after it, on the grid of the began time, and 17 frames later (0.66 → 0.99 in
    // steps of 0.02, capped) the gesture commits.
    let grow = 1e5 + 0.001
    let t = trace(times: [0, 0.1, 0.25, grow, 1e6], radius: [5, 5, 5, 10, 10])
    let clock = ContinuousClock()
    var result: ReplayResult?
    let elapsed = try clock.measure { result = try Replay.replay(trace: t, using: RadiusPeekPop()) }
    let replay = try #require(result)
    #expect(states(replay) == ["began@1", "ended@3"])
    var frame = ((grow - 0.2) * 60).rounded(.down)
    while 0.2 + frame / 60 <= grow { frame += 1 }
    #expect(replay.action?.t == 0.2 + (frame + 16) / 60)
    #expect(elapsed < .seconds(5), "the replay stepped through the span")
  }

  @Test func growthBelowTheRatioOnlyPreviews() throws {
    // r0/r = 5/8 = 0.625 is not below 0.6: the progress stops at 0.66; the lift cancels.
    let result = try Replay.replay(
      trace: trace(times: [0, 0.1, 0.3, 3.0], radius: [5, 5, 8, 8]), using: RadiusPeekPop())
    #expect(states(result) == ["began@1", "cancelled@3"])
    #expect(result.action == nil)
    // With the ratio at 0.7 the same growth commits.
    let looser = try RadiusPeekPop.descriptor.resolve(settings: [RadiusPeekPop.commitRatio(0.7)])
    let committed = try Replay.replay(
      trace: trace(times: [0, 0.1, 0.3, 3.0], radius: [5, 5, 8, 8]), using: RadiusPeekPop(parameters: looser))
    #expect(committed.action?.t == 0.2 + 50.0 / 60)
  }

  @Test func liftBeforeTheDelayAndMissingRadiusFail() throws {
    let early = try Replay.replay(trace: trace(times: [0, 0.1, 0.15], radius: [5, 5, 5]), using: RadiusPeekPop())
    #expect(states(early) == ["failed@2"])
    let noRadius = try Replay.replay(trace: trace(times: [0, 0.5, 1.5], radius: nil), using: RadiusPeekPop())
    #expect(states(noRadius) == ["failed@0"])
  }

  @Test func commitProgressBelowPreviewIsRejected() {
    #expect(throws: ParameterError.self) {
      try RadiusPeekPop(parameters: RadiusPeekPop.descriptor.resolve(settings: [RadiusPeekPop.commitProgress(0.5)]))
    }
  }

  @Test func theCatalogBuildsItByName() throws {
    let recognizer = try RecognizerCatalog.builtIn.recognizer("radius-peek-pop", settings: [("commitRatio", "0.5")])
    #expect(recognizer.parameters[RadiusPeekPop.commitRatio] == 0.5)
    #expect(!recognizer.requiresMaximumForce)
  }
}
