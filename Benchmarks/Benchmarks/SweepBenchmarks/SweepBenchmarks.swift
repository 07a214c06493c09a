// Threshold sweeps over K = 1, 64, 1000 thresholds: for each threshold, how many traces cross
// it and their summed first-crossing latency (SweepResult). The C reference runs the running-max
// merge sweep (one pass per trace); the numpy peer is timed by `bench-report summary`.
import Benchmark
import BenchSupport

let samplesPerSecond = BenchmarkMetric.custom("Msamples/s", polarity: .prefersLarger, useScalingFactor: false)
let picosecondsPerSample = BenchmarkMetric.custom("ps/sample", polarity: .prefersSmaller, useScalingFactor: false)

func record(_ benchmark: Benchmark, samples: Int, nanoseconds: UInt64) {
  let ns = Double(max(nanoseconds, 1))
  benchmark.measurement(samplesPerSecond, Int((Double(samples) / ns * 1e3).rounded()))
  benchmark.measurement(picosecondsPerSample, Int((ns * 1e3 / Double(samples)).rounded()))
}

let benchmarks: @Sendable () -> Void = {
  let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal, samplesPerSecond, picosecondsPerSample]
  Benchmark.defaultConfiguration = .init(
    metrics: metrics, warmupIterations: 1, maxDuration: .milliseconds(500), maxIterations: 30)
  let coldConfiguration = Benchmark.Configuration(
    metrics: metrics, warmupIterations: 1, maxDuration: .seconds(3), maxIterations: 7)
  let flusher = Box<CacheFlusher?>(nil)

  for k in SweepSize.all {
    let sweep = CSweep(thresholds: SweepSize.thresholds(k))
    Benchmark("Sweep.K\(k).hot.C") { benchmark in
      Shared.hot.withColumns { columns in
        benchmark.startMeasurement()
        let start = monotonicNanoseconds()
        for _ in 0..<5 { sweep.run(columns) }
        let end = monotonicNanoseconds()
        benchmark.stopMeasurement()
        record(benchmark, samples: 5 * columns.samples, nanoseconds: end - start)
      }
    }
    Benchmark("Sweep.K\(k).cold.C", configuration: coldConfiguration) { benchmark in
      if flusher.value == nil { flusher.value = CacheFlusher() }
      flusher.value!.flush()
      Shared.cold.withColumns { columns in
        benchmark.startMeasurement()
        let start = monotonicNanoseconds()
        sweep.run(columns)
        let end = monotonicNanoseconds()
        benchmark.stopMeasurement()
        record(benchmark, samples: columns.samples, nanoseconds: end - start)
      }
    }

    // PRODUCT SWEEP KERNEL (to wire after merging the evaluation branch, issue 5):
    // add `Sweep.K\(k).hot.Swift` and `Sweep.K\(k).cold.Swift`, shaped exactly like the two C
    // benchmarks above, calling TouchEvaluation's one-pass running-max sweep on the same
    // columns (`columns.t`, `columns.force`, `columns.offsets`) with `SweepSize.thresholds(k)`,
    // strict `>`, into storage reserved before `startMeasurement()`; check once (outside the
    // measurement) that its per-threshold counts and latency sums agree with `sweep.result`
    // (`SweepResult.agrees(with:)`); and commit
    // Thresholds/SweepBenchmarks.Sweep.K\(k).hot.Swift.p90.json = {"mallocCountTotal":0}.
  }
}
