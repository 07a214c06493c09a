public import TouchRecognizers

extension Evaluation {
  /// Replays every trace through `recognizer` and scores it, on `threads` threads.
  ///
  /// - Precondition: `recognizer` can replay every analyzed trace (see
  ///   `AnyForceRecognizer.unsupportedReason(for:)`).
  /// - Returns: one outcome per analyzed trace, in trace order.
  /// - Throws: `ReplayError.external(trace:variant:message:)` when an external (`exec:`)
  ///   recognizer fails.
  public func outcomes(of recognizer: AnyForceRecognizer, threads: Int = 1) throws(ReplayError) -> [TraceOutcome] {
    let chunks = Chunks(self)
    let replayed = Parallel.map(items: chunks.count, threads: threads) { c in
      chunks.replay(c, tolerance: options.tolerance, shape: OutcomeShape(recognizer: recognizer), keep: true).run(
        recognizer)
    }
    if let failure = replayed.lazy.compactMap(\.failure).first { throw failure }
    return replayed.flatMap(\.outcomes)
  }

  /// Scores `outcomes` (one configuration's, any subset of traces, repeats allowed).
  public func metrics(of outcomes: some Sequence<TraceOutcome>, shape: OutcomeShape) -> ConfigurationMetrics {
    ConfigurationMetrics(outcomes: outcomes, truths: truths, shape: shape)
  }

  /// Builds a trace's outcome from its event times.
  static func outcome(
    trace k: Int, truth: TraceTruth, stage1: [Double], stage2: [Double]?, flaps: Int?, addedLatency: Double?,
    waited: Bool = false, tolerance: Double
  ) -> TraceOutcome {
    TraceOutcome(
      trace: k,
      stage1: StageOutcome(
        events: stage1, references: truth.references, isPositive: truth.isPositive, touchDown: truth.touchDown,
        tolerance: tolerance),
      stage2: stage2.map {
        StageOutcome(
          events: $0, references: truth.stage2References, isPositive: truth.isStage2Positive,
          touchDown: truth.touchDown, tolerance: tolerance)
      },
      flaps: flaps, addedLatency: addedLatency, waited: waited)
  }
}
