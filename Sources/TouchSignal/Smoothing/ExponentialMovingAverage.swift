internal import CGSL
public import TouchCore

/// An exponential moving average, the causal smoother a live recognizer can run in O(1) per
/// sample, as a reusable configuration.
///
/// `y[0] = x[0]`, then `y[i] = y[i−1] + α[i] · (x[i] − y[i−1])`.
///
/// - ``Weighting/alpha(_:)``: a fixed `α` per sample.
/// - ``Weighting/span(_:)`` `N` samples: `α = 2/(N + 1)`, whose centre of mass lies `(N − 1)/2`
///   samples back (the usual "span" convention).
/// - ``Weighting/timeConstant(_:)`` `τ` seconds: time-aware, `α[i] = 1 − exp(−(t[i] − t[i−1])/τ)`,
///   so irregular sampling is weighted by elapsed time; a sample at the same time as the one
///   before gets weight 0. Needs sample times (traces, or the `times` argument).
///
/// A window of `S` seconds (see ``init(window:)``) becomes the time constant `τ = S/2`, which
/// puts the centre of mass where a span of `S` seconds puts it.
///
/// Ends: there is nothing to pad. The average starts at the first sample (no run-in from 0) and
/// never looks ahead, so the last output uses only the past.
public struct ExponentialMovingAverage: SmoothingMethod {
  /// How much each new sample weighs.
  public enum Weighting: Hashable, Sendable, CustomStringConvertible {
    /// A fixed weight per sample, `0 < α ≤ 1`.
    case alpha(Double)
    /// A span of `N ≥ 1` samples: `α = 2/(N + 1)`.
    case span(Int)
    /// A time constant, seconds (> 0): `α[i] = 1 − exp(−Δt[i]/τ)`.
    case timeConstant(Double)

    /// `alpha 0.2`, `span 7 samples`, `time constant 0.02 s`.
    public var description: String {
      switch self {
      case .alpha(let a): "alpha \(a)"
      case .span(let n): "span \(n) samples"
      case .timeConstant(let tau): "time constant \(tau) s"
      }
    }
  }

  /// The weighting.
  public var weighting: Weighting

  /// Creates an average with the given weighting.
  /// - Precondition: `0 < α ≤ 1`, `N ≥ 1`, `τ > 0`.
  public init(_ weighting: Weighting) {
    switch weighting {
    case .alpha(let a): precondition(a > 0 && a <= 1, "alpha must be in (0, 1], got \(a)")
    case .span(let n): precondition(n >= 1, "span must be at least 1 sample, got \(n)")
    case .timeConstant(let tau): precondition(tau > 0 && tau.isFinite, "time constant must be positive, got \(tau)")
    }
    self.weighting = weighting
  }

  /// Creates an average from a window: `N` samples → span `N`; `S` seconds → time constant `S/2`.
  public init(window: SmoothingWindow) {
    window.validate()
    switch window {
    case .samples(let n): self.init(.span(n))
    case .seconds(let s): self.init(.timeConstant(s / 2))
    }
  }

  /// Averages `values`.
  ///
  /// - Parameters:
  ///   - values: the signal, one value per sample.
  ///   - times: sample times, seconds, one per value; required for
  ///     ``Weighting/timeConstant(_:)``, ignored otherwise.
  /// - Precondition: `times` has `values.count` elements when given.
  /// - Complexity: O(n), no allocation beyond the output.
  public func apply(to values: [Double], times: [Double]? = nil) -> [Double] {
    guard let first = values.first else { return [] }
    var output = [Double](repeating: 0, count: values.count)
    output[0] = first
    var y = first
    switch weighting {
    case .alpha(let a):
      for i in values.indices.dropFirst() {
        y += a * (values[i] - y)
        output[i] = y
      }
    case .span(let n):
      let a = 2 / Double(n + 1)
      for i in values.indices.dropFirst() {
        y += a * (values[i] - y)
        output[i] = y
      }
    case .timeConstant(let tau):
      guard let times else { preconditionFailure("a time-constant EMA needs the sample times") }
      precondition(times.count == values.count, "one time per value")
      for i in values.indices.dropFirst() {
        let dt = times[i] - times[i - 1]
        let a = dt > 0 ? -expm1(-dt / tau) : 0
        y += a * (values[i] - y)
        output[i] = y
      }
    }
    return output
  }

  /// Averages the force column of every trace, force units (the sample times weigh a time
  /// constant); never fails.
  public func apply(to traces: [Trace]) -> [[Double]] {
    traces.map { apply(to: $0.force, times: $0.t) }
  }
}
