@_spi(Benchmarks) import BenchSupport
// Ingest: `TraceLoader.load` (what every command runs) on CSV, JSON and JSON Lines files of
// 10 000 traces (≈ 2 M samples, the CSV ≈ 70 MB) in the page cache: read, parse, validate, build
// traces. Throughput in MB/s of file and in samples/s.
import Benchmark
import SuiteSupport
import TouchCore
import TouchIO

let megabytesPerSecond = BenchmarkMetric.custom("MB/s", polarity: .prefersLarger, useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident, megabytesPerSecond, samplesPerSecond],
    warmupIterations: 1, maxDuration: .seconds(5), maxIterations: 10)
  let directory = IngestFiles.scratchDirectory()
  let traces = Box<[Trace]?>(nil)
  for format in TraceFiles.Format.allCases {
    let file = Box<(path: String, bytes: Int)?>(nil)
    Benchmark(
      "Ingest.\(format.rawValue)",
      configuration: .init(
        setup: {
          if traces.value == nil { traces.value = IngestFiles.traces(from: Shared.cold) }
          file.value = try IngestFiles.write(traces.value!, as: format, in: directory)
        },
        teardown: { IngestFiles.remove(directory: directory) })
    ) { benchmark in
      guard let (path, bytes) = file.value else { return }
      benchmark.startMeasurement()
      let start = monotonicNanoseconds()
      let samples = try IngestFiles.load(path)
      let end = monotonicNanoseconds()
      benchmark.stopMeasurement()
      let ns = Double(end - start)
      benchmark.measurement(megabytesPerSecond, Int((Double(bytes) / ns * 1e3).rounded()))
      benchmark.measurement(samplesPerSecond, Int((Double(samples) / ns * 1e3).rounded()))
    }
  }
  // JSON on one long line (issue 26): `JSONNode.parse`, which `import --from force-values` and
  // the capture server's uploads use, on 80 000 values in one line — linear in the input since
  // columns are counted from the last position (before: quadratic, 12.9 s for `import`).
  let oneLine = Box<[UInt8]?>(nil)
  Benchmark(
    "Ingest.json-one-line",
    configuration: .init(
      metrics: [.wallClock, .mallocCountTotal, megabytesPerSecond],
      setup: {
        let values = (0..<80_000).map { String(Double($0 % 997) / 100) }
        oneLine.value = Array(("[" + values.joined(separator: ",") + "]").utf8)
      })
  ) { benchmark in
    guard let bytes = oneLine.value else { return }
    benchmark.startMeasurement()
    let start = monotonicNanoseconds()
    let node = try JSONNode.parse(bytes, file: "one-line.json")
    let end = monotonicNanoseconds()
    benchmark.stopMeasurement()
    blackHole(node)
    benchmark.measurement(megabytesPerSecond, Int((Double(bytes.count) / Double(end - start) * 1e3).rounded()))
  }
}
