@_spi(Benchmarks) import BenchSupport
// Threshold sweeps over K = 1, 64, 1000 thresholds: for each threshold, how many traces cross
// it and their summed first-crossing latency (SweepResult). The product's Swift sweep
// (TouchEvaluation's one-pass kernel) and the C reference (the running-max merge sweep, one pass
// per trace) on the same data; the numpy peer is timed by `bench-report summary`.
import Benchmark
import SuiteSupport

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
        measure(benchmark, samples: SweepSize.hotPasses * columns.samples) {
          for _ in 0..<SweepSize.hotPasses { sweep.run(columns) }
        }
      }
    }
    Benchmark("Sweep.K\(k).cold.C", configuration: coldConfiguration) { benchmark in
      if flusher.value == nil { flusher.value = CacheFlusher() }
      flusher.value!.flush()
      Shared.cold.withColumns { columns in
        measure(benchmark, samples: columns.samples) { _ = sweep.run(columns) }
      }
    }

    // The product's sweep (TouchEvaluation's one-pass kernel with prepared levels), on the same
    // data with its force column as Double (same values, same comparisons). Checked once against
    // the C reference outside the measurement; storage is allocated by `SwiftSweep.init`.
    let swift = SwiftSweep(thresholds: SweepSize.thresholds(k))
    let hotChecked = Box(false)
    let coldChecked = Box(false)
    @Sendable func check(_ data: BenchData, _ replay: ReplayData, _ checked: Box<Bool>) {
      guard !checked.value else { return }
      data.withColumns { _ = sweep.run($0) }
      swift.run(replay.columns)
      precondition(swift.result.agrees(with: sweep.result), "Sweep.K\(k): Swift and C results differ")
      checked.value = true
    }
    Benchmark("Sweep.K\(k).hot.Swift") { benchmark in
      check(Shared.hot, Shared.hotReplay, hotChecked)
      let columns = Shared.hotReplay.columns
      measure(benchmark, samples: SweepSize.hotPasses * columns.samples) {
        for _ in 0..<SweepSize.hotPasses { swift.run(columns) }
      }
    }
    Benchmark("Sweep.K\(k).cold.Swift", configuration: coldConfiguration) { benchmark in
      check(Shared.cold, Shared.coldReplay, coldChecked)
      if flusher.value == nil { flusher.value = CacheFlusher() }
      let columns = Shared.coldReplay.columns
      flusher.value!.flush()
      measure(benchmark, samples: columns.samples) { swift.run(columns) }
    }
  }

  // Issue 17: the tool's sweep (`Evaluation.sweep`, one thread) of stateful recognizers by
  // threshold classes, K = 1, 64, 1000 and a 100 x 100 hysteresis press/release grid, on 6000
  // synthetic iPhone 6s traces (`ClassSweep.*`) and on the dense in-cache block
  // (`ClassSweepDense.*`: 120 Hz, unquantized noisy force, the worst case for classes). Data and
  // reference times are made once, outside the measurement. A grid's cost is read against its
  // K = 1 row.
  let iPhone = Box<ClassSweepData?>(nil)
  let dense = Box<ClassSweepData?>(nil)
  let classConfiguration = Benchmark.Configuration(
    metrics: [.wallClock, samplesPerSecond, picosecondsPerSample], warmupIterations: 1,
    maxDuration: .seconds(2), maxIterations: 10)
  for sweepCase in ClassSweepCase.all {
    let suffix = sweepCase.name.dropFirst("classes.".count)
    Benchmark("ClassSweep.\(suffix)", configuration: classConfiguration) { benchmark in
      if iPhone.value == nil { iPhone.value = ClassSweepData(iPhoneTraces: ClassSweepCase.iPhoneTraces) }
      let data = iPhone.value!
      measure(benchmark, samples: data.samples) { _ = data.run(sweepCase) }
    }
    Benchmark("ClassSweepDense.\(suffix)", configuration: classConfiguration) { benchmark in
      if dense.value == nil { dense.value = ClassSweepData(dense: Shared.hotReplay) }
      let data = dense.value!
      measure(benchmark, samples: data.samples) { _ = data.run(sweepCase) }
    }
  }

  // Issue 29: the exact sweep of each recognizer's main threshold (breakpoints, one configuration
  // per exact class, intervals) against the k/20 grid of the same threshold, on 20 000 synthetic
  // iPhone 6s traces (`ExactSweep.*`, `GridSweep20.*`; 1/60-quantized force: the target is 3x the
  // grid) and on the dense block (`ExactSweepDense.*`, `GridSweep20Dense.*`; every sample a
  // distinct value: the cost is stated, not targeted).
  let exactIPhone = Box<ClassSweepData?>(nil)
  for exactCase in ExactSweepCase.all {
    let suffix = exactCase.name.dropFirst("exact.".count)
    func iPhoneData() -> ClassSweepData {
      if exactIPhone.value == nil { exactIPhone.value = ClassSweepData(iPhoneTraces: ExactSweepCase.iPhoneTraces) }
      return exactIPhone.value!
    }
    func denseData() -> ClassSweepData {
      if dense.value == nil { dense.value = ClassSweepData(dense: Shared.hotReplay) }
      return dense.value!
    }
    for (prefix, isDense, isExact) in [
      ("ExactSweep", false, true), ("GridSweep20", false, false), ("ExactSweepDense", true, true),
      ("GridSweep20Dense", true, false),
    ] {
      Benchmark("\(prefix).\(suffix)", configuration: classConfiguration) { benchmark in
        let data = isDense ? denseData() : iPhoneData()
        measure(benchmark, samples: data.samples) { _ = isExact ? data.runExact(exactCase) : data.run(exactCase.grid) }
      }
    }
  }
}
