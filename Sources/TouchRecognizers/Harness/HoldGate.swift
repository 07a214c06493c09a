/// Where the contact touched down, and the movement test against it (tap, long press, drag
/// gates): a sample is too far when its Euclidean distance from the touch-down position is
/// greater than the limit (strict `>`, compared squared).
@usableFromInline
struct TouchOrigin: Sendable {
  /// Touch-down position, points.
  @usableFromInline var x: Double = 0
  @usableFromInline var y: Double = 0

  @inlinable init() {}

  /// Records `sample`'s position as the touch-down position.
  @inlinable
  mutating func record(_ sample: TouchSample) {
    x = sample.x
    y = sample.y
  }

  /// Whether `sample` lies farther than `limit` points from the touch-down position.
  @inlinable
  func isFarther(_ sample: TouchSample, than limit: Double) -> Bool {
    let dx = sample.x - x
    let dy = sample.y - y
    return dx * dx + dy * dy > limit * limit
  }
}

/// A contact held from touch-down within a movement limit, with one pending timer: the state of
/// the tap and long-press recognizers (where it touched down, and when the timer fires). Its
/// operations are internal to TouchRecognizers.
public struct HoldGate: Sendable {
  /// The touch-down position.
  @usableFromInline var origin = TouchOrigin()
  /// The pending deadline, seconds; `.infinity` when none.
  @usableFromInline var deadline = Double.infinity

  /// No touch yet, no timer.
  @inlinable public init() {}

  /// Touch-down: records the position and sets the timer.
  @inlinable
  mutating func touchDown(_ sample: TouchSample, deadline: Double) {
    origin.record(sample)
    self.deadline = deadline
  }

  /// Cancels the timer.
  @inlinable
  mutating func stop() { deadline = .infinity }

  /// Cancels the timer and fails the gesture when `sample` lies farther than `limit` points from
  /// the touch-down position; returns whether it did.
  @inlinable @discardableResult
  mutating func failIfFarther(_ sample: TouchSample, than limit: Double, _ context: inout GestureContext) -> Bool {
    guard origin.isFarther(sample, than: limit) else { return false }
    deadline = .infinity
    context.setState(.failed, at: sample)
    return true
  }

  /// Cancels the timer and sets the state.
  @inlinable
  mutating func stop(_ state: GestureState, at sample: TouchSample, _ context: inout GestureContext) {
    deadline = .infinity
    context.setState(state, at: sample)
  }

  /// Cancels the timer and ends a continuous gesture with the contact
  /// (``GestureContext/finish(_:at:)``).
  @inlinable
  mutating func finish(_ outcome: GestureState, at sample: TouchSample, _ context: inout GestureContext) {
    deadline = .infinity
    context.finish(outcome, at: sample)
  }
}

/// A gesture decided by a hold from touch-down — the tap and UIKit's and Android's long presses:
/// the pending timer is the hold's, a cancel cancels it (fails it while still possible), and
/// `reset()` stops the timer. By default the lift ends it (fails it while still possible), as
/// the long presses; the tap recognizes at lift instead.
public protocol HoldRecognizer: ForceRecognizer {
  /// The hold: touch-down position and pending timer.
  var hold: HoldGate { get set }
}

extension HoldRecognizer {
  /// The hold's timer.
  @inlinable public static var usesTimers: Bool { true }

  /// The hold's pending timer.
  @inlinable public var timerDeadline: Double { hold.deadline }

  /// Lift: ended (failed while still possible).
  @inlinable
  public mutating func touchesEnded(_ sample: TouchSample, _ context: inout GestureContext) {
    hold.finish(.ended, at: sample, &context)
  }

  /// Cancel: cancelled (failed while still possible).
  @inlinable
  public mutating func touchesCancelled(_ sample: TouchSample, _ context: inout GestureContext) {
    hold.finish(.cancelled, at: sample, &context)
  }

  /// Stops the timer.
  @inlinable
  public mutating func reset() { hold.stop() }
}
