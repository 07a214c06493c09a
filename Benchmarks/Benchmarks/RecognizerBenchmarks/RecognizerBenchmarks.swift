@_spi(Benchmarks) import BenchSupport
// Recognizers: every variant through the UIKit-faithful replay harness, a user package's recognizer
// against the built-in of the same logic, and the four product kernels against the C reference, in
// cache and cold.
//
// Allocation gate (Thresholds/RecognizerBenchmarks.*.p90.json, mallocCountTotal = 0): each
// `Replay.<variant>.1k` and `.200k` replays about 1 000 and 200 000 samples into a log whose
// storage was reserved by an unmeasured first pass (as a caller reusing its log), so the count is
// exactly the allocations of the replay loop itself; zero at both sizes proves there are none
// per sample (or per trace). The kernels write into preallocated buffers: zero as well.
import Benchmark
import SuiteSupport
import TouchRecognizers

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
        measure(benchmark, samples: columns.samples) { variant.run(columns, &log.value) }
        blackHole(log.value.count)
      }
    }
  }

  // MARK: A recognizer of a user's own package against the built-in of the same logic

  // Issue 13: Examples/CustomRecognizer's `example-first-crossing` (in the catalog as its tool builds
  // it) and `deep-press-alg-squeeze`, both by the trace path the tool takes
  // (`AnyForceRecognizer.replay(traces:into:)`) over the same in-cache `Trace` values (199 826
  // samples). Not allocation-gated (the `Replay.*` rows are); the instruction gate holds the ratio.
  for variant in [VariantReplay.userPackage, VariantReplay.userPackageBuiltIn] {
    let log = Box(ReplayLog())
    Benchmark("UserPackage.\(variant.benchmarkName).200k") { benchmark in
      let traces = Shared.hotReplay.traces
      let samples = Shared.hotReplay.columns.samples
      if log.value.count == 0 { variant.run(traces: traces, &log.value) }  // reserve the log's storage
      log.value.removeAll()
      measure(benchmark, samples: samples) { variant.run(traces: traces, &log.value) }
      blackHole(log.value.count)
    }
  }

  // MARK: Kernels, in cache (20 passes over ≈ 200 000 samples)

  let hotBuffers = EventBuffers(for: Shared.hot)
  for kernel in Kernel.allCases {
    for implementation in KernelImplementation.allCases {
      Benchmark("Kernel.\(kernel.rawValue).hot.\(implementation.rawValue)") { benchmark in
        Shared.hot.withColumns { columns in
          let events = measure(benchmark, samples: Shared.hotPasses * columns.samples) {
            var events = 0
            for _ in 0..<Shared.hotPasses { events &+= kernel.run(implementation, columns, into: hotBuffers) }
            return events
          }
          blackHole(events)
        }
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
    for implementation in KernelImplementation.allCases {
      Benchmark("Kernel.\(kernel.rawValue).cold.\(implementation.rawValue)", configuration: coldConfiguration) {
        benchmark in
        let buffers = prepareCold()
        Shared.cold.withColumns { columns in
          blackHole(measure(benchmark, samples: columns.samples) { kernel.run(implementation, columns, into: buffers) })
        }
      }
    }
  }
}
