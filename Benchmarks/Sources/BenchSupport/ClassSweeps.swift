// Issue 17: sweeps of stateful recognizers (replayed per setting before) by threshold classes.
// The same `Evaluation.sweep` the tool runs at K = 1, 64 and 1000 values of each recognizer's main
// threshold and on a 100 x 100 press/release grid of `hysteresis`; the cost to compare is each
// grid's against K = 1. Two data sets: the tool's synthetic iPhone 6s traces (1/60-quantized
// force, ~60 Hz, labelled: what the issue measured), and the dense block (120 Hz, unquantized
// noisy force: nearly every sample a distinct value, the worst case for classes).
import TouchCore
public import TouchEvaluation
import TouchSynth

/// A grid of one stateful recognizer the class sweeps are measured on.
public struct ClassSweepCase: Sendable {
  /// The benchmark name: `classes.<recognizer>.K<k>` or `classes.hysteresis.100x100`.
  public let name: String
  /// The sweep plan.
  public let plan: SweepPlan

  /// The recognizers and their main threshold's valid range (rules between parameters respected
  /// at the other parameters' defaults).
  static let ranges: [(recognizer: String, parameter: String, low: Double, high: Double)] = [
    ("deep-press", "threshold", 0, 1),
    ("hysteresis", "pressThreshold", 0.1, 1),
    ("stable-press", "pressThreshold", 0.3, 1),
    ("peek-pop", "peekThreshold", 0, 0.75),
    ("flutter-force-press", "startPressure", 0, 0.84),
  ]

  /// The traces of the synthetic iPhone set (about 200 000 samples).
  public static let iPhoneTraces = 6000

  /// Grid sizes per recognizer.
  public static let sizes = [1, 64, 1000]

  /// Every case: each recognizer at each size, then the 100 x 100 hysteresis grid.
  public static let all: [ClassSweepCase] =
    ranges.flatMap { r in
      sizes.map { k in
        let values =
          k == 1 ? [(r.low + r.high) / 2] : (0..<k).map { r.low + (r.high - r.low) * Double($0) / Double(k - 1) }
        return ClassSweepCase(
          name: "classes.\(r.recognizer).K\(k)", recognizer: r.recognizer, axes: [(r.parameter, values)])
      }
    }
    + [
      ClassSweepCase(
        name: "classes.hysteresis.100x100", recognizer: "hysteresis",
        axes: [
          ("pressThreshold", (1...100).map { Double($0) / 100 }),
          ("releaseThreshold", (0..<100).map { Double($0) / 100 }),
        ])
    ]

  init(name: String, recognizer: String, axes: [(String, [Double])]) {
    self.name = name
    do {
      plan = try SweepPlan(
        recognizers: [RecognizerSpec(parsing: recognizer)],
        axes: axes.map { SweepAxis(parameter: $0.0, text: "bench", values: $0.1.map { .number($0) }) })
    } catch {
      preconditionFailure("\(name): \(error)")
    }
  }
}

/// Labelled traces ready for `Evaluation.sweep`, with their reference times computed once.
public final class ClassSweepData: @unchecked Sendable {
  /// The evaluation.
  public let evaluation: Evaluation
  /// The samples per sweep.
  public let samples: Int

  /// The seed of the synthetic iPhone set.
  public static let seed: UInt64 = 0x17_C1A55E5

  /// `count` synthetic iPhone 6s traces (TouchSynth, labelled with intents and press times).
  public convenience init(iPhoneTraces count: Int) {
    self.init(traces: Synthesizer(profile: .iphone6s, seed: Self.seed, userCount: 8).generate(count: count))
  }

  /// The dense block `data`, labelled by its peaks: a contact reaching 3.5 force units (the
  /// data's "hard" presses) is a `press`, the others `tap`s; reference times by the tool's rule.
  public convenience init(dense data: ReplayData) {
    self.init(
      traces: data.traces.map { trace -> Trace in
        var labelled = trace
        labelled.metadata = TraceMetadata(
          id: trace.metadata.id, intent: (trace.force.max() ?? 0) >= 3.5 ? .press : .tap, maxForce: BenchData.maxForce)
        return labelled
      })
  }

  init(traces: [Trace]) {
    evaluation = Evaluation(dataset: Dataset(traces: traces, origins: traces.map { _ in TraceOrigin(file: "bench") }))
    samples = traces.reduce(0) { $0 + $1.count }
  }

  /// One sweep of `sweepCase` on one thread; returns the summed true positives (a digest).
  public func run(_ sweepCase: ClassSweepCase) -> Int {
    do {
      let result = try evaluation.sweep(sweepCase.plan, threads: 1)
      return result.metrics.reduce(0) { $0 + $1.stage1.truePositives }
    } catch {
      preconditionFailure("\(sweepCase.name): \(error)")
    }
  }
}
