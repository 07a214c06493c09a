// The pieces several built-in recognizers share, each written once: the "state change with an
// action" step, the movement test against the touch-down position, the raw-force scans of the
// fast path, and the usual one-pass sweep declarations. The per-sample ones are `@inlinable` and
// concrete (no existential, no closure), so a recognizer that uses them compiles to the same
// loop as if it spelled them out.

extension GestureContext {
  /// Sets the state and records an action of `kind` at `sample`: ``setState(_:at:)`` then
  /// ``act(_:at:detail:)`` — the step a recognizer takes when its condition is met (a threshold
  /// crossed, a timer fired).
  @inlinable
  public mutating func setState(_ new: GestureState, acting kind: ActionKind, at sample: TouchSample) {
    setState(new, at: sample)
    act(kind, at: sample)
  }
}

extension TouchSample {
  /// `force / maxForce`, or `nil` for a sample with force 0 or maximum 0 (the FlexMonkey lineage
  /// ignores those samples).
  @inlinable
  var nonZeroNormalizedForce: Double? {
    guard force != 0, maxForce != 0 else { return nil }
    return force / maxForce
  }
}

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

/// The raw-force scans of the fast path
/// (``ForceRecognizer/skipInertSamples(force:from:to:maxForce:)``): each returns the first index
/// in `from..<to` whose force meets its condition, or `to`. Bounds come from ``FastPathBound``.
@usableFromInline
enum ForceScan {
  /// The first index whose force is not below `bound` (`!(force < bound)`: NaN stops).
  @inlinable @inline(__always)
  static func firstNotBelow(_ force: UnsafeBufferPointer<Double>, _ bound: Double, from: Int, to: Int) -> Int {
    var i = from
    while i < to && force[i] < bound { i &+= 1 }
    return i
  }

  /// The first index whose force is above `bound` (`force > bound`: NaN does not stop).
  @inlinable @inline(__always)
  static func firstAbove(_ force: UnsafeBufferPointer<Double>, _ bound: Double, from: Int, to: Int) -> Int {
    var i = from
    while i < to && !(force[i] > bound) { i &+= 1 }
    return i
  }

  /// The first index whose force is not above `bound` (`!(force > bound)`: NaN stops).
  @inlinable @inline(__always)
  static func firstNotAbove(_ force: UnsafeBufferPointer<Double>, _ bound: Double, from: Int, to: Int) -> Int {
    var i = from
    while i < to && force[i] > bound { i &+= 1 }
    return i
  }

  /// The first index whose force is at least `upper` or at most `lower`.
  @inlinable @inline(__always)
  static func firstOutside(
    _ force: UnsafeBufferPointer<Double>, atLeast upper: Double, atMost lower: Double, from: Int, to: Int
  ) -> Int {
    var i = from
    while i < to {
      let f = force[i]
      if f >= upper || f <= lower { break }
      i &+= 1
    }
    return i
  }

  /// The first index whose force is non-zero and at least `bound` (`atLeast`) or at most it.
  @inlinable @inline(__always)
  static func firstNonZero(
    _ force: UnsafeBufferPointer<Double>, atLeast: Bool, _ bound: Double, from: Int, to: Int
  ) -> Int {
    var i = from
    while i < to {
      let f = force[i]
      if f != 0 && (atLeast ? f >= bound : f <= bound) { break }
      i &+= 1
    }
    return i
  }
}

extension ThresholdSweep {
  /// Declares a sweep of `recognizer`'s `parameter` (the names taken from the typed keys).
  init(
    _ recognizer: RecognizerDescription, _ parameter: Parameter<Double>, event: Event = .action,
    comparison: Comparison, scale: Scale, eligibleSamples: String, conditions: String, rule: Rule
  ) {
    self.init(
      variant: recognizer.name, parameter: parameter.name, event: event, comparison: comparison, scale: scale,
      eligibleSamples: eligibleSamples, conditions: conditions, rule: rule)
  }

  /// The sweep of a recognizer that compares only moved samples, with no other condition: the
  /// event is the first moved sample that crosses.
  static func firstMovedSample(
    _ recognizer: RecognizerDescription, _ parameter: Parameter<Double>, comparison: Comparison, scale: Scale
  ) -> ThresholdSweep {
    ThresholdSweep(
      recognizer, parameter, comparison: comparison, scale: scale,
      eligibleSamples: "moved samples (index 1…n−2)", conditions: "none", rule: .movedSamples)
  }
}

extension ThresholdSweep.Rule {
  /// Moved samples only (not the touch-down, stationary or lift samples).
  static var movedSamples: Self {
    .delivered(began: false, moved: true, stationary: false, ended: false, skipZeroForce: false)
  }

  /// The touch-down sample and moved samples, optionally skipping force 0.
  static func touchDownAndMoved(skipZeroForce: Bool = false) -> Self {
    .delivered(began: true, moved: true, stationary: false, ended: false, skipZeroForce: skipZeroForce)
  }
}

/// How one number parameter must compare with another (a rule checked at construction).
enum ParameterOrder {
  /// `value >= other`: "must be at least".
  case atLeast
  /// `value <= other`: "must not exceed".
  case atMost
  /// `value > other`: "must be greater than".
  case greaterThan
}

extension ConfigurableRecognizer {
  /// Checks that `parameter`'s value in `values` stands in `order` to `other`'s, else throws an
  /// error naming `parameter`: "must be at least peekThreshold (0.2), got 0.1".
  ///
  /// - Throws: ``ParameterError`` (`.invalid`) when the rule is broken (NaN breaks every rule).
  static func require(
    _ parameter: Parameter<Double>, _ order: ParameterOrder, _ other: Parameter<Double>, in values: ParameterValues
  ) throws(ParameterError) {
    let value = values[parameter]
    let bound = values[other]
    let holds: Bool
    let rule: String
    switch order {
    case .atLeast: (holds, rule) = (value >= bound, "must be at least")
    case .atMost: (holds, rule) = (value <= bound, "must not exceed")
    case .greaterThan: (holds, rule) = (value > bound, "must be greater than")
    }
    guard holds else {
      throw ParameterError(
        variant: descriptor.name, parameter: parameter,
        .invalid("\(rule) \(other.name) (\(ParameterValue.text(bound))), got \(ParameterValue.text(value))"))
    }
  }
}

/// A recognizer that evaluates the touch-down sample and every moved sample by the same rule,
/// ``handle(_:_:)``: the default ``ForceRecognizer/touchesBegan(_:_:)``,
/// ``ForceRecognizer/touchesMoved(_:_:)`` and ``ForceRecognizer/touchesStationary(_:_:)`` call it
/// (the harness delivers stationary samples only to a recognizer whose
/// ``ForceRecognizer/receivesStationary`` is `true`; a conformer that does more at touch-down
/// implements `touchesBegan` itself).
public protocol UniformSampleRecognizer: ForceRecognizer {
  /// Evaluates a touch-down or moved sample.
  mutating func handle(_ sample: TouchSample, _ context: inout GestureContext)
}

extension UniformSampleRecognizer {
  /// Evaluates the touch-down sample with ``handle(_:_:)``.
  @inlinable
  public mutating func touchesBegan(_ sample: TouchSample, _ context: inout GestureContext) {
    handle(sample, &context)
  }

  /// Evaluates a moved sample with ``handle(_:_:)``.
  @inlinable @inline(__always)
  public mutating func touchesMoved(_ sample: TouchSample, _ context: inout GestureContext) {
    handle(sample, &context)
  }

  /// Evaluates a stationary sample with ``handle(_:_:)`` (delivered only when
  /// ``ForceRecognizer/receivesStationary``).
  @inlinable @inline(__always)
  public mutating func touchesStationary(_ sample: TouchSample, _ context: inout GestureContext) {
    handle(sample, &context)
  }
}

/// A continuous gesture decided by a hold — UIKit's and Android's long press: the lift ends it, a
/// cancel cancels it (each fails it while still possible), the pending timer is the hold's, and
/// `reset()` stops it.
public protocol HoldRecognizer: ForceRecognizer {
  /// The hold: touch-down position and pending timer.
  var hold: HoldGate { get set }
}

extension HoldRecognizer {
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
