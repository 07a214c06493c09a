@_spi(Benchmarks) import BenchSupport
import CReference
import TouchRecognizers

/// A kernel the instruction gate can measure.
struct Probe: Sendable {
  /// The traces the probe runs on (≈ 200 000 samples, in cache).
  static let traces = 1000

  /// The synthetic iPhone 6s traces of the class and exact sweeps (56 045 samples): a quarter of
  /// the benchmarks' 6000 (`ClassSweepCase.iPhoneTraces`). These probes were most of the gate's
  /// callgrind time; on the quarter a sweep's instructions per sample are those of the 6000
  /// within 0.3 % at K = 1 and 1.8–4.3 % at K = 64 and 100 × 100, and 7–25 % higher at K = 1000
  /// and for the exact sweeps (their per-configuration work is spread over fewer samples). The
  /// counts and ratios recorded in Gates/instructions.txt are this set's, at 1.5× as before, so
  /// the gate keeps its power at about a quarter of its time.
  static let classSweepTraces = 1500

  let name: String
  /// One pass: the in-cache block (Float force), event buffers, the same block with `Double` force
  /// (its columns, and as `Trace` values).
  let run: @Sendable (Columns, EventBuffers, ReplayData) -> Int

  static let all: [Probe] =
    Kernel.allCases.map { kernel in
      Probe(name: "swift.\(kernel.rawValue)") { c, b, _ in kernel.runSwift(c, into: b.swift) }
    }
    + Kernel.allCases.map { kernel in
      Probe(name: "c.\(kernel.rawValue)") { c, b, _ in kernel.runC(c, into: b.c) }
    }
    + SweepSize.all.map { k in
      let sweep = CSweep(thresholds: SweepSize.thresholds(k))
      return Probe(name: "c.sweep\(k)") { c, _, _ in Int(sweep.run(c)) }
    }
    + SweepSize.all.map { k in
      let sweep = SwiftSweep(thresholds: SweepSize.thresholds(k))
      return Probe(name: "swift.sweep\(k)") { _, _, r in Int(sweep.run(r.columns)) }
    }
    + traceReplays
    + classSweeps + exactSweeps
    + [
      // The same replays called directly on the concrete type (specialized in this module): the
      // reference that the catalog's dynamic call per pass costs nothing per sample.
      Probe(name: "direct.stable-press") { _, _, r in Direct.replay(StablePress(), r.columns) },
      Probe(name: "direct.pressure-js") { _, _, r in Direct.replay(PressureJSDeepPress(), r.columns) },
      Probe(name: "direct-traces.stable-press") { _, _, r in Direct.replay(StablePress(), tracesOf: r) },
      Probe(name: "direct-traces.pressure-js") { _, _, r in Direct.replay(PressureJSDeepPress(), tracesOf: r) },
      Probe(name: "canary.replay-unspecialized") { _, _, r in Canary.replayUnspecialized(r.columns) },
      Probe(name: "canary.threshold-any") { c, b, _ in Canary.firstCrossingThroughExistential(c, into: b.swift) },
      Probe(name: "canary.hysteresis-call") { c, b, _ in Canary.hysteresisWithCalls(c, into: b.swift) },
    ]
}

extension Probe {
  /// Every catalog recognizer through the harness, by the trace path the tool takes
  /// (`touchtrace sweep`, `run`), then a recognizer of a user's own package (Examples/CustomRecognizer)
  /// by the same path, in the catalog as that package's tool builds it: issue 13 gates it against
  /// the built-in of the same logic (`traces.deep-press-alg-squeeze`).
  static let traceReplays: [Probe] =
    VariantReplay.all.map { replaying($0, as: "traces.\($0.benchmarkName)") }
    + [replaying(VariantReplay.userPackage, as: "user.\(VariantReplay.userPackage.benchmarkName)")]
}

extension Probe {
  /// Issue 17: `Evaluation.sweep` of a stateful recognizer at K = 1, 64, 1000 values of its main
  /// threshold and on a 100 x 100 press/release grid (by threshold classes), on
  /// ``classSweepTraces`` synthetic iPhone 6s traces; the data and reference times are made on
  /// the first pass, outside the callgrind window. Per sample means per sample of those traces.
  static let classSweeps: [Probe] = ClassSweepCase.all.map { sweepCase in
    Probe(name: sweepCase.name) { _, _, _ in ClassSweepBox.data.run(sweepCase) }
  }

  /// Issue 29: the exact sweep of each class-sweep recognizer's main threshold (breakpoints,
  /// sweep, intervals: `ExactSweepCase`) and the k/20 grid of the same threshold, on the same
  /// ``classSweepTraces`` traces; the gate holds exact/grid20 under 3.
  static let exactSweeps: [Probe] = ExactSweepCase.all.flatMap { exactCase in
    [
      Probe(name: exactCase.name) { _, _, _ in ClassSweepBox.data.runExact(exactCase) },
      Probe(name: exactCase.gridName) { _, _, _ in ClassSweepBox.data.run(exactCase.grid) },
    ]
  }
}

/// The synthetic iPhone set of the class sweeps, made once.
enum ClassSweepBox {
  static let data = ClassSweepData(iPhoneTraces: Probe.classSweepTraces)
}

/// A probe replaying `variant` over the block's `Trace` values as the tool does
/// (`VariantReplay.run(traces:_:)`); the log keeps its storage across passes.
private func replaying(_ variant: VariantReplay, as name: String) -> Probe {
  let log = LogBox()
  return Probe(name: name) { _, _, r in
    log.value.removeAll()
    variant.run(traces: r.traces, &log.value)
    return log.value.count
  }
}

/// A replay log that a probe reuses from pass to pass.
final class LogBox: @unchecked Sendable {
  var value = ReplayLog()
}

/// Replays called on a concrete recognizer type, specialized here.
enum Direct {
  static let log = LogBox()

  @inline(__always)
  static func replay<R: ForceRecognizer>(_ recognizer: R, _ columns: ReplayColumns) -> Int {
    log.value.removeAll()
    Replay.replay(
      t: columns.t, force: columns.force, offsets: columns.offsets, maxForce: BenchData.maxForce, using: recognizer,
      into: &log.value)
    return log.value.count
  }

  @inline(__always)
  static func replay<R: ForceRecognizer>(_ recognizer: R, tracesOf data: ReplayData) -> Int {
    log.value.removeAll()
    do throws(ReplayError) {
      try Replay.replay(traces: data.traces, using: recognizer, into: &log.value)
    } catch {
      preconditionFailure("\(error)")
    }
    return log.value.count
  }
}
