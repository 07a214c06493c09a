import Testing
import TouchCore
import TouchRecognizers

/// Decisions made elsewhere (an `exec:` recognizer) recorded through the harness: where each
/// event lands, the states around it, and the checks against the contact.
@Suite struct ScriptPlaybackTests {
  static let variant = RecognizerDescription(
    name: "scripted", code: "", title: "", summary: "",
    source: RecognizerSource(library: "", version: nil, link: nil, reference: ""),
    style: .discrete, actionEvent: "", stage2Event: "pop", rules: "", parameters: [])

  /// Replays `trace` through the playback of `script`.
  func play(_ script: ActionScript, _ trace: Trace) -> ReplayResult {
    var log = ReplayLog()
    ScriptPlayback.replay(
      traces: [trace], scripts: [script], variant: Self.variant, parameters: ParameterValues([]), into: &log)
    return log.result(0, trace: trace.name, variant: Self.variant)
  }

  /// Samples at 0, 0.25, 0.5, 0.75, 1 s; forces held (stationary samples included).
  let trace = makeTrace([1, 1, 2, 2, 0], dt: 0.25)

  @Test func anActionAtASampleTimeLandsOnThatSample() {
    // 0.25 s is sample 1, a stationary one (UIKit would not deliver it; the playback sees it).
    let r = play(ActionScript(actions: [.init(t: 0.25)]), trace)
    #expect(actionList(r) == ["action@1"])
    #expect(r.actions[0].t == 0.25)
    #expect(states(r) == ["began@1", "ended@4"])
  }

  @Test func anActionBetweenSamplesComesAsATimerAtItsOwnTime() {
    let r = play(ActionScript(actions: [.init(t: 0.6, stage: 1), .init(t: 0.7, stage: 2)]), trace)
    #expect(r.actions.map(\.t) == [0.6, 0.7])
    #expect(actionList(r) == ["action@2", "stage2@2"], "the index is the last sample before the time")
    #expect(states(r) == ["began@2", "changed@2", "ended@4"])
  }

  @Test func actionsAtTouchDownAndAfterTheLift() {
    let r = play(ActionScript(actions: [.init(t: 1.1), .init(t: 0)]), trace)
    #expect(r.actions.map(\.t) == [0, 1.1], "put in time order")
    #expect(actionList(r) == ["action@0", "action@4"])
    #expect(r.transitions.last?.state == .ended && r.transitions.last?.t == 1.1)
  }

  @Test func noActionFailsAtTheLiftAndFailedAtFailsThere() {
    #expect(states(play(ActionScript(actions: []), trace)) == ["failed@4"])
    let r = play(ActionScript(actions: [], failedAt: 0.3), trace)
    #expect(states(r) == ["failed@1"] && r.transitions[0].t == 0.3)
    #expect(r.actions.isEmpty)
  }

  @Test func aCancelledContactEndsCancelled() {
    let cancelled = makeTrace([1, 2, 3], dt: 0.25, cancelled: true)
    #expect(states(play(ActionScript(actions: [.init(t: 0.25)]), cancelled)) == ["began@1", "cancelled@2"])
    #expect(states(play(ActionScript(actions: []), cancelled)) == ["failed@2"])
  }

  @Test func problemsNameWhatIsWrong() {
    func problem(_ script: ActionScript) -> String? { script.problem(touchDown: 0, lift: 1, slack: 0.25) }
    #expect(problem(ActionScript(actions: [.init(t: 1.25)])) == nil, "the tolerance after the lift is inclusive")
    #expect(problem(ActionScript(actions: [.init(t: 1.26)]))?.contains("after the lift-off") == true)
    #expect(problem(ActionScript(actions: [.init(t: -0.01)]))?.contains("before the touch-down") == true)
    #expect(problem(ActionScript(actions: [.init(t: .nan)]))?.contains("not a finite number") == true)
    #expect(problem(ActionScript(actions: [.init(t: 0.5, stage: 3)]))?.contains("stage 3") == true)
    #expect(problem(ActionScript(actions: [.init(t: 0.5)], failedAt: 0.6))?.contains("together with actions") == true)
    #expect(problem(ActionScript(actions: [], failedAt: 2))?.contains("outside the contact") == true)
  }

  @Test func aLongPressWaitingForAScriptedRecognizerGoesOnWhenItFails() throws {
    // A still contact of 1 s: the long press wants to begin at 0.5 s and waits for the scripted one.
    let still = makeTrace([1, 1, 1, 1, 1], dt: 0.25)
    let longPress = try AnyForceRecognizer(variant: "long-press").base
    func composed(_ script: ActionScript) -> [ActionEvent] {
      var log = ReplayLog()
      ScriptPlayback.replay(
        traces: [still], scripts: [script], variant: Self.variant, parameters: ParameterValues([]), waiting: longPress,
        carryingState: false, into: &log)
      return log.actions.filter { $0.source == 0 }
    }
    let released = composed(ActionScript(actions: [], failedAt: 0.75))
    #expect(released.map(\.kind) == [.held, .action], "held at 0.5 s, released when the scripted one fails")
    #expect(released.map(\.t) == [0.5, 0.75])
    #expect(composed(ActionScript(actions: [.init(t: 0.25)])).isEmpty, "it acted first: the long press fails")
  }
}
