public import TouchCore

/// Per-trace descriptors of a force curve.
///
/// Unless stated otherwise a feature is computed on the raw samples, treating force between
/// samples as linear in time (crossing times and areas interpolate linearly). Times are seconds,
/// forces device force units.
public struct ForceFeatures: Hashable, Sendable {
  /// The number of samples.
  public var samples: Int
  /// Time from the first to the last sample, seconds.
  public var duration: Double
  /// The largest force.
  public var peakForce: Double
  /// ``peakForce`` / maximum possible force; `nil` when the maximum is unknown.
  public var peakForceNormalized: Double?
  /// The time of the first sample at the peak, seconds on the trace's clock.
  public var peakTime: Double
  /// ``peakTime`` minus the first sample's time, seconds.
  public var timeToPeak: Double
  /// The 10–90 % rise time, seconds: from the last upward crossing of 10 % of the peak before the
  /// first time the force reaches 90 % of it, to that time. `nil` when the peak is 0 or the force
  /// never was below 10 % of the peak before reaching 90 % (the rise was not recorded).
  public var riseTime: Double?
  /// The largest rate of force change, force units per second, from ``FeatureExtraction/rate``
  /// on the trace resampled by ``FeatureExtraction/resampling`` (per gap-free segment); `nil` for
  /// traces with fewer than two distinct sample times, or whose segments are all too short for the
  /// derivative.
  public var maxRate: Double?
  /// The time of ``maxRate``, seconds on the trace's clock.
  public var maxRateTime: Double?
  /// The force impulse, the integral of force over time (trapezoidal), force units × seconds.
  public var impulse: Double
  /// The level ``timeAboveLevel`` uses, force units; `nil` when it cannot be resolved (a
  /// normalized level without a known maximum, or a fraction of a zero peak).
  public var level: Double?
  /// The time the force spends at or above ``level``, seconds; `nil` with ``level``.
  public var timeAboveLevel: Double?
  /// The number of force peaks with at least the minimum prominence (see ``ForcePeaks``); `nil`
  /// when the prominence cannot be resolved.
  public var peakCount: Int?
  /// Samples at the maximum possible force (`force ≥ maxForce·(1 − 1e-9)`); `nil` when the
  /// maximum is unknown.
  public var saturatedSamples: Int?
  /// The force quantization step estimated from this trace's values (``QuantizationStep``);
  /// `nil` when they do not lie on a grid.
  public var quantization: QuantizationStep?
  /// The logistic fit of the rise (``LogisticFitting/fitRamp(of:)``); its midpoint is an onset
  /// estimate.
  public var fit: LogisticFit
  /// The reference times of ``FeatureExtraction/referenceRule``, seconds on the trace's clock.
  public var referenceTimes: [Double]
}

/// Computes ``ForceFeatures`` for traces, with every parameter explicit.
public struct FeatureExtraction: Hashable, Sendable {
  /// The level for ``ForceFeatures/timeAboveLevel``; default half the trace's peak (the full
  /// width at half maximum of a single press).
  public var level: ForceLevel
  /// The minimum prominence for ``ForceFeatures/peakCount``; default 20 % of the trace's peak:
  /// hand tremor and 1/60 quantization wobble on a plateau stay below it, a deliberate re-press
  /// after a partial release exceeds it.
  public var minimumProminence: ForceLevel
  /// The resampling applied before the rate is computed (default 240 Hz linear, gaps over 0.1 s
  /// kept); the rate is computed per gap-free segment.
  public var resampling: Resampling
  /// The derivative for ``ForceFeatures/maxRate`` (default ``ForceRate/standard``).
  public var rate: ForceRate
  /// The logistic fit settings.
  public var fitting: LogisticFitting
  /// The reference-time rule.
  public var referenceRule: ReferenceTimeRule

  /// Creates settings; the defaults are ``standard``.
  public init(
    level: ForceLevel = .fractionOfPeak(0.5), minimumProminence: ForceLevel = .fractionOfPeak(0.2),
    resampling: Resampling = Resampling(rate: 240, method: .linear, maximumGap: 0.1),
    rate: ForceRate = .standard, fitting: LogisticFitting = LogisticFitting(),
    referenceRule: ReferenceTimeRule = .standard
  ) {
    self.level = level
    self.minimumProminence = minimumProminence
    self.resampling = resampling
    self.rate = rate
    self.fitting = fitting
    self.referenceRule = referenceRule
  }

  /// The default settings.
  public static let standard = FeatureExtraction()

  /// The features of `trace`.
  ///
  /// - Precondition: the trace has at least one sample.
  /// - Throws: ``SignalError`` naming the trace (GSL failures). A normalized level or prominence
  ///   without a known maximum gives `nil` features, not an error; the reference rule's error for
  ///   a normalized level without a maximum is thrown.
  /// - Complexity: O(n) plus the resampled rate, fit and rule.
  public func features(of trace: Trace) throws(SignalError) -> ForceFeatures {
    precondition(!trace.isEmpty, "a trace without samples has no features")
    let t = trace.t
    let f = trace.force
    let maxForce = trace.metadata.maxForce
    var peakIndex = 0
    for i in f.indices where f[i] > f[peakIndex] { peakIndex = i }
    let peak = f[peakIndex]

    // Rise time 10–90 %.
    var riseTime: Double?
    if peak > 0, let t90 = PiecewiseLinear.firstTime(atOrAbove: 0.9 * peak, t: t, f: f) {
      let low = 0.1 * peak
      // The last sample below 10 % before the 90 % crossing.
      var last: Int?
      for i in f.indices where t[i] <= t90 && f[i] < low { last = i }
      if let last, last + 1 < f.count {
        let t10 = PiecewiseLinear.crossing(low, t[last], f[last], t[last + 1], f[last + 1])
        riseTime = t90 - t10
      }
    }

    // Rate of force change on the resampled trace, per gap-free segment.
    var maxRate: Double?
    var maxRateTime: Double?
    let resampled = try resampling.apply(to: trace)
    for segment in resampled.segments where segment.count >= 2 {
      let values = Array(resampled.trace.force[segment])
      let rates: [Double]
      do {
        rates = try rate.apply(to: values, interval: 1 / resampling.rate)
      } catch .tooFewSamples {
        continue  // a segment too short for the derivative has no rate
      } catch {
        throw error.inTrace(trace.name)
      }
      for (k, r) in rates.enumerated() where maxRate.map({ r > $0 }) ?? true {
        maxRate = r
        maxRateTime = resampled.trace.t[segment.lowerBound + k]
      }
    }

    let level = self.level.resolve(peak: peak, maxForce: maxForce)
    // A trace without force has no peaks whatever the prominence.
    let prominence = peak == 0 ? 0 : minimumProminence.resolve(peak: peak, maxForce: maxForce)
    let saturated = maxForce.map { maximum in
      let limit = maximum * (1 - 1e-9)
      return f.lazy.filter { $0 >= limit }.count
    }
    return ForceFeatures(
      samples: trace.count,
      duration: t[t.count - 1] - t[0],
      peakForce: peak,
      peakForceNormalized: maxForce.map { peak / $0 },
      peakTime: t[peakIndex],
      timeToPeak: t[peakIndex] - t[0],
      riseTime: riseTime,
      maxRate: maxRate,
      maxRateTime: maxRateTime,
      impulse: PiecewiseLinear.integral(t: t, f: f),
      level: level,
      timeAboveLevel: level.map { PiecewiseLinear.timeAtOrAbove($0, t: t, f: f) },
      peakCount: prominence.map { ForcePeaks.find(in: f, minimumProminence: $0).count },
      saturatedSamples: saturated,
      quantization: QuantizationStep.estimate(f),
      fit: fitting.fitRamp(of: trace),
      referenceTimes: try referenceRule.referenceTimes(for: trace))
  }

  /// The features of every trace, in order.
  /// - Throws: ``SignalError`` naming the first trace that failed.
  public func features(of traces: [Trace]) throws(SignalError) -> [ForceFeatures] {
    var result: [ForceFeatures] = []
    result.reserveCapacity(traces.count)
    for trace in traces { result.append(try features(of: trace)) }
    return result
  }
}
