/// What one trace's replay produced: state transitions, actions, and the figures evaluation
/// scores (action time, stage-2 time, flaps, tap recognition and its waiting time).
public struct ReplayResult: Sendable, Hashable {
  /// The trace's name.
  public var trace: String
  /// The variant's name.
  public var variant: String
  /// Whether the variant can release a press mid-contact (then ``flaps`` is not `nil`).
  public var reportsFlaps: Bool
  /// The recognizer's state transitions (for a composition: the dependent recognizer's, as the
  /// app sees them), in order.
  public var transitions: [StateTransition]
  /// The recognizer's actions, in order.
  public var actions: [ActionEvent]
  /// For a require-to-fail composition: the transitions of the recognizer that must fail.
  public var requiredTransitions: [StateTransition]
  /// For a require-to-fail composition: the actions of the recognizer that must fail.
  public var requiredActions: [ActionEvent]

  /// Creates a result from events of both sources (split by their `source` field).
  public init(
    trace: String, variant: RecognizerDescription, transitions: [StateTransition],
    actions: [ActionEvent]
  ) {
    self.trace = trace
    self.variant = variant.name
    self.reportsFlaps = variant.reportsFlaps
    self.transitions = transitions.filter { $0.source == 0 }
    self.actions = actions.filter { $0.source == 0 }
    self.requiredTransitions = transitions.filter { $0.source != 0 }
    self.requiredActions = actions.filter { $0.source != 0 }
  }

  /// A result from its parts as stored (a partial result read back): events of both sources,
  /// split by their `source` field.
  ///
  /// - Parameters:
  ///   - trace: the trace's name.
  ///   - variant: the variant's name.
  ///   - reportsFlaps: whether the variant can release a press mid-contact.
  ///   - transitions: state transitions, in order.
  ///   - actions: actions, in order.
  public init(
    trace: String, variant: String, reportsFlaps: Bool, transitions: [StateTransition], actions: [ActionEvent]
  ) {
    self.trace = trace
    self.variant = variant
    self.reportsFlaps = reportsFlaps
    self.transitions = transitions.filter { $0.source == 0 }
    self.actions = actions.filter { $0.source == 0 }
    self.requiredTransitions = transitions.filter { $0.source != 0 }
    self.requiredActions = actions.filter { $0.source != 0 }
  }

  /// Creates a result from a context that recorded exactly one trace.
  public init(trace: String, variant: RecognizerDescription, context: GestureContext) {
    self.init(
      trace: trace, variant: variant, transitions: context.transitions, actions: context.actions)
  }

  /// The first action event (the app-action time); `nil` when the variant never acted.
  public var action: ReplayEvent? { first(.action) }

  /// Every action event, in order (variants such as ``HysteresisLatch`` and
  /// ``PressureJSDeepPress`` can act several times in one contact).
  public var allActions: [ReplayEvent] {
    actions.lazy.filter { $0.kind == .action }.map { ReplayEvent(t: $0.t, index: $0.index) }
  }

  /// Stage 1 of a two-stage variant: the same as ``action``.
  public var stage1: ReplayEvent? { action }

  /// The first stage-2 event (pop); `nil` when none.
  public var stage2: ReplayEvent? { first(.stage2) }

  /// The number of press/release flaps: releases while the finger still touched. `nil` for
  /// variants without a release.
  public var flaps: Int? {
    reportsFlaps ? actions.reduce(0) { $0 + ($1.kind == .release ? 1 : 0) } : nil
  }

  /// The state after the contact.
  public var finalState: GestureState { transitions.last?.state ?? .possible }

  /// When the recognizer recognized: its first transition to `began`, or to `ended` when it
  /// never began (discrete recognizers, including the tap); `nil` when it did not.
  public var recognized: ReplayEvent? {
    for transition in transitions where transition.state == .began || transition.state == .ended {
      return ReplayEvent(t: transition.t, index: transition.index)
    }
    return nil
  }

  /// For a require-to-fail composition: when the dependent recognizer first wanted to recognize
  /// but had to wait for the other to fail; `nil` when it never waited.
  public var held: ReplayEvent? { first(.held) }

  /// For a require-to-fail composition: how long the dependent recognizer's action was delayed by
  /// waiting, seconds (``action`` − ``held``); 0 when it did not wait; `nil` when it never acted.
  public var addedLatency: Double? {
    guard let action else { return nil }
    guard let held else { return 0 }
    return action.t - held.t
  }

  private func first(_ kind: ActionKind) -> ReplayEvent? {
    actions.first { $0.kind == kind }.map { ReplayEvent(t: $0.t, index: $0.index) }
  }
}

extension ReplayResult {
  /// The events strictly before `time` (seconds), of both recognizers of a composition.
  ///
  /// A replay of a contact's first samples closes it at its last sample as a lift; the events it
  /// has before that sample's time are the ones the whole contact's replay has before it (the
  /// harness is causal: an event at time t depends on the samples up to t and on timers due by
  /// t), which is what `touchtrace try` shows while a finger is still down.
  ///
  /// - Parameter time: the bound, seconds.
  public func before(_ time: Double) -> ReplayResult {
    var result = self
    result.transitions.removeAll { !($0.t < time) }
    result.actions.removeAll { !($0.t < time) }
    result.requiredTransitions.removeAll { !($0.t < time) }
    result.requiredActions.removeAll { !($0.t < time) }
    return result
  }
}
