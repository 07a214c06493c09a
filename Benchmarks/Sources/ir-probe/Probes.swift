import BenchSupport
import CReference
import TouchRecognizers

/// A kernel the instruction gate can measure.
struct Probe: Sendable {
  /// The traces the probe runs on (≈ 200 000 samples, in cache).
  static let traces = 1000

  let name: String
  let run: @Sendable (Columns, EventBuffers) -> Int

  static let all: [Probe] =
    Kernel.allCases.map { kernel in
      Probe(name: "swift.\(kernel.rawValue)") { c, b in kernel.runSwift(c, into: b.swift) }
    }
    + Kernel.allCases.map { kernel in
      Probe(name: "c.\(kernel.rawValue)") { c, b in kernel.runC(c, into: b.c) }
    }
    + SweepSize.all.map { k in
      let sweep = CSweep(thresholds: SweepSize.thresholds(k))
      return Probe(name: "c.sweep\(k)") { c, _ in Int(sweep.run(c)) }
    }
    // PRODUCT SWEEP KERNEL: add `swift.sweep1/64/1000` probes here once TouchEvaluation's
    // one-pass sweep is merged (see README.md, "What remains to wire").
    + [
      Probe(name: "canary.threshold-any") { c, b in Canary.firstCrossingThroughExistential(c, into: b.swift) },
      Probe(name: "canary.hysteresis-call") { c, b in Canary.hysteresisWithCalls(c, into: b.swift) },
    ]
}
