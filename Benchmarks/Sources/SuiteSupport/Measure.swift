public import BenchSupport
public import Benchmark

/// Millions of samples per second, from the timing the benchmark takes itself.
public let samplesPerSecond = BenchmarkMetric.custom("Msamples/s", polarity: .prefersLarger, useScalingFactor: false)
/// Picoseconds per sample (1000 = 1 ns).
public let picosecondsPerSample = BenchmarkMetric.custom(
  "ps/sample", polarity: .prefersSmaller, useScalingFactor: false)
/// Nanoseconds per sample.
public let nanosecondsPerSample = BenchmarkMetric.custom(
  "ns/sample", polarity: .prefersSmaller, useScalingFactor: false)

/// The unit a suite reports the time per sample in.
public enum SampleTime: Sendable {
  /// ``picosecondsPerSample``.
  case picoseconds
  /// ``nanosecondsPerSample``.
  case nanoseconds

  /// The metric the time per sample is recorded as.
  public var metric: BenchmarkMetric {
    switch self {
    case .picoseconds: picosecondsPerSample
    case .nanoseconds: nanosecondsPerSample
    }
  }

  /// The unit's count per nanosecond.
  public var perNanosecond: Double {
    switch self {
    case .picoseconds: 1e3
    case .nanoseconds: 1
    }
  }
}

/// Records the per-sample metrics of one measured interval of `nanoseconds` over `samples`
/// samples: ``samplesPerSecond`` and the time per sample in `unit`.
public func record(_ benchmark: Benchmark, samples: Int, nanoseconds: UInt64, in unit: SampleTime = .picoseconds) {
  let ns = Double(max(nanoseconds, 1))
  benchmark.measurement(samplesPerSecond, Int((Double(samples) / ns * 1e3).rounded()))
  benchmark.measurement(unit.metric, Int((ns * unit.perNanosecond / Double(samples)).rounded()))
}

/// Runs `body` once as the benchmark's measured interval (between its start and stop of
/// measurement, timed with ``monotonicNanoseconds()`` as well), records the per-sample metrics
/// for `samples` samples (see ``record(_:samples:nanoseconds:in:)``) and returns what `body`
/// returned.
@inlinable @inline(__always) @discardableResult
public func measure<Result>(
  _ benchmark: Benchmark, samples: Int, in unit: SampleTime = .picoseconds, _ body: () throws -> Result
) rethrows -> Result {
  benchmark.startMeasurement()
  let start = monotonicNanoseconds()
  let result = try body()
  let end = monotonicNanoseconds()
  benchmark.stopMeasurement()
  record(benchmark, samples: samples, nanoseconds: end - start, in: unit)
  return result
}
