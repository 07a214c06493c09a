public import TouchCore

/// One synthesized trace with the plan and the user behind it (what tests and analyses compare
/// the trace against).
public struct SynthesizedTrace: Hashable, Sendable {
  /// The trace as written to files.
  public var trace: Trace
  /// The noise-free plan the trace was rendered from.
  public var plan: GesturePlan
  /// Who performed it.
  public var user: SynthUser
  /// The touch-down sample's time on the plan's clock, seconds: trace time = plan time − offset.
  /// 0 for devices that detect contact at touch-down; later for contact-size sensors, which
  /// detect the finger once its signal reaches the detection level.
  public var planOffset: Double
}

/// Makes labelled touch traces from a generative model of people pressing a device.
///
/// For each trace: draw a ``GesturePlan`` (the force and movement the person intends), then
/// simulate sensor frames at the profile's rate with jitter; at each frame add physiological
/// tremor (8–12 Hz), slow force drift, contact-position drift and finger roll, convert newtons
/// to device units (``ForceResponse``), add sensor noise, quantize and clamp to the maximum, and
/// deliver the frame the way the platform does (``Delivery``). See <doc:SynthesisModel>.
///
/// Deterministic: the same profile, seed, users, mix and count give the same traces, bit for
/// bit, on every platform (all randomness comes from ``SynthRandom`` and all functions from
/// `SynthMath`).
public struct Synthesizer: Sendable {
  /// The simulated device.
  public var profile: DeviceProfile
  /// The seed.
  public var seed: UInt64
  /// The simulated people; traces are assigned to them in turn.
  public var users: [SynthUser]
  /// The share of each gesture.
  public var mix: IntentMix

  /// Creates a synthesizer with `userCount` users drawn from `seed`.
  /// - Precondition: `userCount` ≥ 1.
  public init(profile: DeviceProfile, seed: UInt64, userCount: Int = 4, mix: IntentMix = .uniform) {
    precondition(userCount >= 1, "at least one user")
    self.profile = profile
    self.seed = seed
    self.users = (0..<userCount).map { SynthUser.make(index: $0, seed: seed) }
    self.mix = mix
  }

  /// The recording session every trace of this synthesizer belongs to: `PROFILE-sSEED`.
  public var session: String { "\(profile.name)-s\(seed)" }

  /// The gesture and user (index into ``users``) of each of `count` traces: gesture counts from
  /// ``IntentMix/counts(total:)`` in a seeded random order, users in turn.
  public func schedule(count: Int) -> [(kind: GestureKind, user: Int)] {
    kinds(count: count).enumerated().map { (kind: $0.element, user: user(ofTrace: $0.offset)) }
  }

  /// The gesture of each of `count` traces, as in ``schedule(count:)``: one byte a trace, for
  /// callers that write millions.
  public func kinds(count: Int) -> [GestureKind] {
    let counts = mix.counts(total: count)
    var kinds: [GestureKind] = []
    kinds.reserveCapacity(count)
    for kind in GestureKind.allCases {
      kinds += repeatElement(kind, count: counts[kind] ?? 0)
    }
    var rng = SynthRandom(seed: seed, stream: stableHash("order:" + profile.name))
    rng.shuffle(&kinds)
    return kinds
  }

  /// The user (index into ``users``) of trace number `index`: users take turns.
  public func user(ofTrace index: Int) -> Int { index % users.count }

  /// `count` traces, in schedule order, with ids `PROFILE-sSEED-0001`, ….
  public func generate(count: Int) -> [Trace] {
    schedule(count: count).enumerated().map { index, item in
      synthesize(index: index, kind: item.kind, user: item.user).trace
    }
  }

  /// The trace id of trace number `index` (0-based): `PROFILE-sSEED-NNNN`, 4 digits at least.
  public func traceID(index: Int) -> String {
    var number = String(index + 1)
    while number.count < 4 { number = "0" + number }
    return "\(session)-\(number)"
  }

  /// Trace number `index` as gesture `kind` by user number `user`.
  ///
  /// The trace's randomness comes from its own stream of the seed, so it does not depend on the
  /// other traces. A plan whose contact the device would not detect (a graze too light for a
  /// contact-size sensor) is redrawn from the same stream.
  /// - Precondition: `user` is a valid index into ``users``, and the profile detects some draws
  ///   of `kind` (a custom profile whose detection level no gesture reaches traps after 200 draws).
  public func synthesize(index: Int, kind: GestureKind, user: Int) -> SynthesizedTrace {
    let person = users[user]
    var rng = SynthRandom(seed: seed, stream: stableHash(profile.name) &+ UInt64(index))
    for _ in 0..<200 {
      let plan = GesturePlan.make(kind, user: person, rng: &rng)
      guard let rendered = render(plan, user: person, rng: &rng) else { continue }
      let metadata = TraceMetadata(
        id: traceID(index: index), intent: kind.intent, pressAt: rendered.pressAt,
        user: person.id, session: session, device: profile.name, maxForce: profile.maxForce)
      let trace = Trace(
        metadata: metadata, t: rendered.t, force: rendered.force, phase: rendered.phase,
        x: rendered.x, y: rendered.y)
      return SynthesizedTrace(trace: trace, plan: plan, user: person, planOffset: rendered.offset)
    }
    preconditionFailure("profile \(profile.name) cannot render gesture \(kind) for user \(person.id)")
  }

  // MARK: - Rendering

  private struct Rendered {
    var t: [Double] = []
    var force: [Double] = []
    var phase: [TouchPhase] = []
    var x: [Double] = []
    var y: [Double] = []
    var pressAt: [Double] = []
    var offset = 0.0
  }

  /// Tremor, drift and roll constants (see <doc:SynthesisModel>, "People").
  private enum Model {
    /// Tremor amplitude relative to the force, before the user's gain.
    static let tremorRelative = 0.02
    /// Tremor amplitude added while in contact, newtons, before the user's gain.
    static let tremorAbsolute = 0.01
    /// Correlation time of the slow force drift, seconds.
    static let driftTime = 0.3
    /// Position random walk, points per √second, before the user's drift gain.
    static let walk = 1.0
    /// Contact-point shift with force (finger roll and flattening), points per newton.
    static let roll = 0.5
    /// Position tremor amplitude, points, before the user's gain.
    static let positionTremor = 0.08
    /// Distance kept from the edges of the surface, points.
    static let margin = 20.0
  }

  private func render(_ plan: GesturePlan, user: SynthUser, rng: inout SynthRandom) -> Rendered? {
    let p = profile
    let tremorPhase = rng.uniform(0, SynthMath.twoPi)
    let tremorFrequency = user.tremorFrequency * rng.uniform(0.97, 1.03)
    let tremorRelative = Model.tremorRelative * user.tremorGain
    let tremorAbsolute = Model.tremorAbsolute * user.tremorGain
    var drift = plan.driftLevel * rng.normal(mean: 0, sd: 1)
    let rollAngle = rng.uniform(0, SynthMath.twoPi)
    let roll = Model.roll * rng.uniform(0.5, 1.5)
    let rollX = roll * SynthMath.cos(rollAngle)
    let rollY = roll * SynthMath.sin(rollAngle)
    let walkSigma = Model.walk * user.driftGain
    var walkX = 0.0
    var walkY = 0.0
    let positionTremor = Model.positionTremor * user.tremorGain
    let end = plan.displacement(at: plan.duration)
    let x0 = startCoordinate(extent: p.width, shift: end.dx, rng: &rng)
    let y0 = startCoordinate(extent: p.height, shift: end.dy, rng: &rng)

    let nominal = p.frameInterval * 1e6
    let jitter = p.frameJitter * 1e6
    var tUs: Int64 = 0
    var out = Rendered()
    var began = false
    var beganUs: Int64 = 0
    var last = (force: 0.0, x: 0.0, y: 0.0)
    let frames = (plan.duration / p.frameInterval).rounded(.down)
    let maxFrames = (frames < 1e9 ? Int(exactly: frames) ?? 0 : 1_000_000_000) + 100

    for _ in 0..<maxFrames {
      let t = Double(tUs) / 1e6
      let planned = plan.force(at: Swift.min(t, plan.duration))
      let wave = SynthMath.sin(SynthMath.twoPi * tremorFrequency * t + tremorPhase)
      var newtons = planned * (1 + drift) + (tremorRelative * planned + tremorAbsolute) * wave
      if planned <= 0 { newtons = 0 }
      let units = p.response.units(newtons: Swift.max(newtons, 0)) + p.sensorNoise * rng.normal(mean: 0, sd: 1)
      let reported = p.report(units: units)
      let move = plan.displacement(at: t)
      let x = quantize(
        x0 + move.dx + rollX * planned + walkX + positionTremor * wave, step: p.positionStep, limit: p.width)
      let y = quantize(
        y0 + move.dy + rollY * planned + walkY - positionTremor * wave, step: p.positionStep, limit: p.height)

      let inContact: Bool
      if let detection = p.detectionLevel {
        inContact = t < plan.duration && reported >= detection
      } else {
        inContact = t < plan.duration
      }
      if !began {
        if inContact {
          began = true
          beganUs = tUs
          let force = p.firstSampleZero ? 0 : reported
          append(&out, tUs - beganUs, force, .began, x, y)
          last = (force, x, y)
        } else if t >= plan.duration {
          return nil  // never detected
        }
      } else if inContact {
        let changed = reported != last.force || x != last.x || y != last.y
        if changed || p.delivery == .everyFrame {
          append(&out, tUs - beganUs, reported, changed ? .moved : .stationary, x, y)
          last = (reported, x, y)
        }
      } else {
        // Lift-off. A force sensor reads the force at the moment the contact breaks; a
        // contact-size sensor stops reporting, so the last values are carried to the lift.
        if p.detectionLevel == nil {
          append(&out, tUs - beganUs, reported, .ended, x, y)
        } else {
          append(&out, tUs - beganUs, last.force, .ended, last.x, last.y)
        }
        break
      }

      // Next frame.
      let step = Swift.max((nominal + jitter * rng.normal(mean: 0, sd: 1)).rounded(), 1)
      tUs += Int64(step)
      let dt = step / 1e6
      let a = SynthMath.exp(-dt / Model.driftTime)
      drift = drift * a + plan.driftLevel * (1 - a * a).squareRoot() * rng.normal(mean: 0, sd: 1)
      walkX += walkSigma * dt.squareRoot() * rng.normal(mean: 0, sd: 1)
      walkY += walkSigma * dt.squareRoot() * rng.normal(mean: 0, sd: 1)
    }
    guard began, out.phase.last == .ended, out.t.count >= 2 else { return nil }

    let lastT = out.t[out.t.count - 1]
    for time in plan.pressAt {
      let relative = Double(Int64((time * 1e6).rounded()) - beganUs) / 1e6
      guard relative >= 0, relative <= lastT else { return nil }
      out.pressAt.append(relative)
    }
    out.offset = Double(beganUs) / 1e6
    return out
  }

  private func append(
    _ out: inout Rendered, _ us: Int64, _ force: Double, _ phase: TouchPhase, _ x: Double, _ y: Double
  ) {
    out.t.append(Double(us) / 1e6)
    out.force.append(force)
    out.phase.append(phase)
    out.x.append(x)
    out.y.append(y)
  }

  /// A start coordinate that keeps the whole planned movement `shift` inside the surface.
  private func startCoordinate(extent: Double, shift: Double, rng: inout SynthRandom) -> Double {
    let low = Model.margin + Swift.max(0, -shift)
    let high = extent - Model.margin - Swift.max(0, shift)
    guard high > low else { return extent / 2 }
    return rng.uniform(low, high)
  }

  /// `value` on the grid of `step`, within 0…`limit`.
  private func quantize(_ value: Double, step: Double, limit: Double) -> Double {
    let clamped = Swift.min(Swift.max(value, 0), limit)
    let levels = (clamped / step).rounded()
    let reciprocal = (1 / step).rounded()
    return abs(1 / reciprocal - step) <= 1e-12 * step ? levels / reciprocal : levels * step
  }
}
