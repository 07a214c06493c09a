@_spi(Benchmarks) import BenchSupport
// Smoothing through TouchSignal (GSL): Gaussian (K = 9, α = 3) and median (K = 5) filters over
// the 1000 traces of the in-cache block (150–250 samples each), one reusable workspace and output
// array, as a caller smoothing a dataset trace by trace. Allocation gate: 0 in the measured loop.
import Benchmark
import SuiteSupport
import TouchSignal

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .mallocCountTotal, samplesPerSecond, nanosecondsPerSample],
    warmupIterations: 1, maxDuration: .milliseconds(500), maxIterations: 30)
  let traces = Box<[[Double]]?>(nil)
  func forces() -> [[Double]] {
    if traces.value == nil { traces.value = SmoothingData.traces(from: Shared.hot) }
    return traces.value!
  }

  /// Smooths every trace into one reused output array; the smoother is made outside the measurement.
  func smoothingBenchmark<S: Smoother & ~Copyable>(_ name: String, _ makeSmoother: @escaping @Sendable () throws -> S) {
    Benchmark(name) { benchmark in
      let traces = forces()
      let samples = traces.reduce(0) { $0 + $1.count }
      let smoother = try makeSmoother()
      var output: [Double] = []
      output.reserveCapacity(512)
      try measure(benchmark, samples: samples, in: .nanoseconds) {
        for trace in traces { try smoother.apply(to: trace, into: &output) }
      }
      blackHole(output)
    }
  }
  smoothingBenchmark("Smoothing.gaussian.K\(SmoothingData.gaussianLength)") {
    try GaussianSmoother(length: SmoothingData.gaussianLength, alpha: 3)
  }
  smoothingBenchmark("Smoothing.median.K\(SmoothingData.medianLength)") {
    try MedianSmoother(length: SmoothingData.medianLength)
  }
}
