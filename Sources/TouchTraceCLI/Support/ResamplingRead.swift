import TouchEvaluation
import TouchRecognizers
import TouchStudy
import TouchTuning

/// What resampling needs of a first read that kept only its traces' summary, from a second read
/// of the inputs: some recognizers' outcomes on every trace (as columns, in trace order), every
/// trace's truth, and the resampling units (each trace's group label, or its name without a
/// grouping label). Memory holds those, not the traces' samples or metadata.
struct ResamplingRead {
  /// Per recognizer asked for, its outcomes in trace order.
  var columns: [OutcomeColumn]
  /// Every trace's truth, in trace order.
  var truths: [TraceTruth]
  /// The resampling units over the traces (the request's `groupBy`).
  var groups: TraceGroups

  /// Reads `request`'s inputs again, replaying `recognizers`.
  ///
  /// - Throws: `DataError` when the second read gives other traces than `evaluation`'s, and what
  ///   reading throws.
  static func read(
    _ recognizers: [AnyForceRecognizer], request: ScoredStream.Request, evaluation: Evaluation
  ) throws -> ResamplingRead {
    var second = request.replaying(recognizers)
    second.keepsUnits = true
    let data = try StudyData.readAgain(second)
    let n = evaluation.analyzedCount
    guard let stream = data.stream, data.readsSameTraces(as: evaluation), data.outcomes.count == recognizers.count,
      data.outcomes.allSatisfy({ $0.count == n }), stream.truths.count == n, stream.units.count == n
    else {
      throw DataError(
        description:
          "touchtrace \(request.command): error: the inputs changed while they were read a second time (it gave other traces than the first)"
      )
    }
    return ResamplingRead(
      columns: data.outcomes, truths: stream.truths, groups: stream.unitGroups(by: request.groupBy))
  }
}
