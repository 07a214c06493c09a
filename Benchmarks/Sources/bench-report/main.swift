// bench-report: TouchTrace's side-by-side measurements, in one process.
//
//   bench-report summary [--rounds N] [--no-numpy] [--peer PATH] [--out FILE.md]
//       Everything `make bench` summarizes: the four kernels in cache and cold (Swift product code
//       vs the C reference, same data, same process, interleaved rounds), every recognizer variant
//       through the replay harness, the threshold sweeps (the product's one-pass kernel, the C
//       reference and the numpy peer), CSV/JSON ingest, smoothing; with the targets.
//   bench-report gate [--rounds N] [--max-ratio R]
//       `make bench-ci`'s time gate: Swift/C time ratio per kernel and per sweep size (in cache and
//       cold), median over interleaved rounds, fails above R (default 2) or when Swift and C
//       results differ.
//   bench-report sweeps [--rounds N] [--no-numpy] [--peer PATH]
//       The sweep section of the summary alone (Swift, C, numpy).
//
// Timings are medians: each round takes the median of its repetitions, the table gives the median
// over rounds with the range of the rounds in brackets. The machine is shared, so single rounds
// swing; ratios are taken within each round.
@_spi(Benchmarks) import BenchSupport
import Foundation
import TouchIO
@_spi(Benchmarks) import TouchRecognizers
import TouchSignal

struct Options {
  var mode = ""
  var rounds = 5
  var numpy = true
  var peer = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("peers/numpy_peer.py").path
  var out: String?
  var maxRatio = 2.0

  init(_ arguments: [String]) throws(BenchError) {
    var rest = arguments.dropFirst()
    guard let mode = rest.popFirst(), ["summary", "gate", "sweeps"].contains(mode) else {
      throw BenchError(
        "usage: bench-report summary|gate|sweeps [--rounds N] [--no-numpy] [--peer PATH] [--out FILE] [--max-ratio R]")
    }
    self.mode = mode
    while let option = rest.popFirst() {
      switch option {
      case "--no-numpy": numpy = false
      case "--rounds", "--peer", "--out", "--max-ratio":
        guard let value = rest.popFirst() else { throw BenchError("\(option) needs a value") }
        switch option {
        case "--rounds":
          guard let n = Int(value), n >= 1 else { throw BenchError("--rounds: not a positive count: \(value)") }
          rounds = n
        case "--peer": peer = value
        case "--out": out = value
        default:
          guard let r = Double(value), r > 0 else { throw BenchError("--max-ratio: not a positive number: \(value)") }
          maxRatio = r
        }
      default: throw BenchError("unknown option \(option)")
      }
    }
  }
}

/// The machine, for the record.
func machineDescription() -> String {
  var fields: [String: String] = [:]
  if let out = try? run("/usr/bin/env", ["lscpu"]) {
    for line in out.split(separator: "\n") {
      let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
      if parts.count == 2 { fields[parts[0]] = parts[1] }
    }
  }
  let model = fields["Model name"] ?? "unknown CPU"
  let cpus = fields["CPU(s)"] ?? "?"
  let caches = ["L1d", "L2", "L3"].compactMap { k in fields["\(k) cache"].map { "\(k) \($0)" } }
    .joined(separator: ", ")
  let load =
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3)
    .joined(separator: " ") ?? "?"
  return "\(model), \(cpus) CPUs (\(caches)); load average at start \(load)"
}

/// Runs a program and returns its standard output (throws when it fails).
func run(_ program: String, _ arguments: [String]) throws -> String {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: program)
  process.arguments = arguments
  let pipe = Pipe()
  process.standardOutput = pipe
  try process.run()
  let data = pipe.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  guard process.terminationStatus == 0 else {
    throw BenchError("\(program) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
  }
  return String(decoding: data, as: UTF8.self)
}

// MARK: - Kernels, Swift vs C

struct KernelResult {
  var kernel: Kernel
  var cold: Bool
  var timing: SwiftVsC
  var digest: EventDigest
  var agree: Bool
}

func measureKernels(_ workload: Workload) -> [KernelResult] {
  var results: [KernelResult] = []
  for cold in [false, true] {
    let data = cold ? workload.cold : workload.hot
    let buffers = EventBuffers(for: data)
    data.withColumns { columns in
      for kernel in Kernel.allCases {
        let d = kernel.digests(columns, buffers)
        func timed(_ implementation: KernelImplementation) -> Double {
          let run = { kernel.run(implementation, columns, into: buffers) }
          return cold
            ? workload.flushed(samples: columns.samples, run)
            : workload.inCache(passes: Shared.hotPasses, samples: columns.samples, run)
        }
        let timing = SwiftVsC(rounds: workload.rounds(cold: cold), swift: { timed(.swift) }, c: { timed(.c) })
        results.append(KernelResult(kernel: kernel, cold: cold, timing: timing, digest: d.swift, agree: d.swift == d.c))
      }
    }
  }
  return results
}

/// The in-cache targets (samples/s) of issue 7.
func hotTarget(_ kernel: Kernel) -> Double {
  switch kernel {
  case .threshold: 4e9
  case .hysteresis, .dwell: 1e9
  case .ema: 450e6
  }
}

func kernelTable(_ results: [KernelResult], numpyThreshold: Double?) -> Table {
  var table = Table(header: [
    "kernel", "data", "Swift (median, range)", "ns/sample", "C -O2", "Swift/C", "numpy/Swift", "target", "met",
  ])
  for r in results {
    let target = r.cold ? 400e6 : hotTarget(r.kernel)
    let targetText =
      "≥ " + (target >= 1e9 ? Format.fixed(target / 1e9, 0) + " G/s" : Format.fixed(target / 1e6, 0) + " M/s")
      + (r.cold ? "" : ", ≤ 1.25× C")
    let met = r.timing.swift.rate >= target && (r.cold || r.timing.ratio.median <= 1.25)
    var numpy = ""
    if r.kernel == .threshold, r.cold, let np = numpyThreshold {
      numpy = Format.fixed(np, 2) + " ns: " + Format.fixed(np / r.timing.swift.median, 1) + "×"
    }
    table.add([
      r.kernel.rawValue, r.cold ? "cold" : "in cache", Format.rateRange(r.timing.swift),
      Format.fixed(r.timing.swift.median, 3),
      Format.rate(nsPerSample: r.timing.c.median), Format.ratio(r.timing.ratio), numpy, targetText,
      met ? "yes" : "**no**",
    ])
  }
  return table
}

// MARK: - Variants through the replay harness

func measureVariants(_ data: ReplayData, rounds: Int) -> Table {
  var table = Table(header: ["variant", "replay, in cache (median, range)", "ns/sample", "actions", "transitions"])
  let columns = data.columns
  var log = ReplayLog()
  for variant in VariantReplay.all {
    log.removeAll()
    variant.run(columns, &log)
    let actions = log.actions.count
    let transitions = log.transitions.count
    var series = Series()
    for _ in 0..<rounds {
      series.rounds.append(
        measure(reps: 3, samples: 3 * columns.samples) {
          for _ in 0..<3 {
            log.removeAll()
            variant.run(columns, &log)
          }
          return log.count
        })
    }
    table.add([variant.name, Format.rateRange(series), Format.fixed(series.median, 2), "\(actions)", "\(transitions)"])
  }
  return table
}

// MARK: - Sweeps

struct NumpyResults {
  var thresholdNs: Double
  var thresholdEvents: Int
  var thresholdDigest: String
  var sweepNs: [Int: Double]
  var sweep: [Int: SweepResult]
}

func runNumpy(peer: String, data: BenchData) throws -> NumpyResults {
  let directory = IngestFiles.scratchDirectory()
  mkdir(directory, 0o755)
  let path = directory + "/trace.bin"
  defer {
    unlink(path)
    rmdir(directory)
  }
  try data.write(to: path)
  let out = try run("/usr/bin/env", ["python3", peer, path, "--reps", "3"])
  guard let json = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any],
    let threshold = json["threshold"] as? [String: Any], let sweeps = json["sweep"] as? [String: Any]
  else { throw BenchError("numpy peer: unexpected output") }
  var results = NumpyResults(
    thresholdNs: threshold["ns_per_sample"] as? Double ?? .nan,
    thresholdEvents: threshold["events"] as? Int ?? -1,
    thresholdDigest: threshold["digest"] as? String ?? "", sweepNs: [:], sweep: [:])
  for (key, value) in sweeps {
    guard let k = Int(key), let s = value as? [String: Any], let ns = s["ns_per_sample"] as? Double,
      let count = s["count"] as? [Int], let latency = s["latency"] as? [Double]
    else { throw BenchError("numpy peer: unexpected sweep output") }
    results.sweepNs[k] = ns
    results.sweep[k] = SweepResult(count: count.map(Int64.init), latency: latency)
  }
  return results
}

/// One sweep size measured: the product's Swift sweep and the C reference, side by side.
struct SweepMeasurement {
  var k: Int
  /// In cache.
  var hot: SwiftVsC
  /// Caches flushed before each run.
  var cold: SwiftVsC
  /// Whether Swift's counts and latencies agree with C's (in cache and cold).
  var agree: Bool
  var result: SweepResult
}

func measureSweeps(_ workload: Workload) -> [SweepMeasurement] {
  let hotReplay = ReplayData(workload.hot)
  let coldReplay = ReplayData(workload.cold)
  var results: [SweepMeasurement] = []
  for k in SweepSize.all {
    let c = CSweep(thresholds: SweepSize.thresholds(k))
    let swift = SwiftSweep(thresholds: SweepSize.thresholds(k))
    var agree = true
    let hotTiming = workload.hot.withColumns { columns in
      c.run(columns)
      swift.run(hotReplay.columns)
      agree = agree && swift.result.agrees(with: c.result)
      func timed(_ run: () -> Int64) -> Double {
        workload.inCache(passes: SweepSize.hotPasses, samples: columns.samples) { Int(run()) }
      }
      return SwiftVsC(
        rounds: workload.rounds, swift: { timed { swift.run(hotReplay.columns) } }, c: { timed { c.run(columns) } })
    }
    let coldTiming = workload.cold.withColumns { columns in
      func timed(_ run: () -> Int64) -> Double {
        workload.flushed(samples: columns.samples) { Int(run()) }
      }
      let timing = SwiftVsC(
        rounds: workload.rounds(cold: true), swift: { timed { swift.run(coldReplay.columns) } },
        c: { timed { c.run(columns) } })
      agree = agree && swift.result.agrees(with: c.result)
      return timing
    }
    results.append(SweepMeasurement(k: k, hot: hotTiming, cold: coldTiming, agree: agree, result: c.result))
  }
  return results
}

/// The cold sweep targets of issue 7 (ns per sample), where there is one.
func sweepTarget(_ k: Int) -> Double? { k == 64 ? 2.5 : k == 1000 ? 6 : nil }

func sweepTable(_ sweeps: [SweepMeasurement], numpy: NumpyResults?) -> (Table, [String]) {
  var table = Table(header: [
    "sweep", "Swift in cache", "C in cache", "Swift cold (median, range)", "Swift cold ns/sample", "C cold ns/sample",
    "Swift/C cold (in cache)", "numpy per trace", "numpy/Swift", "target (Swift, cold)", "met",
  ])
  var notes: [String] = []
  for s in sweeps {
    var numpyText = "—"
    var ratio = "—"
    var fasterThanNumpy: Bool?
    if let numpy, let ns = numpy.sweepNs[s.k], let theirs = numpy.sweep[s.k] {
      numpyText = Format.fixed(ns, 1) + " ns"
      ratio = Format.fixed(ns / s.cold.swift.median, 1) + "×"
      fasterThanNumpy = ns / s.cold.swift.median >= 10
      notes.append(
        "K = \(s.k): numpy and C \(theirs.agrees(with: s.result) ? "agree" : "DISAGREE") (\(s.result.summary))")
    }
    notes.append("K = \(s.k): Swift and C \(s.agree ? "agree" : "DISAGREE") (in cache and cold)")
    var targets: [String] = []
    var met = true
    if let target = sweepTarget(s.k) {
      targets.append("≤ \(Format.fixed(target, 1)) ns")
      met = met && s.cold.swift.median <= target
    }
    if let fasterThanNumpy {
      targets.append("≥ 10× numpy")
      met = met && fasterThanNumpy
    }
    table.add([
      "K = \(s.k)", Format.fixed(s.hot.swift.median, 3) + " ns", Format.fixed(s.hot.c.median, 3) + " ns",
      Format.rateRange(s.cold.swift), Format.fixed(s.cold.swift.median, 3), Format.fixed(s.cold.c.median, 3),
      Format.fixed(s.cold.ratio.median, 2) + "× (" + Format.fixed(s.hot.ratio.median, 2) + "×)", numpyText, ratio,
      targets.joined(separator: ", "), targets.isEmpty ? "" : met ? "yes" : "**no**",
    ])
  }
  return (table, notes)
}

// MARK: - Ingest and smoothing

func measureIngest(_ data: BenchData, rounds: Int) throws -> Table {
  var table = Table(header: ["format", "file", "TraceLoader.load (median, range)", "samples", "target"])
  let traces = IngestFiles.traces(from: data)
  let directory = IngestFiles.scratchDirectory()
  defer { IngestFiles.remove(directory: directory) }
  for format in TraceFiles.Format.allCases {
    let (path, bytes) = try IngestFiles.write(traces, as: format, in: directory)
    var samples = 0
    var megabytesPerSecond: [Double] = []
    for _ in 0..<max(3, rounds) {
      var n = 0
      var failure: (any Error)?
      let ns = timeNanoseconds {
        do { n = try IngestFiles.load(path) } catch { failure = error }
      }
      if let failure { throw BenchError("\(path): \(failure)") }
      samples = n
      megabytesPerSecond.append(Double(bytes) / ns * 1e3)
    }
    guard samples > 0 else { throw BenchError("\(path): loading failed") }
    let m = median(megabytesPerSecond)
    table.add([
      format.rawValue, Format.fixed(Double(bytes) / 1e6, 1) + " MB",
      "\(Format.fixed(m, 0)) MB/s (\(Format.fixed(megabytesPerSecond.min()!, 0))–\(Format.fixed(megabytesPerSecond.max()!, 0)))",
      "\(samples)", format == .csv ? "≥ 500 MB/s" : "",
    ])
  }
  return table
}

func measureSmoothing(_ data: BenchData, rounds: Int) throws -> Table {
  var table = Table(header: ["smoothing", "window", "samples/s (median, range)", "ns/sample"])
  let traces = SmoothingData.traces(from: data)
  let samples = traces.reduce(0) { $0 + $1.count }
  var output: [Double] = []
  output.reserveCapacity(512)
  let gaussian = try GaussianSmoother(length: SmoothingData.gaussianLength, alpha: 3)
  let medianFilter = try MedianSmoother(length: SmoothingData.medianLength)
  var g = Series()
  var m = Series()
  for _ in 0..<rounds {
    g.rounds.append(
      measure(reps: 3, samples: samples) {
        for trace in traces { try? gaussian.apply(to: trace, into: &output) }
        return output.count
      })
    m.rounds.append(
      measure(reps: 3, samples: samples) {
        for trace in traces { try? medianFilter.apply(to: trace, into: &output) }
        return output.count
      })
  }
  table.add([
    "Gaussian (gsl_filter_gaussian)", "K = \(SmoothingData.gaussianLength), α = 3", Format.rateRange(g),
    Format.fixed(g.median, 2),
  ])
  table.add([
    "median (gsl_filter_median)", "K = \(SmoothingData.medianLength)", Format.rateRange(m), Format.fixed(m.median, 2),
  ])
  return table
}

// MARK: - Main

func main() -> Int32 {
  let options: Options
  do { options = try Options(CommandLine.arguments) } catch {
    printError(error.description)
    return 64
  }
  var report: [String] = []
  func say(_ line: String) {
    print(line)
    report.append(line)
    fflush(nil)
  }
  let started = monotonicNanoseconds()
  say("Machine: \(machineDescription())")
  let cold = BenchData(atLeast: 20_000_000)
  let hot = cold.prefix(traces: 1000)
  say(
    "Data: \(cold.samples) samples in \(cold.traces) traces (cold: one pass, caches flushed before each); in cache: the first \(hot.traces) traces, \(hot.samples) samples, \(Shared.hotPasses) passes per timing. Rounds: \(options.rounds)."
  )

  let workload = Workload(hot: hot, cold: cold, rounds: options.rounds)
  var failures: [String] = []
  if options.mode == "sweeps" {
    var numpy: NumpyResults?
    if options.numpy {
      do { numpy = try runNumpy(peer: options.peer, data: cold) } catch {
        say("numpy peer not run: \(error)")
      }
    }
    let sweeps = measureSweeps(workload)
    let (text, notes) = sweepTable(sweeps, numpy: numpy)
    say("")
    say(text.text)
    for note in notes {
      say("")
      say(note)
      if note.contains("DISAGREE") { failures.append(note) }
    }
    if !failures.isEmpty {
      say("FAILED: " + failures.joined(separator: "; "))
      return 1
    }
    return 0
  }
  let kernels = measureKernels(workload)
  for r in kernels where !r.agree {
    failures.append("\(r.kernel.rawValue) (\(r.cold ? "cold" : "in cache")): Swift and C events differ")
  }
  if options.mode == "gate" {
    say("")
    var table = Table(header: [
      "kernel", "data", "Swift ns/sample", "C ns/sample", "Swift/C (median, range)", "events (Swift = C)",
      "gate ≤ \(Format.fixed(options.maxRatio, 2))×",
    ])
    for r in kernels {
      let ok = r.timing.ratio.median <= options.maxRatio
      if !ok {
        failures.append(
          "\(r.kernel.rawValue) (\(r.cold ? "cold" : "in cache")): Swift/C \(Format.fixed(r.timing.ratio.median, 2))×")
      }
      table.add([
        r.kernel.rawValue, r.cold ? "cold" : "in cache", Format.fixed(r.timing.swift.median, 3),
        Format.fixed(r.timing.c.median, 3),
        Format.ratio(r.timing.ratio), "\(r.digest.count) \(r.agree ? "=" : "≠")", ok ? "pass" : "**FAIL**",
      ])
    }
    let sweeps = measureSweeps(workload)
    for s in sweeps {
      for (cold, timing) in [(false, s.hot), (true, s.cold)] {
        let ok = timing.ratio.median <= options.maxRatio
        if !ok {
          failures.append(
            "sweep K = \(s.k) (\(cold ? "cold" : "in cache")): Swift/C \(Format.fixed(timing.ratio.median, 2))×")
        }
        if !s.agree && cold { failures.append("sweep K = \(s.k): Swift and C results differ") }
        table.add([
          "sweep K = \(s.k)", cold ? "cold" : "in cache", Format.fixed(timing.swift.median, 3),
          Format.fixed(timing.c.median, 3), Format.ratio(timing.ratio),
          "Σcount \(s.result.count.reduce(0, +)) \(s.agree ? "=" : "≠")", ok ? "pass" : "**FAIL**",
        ])
      }
    }
    say(table.text)
    say("")
    if failures.isEmpty {
      say(
        "Swift/C time gate: passed (\(kernels.count) kernel and \(2 * sweeps.count) sweep timings, \(Format.fixed(Double(monotonicNanoseconds() - started) / 1e9, 1)) s)"
      )
      return 0
    }
    say("Swift/C time gate: FAILED: " + failures.joined(separator: "; "))
    return 1
  }

  var numpy: NumpyResults?
  if options.numpy {
    do { numpy = try runNumpy(peer: options.peer, data: cold) } catch {
      say("numpy peer not run: \(error)")
    }
  }
  if let numpy, let swift = kernels.first(where: { $0.kernel == .threshold && $0.cold }) {
    let same =
      numpy.thresholdEvents == swift.digest.count && numpy.thresholdDigest == String(swift.digest.hash, radix: 16)
    if !same { failures.append("threshold: numpy events differ from Swift's") }
  }
  say("")
  say("### Recognizer kernels (ForceKernels vs the C reference, Float force)")
  say("")
  say(kernelTable(kernels, numpyThreshold: numpy?.thresholdNs).text)
  say("")
  say(
    "Events: " + kernels.filter { !$0.cold }.map { "\($0.kernel.rawValue) \($0.digest.count)" }.joined(separator: ", ")
      + " in cache; "
      + kernels.filter(\.cold).map { "\($0.kernel.rawValue) \($0.digest.count)" }.joined(separator: ", ")
      + " cold; Swift and C identical: \(kernels.allSatisfy(\.agree) ? "yes" : "NO")"
      + (numpy.map {
        ", numpy threshold \($0.thresholdEvents) events, identical: \($0.thresholdDigest == String(kernels.first { $0.kernel == .threshold && $0.cold }!.digest.hash, radix: 16) ? "yes" : "NO")"
      } ?? ""))
  say("")
  say("### Sweeps (the product's one-pass kernel vs the C running-max merge and numpy per trace)")
  say("")
  let sweeps = measureSweeps(workload)
  let (sweepText, sweepNotes) = sweepTable(sweeps, numpy: numpy)
  say(sweepText.text)
  for note in sweepNotes {
    say("")
    say(note)
    if note.contains("DISAGREE") { failures.append(note) }
  }
  say("")
  say("### Every variant through the UIKit-faithful replay harness (Double columns, in cache)")
  say("")
  say(measureVariants(ReplayData(hot), rounds: options.rounds).text)
  say("")
  say("### Ingest (TraceLoader.load of a file in the page cache: read, parse, validate, build traces)")
  say("")
  do { say(try measureIngest(cold, rounds: options.rounds).text) } catch {
    failures.append("ingest: \(error)")
  }
  say("")
  say("### Smoothing (GSL through TouchSignal, per trace of 150–250 samples, output reused)")
  say("")
  do { say(try measureSmoothing(hot, rounds: options.rounds).text) } catch {
    failures.append("smoothing: \(error)")
  }
  say("")
  say("Total time \(Format.fixed(Double(monotonicNanoseconds() - started) / 1e9, 1)) s.")
  if let out = options.out {
    do { try Data((report.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: out)) } catch {
      failures.append("cannot write \(out): \(error)")
    }
  }
  if !failures.isEmpty {
    say("FAILED: " + failures.joined(separator: "; "))
    return 1
  }
  return 0
}

exit(main())
