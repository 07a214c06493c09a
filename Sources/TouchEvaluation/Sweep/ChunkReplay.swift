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
    let actions = log.actions
    if keep { result.outcomes.reserveCapacity(traces.count) }
    var stage1: [Double] = []
    var stage2: [Double] = []
    for k in traces.indices {
      stage1.removeAll(keepingCapacity: true)
      stage2.removeAll(keepingCapacity: true)
      var releases = 0
      var held: Double?
      for event in actions[log.spans[k].actions] where event.source == 0 {
        switch event.kind {
        case .action: stage1.append(event.t)
        case .stage2: stage2.append(event.t)
        case .release: releases += 1
        case .held: if held == nil { held = event.t }
        }
      }
      var added: Double?
      if shape.isComposition, let action = stage1.first { added = held.map { action - $0 } ?? 0 }
      let outcome = Evaluation.outcome(
        trace: first + k, truth: truths[k], stage1: stage1, stage2: shape.twoStage ? stage2 : nil,
        flaps: shape.reportsFlaps ? releases : nil, addedLatency: added, waited: added != nil && held != nil,
        tolerance: tolerance)
      result.accumulator.add(outcome, intent: truths[k].intent, actualClass: truths[k].actualClass)
      if keep { result.outcomes.append(outcome) }
    }
    return result
  }
}
