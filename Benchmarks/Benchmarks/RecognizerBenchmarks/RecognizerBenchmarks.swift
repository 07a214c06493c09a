// Recognizers: every variant through the UIKit-faithful replay harness, and the four product
// kernels against the C reference, in cache and cold.
//
// Allocation gate (Thresholds/RecognizerBenchmarks.*.p90.json, mallocCountTotal = 0): each
// `Replay.<variant>.1k` and `.200k` replays about 1 000 and 200 000 samples into a log whose
// storage was reserved by an unmeasured first pass (as a caller reusing its log), so the count is
// exactly the allocations of the replay loop itself; zero at both sizes proves there are none
// per sample (or per trace). The kernels write into preallocated buffers: zero as well.
import Benchmark
@_spi(Benchmarks) import BenchSupport
import TouchRecognizers

/// Millions of samples per second, from the timing the closure takes itself.
let samplesPerSecond = BenchmarkMetric.custom("Msamples/s", polarity: .prefersLarger, useScalingFactor: false)
/// Picoseconds per sample (1000 = 1 ns).
let picosecondsPerSample = BenchmarkMetric.custom("ps/sample", polarity: .prefersSmaller, useScalingFactor: false)

/// Records the per-sample metrics of one measured interval.
func record(_ benchmark: Benchmark, samples: Int, nanoseconds: UInt64) {
  let ns = Double(max(nanoseconds, 1))
  benchmark.measurement(samplesPerSecond, Int((Double(samples) / ns * 1e3).rounded()))
  benchmark.measurement(picosecondsPerSample, Int((ns * 1e3 / Double(samples)).rounded()))
}

let benchmarks: @Sendable () -> Void = {
  let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal, samplesPerSecond, picosecondsPerSample]
  Benchmark.defaultConfiguration = .init(
    metrics: metrics, warmupIterations: 1, maxDuration: .milliseconds(300), maxIterations: 50)

  // MARK: Every variant through the replay harness

  for variant in VariantReplay.all {
    for (label, data) in [("1k", Shared.smallReplay), ("200k", Shared.hotReplay)] {
      let log = Box(ReplayLog())
      Benchmark("Replay.\(variant.benchmarkName).\(label)") { benchmark in
        let columns = data.columns
        if log.value.count == 0 { variant.run(columns, &log.value) }  // reserve the log's storage
        log.value.removeAll()
        benchmark.startMeasurement()
        let start = monotonicNanoseconds()
        variant.run(columns, &log.value)
        let end = monotonicNanoseconds()
        benchmark.stopMeasurement()
        blackHole(log.value.count)
        record(benchmark, samples: columns.samples, nanoseconds: end - start)
      }
    }
  }

  // MARK: Kernels, in cache (20 passes over ≈ 200 000 samples)

  let hotBuffers = EventBuffers(for: Shared.hot)
  for kernel in Kernel.allCases {
    Benchmark("Kernel.\(kernel.rawValue).hot.Swift") { benchmark in
      Shared.hot.withColumns { columns in
        var events = 0
        benchmark.startMeasurement()
        let start = monotonicNanoseconds()
        for _ in 0..<Shared.hotPasses { events &+= kernel.runSwift(columns, into: hotBuffers.swift) }
        let end = monotonicNanoseconds()
        benchmark.stopMeasurement()
        blackHole(events)
        record(benchmark, samples: Shared.hotPasses * columns.samples, nanoseconds: end - start)
      }
    }
    Benchmark("Kernel.\(kernel.rawValue).hot.C") { benchmark in
      Shared.hot.withColumns { columns in
        var events = 0
        benchmark.startMeasurement()
        let start = monotonicNanoseconds()
        for _ in 0..<Shared.hotPasses { events &+= kernel.runC(columns, into: hotBuffers.c) }
        let end = monotonicNanoseconds()
        benchmark.stopMeasurement()
        blackHole(events)
        record(benchmark, samples: Shared.hotPasses * columns.samples, nanoseconds: end - start)
      }
    }
  }

  // MARK: Kernels, cold (one pass over ≥ 20 M samples, caches flushed before each)

  let coldConfiguration = Benchmark.Configuration(
    metrics: metrics, warmupIterations: 1, maxDuration: .seconds(2), maxIterations: 7)
  let flusher = Box<CacheFlusher?>(nil)
  let coldBuffers = Box<EventBuffers?>(nil)
  func prepareCold() -> EventBuffers {
    if flusher.value == nil { flusher.value = CacheFlusher() }
    if coldBuffers.value == nil { coldBuffers.value = EventBuffers(for: Shared.cold) }
    flusher.value!.flush()
    return coldBuffers.value!
  }
  for kernel in Kernel.allCases {
    Benchmark("Kernel.\(kernel.rawValue).cold.Swift", configuration: coldConfiguration) { benchmark in
      let buffers = prepareCold()
      Shared.cold.withColumns { columns in
        benchmark.startMeasurement()
        let start = monotonicNanoseconds()
        let events = kernel.runSwift(columns, into: buffers.swift)
        let end = monotonicNanoseconds()
        benchmark.stopMeasurement()
        blackHole(events)
        record(benchmark, samples: columns.samples, nanoseconds: end - start)
      }
    }
    Benchmark("Kernel.\(kernel.rawValue).cold.C", configuration: coldConfiguration) { benchmark in
      let buffers = prepareCold()
      Shared.cold.withColumns { columns in
        benchmark.startMeasurement()
        let start = monotonicNanoseconds()
        let events = kernel.runC(columns, into: buffers.c)
        let end = monotonicNanoseconds()
        benchmark.stopMeasurement()
        blackHole(events)
        record(benchmark, samples: columns.samples, nanoseconds: end - start)
      }
    }
  }
}
