import Testing
import TouchCore
import TouchTestSupport

@testable import TouchRecognizers

/// `touchtrace try` shows, while a finger is down, the replay of the contact so far cut before its
/// newest sample (`ReplayResult.before`). These tests hold that to its promise: for every
/// recognizer of the catalog, a filtered variant and a require-to-fail composition, and every
/// prefix of random contacts, the prefix's events before its last sample's time are exactly the
/// whole contact's events before that time.
@Suite("prefix replays (touchtrace try)")
struct PrefixReplayTests {
  static func recognizers() throws -> [AnyForceRecognizer] {
    let catalog = RecognizerCatalog.builtIn
    var list = try catalog.names.map { try catalog.recognizer($0) }
    list.append(try catalog.recognizer("one-euro/deep-press"))
    list.append(try catalog.recognizer("tap").requiringFailure(of: catalog.recognizer("deep-press"), catalog: catalog))
    list.append(
      try catalog.recognizer("long-press").requiringFailure(of: catalog.recognizer("deep-press"), catalog: catalog))
    return list
  }

  /// The first `k` samples of `trace`, its last phase as recorded (not a lift: the contact goes on).
  static func prefix(_ trace: Trace, _ k: Int) -> Trace {
    Trace(
      metadata: trace.metadata, t: Array(trace.t[..<k]), force: Array(trace.force[..<k]),
      phase: Array(trace.phase[..<k]),
      x: trace.x.map { Array($0[..<k]) }, y: trace.y.map { Array($0[..<k]) },
      radius: trace.radius.map { Array($0[..<k]) })
  }

  @Test func aPrefixShowsTheWholeContactsEventsBeforeItsLastSample() throws {
    var rng = SplitMix64(seed: 0x7472_7921)
    let recognizers = try Self.recognizers()
    #expect(recognizers.count >= 20)
    var compared = 0
    var nonEmpty = 0
    for n in 0..<150 {
      let whole = randomTrace(&rng, id: "r\(n)")
      for recognizer in recognizers {
        let full = try recognizer.replay(trace: whole)
        for k in 1..<whole.count {
          let until = whole.t[k - 1]
          let shown = try recognizer.replay(trace: Self.prefix(whole, k)).before(until)
          let expected = full.before(until)
          #expect(shown.transitions == expected.transitions, "\(recognizer.name) on \(whole.name), \(k) samples")
          #expect(shown.actions == expected.actions, "\(recognizer.name) on \(whole.name), \(k) samples")
          #expect(shown.requiredTransitions == expected.requiredTransitions, "\(recognizer.name) on \(whole.name)")
          #expect(shown.requiredActions == expected.requiredActions, "\(recognizer.name) on \(whole.name)")
          compared += 1
          if !expected.actions.isEmpty { nonEmpty += 1 }
        }
      }
    }
    // The comparison is not vacuous: many prefixes already hold actions.
    #expect(compared > 50_000)
    #expect(nonEmpty > 5_000)
  }

  @Test func beforeKeepsOnlyEventsStrictlyEarlier() {
    let result = ReplayResult(
      trace: "t", variant: "v", reportsFlaps: false,
      transitions: [
        StateTransition(state: .began, t: 0.1, index: 1), StateTransition(state: .ended, t: 0.2, index: 2),
        StateTransition(state: .failed, t: 0.15, index: 1, source: 1),
      ],
      actions: [ActionEvent(kind: .action, t: 0.1, index: 1), ActionEvent(kind: .stage2, t: 0.2, index: 2)])
    let cut = result.before(0.2)
    #expect(cut.transitions == [StateTransition(state: .began, t: 0.1, index: 1)])
    #expect(cut.actions == [ActionEvent(kind: .action, t: 0.1, index: 1)])
    #expect(cut.requiredTransitions == [StateTransition(state: .failed, t: 0.15, index: 1, source: 1)])
    #expect(result.before(0.1).actions.isEmpty)
  }
}
