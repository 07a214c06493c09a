import TouchCore
import TouchEvaluation
import TouchRecognizers
import TouchReports
import TouchSignal
import TouchStudy
import TouchTuning

/// The verdict of `sweep` and `tune`: the candidates come from the scores; the paired comparison
/// of the recommended configuration with the runner-up comes from a second read of the inputs
/// through those two alone (per-trace outcomes of every configuration are never kept, so memory
/// stays bounded). Merging reads the recorded inputs again, after checking that their SHA-256
/// is the one the shards recorded.
enum VerdictPass {
  /// The verdict on `configurations` scored with `metrics`.
  ///
  /// - Parameters:
  ///   - request: the request the scores came from (same inputs, filters and grouping).
  ///   - noChoiceReason: why nothing is eligible, as the command explains it.
  static func verdict(
    configurations: [Configuration], metrics: [ConfigurationMetrics], rule: OperatingPointRule, evaluation: Evaluation,
    request: ScoredStream.Request, grouped: GroupedMetrics?, noChoiceReason: String? = nil
  ) throws -> Verdict {
    let (recommended, _, runnerUp) = Verdict.candidates(configurations, metrics: metrics, rule: rule)
    var paired: PairedComparison?
    var clustered: ClusteredMcNemarTest?
    var unavailable: String?
    if let recommended, let runnerUp, evaluation.summary.positives > 0 {
      switch try comparison(
        configurations[recommended], configurations[runnerUp], request: request, evaluation: evaluation)
      {
      case .success(let result): (paired, clustered) = (result.comparison, result.clustered)
      case .failure(let reason): unavailable = reason.text
      }
    }
    let verdict = Verdict(
      configurations: configurations, metrics: metrics, rule: rule, evaluation: evaluation, paired: paired,
      pairedUnavailable: unavailable, grouped: grouped, noChoiceReason: noChoiceReason, clustered: clustered,
      inputCaveats: TimeScaleCheck.caveats(evaluation.dataset.diagnostics))
    warnAboutData(verdict)
    return verdict
  }

  /// The verdict's caveats about the data itself (references the rule put at touch-down, a raw
  /// force threshold over devices of different maxima) also go to standard error as warnings:
  /// they question the inputs, not the choice, and a reader of the terminal should see them.
  static func warnAboutData(_ verdict: Verdict) {
    for caveat in verdict.caveats where dataCaveats.contains(caveat.code) {
      Console.diagnose("warning: \(caveat.code): \(caveat.text)")
    }
  }

  /// The caveat codes that are about the data.
  static let dataCaveats: Set<String> = ["references_near_touch_down", "raw_force_mixed_maximum"]

  struct Unavailable: Error { var text: String }

  /// The comparison accumulated as a second read passes (its batches' replays come one batch
  /// after another, in trace order); `nil` when the read keeps the outcomes instead.
  final class PairedAccumulation: @unchecked Sendable {
    var accumulator: PairedComparison.Accumulator?
    init(_ accumulator: PairedComparison.Accumulator?) { self.accumulator = accumulator }
  }

  /// A (recommended) against B (runner-up) on the same traces, read again.
  static func comparison(
    _ a: Configuration, _ b: Configuration, request: ScoredStream.Request, evaluation: Evaluation
  ) throws -> Result<(comparison: PairedComparison, clustered: ClusteredMcNemarTest?), Unavailable> {
    if !request.canReadAgain {
      let spool = request.spool?.failure.map { " and could not be spooled (\($0))" } ?? ""
      return .failure(
        Unavailable(
          text:
            "the traces came from standard input, which is read once\(spool); save them to a file, or run touchtrace compare"
        ))
    }
    let merged = ScoredData.merged
    var second = request.replaying([a.recognizer, b.recognizer])
    // When the first read kept only the traces' summary and nothing is clustered, the pair is
    // compared as the second read passes: no trace's outcomes or truth are kept (about 100 bytes
    // a contact). Otherwise the two outcome columns, and after a summary-only first read the
    // truths.
    let paired = PairedAccumulation(
      evaluation.keepsTraces || request.groupBy != nil
        ? nil : PairedComparison.Accumulator(shapeA: a.shape, shapeB: b.shape))
    if paired.accumulator != nil {
      second.keepsReplays = false
      second.onReplays = { _, truths, outcomes in
        for (x, y) in zip(outcomes[0], outcomes[1]) {
          paired.accumulator!.add(x, y, intent: truths[x.trace].intent, actualClass: truths[x.trace].actualClass)
        }
      }
    }
    second.keepsTruths = !evaluation.keepsTraces && paired.accumulator == nil
    second.writesPartial = merged != nil  // the inputs' SHA-256, to compare with the shards'
    // A summary-only first read with a grouping label (`sweep --bootstrap --group-by`): each
    // trace's label, for the clustered test.
    second.keepsUnits = !evaluation.keepsTraces && request.groupBy != nil
    let data: StudyData
    do {
      data = try ScoredData.readAgain(second)
    } catch let error as ReplayError {
      throw error
    } catch {
      guard merged != nil else { throw error }
      return .failure(Unavailable(text: "the inputs the shards read cannot be read again here (\(error))"))
    }
    if let merged, data.stream?.inputs != merged.inputs {
      return .failure(Unavailable(text: "the inputs changed since the shards read them (SHA-256 differs)"))
    }
    let n = evaluation.analyzedCount
    guard data.readsSameTraces(as: evaluation),
      paired.accumulator.map({ $0.count == n })
        ?? (data.outcomes.count == 2 && data.outcomes.allSatisfy { $0.count == n })
    else {
      return .failure(Unavailable(text: "the second read gave other traces than the first"))
    }
    do throws(TuningError) {
      if let accumulator = paired.accumulator { return .success((try accumulator.finish(), nil)) }
      guard evaluation.keepsTraces else {
        // The columns are in trace order (each batch's replays sorted); compared as they are,
        // not as `[TraceOutcome]` (about 120 bytes a trace each).
        // The first read kept a summary: clustered by the labels the second read kept.
        let truths = data.stream?.truths ?? []
        let units = data.stream?.units ?? []
        guard truths.count == n, request.groupBy == nil || units.count == n else {
          return .failure(Unavailable(text: "the second read gave other traces than the first"))
        }
        var clustered: ClusteredMcNemarTest?
        if let key = request.groupBy {
          do throws(GSLError) {
            clustered = try ClusteredMcNemarTest(
              a: data.outcomes[0].map(\.isCorrect), b: data.outcomes[1].map(\.isCorrect),
              clusters: data.stream?.unitGroups(by: key).members ?? [])
          } catch {
            throw TuningError.gsl(error)
          }
        }
        // No bootstrap: the stream is never drawn from.
        var unusedRandom: RandomSource
        do throws(GSLError) {
          unusedRandom = try RandomSource(seed: 1)
        } catch {
          throw TuningError.gsl(error)
        }
        return .success(
          (
            try PairedComparison(
              a: data.outcomes[0], shapeA: a.shape, b: data.outcomes[1], shapeB: b.shape, truths: truths,
              units: [], bootstrap: nil, random: &unusedRandom),
            clustered
          ))
      }
      // Clustered as the request groups its traces (`--group-by`). The columns are compared as
      // they are (in trace order by construction), not as `[TraceOutcome]` (about 120 bytes a
      // trace each: a merge of 200 000 contacts peaked on those two arrays).
      let result = try ComparisonResult(
        evaluation: evaluation, a: a, b: b, groupBy: request.groupBy, bootstrap: nil,
        columns: (data.outcomes[0], data.outcomes[1]))
      return .success((result.comparison, result.clustered))
    } catch {
      if case .replay(let replay) = error { throw replay }
      throw DataError(description: "touchtrace \(request.command): error: \(error.description)")
    }
  }
}
