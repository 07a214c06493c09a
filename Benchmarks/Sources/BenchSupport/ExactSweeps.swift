// Issue 29: exact sweeps (`sweep --exact`) of the main threshold of the five recognizers of the
// class sweeps, against the k/20 grid of the same threshold (the tool's default grid), on the same
// data: the exact sweep reads every breakpoint of the data (one pass over the traces), sweeps one
// configuration per exact class and merges adjacent classes with equal metrics into intervals
// (TouchTuning's ExactSweep): the whole of what the command computes before it writes.
import TouchCore
import TouchEvaluation
import TouchRecognizers
import TouchTuning

/// The exact sweep of one recognizer's main threshold, and its k/20 grid.
public struct ExactSweepCase: Sendable {
  /// `exact.<recognizer>`.
  public let name: String
  /// `grid20.<recognizer>`: the same threshold on the k/20 grid within its valid range.
  public let gridName: String
  /// The grid's sweep.
  public let grid: ClassSweepCase
  let recognizer: String
  let parameter: String

  /// The traces of the synthetic iPhone set of the package-benchmark suite (the instruction gate's
  /// probes use the 6000 of the class sweeps).
  public static let iPhoneTraces = 20_000

  /// The five recognizers of the class sweeps.
  public static let all: [ExactSweepCase] = ClassSweepCase.ranges.map { r in
    let values = (0...20).map { Double($0) / 20 }.filter { $0 >= r.low && $0 <= r.high }
    return ExactSweepCase(
      name: "exact.\(r.recognizer)", gridName: "grid20.\(r.recognizer)",
      grid: ClassSweepCase(name: "grid20.\(r.recognizer)", recognizer: r.recognizer, axes: [(r.parameter, values)]),
      recognizer: r.recognizer, parameter: r.parameter)
  }
}

extension ClassSweepData {
  /// The exact sweep of `exactCase` on one thread, as `sweep --exact` computes it (breakpoints,
  /// sweep, intervals); returns a digest (intervals + true positives over the classes).
  public func runExact(_ exactCase: ExactSweepCase) -> Int {
    do {
      let spec = try RecognizerSpec(parsing: exactCase.recognizer)
      var builder = try ExactAxisBuilder(spec: spec, parameters: [exactCase.parameter])
      builder.add(evaluation.dataset.traces)
      let axes = builder.axes()
      let plan = try SweepPlan(recognizers: [spec], axes: axes.map(\.sweepAxis))
      let result = try evaluation.sweep(plan, threads: 1)
      let exact = ExactSweep(result, axes: axes, rule: try OperatingPointRule(objective: .f1), tolerance: 0.01)
      return exact.groups.reduce(0) { $0 + $1.regions.count }
        + result.metrics.reduce(0) { $0 + $1.stage1.truePositives }
    } catch {
      preconditionFailure("\(exactCase.name): \(error)")
    }
  }

  /// The number of exact classes of `exactCase` on this data.
  public func exactClasses(_ exactCase: ExactSweepCase) -> Int {
    guard let spec = try? RecognizerSpec(parsing: exactCase.recognizer),
      var builder = try? ExactAxisBuilder(spec: spec, parameters: [exactCase.parameter])
    else { return 0 }
    builder.add(evaluation.dataset.traces)
    return builder.axes().first?.count ?? 0
  }
}
