/// One sample as a recognizer sees it when UIKit delivers it (or when a timer fires).
///
/// For a timer, ``t`` is the timer's exact deadline and ``index``, ``force``, ``x`` and ``y`` are
/// those of the last sample before the deadline (the one on screen when the timer fired).
public struct TouchSample: Sendable, Hashable {
  /// The sample's index in its trace (0-based).
  public var index: Int
  /// Time, seconds: the sample's time, or a timer's deadline.
  public var t: Double
  /// Force, device units (`UITouch.force`).
  public var force: Double
  /// The trace's maximum possible force, device units; NaN when the trace does not say.
  public var maxForce: Double
  /// Horizontal position, points; 0 when the trace has no positions.
  public var x: Double
  /// Vertical position, points; 0 when the trace has no positions.
  public var y: Double
  /// Touch radius (`UITouch.majorRadius`), points; NaN when the trace has no radius column.
  public var radius: Double

  /// Creates a sample.
  @inlinable
  public init(
    index: Int, t: Double, force: Double, maxForce: Double, x: Double = 0, y: Double = 0, radius: Double = .nan
  ) {
    self.index = index
    self.t = t
    self.force = force
    self.maxForce = maxForce
    self.x = x
    self.y = y
    self.radius = radius
  }

  /// Force divided by the maximum possible force (0…1 on a valid trace), as
  /// `touch.force / touch.maximumPossibleForce` computes it.
  @inlinable public var normalizedForce: Double { force / maxForce }
}

/// A state change of a recognizer during a replay.
public struct StateTransition: Sendable, Hashable {
  /// The new state.
  public var state: GestureState
  /// When, seconds: the time of the sample that caused it, or a timer's deadline.
  public var t: Double
  /// The sample index (for a timer: the last sample before the deadline).
  public var index: Int
  /// `true` when the harness set the state at the end of the contact because the recognizer
  /// left it open (still possible → failed; began/changed → cancelled), as UIKit does when a
  /// touch sequence ends. `false` when the recognizer set it.
  public var implicit: Bool
  /// 0 for the recognizer itself (or the dependent one of a require-to-fail composition); 1 for
  /// the recognizer that must fail.
  public var source: UInt8

  /// Creates a transition.
  @inlinable
  public init(state: GestureState, t: Double, index: Int, implicit: Bool = false, source: UInt8 = 0) {
    self.state = state
    self.t = t
    self.index = index
    self.implicit = implicit
    self.source = source
  }
}

/// The kind of an ``ActionEvent``.
public enum ActionKind: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// The variant's app-action event: the moment an app would act (stage 1 of two-stage
  /// variants). Some variants can act several times per contact.
  case action
  /// Stage 2 of a two-stage variant (pop, Flutter's `onPeak`).
  case stage2
  /// A press ended while the finger still touches (the press can flap back on). Counted as a
  /// flap.
  case release
  /// The dependent recognizer of a require-to-fail composition wanted to recognize here but has
  /// to wait for the other recognizer to fail.
  case held

  /// The word used in reports: `action`, `stage2`, `release`, `held`.
  public var name: String {
    switch self {
    case .action: "action"
    case .stage2: "stage2"
    case .release: "release"
    case .held: "held"
    }
  }

  /// The same as ``name``.
  public var description: String { name }
}

/// Something a recognizer reports besides its state: an app action, a stage-2 action, a
/// release.
public struct ActionEvent: Sendable, Hashable {
  /// What happened.
  public var kind: ActionKind
  /// When, seconds: a sample's time or a timer's deadline.
  public var t: Double
  /// The sample index (for a timer: the last sample before the deadline).
  public var index: Int
  /// Variant-specific detail: for ``ThresholdZones``, +k+1 for threshold k reached by an
  /// increase, −(k+1) by a decrease; otherwise 0.
  public var detail: Int
  /// 0 for the recognizer itself (or the dependent one of a composition); 1 for the recognizer
  /// that must fail.
  public var source: UInt8

  /// Creates an action event.
  @inlinable
  public init(kind: ActionKind, t: Double, index: Int, detail: Int = 0, source: UInt8 = 0) {
    self.kind = kind
    self.t = t
    self.index = index
    self.detail = detail
    self.source = source
  }
}

/// A moment in a replay: a time and the sample index it belongs to.
public struct ReplayEvent: Sendable, Hashable {
  /// Time, seconds.
  public var t: Double
  /// Sample index.
  public var index: Int

  /// Creates an event.
  @inlinable public init(t: Double, index: Int) {
    self.t = t
    self.index = index
  }
}
