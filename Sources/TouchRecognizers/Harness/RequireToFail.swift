/// Two recognizers on one contact where the first may only recognize once the second has failed
/// (`dependent.require(toFail: required)`), e.g. a tap that waits for a force press to fail.
///
/// Both receive every event (each with its own stationary preference and timers; the required
/// one first). UIKit's rules:
/// - When the dependent leaves possible while the required one is still undecided, its
///   transitions and actions are **held**: a ``ActionKind/held`` action marks the moment, and
///   they are released — at the time and index of the required one's failure — when it fails.
///   The delay is the added latency (``ReplayResult/addedLatency``).
/// - When the required one recognizes (began or ended), the dependent fails (an implicit
///   transition) and anything held is dropped.
/// - "Failed" means a `failed` state, or `cancelled` reached straight from possible (some
///   libraries end an unrecognized contact that way); the end-of-sequence rule fails a
///   required recognizer left possible at lift.
///
/// The result's ``ReplayResult/transitions`` and ``ReplayResult/actions`` are the dependent's as
/// the app sees them; the required recognizer's are in ``ReplayResult/requiredTransitions`` and
/// ``ReplayResult/requiredActions``.
public struct RequireToFail<Dependent: ForceRecognizer, Required: ForceRecognizer>: ForceRecognizer {
  /// The recognizer that waits (e.g. a tap).
  public var dependent: Dependent
  /// The recognizer that must fail first (e.g. a force press).
  public var required: Required

  @usableFromInline var a = GestureContext()
  @usableFromInline var b = GestureContext()
  /// 0 undecided, 1 failed, 2 recognized.
  @usableFromInline var outcome: UInt8 = 0
  @usableFromInline var forwardedTransitions = 0
  @usableFromInline var forwardedActions = 0
  @usableFromInline var copiedTransitions = 0
  @usableFromInline var copiedActions = 0
  @usableFromInline var holding = false
  @usableFromInline var dependentDropped = false

  /// Composes `dependent`, which waits for `required` to fail.
  public init(_ dependent: Dependent, requiringFailureOf required: Required) {
    self.dependent = dependent
    self.required = required
    b.source = 1
  }

  /// `dependent+required`, with the required recognizer's parameters prefixed `required.`.
  public var variant: RecognizerDescription {
    let d = dependent.variant
    let r = required.variant
    return RecognizerDescription(
      name: Composition.name(dependent: d.name, required: r.name), code: Composition.code,
      title: "\(d.title), requiring \(r.title) to fail",
      summary: "\(d.name) recognizes only after \(r.name) fails",
      source: RecognizerSource(
        library: "\(d.sourceInfo.library); \(r.sourceInfo.library)", version: nil, link: nil,
        reference: "\(d.source); \(r.source)"),
      style: d.style, actionEvent: d.actionEvent + " — delayed until \(r.name) fails",
      stage2Event: d.stage2Event, releaseEvent: d.releaseEvent,
      rules: "\(d.name) recognizes only after \(r.name) fails; fails when \(r.name) recognizes.",
      parameters: Composition.parameters(dependent: d.parameters, required: r.parameters))
  }

  /// The dependent's values, then the required one's prefixed `required.`.
  public var parameters: ParameterValues {
    Composition.values(dependent: dependent.parameters, required: required.parameters)
  }

  /// Either needs it.
  public var requiresMaximumForce: Bool {
    dependent.requiresMaximumForce || required.requiresMaximumForce
  }

  /// Whether either part wants stationary samples (each gets them only if it does).
  @inlinable public static var receivesStationary: Bool {
    Dependent.receivesStationary || Required.receivesStationary
  }

  /// Whether either part uses timers.
  @inlinable public static var usesTimers: Bool { Dependent.usesTimers || Required.usesTimers }

  @inlinable var requiredActive: Bool { !required.isFinished(in: b) }
  @inlinable var dependentActive: Bool { !dependentDropped && !dependent.isFinished(in: a) }

  /// The earlier pending timer of the two.
  @inlinable public var timerDeadline: Double {
    Swift.min(
      Required.usesTimers && requiredActive ? required.timerDeadline : .infinity,
      Dependent.usesTimers && dependentActive ? dependent.timerDeadline : .infinity)
  }

  /// Copies the required recognizer's new records into the outer context and updates the outcome.
  @inlinable @inline(__always)
  mutating func absorbRequired(_ context: inout GestureContext) {
    while copiedTransitions < b.transitions.count {
      let transition = b.transitions[copiedTransitions]
      context.transitions.append(transition)
      if outcome == 0 {
        switch transition.state {
        case .began, .changed, .ended: outcome = 2
        case .failed: outcome = 1
        case .cancelled: outcome = copiedTransitions == 0 ? 1 : 2
        case .possible: break
        }
      }
      copiedTransitions += 1
    }
    while copiedActions < b.actions.count {
      context.actions.append(b.actions[copiedActions])
      copiedActions += 1
    }
  }

  /// Applies the rules to the dependent's new records at `sample`.
  @inlinable
  mutating func settleDependent(at sample: TouchSample, _ context: inout GestureContext) {
    guard !dependentDropped else { return }
    if outcome == 2 {
      dependentDropped = true
      forwardedTransitions = a.transitions.count
      forwardedActions = a.actions.count
      context.setStateBySystem(.failed, at: sample)
      return
    }
    let pending = forwardedTransitions < a.transitions.count || forwardedActions < a.actions.count
    guard pending else { return }
    let failing =
      !holding && forwardedTransitions < a.transitions.count
      && a.transitions[forwardedTransitions].state == .failed
    if outcome == 0 && !failing {
      if !holding {
        holding = true
        context.act(.held, at: sample)
      }
      return
    }
    while forwardedTransitions < a.transitions.count {
      context.setState(a.transitions[forwardedTransitions].state, at: sample)
      forwardedTransitions += 1
    }
    while forwardedActions < a.actions.count {
      let action = a.actions[forwardedActions]
      context.act(action.kind, at: sample, detail: action.detail)
      forwardedActions += 1
    }
  }

  /// Which callback to deliver.
  @usableFromInline
  enum Delivery {
    case began, moved, stationary, ended, cancelled, timer
  }

  @inlinable @inline(__always)
  static func send<R: ForceRecognizer>(
    _ delivery: Delivery, _ sample: TouchSample, to recognizer: inout R, _ context: inout GestureContext
  ) {
    switch delivery {
    case .began: recognizer.touchesBegan(sample, &context)
    case .moved: recognizer.touchesMoved(sample, &context)
    case .stationary: if R.receivesStationary { recognizer.touchesStationary(sample, &context) }
    case .ended: recognizer.touchesEnded(sample, &context)
    case .cancelled: recognizer.touchesCancelled(sample, &context)
    case .timer:
      if R.usesTimers && recognizer.timerDeadline <= sample.t { recognizer.timerFired(sample, &context) }
    }
  }

  @inlinable @inline(__always)
  mutating func deliver(_ delivery: Delivery, _ sample: TouchSample, _ context: inout GestureContext) {
    if delivery == .began {
      a.stored = .possible
      b.stored = .possible
    }
    if requiredActive {
      Self.send(delivery, sample, to: &required, &b)
      absorbRequired(&context)
    }
    if dependentActive { Self.send(delivery, sample, to: &dependent, &a) }
    settleDependent(at: sample, &context)
  }

  @inlinable @inline(__always)
  public mutating func touchesBegan(_ sample: TouchSample, _ context: inout GestureContext) {
    deliver(.began, sample, &context)
  }

  @inlinable @inline(__always)
  public mutating func touchesMoved(_ sample: TouchSample, _ context: inout GestureContext) {
    deliver(.moved, sample, &context)
  }

  @inlinable @inline(__always)
  public mutating func touchesStationary(_ sample: TouchSample, _ context: inout GestureContext) {
    deliver(.stationary, sample, &context)
  }

  @inlinable @inline(__always)
  public mutating func touchesEnded(_ sample: TouchSample, _ context: inout GestureContext) {
    deliver(.ended, sample, &context)
  }

  @inlinable @inline(__always)
  public mutating func touchesCancelled(_ sample: TouchSample, _ context: inout GestureContext) {
    deliver(.cancelled, sample, &context)
  }

  @inlinable @inline(__always)
  public mutating func timerFired(_ sample: TouchSample, _ context: inout GestureContext) {
    deliver(.timer, sample, &context)
  }

  /// Finished when the dependent is done (as the app sees it) and the required one too.
  @inlinable
  public func isFinished(in context: GestureContext) -> Bool {
    context.state.isTerminal && !requiredActive
  }

  @inlinable
  public mutating func contactEnded(_ sample: TouchSample, _ context: inout GestureContext) {
    required.contactEnded(sample, &b)
    absorbRequired(&context)
    if !dependentDropped { dependent.contactEnded(sample, &a) }
    settleDependent(at: sample, &context)
    context.closeSequence(at: sample)
  }

  @inlinable
  public mutating func reset() {
    dependent.reset()
    required.reset()
    a.clear()
    b.clear()
    outcome = 0
    forwardedTransitions = 0
    forwardedActions = 0
    copiedTransitions = 0
    copiedActions = 0
    holding = false
    dependentDropped = false
  }
}
