public import TouchCore

/// An exact description of a variant whose action (or stage-2) time is the **first crossing of
/// one force threshold**, so that a sweep over many values of that parameter can be done in one
/// pass per trace (running maximum of the compared quantity, then each threshold's first
/// crossing).
///
/// The contract, for a trace replayed through a fresh instance whose other parameters are the
/// ones this sweep was taken from: the event's sample index is the index of the **first
/// candidate** (``candidates(in:)``, in order) whose force satisfies ``crosses(force:threshold:maxForce:)``,
/// and `nil` when none does. The event's time is the trace's `t` at that index. Candidates
/// already encode which samples the variant looks at (moved samples only, force ≠ 0, …), where a
/// failure cuts the trace short, and fallbacks such as shunkit's decision at lift.
///
/// The comparison is monotone in the threshold, so a running maximum over the candidates'
/// forces decides every threshold at once: threshold θ is crossed at the first candidate whose
/// running maximum crosses θ.
///
/// Two sweeps are equal (`==`) when every stored property is, with NaN settings of the
/// candidate rule (no limit, no cut, off) equal to themselves: two instances built from the
/// same parameter values always compare equal.
public struct ThresholdSweep: Sendable, Hashable {
  /// Which event the crossing gives.
  public enum Event: String, Sendable, Hashable {
    /// The action event (stage 1 of two-stage variants).
    case action
    /// The stage-2 event.
    case stage2
  }

  /// The comparison the original code makes.
  public enum Comparison: String, Sendable, Hashable {
    /// `quantity > threshold`.
    case greaterThan = ">"
    /// `quantity >= threshold`.
    case greaterThanOrEqual = ">="
  }

  /// How force and threshold are compared, exactly as the original's arithmetic (which matters
  /// on quantized data: `force / max >= θ` and `force >= max * θ` differ in the last bit).
  public enum Scale: String, Sendable, Hashable {
    /// `force ⋈ θ` (raw device units).
    case raw
    /// `force ⋈ min(θ, maxForce)`: the threshold is clamped to the maximum possible force first.
    case clampedRaw
    /// `force / maxForce ⋈ θ`.
    case normalized
    /// `force ⋈ maxForce * θ`.
    case scaledThreshold
    /// `clamp(force / maxForce, 0, 1) ⋈ θ` (Flutter's inverse-lerp with minimum 0).
    case clampedNormalized

    /// The quantity compared with the level: the force, or the force divided by the maximum
    /// (clamped to 0…1 for ``clampedNormalized``). The one place this arithmetic is written.
    @inlinable
    public func quantity(force: Double, maxForce: Double) -> Double {
      switch self {
      case .raw, .clampedRaw, .scaledThreshold:
        return force
      case .normalized:
        return force / maxForce
      case .clampedNormalized:
        let p = force / maxForce
        return p.isNaN ? p : Swift.min(Swift.max(p, 0), 1)
      }
    }

    /// The level the quantity is compared with: the threshold, clamped to the maximum
    /// (``clampedRaw``) or scaled by it (``scaledThreshold``).
    @inlinable
    public func level(threshold: Double, maxForce: Double) -> Double {
      switch self {
      case .raw, .normalized, .clampedNormalized: threshold
      case .clampedRaw: Swift.min(threshold, maxForce)
      case .scaledThreshold: maxForce * threshold
      }
    }
  }

  /// A sample the variant compares, and the force it compares there (usually the sample's own;
  /// shunkit's lift decision uses the touch-down force).
  public struct Candidate: Sendable, Hashable {
    /// The sample index at which the event happens when this candidate crosses.
    public var index: Int
    /// The force compared, device units.
    public var force: Double
  }

  /// Which samples are candidates: the one-pass rules, each generic (a recognizer names the one
  /// it satisfies, with its settings). The event is the first candidate whose running maximum of
  /// the compared quantity crosses the level.
  public enum Rule: Sendable, Hashable, CustomStringConvertible {
    /// First crossing among samples by delivery kind (touch-down, moved, stationary, lift),
    /// optionally skipping samples with force 0.
    case delivered(began: Bool, moved: Bool, stationary: Bool, ended: Bool, skipZeroForce: Bool)
    /// First crossing among moved samples; when none moved and the contact ends by lift, the lift
    /// sample compared with the touch-down force (a decision taken at lift on the last force
    /// seen).
    case movedElseLiftAtTouchDownForce
    /// First crossing among moved samples, cut before the first whose normalized force lies
    /// beyond `limit` (above it for `limit ≥ 0`, below it for `limit < 0`; NaN: no cut).
    case movedUntilNormalizedBeyond(limit: Double)
    /// First crossing among the touch-down and moved samples, cut before the first whose
    /// normalized force is above `limit` (NaN: no cut).
    case beganAndMovedUntilNormalizedAbove(limit: Double)
    /// First crossing among the touch-down and moved samples, cut after the first move whose
    /// squared per-event (or, `cumulative`, the distance from touch-down beyond `slop`)
    /// displacement exceeds `slop` — unless an earlier-or-same candidate already started the
    /// gesture (clamped normalized force above `startedAbove`; NaN: never). No candidate when
    /// the maximum force is at most 1.
    case beganAndMovedUntilSlop(slop: Double, cumulative: Bool, startedAbove: Double)

    /// Equal cases with equal settings, NaN equal to NaN (a NaN setting means "none").
    public static func == (a: Rule, b: Rule) -> Bool {
      func same(_ x: Double, _ y: Double) -> Bool { x == y || (x.isNaN && y.isNaN) }
      switch (a, b) {
      case (.delivered(let b1, let m1, let s1, let e1, let z1), .delivered(let b2, let m2, let s2, let e2, let z2)):
        return b1 == b2 && m1 == m2 && s1 == s2 && e1 == e2 && z1 == z2
      case (.movedElseLiftAtTouchDownForce, .movedElseLiftAtTouchDownForce):
        return true
      case (.movedUntilNormalizedBeyond(let x), .movedUntilNormalizedBeyond(let y)):
        return same(x, y)
      case (.beganAndMovedUntilNormalizedAbove(let x), .beganAndMovedUntilNormalizedAbove(let y)):
        return same(x, y)
      case (.beganAndMovedUntilSlop(let s1, let c1, let a1), .beganAndMovedUntilSlop(let s2, let c2, let a2)):
        return same(s1, s2) && c1 == c2 && same(a1, a2)
      default:
        return false
      }
    }

    /// Hashes consistently with `==` (every NaN alike, −0 like +0).
    public func hash(into hasher: inout Hasher) {
      func add(_ x: Double) {
        if x.isNaN { hasher.combine(0x7FF8_0000_0000_0000 as UInt64) } else { hasher.combine(x == 0 ? 0 : x) }
      }
      switch self {
      case .delivered(let began, let moved, let stationary, let ended, let skipZero):
        hasher.combine(0)
        hasher.combine(began)
        hasher.combine(moved)
        hasher.combine(stationary)
        hasher.combine(ended)
        hasher.combine(skipZero)
      case .movedElseLiftAtTouchDownForce:
        hasher.combine(1)
      case .movedUntilNormalizedBeyond(let limit):
        hasher.combine(2)
        add(limit)
      case .beganAndMovedUntilNormalizedAbove(let limit):
        hasher.combine(3)
        add(limit)
      case .beganAndMovedUntilSlop(let slop, let cumulative, let startedAbove):
        hasher.combine(4)
        add(slop)
        hasher.combine(cumulative)
        add(startedAbove)
      }
    }

    /// The rule's name, as the catalog prints it.
    public var description: String {
      switch self {
      case .delivered: "first crossing of a level"
      case .movedElseLiftAtTouchDownForce: "first crossing of a level, else a decision at lift"
      case .movedUntilNormalizedBeyond: "first crossing of a level until force/max leaves a bound"
      case .beganAndMovedUntilNormalizedAbove: "first crossing of a level until force/max exceeds a cut"
      case .beganAndMovedUntilSlop: "first crossing of a level until the touch moves beyond a slop"
      }
    }
  }

  /// The variant's name.
  public var variant: String
  /// The swept parameter.
  public var parameter: String
  /// The event the crossing gives.
  public var event: Event
  /// The comparison operator.
  public var comparison: Comparison
  /// How force and threshold are compared.
  public var scale: Scale
  /// Which samples are candidates, in words.
  public var eligibleSamples: String
  /// What must hold for the other parameters (in words); the candidates use this instance's
  /// values of them.
  public var conditions: String
  /// Which samples are candidates.
  public var rule: Rule

  /// Declares a one-pass sweep over `parameter` (see the type's contract).
  public init(
    variant: String, parameter: String, event: Event = .action, comparison: Comparison,
    scale: Scale, eligibleSamples: String, conditions: String, rule: Rule
  ) {
    self.variant = variant
    self.parameter = parameter
    self.event = event
    self.comparison = comparison
    self.scale = scale
    self.eligibleSamples = eligibleSamples
    self.conditions = conditions
    self.rule = rule
  }

  /// Whether the sweep needs the trace's maximum possible force.
  public var requiresMaximumForce: Bool { scale != .raw }

  /// Whether `force` crosses `threshold` under this sweep's scale and operator.
  ///
  /// - Parameters:
  ///   - force: a candidate's force, device units.
  ///   - threshold: the swept parameter's value.
  ///   - maxForce: the trace's maximum possible force (ignored for ``Scale/raw``).
  @inlinable
  public func crosses(force: Double, threshold: Double, maxForce: Double) -> Bool {
    let quantity = scale.quantity(force: force, maxForce: maxForce)
    let level = scale.level(threshold: threshold, maxForce: maxForce)
    switch comparison {
    case .greaterThan: return quantity > level
    case .greaterThanOrEqual: return quantity >= level
    }
  }

  /// The candidates of `trace`, in order.
  ///
  /// - Complexity: O(n).
  public func candidates(in trace: Trace) -> [Candidate] {
    withUnsafePointer(to: trace) { candidates(at: $0) }
  }

  /// The candidates of the trace at `trace`, in order: as ``candidates(in:)``, the trace read in
  /// place (a sweep's inner loop; a copy would retain and release every column and label).
  package func candidates(at trace: UnsafePointer<Trace>) -> [Candidate] {
    let n = trace.pointee.count
    guard n > 0 else { return [] }
    let f = trace.pointee.force
    let hasPosition = trace.pointee.hasPosition
    let x = trace.pointee.x ?? []
    let y = trace.pointee.y ?? []
    let endsByLift = trace.pointee.phase.last != .cancelled
    func moved(_ i: Int) -> Bool {
      f[i] != f[i - 1] || (hasPosition && (x[i] != x[i - 1] || y[i] != y[i - 1]))
    }
    let maxForce = trace.pointee.metadata.maxForce ?? .nan
    var out: [Candidate] = []
    switch rule {
    case .delivered(let began, let movedOK, let stationary, let ended, let skipZero):
      func add(_ i: Int) { if !(skipZero && f[i] == 0) { out.append(Candidate(index: i, force: f[i])) } }
      if began { add(0) }
      if n > 1 {
        for i in 1..<(n - 1) {
          if moved(i) ? movedOK : stationary { add(i) }
        }
      }
      if ended && endsByLift { add(n - 1) }
    case .movedElseLiftAtTouchDownForce:
      if n > 1 {
        for i in 1..<(n - 1) where moved(i) { out.append(Candidate(index: i, force: f[i])) }
      }
      if out.isEmpty && endsByLift { out.append(Candidate(index: n - 1, force: f[0])) }
    case .movedUntilNormalizedBeyond(let maximum):
      if n > 1 {
        for i in 1..<(n - 1) where moved(i) {
          let v = f[i] / maxForce
          if !maximum.isNaN && ((maximum < 0 && v < maximum) || (maximum >= 0 && v > maximum)) { break }
          out.append(Candidate(index: i, force: f[i]))
        }
      }
    case .beganAndMovedUntilNormalizedAbove(let palm):
      func add(_ i: Int) -> Bool {
        if !palm.isNaN && f[i] / maxForce > palm { return false }
        out.append(Candidate(index: i, force: f[i]))
        return true
      }
      guard add(0) else { break }
      if n > 1 {
        for i in 1..<(n - 1) where moved(i) { if !add(i) { break } }
      }
    case .beganAndMovedUntilSlop(let slop, let cumulative, let startedAbove):
      guard maxForce > 1 else { break }
      func pressure(_ i: Int) -> Double {
        let p = f[i] / maxForce
        return p.isNaN ? p : Swift.min(Swift.max(p, 0), 1)
      }
      out.append(Candidate(index: 0, force: f[0]))
      var started = !startedAbove.isNaN && pressure(0) > startedAbove
      if n > 1 {
        for i in 1..<(n - 1) where moved(i) {
          out.append(Candidate(index: i, force: f[i]))
          if started { continue }
          if !startedAbove.isNaN && pressure(i) > startedAbove {
            started = true
            continue
          }
          let dx = hasPosition ? (cumulative ? x[i] - x[0] : x[i] - x[i - 1]) : 0
          let dy = hasPosition ? (cumulative ? y[i] - y[0] : y[i] - y[i - 1]) : 0
          let d2 = dx * dx + dy * dy
          if cumulative ? d2 > slop * slop : d2 > slop { break }
        }
      }
    }
    return out
  }

  /// The index of the event for `threshold` by a direct scan of the candidates: the reference
  /// against which a one-pass sweep can be tested.
  ///
  /// - Complexity: O(n).
  public func firstCrossing(in trace: Trace, threshold: Double) -> Int? {
    let maxForce = trace.metadata.maxForce ?? .nan
    return candidates(in: trace).first { crosses(force: $0.force, threshold: threshold, maxForce: maxForce) }?
      .index
  }
}
