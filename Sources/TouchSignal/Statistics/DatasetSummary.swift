internal import CGSL
public import TouchCore

/// Five-number-plus summary of a set of values (seconds, counts, force units: the caller's).
public struct SummaryStatistics: Hashable, Sendable {
  /// The number of values.
  public var count: Int
  /// Smallest, largest, mean, sample standard deviation; `nil` when undefined.
  public var min: Double?
  public var max: Double?
  public var mean: Double?
  public var standardDeviation: Double?
  /// 5th, 50th and 95th percentiles (R type 7); `nil` when empty.
  public var p5: Double?
  public var median: Double?
  public var p95: Double?

  /// Summarizes `values`.
  public init(_ values: [Double]) {
    self.init(Distribution(values))
  }

  /// Summarizes `values` without sorting them: quantiles by selection (`gsl_stats_select`),
  /// minimum and maximum with GSL; mean and standard deviation from `moments` (accumulated by
  /// the caller while it collected the values). `values` is reordered. Also returns the
  /// interquartile range divided by 1.349 — a robust estimate of the standard deviation (equal
  /// to σ for normal data) that gaps and outliers do not inflate — or `nil` when empty.
  static func bySelection(_ values: inout [Double], moments: Moments) -> (SummaryStatistics, robustSpread: Double?) {
    var summary = SummaryStatistics([])
    guard !values.isEmpty else { return (summary, nil) }
    summary.count = values.count
    values.withUnsafeBufferPointer { data in
      var low = 0.0
      var high = 0.0
      gsl_stats_minmax(&low, &high, data.baseAddress, 1, data.count)
      (summary.min, summary.max) = (low, high)
    }
    summary.mean = moments.mean
    summary.standardDeviation = moments.standardDeviation
    let q = Selection.quantiles(&values, [0.05, 0.25, 0.5, 0.75, 0.95])
    (summary.p5, summary.median, summary.p95) = (q[0], q[2], q[4])
    return (summary, (q[3] - q[1]) / 1.348_979_500_392_163)
  }

  /// Summarizes an already sorted distribution.
  public init(_ distribution: Distribution) {
    count = distribution.count
    min = distribution.min
    max = distribution.max
    mean = distribution.mean
    standardDeviation = distribution.standardDeviation
    p5 = distribution.quantile(0.05)
    median = distribution.median
    p95 = distribution.quantile(0.95)
  }
}

/// Mean and sample standard deviation accumulated in one pass, for samples too large for
/// GSL's `gsl_stats_mean` (an incremental update with a division per element, in long double).
///
/// Sums are taken around a shift `c` (the first value): Σ(x−c) and Σ(x−c)², which keeps the
/// variance free of cancellation when the values sit close together far from zero.
struct Moments {
  private var shift = 0.0
  private var sum = 0.0
  private var squares = 0.0
  private(set) var count = 0

  @inline(__always)
  mutating func add(_ x: Double) {
    if count == 0 { shift = x }
    let d = x - shift
    sum += d
    squares += d * d
    count += 1
  }

  var mean: Double? { count == 0 ? nil : shift + sum / Double(count) }

  var standardDeviation: Double? {
    guard count >= 2 else { return nil }
    let n = Double(count)
    return ((squares - sum * sum / n) / (n - 1)).squareRoot()
  }
}

/// What `touchtrace inspect` reports about a dataset.
public struct DatasetSummary: Sendable {
  /// A value with the number of traces that have it.
  public struct Count<Value: Hashable & Sendable>: Hashable, Sendable {
    /// The value; `nil` stands for "not given".
    public var value: Value?
    /// The number of traces.
    public var traces: Int
  }

  /// The files read.
  public var files: [String]
  /// Traces found in the input (analyzed + skipped).
  public var total: Int
  /// Traces that passed validation.
  public var analyzed: Int
  /// Traces left out, with reasons.
  public var skipped: [SkippedTrace]
  /// Label values `--labels-override` replaced (the dataset's `labelOverrides`).
  public var labelOverrides: Int
  /// Samples over the analyzed traces.
  public var samples: Int
  /// Traces per user, users in byte order, unlabeled last.
  public var tracesPerUser: [Count<String>]
  /// Traces per device, devices in byte order, unlabeled last.
  public var tracesPerDevice: [Count<String>]
  /// Traces per session, sessions in byte order, unlabeled last.
  public var tracesPerSession: [Count<String>]
  /// The extra labels (`hand`, `gesture`, …) in byte order, each with its traces per value
  /// (values in byte order, unlabeled last).
  public var extraLabels: [(name: String, counts: [Count<String>])]
  /// Traces per intent, in `Intent` order, unlabeled last.
  public var intents: [Count<Intent>]
  /// Traces that carry `press_at` reference times.
  public var tracesWithPressAt: Int
  /// The analyzed traces whose times were synthesized (`time_synthesized`).
  public var synthesizedTime: SynthesizedTime
  /// Trace durations, seconds.
  public var duration: SummaryStatistics
  /// Samples per trace.
  public var samplesPerTrace: SummaryStatistics
  /// Intervals between consecutive samples of a trace, seconds, over positive intervals.
  public var interval: SummaryStatistics
  /// The jitter of the intervals, seconds: their interquartile range divided by 1.349, a robust
  /// standard deviation that pauses between delivered samples do not inflate.
  public var intervalJitter: Double?
  /// Consecutive samples with equal timestamps.
  public var repeatedTimestamps: Int
  /// The smallest and largest force, device units.
  public var forceMin: Double?
  public var forceMax: Double?
  /// The estimated force quantization step, `nil` for continuous values.
  public var quantization: QuantizationStep?
  /// The quantization step of each device's forces (devices in byte order, unlabeled last),
  /// when the traces come from more than one device: a mixed dataset's overall step is only the
  /// common grid of its devices' grids.
  public var quantizationPerDevice: [DeviceQuantization]

  /// The force quantization step of one device's traces.
  public struct DeviceQuantization: Hashable, Sendable {
    /// The device; `nil` for traces without one.
    public var device: String?
    /// The step, `nil` for continuous values.
    public var step: QuantizationStep?
  }
  /// Maximum possible force values seen, ascending, with `nil` (unknown) last.
  public var maxForces: [Count<Double>]
  /// Samples at the maximum possible force (within 1e-9 relative), among samples of traces
  /// with a known maximum.
  public var saturatedSamples: Int
  /// Samples in traces with a known maximum (the denominator of the saturated share).
  public var samplesWithKnownMaximum: Int
  /// Traces that end with `cancelled`.
  public var cancelledTraces: Int
  /// Traces whose last sample is neither `ended` nor `cancelled` (recording cut off).
  public var unterminatedTraces: Int
  /// Traces with x and y positions.
  public var tracesWithPosition: Int

  /// The share of saturated samples (0…1); `nil` when no trace has a known maximum.
  public var saturatedShare: Double? {
    samplesWithKnownMaximum == 0 ? nil : Double(saturatedSamples) / Double(samplesWithKnownMaximum)
  }

  /// Summarizes `dataset`. Statistics (sorting, quantiles, mean, standard deviation, MAD) are
  /// computed with GSL.
  /// - Complexity: O(n log n) in the number of samples.
  public init(_ dataset: Dataset) {
    var accumulator = Accumulator()
    for trace in dataset.traces { accumulator.add(trace) }
    self = accumulator.summary(files: dataset.files, skipped: dataset.skipped, labelOverrides: dataset.labelOverrides)
  }

  /// The summary taken trace by trace, for traces read in batches: what it keeps is counts,
  /// a few scalars per trace (duration, sample count), the distinct sampling intervals with
  /// their counts, and what the force quantization estimate needs (the first 100 000 forces
  /// and the distinct forces with their counts, overall and per device) — not the samples.
  /// ``summary(files:skipped:labelOverrides:)`` gives the same summary as
  /// ``DatasetSummary/init(_:)`` of all the traces added, in order.
  public struct Accumulator {
    fileprivate var analyzed = 0
    fileprivate var samples = 0
    fileprivate var users: [String: Int] = [:]
    fileprivate var usersMissing = 0
    fileprivate var devices: [String: Int] = [:]
    fileprivate var devicesMissing = 0
    fileprivate var sessions: [String: Int] = [:]
    fileprivate var sessionsMissing = 0
    fileprivate var extra: [String: [String: Int]] = [:]
    fileprivate var intents: [Intent: Int] = [:]
    fileprivate var intentsMissing = 0
    fileprivate var maxForces: [Double: Int] = [:]
    fileprivate var maxForcesMissing = 0
    fileprivate var withPressAt = 0
    fileprivate var synthesized = SynthesizedTime.Tally()
    fileprivate var durations: [Double] = []
    fileprivate var sampleCounts: [Double] = []
    fileprivate var intervals = CountedValues()
    fileprivate var moments = Moments()
    fileprivate var repeated = 0
    fileprivate var forceMin = Double.infinity
    fileprivate var forceMax = -Double.infinity
    fileprivate var saturated = 0
    fileprivate var known = 0
    fileprivate var cancelled = 0
    fileprivate var unterminated = 0
    fileprivate var withPosition = 0
    fileprivate var quantization = QuantizationStep.Estimator()
    /// Per device (`nil`: traces without one), once a second device appears (until then the
    /// overall estimate is the one device's).
    fileprivate var deviceQuantization: [String?: QuantizationStep.Estimator]?
    /// The device of every trace so far, while there is one.
    fileprivate var onlyDevice: String??

    /// No traces yet.
    public init() {}

    /// Adds `trace` after those added before.
    ///
    /// - Parameter trace: the next analyzed trace.
    public mutating func add(_ trace: Trace) {
      let m = trace.metadata
      analyzed += 1
      samples += trace.count
      if let user = m.user { users[user, default: 0] += 1 } else { usersMissing += 1 }
      if let device = m.device { devices[device, default: 0] += 1 } else { devicesMissing += 1 }
      if let session = m.session { sessions[session, default: 0] += 1 } else { sessionsMissing += 1 }
      for (name, value) in m.labels { extra[name, default: [:]][value, default: 0] += 1 }
      if let intent = m.intent { intents[intent, default: 0] += 1 } else { intentsMissing += 1 }
      if let maxForce = m.maxForce { maxForces[maxForce, default: 0] += 1 } else { maxForcesMissing += 1 }
      if !m.pressAt.isEmpty { withPressAt += 1 }
      synthesized.add(trace)
      if let duration = trace.duration { durations.append(duration) }
      sampleCounts.append(Double(trace.count))
      let t = trace.t
      for i in t.indices.dropFirst() {
        let dt = t[i] - t[i - 1]
        if dt > 0 {
          intervals.add(dt)
          moments.add(dt)
        } else {
          repeated += 1
        }
      }
      if let range = MinMax.of(trace.force) {
        forceMin = Swift.min(forceMin, range.min)
        forceMax = Swift.max(forceMax, range.max)
      }
      if let maxForce = m.maxForce {
        known += trace.count
        let level = maxForce * (1 - 1e-9)
        saturated += trace.force.lazy.filter { $0 >= level }.count
      }
      switch trace.phase.last {
      case .cancelled: cancelled += 1
      case .ended: break
      default: unterminated += 1
      }
      if trace.hasPosition { withPosition += 1 }
      if deviceQuantization == nil {
        if onlyDevice == nil {
          onlyDevice = .some(m.device)
        } else if onlyDevice! != m.device {
          deviceQuantization = [onlyDevice!: quantization]
        }
      }
      quantization.add(trace.force)
      deviceQuantization?[m.device, default: QuantizationStep.Estimator()].add(trace.force)
    }

    /// The summary of the traces added.
    ///
    /// - Parameters:
    ///   - files: the files read.
    ///   - skipped: the traces left out, with reasons.
    ///   - labelOverrides: label values `--labels-override` replaced.
    public func summary(files: [String], skipped: [SkippedTrace], labelOverrides: Int) -> DatasetSummary {
      DatasetSummary(self, files: files, skipped: skipped, labelOverrides: labelOverrides)
    }

    fileprivate static func counts<V: Hashable & Sendable>(_ table: [V: Int], missing: Int, order: (V, V) -> Bool)
      -> [Count<V>]
    {
      var result = table.keys.sorted(by: order).map { Count(value: $0, traces: table[$0]!) }
      if missing > 0 { result.append(Count(value: nil, traces: missing)) }
      return result
    }
  }

  private init(_ a: Accumulator, files: [String], skipped: [SkippedTrace], labelOverrides: Int) {
    self.files = files
    total = a.analyzed + skipped.count
    analyzed = a.analyzed
    self.skipped = skipped
    self.labelOverrides = labelOverrides
    samples = a.samples
    let byBytes: (String, String) -> Bool = { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    tracesPerUser = Accumulator.counts(a.users, missing: a.usersMissing, order: byBytes)
    tracesPerDevice = Accumulator.counts(a.devices, missing: a.devicesMissing, order: byBytes)
    tracesPerSession = Accumulator.counts(a.sessions, missing: a.sessionsMissing, order: byBytes)
    extraLabels = a.extra.keys.sorted(by: byBytes).map { name in
      let values = a.extra[name]!
      return (name, Accumulator.counts(values, missing: a.analyzed - values.values.reduce(0, +), order: byBytes))
    }
    let intentOrder = Dictionary(uniqueKeysWithValues: Intent.allCases.enumerated().map { ($1, $0) })
    intents = Accumulator.counts(a.intents, missing: a.intentsMissing, order: { intentOrder[$0]! < intentOrder[$1]! })
    maxForces = Accumulator.counts(a.maxForces, missing: a.maxForcesMissing, order: <)
    tracesWithPressAt = a.withPressAt
    synthesizedTime = a.synthesized.result
    duration = SummaryStatistics(a.durations)
    samplesPerTrace = SummaryStatistics(a.sampleCounts)
    (interval, intervalJitter) = a.intervals.summary(moments: a.moments)
    repeatedTimestamps = a.repeated
    forceMin = a.forceMin.isFinite ? a.forceMin : nil
    forceMax = a.forceMax.isFinite ? a.forceMax : nil
    quantization = a.quantization.estimate()
    if tracesPerDevice.count > 1 {
      quantizationPerDevice = tracesPerDevice.map { entry in
        DeviceQuantization(device: entry.value, step: a.deviceQuantization?[entry.value]?.estimate())
      }
    } else {
      quantizationPerDevice = []
    }
    saturatedSamples = a.saturated
    samplesWithKnownMaximum = a.known
    cancelledTraces = a.cancelled
    unterminatedTraces = a.unterminated
    tracesWithPosition = a.withPosition
  }
}
