// Smoothing through TouchSignal (GSL): Gaussian (K = 9, α = 3) and median (K = 5) filters over
// the 1000 traces of the in-cache block (150–250 samples each), one reusable workspace and output
// array, as a caller smoothing a dataset trace by trace. Allocation gate: 0 in the measured loop.
import Benchmark
import BenchSupport
import TouchSignal

let samplesPerSecond = BenchmarkMetric.custom("Msamples/s", polarity: .prefersLarger, useScalingFactor: false)
let nanosecondsPerSample = BenchmarkMetric.custom("ns/sample", polarity: .prefersSmaller, useScalingFactor: false)

func record(_ benchmark: Benchmark, samples: Int, nanoseconds: UInt64) {
  let ns = Double(max(nanoseconds, 1))
  benchmark.measurement(samplesPerSecond, Int((Double(samples) / ns * 1e3).rounded()))
  benchmark.measurement(nanosecondsPerSample, Int((ns / Double(samples)).rounded()))
}

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .mallocCountTotal, samplesPerSecond, nanosecondsPerSample],
    warmupIterations: 1, maxDuration: .milliseconds(500), maxIterations: 30)
  let traces = Box<[[Double]]?>(nil)
  func forces() -> [[Double]] {
    if traces.value == nil { traces.value = SmoothingData.traces(from: Shared.hot) }
    return traces.value!
  }

  Benchmark("Smoothing.gaussian.K\(SmoothingData.gaussianLength)") { benchmark in
    let traces = forces()
    let samples = traces.reduce(0) { $0 + $1.count }
    let smoother = try GaussianSmoother(length: SmoothingData.gaussianLength, alpha: 3)
    var output: [Double] = []
    output.reserveCapacity(512)
    benchmark.startMeasurement()
    let start = monotonicNanoseconds()
    for trace in traces { try smoother.apply(to: trace, into: &output) }
    let end = monotonicNanoseconds()
    benchmark.stopMeasurement()
    blackHole(output)
    record(benchmark, samples: samples, nanoseconds: end - start)
  }

  Benchmark("Smoothing.median.K\(SmoothingData.medianLength)") { benchmark in
    let traces = forces()
    let samples = traces.reduce(0) { $0 + $1.count }
    let smoother = try MedianSmoother(length: SmoothingData.medianLength)
    var output: [Double] = []
    output.reserveCapacity(512)
    benchmark.startMeasurement()
    let start = monotonicNanoseconds()
    for trace in traces { try smoother.apply(to: trace, into: &output) }
    let end = monotonicNanoseconds()
    benchmark.stopMeasurement()
    blackHole(output)
    record(benchmark, samples: samples, nanoseconds: end - start)
  }
}
