/// A causal (real-time) filter on force, run in front of a recognizer (`ema/deep-press`): each
/// output depends only on the samples up to and including the current one, as a filter inside
/// `touchesMoved` could compute it.
///
/// The filter restarts at every touch-down and sees every sample the device reports (unchanged
/// ones included), at the samples' own times; the recognizer behind it then gets the filtered
/// force by the usual delivery rules (a sample whose *filtered* force or position changed is a
/// move). Outputs are clamped to [0, maximum possible force] (to [0, ∞) when the trace has no
/// maximum); every filter here is a weighted mean of inputs in that range, so the clamp only
/// removes rounding.
///
/// | name | parameters | rule |
/// |---|---|---|
/// | `ema` | `alpha` | y₀ = x₀; yₖ = α·xₖ + (1 − α)·yₖ₋₁ |
/// | `movmean` | `window` (samples) | yₖ = mean of xⱼ, max(0, k − w + 1) ≤ j ≤ k, summed oldest first |
/// | `one-euro` | `mincutoff`, `beta`, `dcutoff` | the 1€ filter (Casiez, Roussel & Vogel, CHI 2012) |
public enum CausalFilter: Sendable, Hashable {
  /// Exponential moving average with weight `alpha` (0 < α ≤ 1) on each new sample.
  case ema(alpha: Double)
  /// Trailing moving mean over the last `window` samples (1…``MovingWindow/capacity``); fewer at
  /// the start of a contact.
  case movingMean(window: Int)
  /// The 1€ filter: a first-order low-pass whose cutoff (hertz) is `minCutoff + beta·|ẋ|`, with
  /// ẋ (force units per second) itself low-passed at `derivativeCutoff` hertz. Time steps are
  /// the samples' own; a sample at the same time as the previous one repeats the last output.
  case oneEuro(minCutoff: Double, beta: Double, derivativeCutoff: Double)

  /// Filters one contact's forces: `output[k]` for `force[k]` at time `t[k]` (seconds), clamped
  /// to [0, `maxForce`] (NaN: no upper bound).
  ///
  /// - Precondition: the three buffers have equal lengths.
  public func apply(
    t: UnsafeBufferPointer<Double>, force: UnsafeBufferPointer<Double>, maxForce: Double,
    into output: UnsafeMutableBufferPointer<Double>
  ) {
    precondition(t.count == force.count && output.count == force.count, "filter columns differ in length")
    var state = FilterState(self)
    for k in 0..<force.count {
      output[k] = state.step(force[k], at: t[k], maxForce: maxForce)
    }
  }

  /// Filters one contact's forces (see ``apply(t:force:maxForce:into:)``).
  public func apply(t: [Double], force: [Double], maxForce: Double) -> [Double] {
    [Double](unsafeUninitializedCapacity: force.count) { out, count in
      t.withUnsafeBufferPointer { t in
        force.withUnsafeBufferPointer { f in apply(t: t, force: f, maxForce: maxForce, into: out) }
      }
      count = force.count
    }
  }
}

/// The names of the causal filters, and the words the command line refuses in their place.
public enum CausalFilterKind: String, Sendable, CaseIterable {
  /// ``CausalFilter/ema(alpha:)``.
  case ema
  /// ``CausalFilter/movingMean(window:)``.
  case movingMean = "movmean"
  /// ``CausalFilter/oneEuro(minCutoff:beta:derivativeCutoff:)``.
  case oneEuro = "one-euro"

  /// The smoothers of `touchtrace smooth` that read later samples (zero-phase, centred windows),
  /// which no live recognizer can run: named in the error when one is put in front of a
  /// recognizer.
  public static let nonCausal: Set<String> = ["gaussian", "median", "rmedian", "impulse", "savgol", "movmedian"]
}

/// A filter's running state for one contact: what it remembers between samples. A value of
/// fixed size (no allocation), shared by the batch and the per-sample paths so both compute the
/// same numbers.
public struct FilterState: Sendable {
  /// The filter.
  public let filter: CausalFilter
  /// The last output; NaN before the first sample.
  @usableFromInline var y: Double = .nan
  /// 1€: the last time, seconds, and the filtered derivative, force units per second.
  @usableFromInline var lastT: Double = .nan
  @usableFromInline var dy: Double = 0
  /// The moving mean's window.
  @usableFromInline var window = MovingWindow()

  /// A state before the first sample of a contact.
  public init(_ filter: CausalFilter) { self.filter = filter }

  /// Forgets the contact.
  public mutating func reset() { self = FilterState(filter) }

  /// The output for input `x` (force units) at time `t` (seconds), clamped to [0, `maxForce`].
  @inlinable
  public mutating func step(_ x: Double, at t: Double, maxForce: Double) -> Double {
    var out: Double
    switch filter {
    case .ema(let alpha):
      out = y.isNaN ? x : alpha * x + (1 - alpha) * y
    case .movingMean(let w):
      out = window.push(x, keeping: w)
    case .oneEuro(let minCutoff, let beta, let dCutoff):
      if y.isNaN {
        out = x
      } else {
        let dt = t - lastT
        guard dt > 0 else { return y }  // same instant: nothing new to learn
        let dx = (x - y) / dt
        dy += Self.smoothingFactor(cutoff: dCutoff, dt: dt) * (dx - dy)
        let cutoff = minCutoff + beta * abs(dy)
        out = y + Self.smoothingFactor(cutoff: cutoff, dt: dt) * (x - y)
      }
      lastT = t
    }
    if out < 0 { out = 0 }
    if out > maxForce { out = maxForce }  // false for NaN: no maximum, no upper clamp
    y = out
    return out
  }

  /// The 1€ filter's α for a cutoff (hertz) and a time step (seconds): 1 / (1 + τ/Δt), τ = 1/(2π·fc).
  @inlinable
  static func smoothingFactor(cutoff: Double, dt: Double) -> Double {
    let tau = 1 / (2 * Double.pi * cutoff)
    return 1 / (1 + tau / dt)
  }
}

/// The last samples of a trailing moving mean, in a fixed-size ring (no allocation).
public struct MovingWindow: Sendable {
  /// The longest window, samples.
  public static let capacity = 64
  @usableFromInline var ring = InlineArray<64, Double>(repeating: 0)
  @usableFromInline var count = 0
  @usableFromInline var next = 0

  /// An empty window.
  public init() {}

  /// Adds `x` and returns the mean of the last `keeping` values (fewer at the start), summed
  /// oldest first.
  @inlinable
  public mutating func push(_ x: Double, keeping w: Int) -> Double {
    ring[next] = x
    next = next + 1 == w ? 0 : next + 1
    if count < w { count += 1 }
    // Oldest first: the ring holds the last `count` values ending just before `next`.
    var j = count == w ? next : 0
    var sum = 0.0
    for _ in 0..<count {
      sum += ring[j]
      j = j + 1 == w ? 0 : j + 1
    }
    return sum / Double(count)
  }
}
