import TouchCore
import TouchRecognizers

/// A replayed chunk: its metrics sums and, when asked for, its outcomes.
struct ReplayedChunk: Sendable {
  var accumulator: MetricsAccumulator
  var outcomes: [TraceOutcome]
  /// Why the recognizer could not replay the chunk (an external recognizer failed); the sums
  /// are then empty.
  var failure: ReplayError?
}

/// Replays a chunk of traces through the concrete recognizer and scores them.
struct ChunkReplay {
  let traces: [Trace]
  let truths: [TraceTruth]
  let first: Int
  let tolerance: Double
  let shape: OutcomeShape
  let keep: Bool

  /// Replays the chunk through `recognizer` (one call into the code specialized for its concrete
  /// type) and scores each trace.
  func run(_ recognizer: AnyForceRecognizer) -> ReplayedChunk {
    var log = ReplayLog()
    var result = ReplayedChunk(accumulator: MetricsAccumulator(shape: shape), outcomes: [])
    do throws(ReplayError) {
      // (The maximum force is checked before a sweep: what can fail here is an external recognizer.)
      try recognizer.replay(traces: traces, into: &log)
    } catch {
      result.failure = error
      return result
    }
    if keep { result.outcomes.reserveCapacity(traces.count) }
    var scratch = ScoringScratch()
    // Each truth is reached through a pointer: a copy would retain and release its reference lists.
    truths.withUnsafeBufferPointer { truths in
      for k in traces.indices {
        let truth = truths.baseAddress.unsafelyUnwrapped + k
        let outcome = scratch.outcome(
          of: log, span: k, trace: first + k, truth: truth.pointee, shape: shape, tolerance: tolerance)
        result.accumulator.add(outcome, intent: truth.pointee.intent, actualClass: truth.pointee.actualClass)
        if keep { result.outcomes.append(outcome) }
      }
    }
    return result
  }
}

/// Scores replayed traces from a log, reusing its event lists between traces.
struct ScoringScratch {
  private var stage1: [Double] = []
  private var stage2: [Double] = []

  /// The outcome of the trace whose events are span `span` of `log`: its actions (stage 1),
  /// stage-2 events, releases (flaps) and, for compositions, the added latency.
  mutating func outcome(
    of log: ReplayLog, span: Int, trace: Int, truth: TraceTruth, shape: OutcomeShape, tolerance: Double
  ) -> TraceOutcome {
    stage1.removeAll(keepingCapacity: true)
    stage2.removeAll(keepingCapacity: true)
    var releases = 0
    var held: Double?
    let actions = log.actions
    for a in log.spans[span].actions where actions[a].source == 0 {
      let event = actions[a]
      switch event.kind {
      case .action: stage1.append(event.t)
      case .stage2: stage2.append(event.t)
      case .release: releases += 1
      case .held: if held == nil { held = event.t }
      }
    }
    var added: Double?
    if shape.isComposition, let action = stage1.first { added = held.map { action - $0 } ?? 0 }
    return Evaluation.outcome(
      trace: trace, truth: truth, stage1: stage1, stage2: shape.twoStage ? stage2 : nil,
      flaps: shape.reportsFlaps ? releases : nil, addedLatency: added, waited: added != nil && held != nil,
      tolerance: tolerance)
  }
}
