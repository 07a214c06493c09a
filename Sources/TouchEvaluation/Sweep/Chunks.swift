import TouchCore

/// The analyzed traces and truths cut once into chunks of ``Evaluation/chunk`` traces, the unit
/// of parallel work.
struct Chunks: Sendable {
  let traces: [[Trace]]
  let truths: [[TraceTruth]]
  let total: Int

  init(_ evaluation: Evaluation) {
    let size = Evaluation.chunk
    total = evaluation.traces.count
    let count = (total + size - 1) / size
    // Replay copies each trace it is given; traces stripped to what a replay reads (columns,
    // maximum force, and the id and contact an `exec:` recognizer is told: no labels to retain
    // and release) make those copies cheaper.
    traces = (0..<count).map { c in
      evaluation.traces[(c * size)..<Swift.min(evaluation.traces.count, (c + 1) * size)].map { trace in
        Trace(
          metadata: TraceMetadata(
            id: trace.metadata.id, touch: trace.metadata.touch, maxForce: trace.metadata.maxForce),
          t: trace.t, force: trace.force,
          phase: trace.phase, x: trace.x, y: trace.y)
      }
    }
    truths = (0..<count).map {
      Array(evaluation.truths[($0 * size)..<Swift.min(evaluation.truths.count, ($0 + 1) * size)])
    }
  }

  var count: Int { traces.count }

  func range(_ c: Int) -> Range<Int> { (c * Evaluation.chunk)..<Swift.min(total, (c + 1) * Evaluation.chunk) }

  /// The visitor that replays and scores chunk `c`.
  func replay(_ c: Int, tolerance: Double, shape: OutcomeShape, keep: Bool) -> ChunkReplay {
    ChunkReplay(
      traces: traces[c], truths: truths[c], first: c * Evaluation.chunk, tolerance: tolerance, shape: shape, keep: keep)
  }
}
