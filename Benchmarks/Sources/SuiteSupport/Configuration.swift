public import Benchmark

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The environment variable the allocation gate sets (`Scripts/malloc-gate.sh`):
/// `TOUCHTRACE_BENCH_GATE=allocations`.
public let gateVariable = "TOUCHTRACE_BENCH_GATE"

/// A suite's configuration: as given for `make bench`; for the allocation gate, one warm-up and
/// ``gateIterations`` measured iterations at most.
///
/// A malloc count is exact in every iteration (the interposer counts calls, not time), so the
/// gate's p90 of zero over three iterations proves what thirty would, at a tenth of the time;
/// the timings the gate's runs print are not used by any gate.
///
/// - Parameters:
///   - metrics: the metrics to record.
///   - maxDuration: the most time the measured iterations take (`make bench`).
///   - maxIterations: the most measured iterations (`make bench`).
public func suiteConfiguration(
  metrics: [BenchmarkMetric], maxDuration: Duration, maxIterations: Int
) -> Benchmark.Configuration {
  let gate = getenv(gateVariable).map { String(cString: $0) } == "allocations"
  return .init(
    metrics: metrics, warmupIterations: 1, maxDuration: maxDuration,
    maxIterations: gate ? min(maxIterations, gateIterations) : maxIterations)
}

/// Measured iterations per benchmark under the allocation gate.
public let gateIterations = 3
