public import TouchCore

/// The gestures the synthesizer makes. Each has a ground-truth `Intent`; a hard tap is a tap.
public enum GestureKind: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
  /// A short touch with light force.
  case tap
  /// A short touch with a high force peak (intent `tap`: no press is meant).
  case hardTap = "hard-tap"
  /// A deliberate force press: ramp to a target level, hold, release.
  case press
  /// Peek then pop: a press, a hold, then a second, harder press.
  case pop
  /// A long touch (longer than 0.5 s) at light force.
  case hold
  /// A touch that moves 30–250 pt, with incidental force.
  case drag
  /// An accidental graze: very short, very light, nearly still.
  case none

  /// The ground-truth label written to the trace.
  public var intent: Intent {
    switch self {
    case .tap, .hardTap: .tap
    case .press: .press
    case .pop: .pop
    case .hold: .hold
    case .drag: .drag
    case .none: .none
    }
  }

  /// The name: `tap`, `hard-tap`, …
  public var description: String { rawValue }

  /// Reads a gesture name (`tap`, `hard-tap`, `press`, `pop`, `hold`, `drag`, `none`;
  /// `hardtap` and `hard_tap` are accepted too); `nil` for anything else.
  public init?(name: some StringProtocol) {
    let lower = name.lowercased()
    if lower == "hardtap" || lower == "hard_tap" {
      self = .hardTap
    } else if let kind = GestureKind(rawValue: lower) {
      self = kind
    } else {
      return nil
    }
  }
}

/// One piece of a planned force curve: from `from` to `to` newtons between `start` and `end`
/// seconds, along a minimum-jerk path (constant when `from == to`).
public struct ForceSegment: Hashable, Sendable {
  /// Start time, seconds from touch-down.
  public var start: Double
  /// End time, seconds from touch-down.
  public var end: Double
  /// Force at the start, newtons.
  public var from: Double
  /// Force at the end, newtons.
  public var to: Double

  /// Creates a segment.
  public init(start: Double, end: Double, from: Double, to: Double) {
    self.start = start
    self.end = end
    self.from = from
    self.to = to
  }
}

/// The minimum-jerk position profile s(τ) = 10τ³ − 15τ⁴ + 6τ⁵ on τ ∈ [0, 1] (Flash & Hogan
/// 1985): starts and ends at rest with zero acceleration, half-way at τ = ½.
@inlinable
public func minimumJerk(_ tau: Double) -> Double {
  let t = Swift.min(Swift.max(tau, 0), 1)
  return t * t * t * (10 + t * (-15 + 6 * t))
}

/// The noise-free plan of one gesture: the force the person means to apply over time, the
/// movement, and the ground-truth press times.
///
/// The plan is what the person intends; ``Synthesizer`` adds tremor, drift, sensor noise,
/// quantization, saturation and frame timing on top of it.
public struct GesturePlan: Hashable, Sendable {
  /// The gesture.
  public var kind: GestureKind
  /// The force curve, contiguous from 0 to ``duration``.
  public var segments: [ForceSegment]
  /// Times (seconds from the planned touch-down) of the intended presses: for each deliberate
  /// force ramp, the moment the planned force is half-way from the level before the ramp to the
  /// ramp's target, i.e. `ramp start + ramp duration / 2` — the minimum-jerk ramp's point of
  /// fastest rise. Empty for gestures without a deliberate press.
  public var pressAt: [Double]
  /// Planned contact time, seconds.
  public var duration: Double
  /// The movement: start and end times (seconds) and displacement (points); `nil` when the
  /// finger is meant to stay still.
  public var movement: Movement?
  /// For drags: extra force while moving, as a fraction of the contact level at peak speed.
  public var incidentalForce: Double
  /// Force level (newtons) the incidental force is relative to.
  public var contactLevel: Double
  /// Relative standard deviation of the slow force drift (0.04 for most gestures, 0.08 for holds).
  public var driftLevel: Double

  /// A planned movement along a straight line with a minimum-jerk speed profile.
  public struct Movement: Hashable, Sendable {
    /// When the movement starts, seconds.
    public var start: Double
    /// When it ends, seconds.
    public var end: Double
    /// Horizontal displacement, points.
    public var dx: Double
    /// Vertical displacement, points.
    public var dy: Double
  }

  /// The planned force at `t` seconds after touch-down, newtons; the last segment's end value
  /// after ``duration``, 0 before 0.
  public func force(at t: Double) -> Double {
    guard t >= 0 else { return 0 }
    var base = segments.last?.to ?? 0
    for segment in segments where t < segment.end {
      let span = segment.end - segment.start
      let tau = span > 0 ? (t - segment.start) / span : 1
      base = segment.from + (segment.to - segment.from) * minimumJerk(tau)
      break
    }
    if let movement, incidentalForce > 0, t > movement.start, t < movement.end {
      let tau = (t - movement.start) / (movement.end - movement.start)
      // Minimum-jerk speed 30τ²(1 − τ)², normalized to 1 at its peak (τ = ½: 1.875).
      let speed = 30 * tau * tau * (1 - tau) * (1 - tau) / 1.875
      base += incidentalForce * contactLevel * speed
    }
    return base
  }

  /// The planned displacement from the touch-down point at `t` seconds, points.
  public func displacement(at t: Double) -> (dx: Double, dy: Double) {
    guard let movement else { return (0, 0) }
    let span = movement.end - movement.start
    let s = span > 0 ? minimumJerk((t - movement.start) / span) : (t >= movement.end ? 1 : 0)
    return (movement.dx * s, movement.dy * s)
  }

  /// The largest planned force, newtons.
  public var peakForce: Double {
    segments.reduce(0) { Swift.max($0, $1.from, $1.to) }
  }

  // MARK: - Drawing plans

  /// Draws a plan for `kind` as `user` would perform it.
  ///
  /// Ranges (uniform; forces in newtons before the user's force scale, ramp/release/movement
  /// times in seconds before division by the user's speed) are listed in <doc:SynthesisModel>
  /// ("Gestures").
  public static func make(_ kind: GestureKind, user: SynthUser, rng: inout SynthRandom) -> GesturePlan {
    var builder = Builder(user: user)
    switch kind {
    case .tap:
      builder.ramp(to: rng.uniform(0.4, 1.1), over: rng.uniform(0.03, 0.07))
      builder.hold(rng.uniform(0, 0.03))
      builder.release(over: rng.uniform(0.03, 0.08), residual: rng.uniform(0.02, 0.1))
    case .hardTap:
      builder.ramp(to: rng.uniform(2.6, 4.6), over: rng.uniform(0.025, 0.055))
      builder.hold(rng.uniform(0, 0.02))
      builder.release(over: rng.uniform(0.03, 0.07), residual: rng.uniform(0.02, 0.1))
    case .press:
      builder.lightContact(&rng)
      builder.ramp(to: rng.uniform(2.2, 4.0), over: rng.uniform(0.12, 0.35), isPress: true)
      builder.hold(rng.uniform(0.15, 0.5))
      builder.pressRelease(&rng)
    case .pop:
      builder.lightContact(&rng)
      let peek = rng.uniform(1.6, 2.6)
      builder.ramp(to: peek, over: rng.uniform(0.12, 0.3), isPress: true)
      builder.hold(rng.uniform(0.15, 0.4))
      builder.ramp(to: rng.uniform(4.2, 6.5), over: rng.uniform(0.1, 0.25), isPress: true)
      builder.hold(rng.uniform(0.1, 0.3))
      builder.pressRelease(&rng)
    case .hold:
      builder.ramp(to: rng.uniform(0.4, 1.2), over: rng.uniform(0.05, 0.12))
      builder.hold(rng.uniform(0.6, 1.5))
      builder.release(over: rng.uniform(0.06, 0.15), residual: rng.uniform(0.02, 0.1))
      builder.driftLevel = 0.08
    case .drag:
      let level = rng.uniform(0.3, 1.0)
      builder.ramp(to: level, over: rng.uniform(0.03, 0.08))
      builder.hold(rng.uniform(0.02, 0.12))
      let distance = rng.uniform(30, 250)
      let angle = rng.uniform(0, SynthMath.twoPi)
      let moveTime = rng.uniform(0.15, 0.6) / user.speed
      builder.movement = Movement(
        start: builder.time, end: builder.time + moveTime,
        dx: distance * SynthMath.cos(angle), dy: distance * SynthMath.sin(angle))
      builder.incidentalForce = rng.uniform(0.1, 0.4)
      builder.hold(moveTime)
      builder.hold(rng.uniform(0, 0.08))
      builder.release(over: rng.uniform(0.04, 0.1), residual: rng.uniform(0.02, 0.1))
    case .none:
      builder.ramp(to: rng.uniform(0.08, 0.35), over: rng.uniform(0.01, 0.03))
      builder.release(over: rng.uniform(0.01, 0.03), residual: 0)
      let distance = rng.uniform(0, 6)
      let angle = rng.uniform(0, SynthMath.twoPi)
      builder.movement = Movement(
        start: 0, end: builder.time, dx: distance * SynthMath.cos(angle),
        dy: distance * SynthMath.sin(angle))
    }
    return builder.plan(kind)
  }

  /// Appends segments one after the other.
  private struct Builder {
    let user: SynthUser
    var segments: [ForceSegment] = []
    var pressAt: [Double] = []
    var time = 0.0
    var level = 0.0
    var contactLevel = 0.0
    var movement: Movement?
    var incidentalForce = 0.0
    var driftLevel = 0.04

    init(user: SynthUser) { self.user = user }

    /// A minimum-jerk ramp to `newtons × forceScale` over `seconds ÷ speed`.
    mutating func ramp(to newtons: Double, over seconds: Double, isPress: Bool = false) {
      let target = newtons * user.forceScale
      let span = seconds / user.speed
      if isPress { pressAt.append(time + span / 2) }
      if segments.isEmpty { contactLevel = target }
      segments.append(ForceSegment(start: time, end: time + span, from: level, to: target))
      time += span
      level = target
    }

    /// Keeps the level for `seconds` (not scaled by speed: dwelling is a decision, not motor speed).
    mutating func hold(_ seconds: Double) {
      guard seconds > 0 else { return }
      segments.append(ForceSegment(start: time, end: time + seconds, from: level, to: level))
      time += seconds
    }

    /// Lets go: a minimum-jerk fall to `residual` newtons (the force still read when the contact
    /// breaks) over `seconds ÷ speed`.
    mutating func release(over seconds: Double, residual: Double) {
      let span = seconds / user.speed
      segments.append(ForceSegment(start: time, end: time + span, from: level, to: residual))
      time += span
      level = residual
    }

    /// The light first contact a press or a pop starts with: a ramp to 0.3…0.8 N over
    /// 0.04…0.1 s, then a dwell of 0.05…0.25 s (drawn in that order).
    mutating func lightContact(_ rng: inout SynthRandom) {
      ramp(to: rng.uniform(0.3, 0.8), over: rng.uniform(0.04, 0.1))
      hold(rng.uniform(0.05, 0.25))
    }

    /// The release that ends a press or a pop: over 0.06…0.16 s to a residual of 0.02…0.1 N.
    mutating func pressRelease(_ rng: inout SynthRandom) {
      release(over: rng.uniform(0.06, 0.16), residual: rng.uniform(0.02, 0.1))
    }

    func plan(_ kind: GestureKind) -> GesturePlan {
      GesturePlan(
        kind: kind, segments: segments, pressAt: pressAt, duration: time, movement: movement,
        incidentalForce: incidentalForce, contactLevel: contactLevel, driftLevel: driftLevel)
    }
  }
}
