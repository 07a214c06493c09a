/// What a recognizer writes to during a replay: its state (as `UIGestureRecognizer.state`) and
/// the record of its transitions and actions.
///
/// The harness owns the context, resets ``state`` to ``GestureState/possible`` at every
/// touch-down and appends to the record across the traces of a batch. Recognizers only call
/// ``setState(_:at:)`` and ``act(_:at:detail:)``.
public struct GestureContext: Sendable {
  /// The recognizer's current state.
  @inlinable public var state: GestureState { stored }
  @usableFromInline var stored: GestureState = .possible
  /// The value written into the `source` field of everything recorded.
  @usableFromInline var source: UInt8 = 0
  /// Every state change recorded so far.
  @usableFromInline var transitions: [StateTransition] = []
  /// Every action recorded so far.
  @usableFromInline var actions: [ActionEvent] = []

  /// Creates an empty context in state ``GestureState/possible``.
  public init() {}

  /// Sets the state, recording a transition when it differs from the current one (so repeated
  /// `changed` updates are recorded once).
  ///
  /// Setting a state after a terminal one is ignored, as UIKit delivers nothing to a recognizer
  /// that has finished with its contact.
  @inlinable
  public mutating func setState(_ new: GestureState, at sample: TouchSample) {
    guard new != state, !state.isTerminal else { return }
    stored = new
    transitions.append(
      StateTransition(state: new, t: sample.t, index: sample.index, source: source))
  }

  /// Sets the state by a UIKit rule rather than the recognizer's own decision (recorded as
  /// implicit), e.g. failing a recognizer whose required-to-fail partner recognized.
  @inlinable
  public mutating func setStateBySystem(_ new: GestureState, at sample: TouchSample) {
    guard new != state, !state.isTerminal else { return }
    stored = new
    transitions.append(
      StateTransition(state: new, t: sample.t, index: sample.index, implicit: true, source: source))
  }

  /// Ends a continuous gesture with the contact: `outcome` (`.ended` or `.cancelled`) once it has
  /// begun, `.failed` while it is still possible (UIKit fails a recognizer that never began).
  @inlinable
  public mutating func finish(_ outcome: GestureState, at sample: TouchSample) {
    setState(state == .possible ? .failed : outcome, at: sample)
  }

  /// Records an action event at `sample`'s time and index.
  @inlinable
  public mutating func act(_ kind: ActionKind = .action, at sample: TouchSample, detail: Int = 0) {
    actions.append(
      ActionEvent(kind: kind, t: sample.t, index: sample.index, detail: detail, source: source))
  }

  /// The end-of-sequence rule: a recognizer still open when its contact ends is closed by the
  /// system — ``GestureState/possible`` becomes ``GestureState/failed`` and
  /// ``GestureState/began`` / ``GestureState/changed`` become ``GestureState/cancelled`` —
  /// recorded as an implicit transition at `sample`.
  @inlinable
  public mutating func closeSequence(at sample: TouchSample) {
    let closed: GestureState
    switch state {
    case .possible: closed = .failed
    case .began, .changed: closed = .cancelled
    case .ended, .cancelled, .failed: return
    }
    stored = closed
    transitions.append(
      StateTransition(state: closed, t: sample.t, index: sample.index, implicit: true, source: source))
  }

  /// Forgets the record (keeping its storage) and returns to ``GestureState/possible``.
  @inlinable
  public mutating func clear() {
    stored = .possible
    transitions.removeAll(keepingCapacity: true)
    actions.removeAll(keepingCapacity: true)
  }
}
