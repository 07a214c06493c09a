/// A force level, absolute or relative.
public enum ForceLevel: Hashable, Sendable, CustomStringConvertible {
  /// A force in device units.
  case force(Double)
  /// A fraction of the trace's maximum possible force (`force / maxForce`); undefined when the
  /// maximum is unknown.
  case normalized(Double)
  /// A fraction of the trace's own peak force (scale-free: works without a known maximum).
  case fractionOfPeak(Double)

  /// The level in force units for a trace with this peak and maximum possible force; `nil` for
  /// ``normalized(_:)`` without a maximum and for ``fractionOfPeak(_:)`` of a zero peak.
  public func resolve(peak: Double, maxForce: Double?) -> Double? {
    switch self {
    case .force(let value): value
    case .normalized(let value): maxForce.map { value * $0 }
    case .fractionOfPeak(let value): peak > 0 ? value * peak : nil
    }
  }

  /// `1.5 force`, `0.5 of max force`, `0.5 of peak`.
  public var description: String {
    switch self {
    case .force(let value): "\(value) force"
    case .normalized(let value): "\(value) of max force"
    case .fractionOfPeak(let value): "\(value) of peak"
    }
  }
}

/// Level crossings and areas of a piecewise-linear signal `(t[i], f[i])`.
enum PiecewiseLinear {
  /// The first time at or after sample `start` where the signal is at or above `level`, with
  /// linear interpolation between samples; `t[start]` when it already is there.
  static func firstTime(atOrAbove level: Double, t: [Double], f: [Double], from start: Int = 0) -> Double? {
    guard start < f.count else { return nil }
    if f[start] >= level { return t[start] }
    for i in (start + 1)..<f.count where f[i] >= level {
      return crossing(level, t[i - 1], f[i - 1], t[i], f[i])
    }
    return nil
  }

  /// The time where the line from `(t0, f0)` to `(t1, f1)` reaches `level` (`f0 < level ≤ f1`
  /// or the reverse).
  @inline(__always)
  static func crossing(_ level: Double, _ t0: Double, _ f0: Double, _ t1: Double, _ f1: Double) -> Double {
    guard f1 != f0 else { return t1 }
    return t0 + (level - f0) / (f1 - f0) * (t1 - t0)
  }

  /// The total time the interpolated signal spends at or above `level`, seconds.
  static func timeAtOrAbove(_ level: Double, t: [Double], f: [Double]) -> Double {
    var total = 0.0
    for i in f.indices.dropFirst() {
      let a = f[i - 1]
      let b = f[i]
      let dt = t[i] - t[i - 1]
      if a >= level && b >= level {
        total += dt
      } else if a >= level {
        total += (a - level) / (a - b) * dt
      } else if b >= level {
        total += (b - level) / (b - a) * dt
      }
    }
    return total
  }

  /// The trapezoidal integral of the signal over time (units of f times seconds).
  static func integral(t: [Double], f: [Double]) -> Double {
    var total = 0.0
    for i in f.indices.dropFirst() { total += (f[i] + f[i - 1]) / 2 * (t[i] - t[i - 1]) }
    return total
  }
}
