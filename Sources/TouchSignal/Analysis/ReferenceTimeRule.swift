public import TouchCore

/// An offline rule that says when an intended press happened in a trace, for traces whose labels
/// carry no `press_at` times.
///
/// The rule looks at the whole trace (zero phase, like a person annotating a plot):
/// 1. Resample the force to ``rate`` Hz with linear interpolation (``Resampling``, repeated
///    timestamps merged, gaps longer than ``maximumGap`` kept), so irregular timestamps do not
///    distort the smoothing.
/// 2. Smooth each gap-free segment with a centred Gaussian of ``window`` seconds and ``alpha``
///    (``GaussianSmoothing``, ends padded with the first / last value). A centred kernel does not
///    delay the curve, so a crossing of a symmetric ramp stays where it was.
/// 3. Normalize: with ``Level/fractionOfPeak(_:)`` (the standard rule) divide by the smoothed
///    peak; with ``Level/normalized(_:)`` divide by the maximum possible force.
/// 4. Report every **upward crossing** of the level, the time interpolated linearly between the
///    two grid samples around it. A trace (or a gap-free segment, while armed) whose smoothed force
///    starts at or above the level has its reference at its first sample: touch-down — most pen
///    traces, which touch down already pressing. After a crossing the rule re-arms only once the normalized force falls below
///    ``rearm`` × level, so tremor around the level does not produce extra presses.
///
/// The ``standard`` rule — 240 Hz, 0.1 s Gaussian with `α = 3` (σ ≈ 16.7 ms, one 60 Hz frame),
/// level 0.5 of the smoothed peak, re-arm below half the level — marks the half-rise point of
/// each press. That point is the steepest part of a press ramp (the logistic midpoint), where a
/// force error moves the time least; it needs no device maximum, so it works the same on every
/// device, sensitivity setting and trace without `max_force`; and it is defined for presses of any
/// strength, which a fixed normalized level is not (a gentle press may never reach it).
///
/// Traces whose smoothed force never rises above 0 have no reference time (`[]`). The rule does
/// not look at the intent: callers decide which traces need reference times.
public struct ReferenceTimeRule: Hashable, Sendable, CustomStringConvertible {
  /// What the crossing level is relative to.
  public enum Level: Hashable, Sendable, CustomStringConvertible {
    /// A fraction (0…1] of the trace's smoothed peak; defined for every trace.
    case fractionOfPeak(Double)
    /// A fraction of the maximum possible force; traces without a known maximum throw
    /// ``SignalError/noMaximumForce(trace:operation:)``.
    case normalized(Double)

    /// `0.5 of the smoothed peak`, `0.4 of max force`.
    public var description: String {
      switch self {
      case .fractionOfPeak(let f): "\(f) of the smoothed peak"
      case .normalized(let f): "\(f) of max force"
      }
    }
  }

  /// The resampling rate, Hz.
  public var rate: Double
  /// The longest interval bridged by resampling, seconds.
  public var maximumGap: Double
  /// The Gaussian window, seconds.
  public var window: Double
  /// The Gaussian `alpha` (σ = window / (2·alpha)).
  public var alpha: Double
  /// The crossing level.
  public var level: Level
  /// The re-arm fraction of the level (0 ≤ rearm < 1).
  public var rearm: Double

  /// Creates a rule.
  /// - Precondition: positive rate, gap, window and alpha; a level in (0, 1]; `0 ≤ rearm < 1`.
  public init(
    rate: Double = 240, maximumGap: Double = 0.1, window: Double = 0.1, alpha: Double = 3,
    level: Level = .fractionOfPeak(0.5), rearm: Double = 0.5
  ) {
    precondition(rate > 0 && maximumGap > 0 && window > 0 && alpha > 0, "rule parameters must be positive")
    switch level {
    case .fractionOfPeak(let f), .normalized(let f): precondition(f > 0 && f <= 1, "level must be in (0, 1]")
    }
    precondition(rearm >= 0 && rearm < 1, "rearm must be in [0, 1)")
    self.rate = rate
    self.maximumGap = maximumGap
    self.window = window
    self.alpha = alpha
    self.level = level
    self.rearm = rearm
  }

  /// The standard rule (all defaults): 240 Hz linear resampling, gaps over 0.1 s kept, Gaussian
  /// 0.1 s with `α = 3`, level 0.5 of the smoothed peak, re-armed below 0.25 of the peak.
  public static let standard = ReferenceTimeRule()

  /// The rule in words, for reports: `upward crossings of 0.5 of the smoothed peak; force
  /// resampled at 240 Hz (linear, gaps > 0.1 s kept), centred Gaussian 0.1 s (alpha 3); re-armed
  /// below 0.5 × level`.
  public var description: String {
    "upward crossings of \(level); force resampled at \(rate) Hz (linear, gaps > \(maximumGap) s kept), "
      + "centred Gaussian \(window) s (alpha \(alpha)); re-armed below \(rearm) × level"
  }

  /// The reference times of `trace`, seconds on the trace's clock, ascending, each inside the
  /// trace's time span.
  ///
  /// - Throws: ``SignalError`` naming the trace: ``SignalError/noMaximumForce(trace:operation:)``
  ///   for a ``Level/normalized(_:)`` level without a known maximum; GSL failures.
  /// - Complexity: O(n + m·K) for m resampled samples and a K-sample kernel.
  public func referenceTimes(for trace: Trace) throws(SignalError) -> [Double] {
    guard !trace.isEmpty else { return [] }
    let scale: Double?
    if case .normalized = level {
      guard let maxForce = trace.metadata.maxForce else {
        throw .noMaximumForce(trace: trace.name, operation: "the reference-time rule (\(level))")
      }
      scale = maxForce
    } else {
      scale = nil
    }
    let resampled = try Resampling(rate: rate, method: .linear, maximumGap: maximumGap).apply(to: trace)
    let grid = resampled.trace
    var smooth = [Double](repeating: 0, count: grid.count)
    let gaussian = GaussianSmoothing(window: .seconds(window), alpha: alpha, ends: .padValue)
    do {
      let smoother = try gaussian.smoother(interval: 1 / rate)
      for segment in resampled.segments {
        let part = try smoother.apply(to: Array(grid.force[segment]))
        smooth.replaceSubrange(segment, with: part)
      }
    } catch {
      throw .gsl(error.inTrace(trace.name))
    }
    let fraction: Double
    let normalizer: Double
    switch level {
    case .fractionOfPeak(let f):
      fraction = f
      normalizer = smooth.max() ?? 0
    case .normalized(let f):
      fraction = f
      normalizer = scale!
    }
    guard normalizer > 0 else { return [] }
    let threshold = fraction * normalizer
    let release = rearm * threshold
    var times: [Double] = []
    var armed = true
    for i in smooth.indices {
      let value = smooth[i]
      if armed, value >= threshold {
        let joined = i > 0 && !resampled.segments.contains { $0.lowerBound == i }
        times.append(
          joined ? PiecewiseLinear.crossing(threshold, grid.t[i - 1], smooth[i - 1], grid.t[i], value) : grid.t[i])
        armed = false
      } else if !armed, value < release {
        armed = true
      }
    }
    return times
  }

  /// The reference times to score `trace` against: its `press_at` labels when it has any,
  /// otherwise this rule's times.
  /// - Throws: ``SignalError`` from ``referenceTimes(for:)``.
  public func resolvedReferenceTimes(for trace: Trace) throws(SignalError) -> ReferenceTimes {
    if !trace.metadata.pressAt.isEmpty { return ReferenceTimes(times: trace.metadata.pressAt, source: .pressAt) }
    return ReferenceTimes(times: try referenceTimes(for: trace), source: .rule)
  }
}

/// Reference times with where they came from.
public struct ReferenceTimes: Hashable, Sendable {
  /// Where the times came from.
  public enum Source: String, Hashable, Sendable {
    /// The trace's `press_at` labels.
    case pressAt = "press_at"
    /// The offline ``ReferenceTimeRule``.
    case rule
  }

  /// The times, seconds on the trace's clock, ascending.
  public var times: [Double]
  /// Where they came from.
  public var source: Source

  /// Creates reference times.
  public init(times: [Double], source: Source) {
    self.times = times
    self.source = source
  }
}
