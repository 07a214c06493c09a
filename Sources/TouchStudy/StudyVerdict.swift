public import TouchCore
public import TouchEvaluation
public import TouchPartials
import TouchRecognizers
import TouchSignal
public import TouchTuning

/// The verdict of a sweep or a tuning: the candidates come from the scores; the paired
/// comparison of the recommended configuration with the runner-up comes from a second read of
/// the inputs through those two alone (per-trace outcomes of every configuration are never kept,
/// so memory stays bounded).
///
/// A merged job array reads the recorded inputs again: pass the SHA-256 of every input the
/// shards recorded, and a read that finds other content gives no comparison (the verdict says
/// why) instead of comparing other traces.
public enum StudyVerdict {
  /// Why the paired comparison was not made; the verdict states it.
  public struct Unavailable: Error, Sendable {
    /// The reason, a sentence for the report.
    public var text: String
  }

  /// The caveat codes of a verdict that question the data itself, not the choice (references
  /// the rule put at touch-down, a raw force threshold over devices of different maxima).
  public static let dataCaveats: Set<String> = ["references_near_touch_down", "raw_force_mixed_maximum"]

  /// The verdict on `configurations` scored with `metrics`.
  ///
  /// - Parameters:
  ///   - configurations: every configuration scored, in plan order.
  ///   - metrics: their metrics, in the same order.
  ///   - rule: how the operating point is chosen.
  ///   - evaluation: the traces scored (their accounting, or their summary).
  ///   - request: the request the scores came from (same inputs, filters and grouping).
  ///   - grouped: per-group metrics (`--by`), for the verdict's group caveats.
  ///   - noChoiceReason: why nothing is eligible, as the command explains it.
  ///   - mergedInputs: merging, the inputs' SHA-256 as the shards recorded them.
  /// - Throws: `ReplayError` from the second read's replay, ``StudyError`` for a comparison that
  ///   fails on the data, and what reading throws (not merging).
  public static func verdict(
    configurations: [Configuration], metrics: [ConfigurationMetrics], rule: OperatingPointRule, evaluation: Evaluation,
    request: ScoredStream.Request, grouped: GroupedMetrics?, noChoiceReason: String? = nil,
    mergedInputs: [StudyPartial.InputHash]? = nil
  ) throws -> Verdict {
    let (recommended, _, runnerUp) = Verdict.candidates(configurations, metrics: metrics, rule: rule)
    var paired: PairedComparison?
    var clustered: ClusteredMcNemarTest?
    var unavailable: String?
    if let recommended, let runnerUp, evaluation.summary.positives > 0 {
      switch try comparison(
        configurations[recommended], configurations[runnerUp], request: request, evaluation: evaluation,
        mergedInputs: mergedInputs)
      {
      case .success(let result): (paired, clustered) = (result.comparison, result.clustered)
      case .failure(let reason): unavailable = reason.text
      }
    }
    return Verdict(
      configurations: configurations, metrics: metrics, rule: rule, evaluation: evaluation, paired: paired,
      pairedUnavailable: unavailable, grouped: grouped, noChoiceReason: noChoiceReason, clustered: clustered,
      inputCaveats: TimeScaleCheck.caveats(evaluation.dataset.diagnostics))
  }

  /// The comparison accumulated as a second read passes (its batches' replays come one batch
  /// after another, in trace order); `nil` when the read keeps the outcomes instead.
  private final class PairedAccumulation: @unchecked Sendable {
    var accumulator: PairedComparison.Accumulator?
    init(_ accumulator: PairedComparison.Accumulator?) { self.accumulator = accumulator }
  }

  /// A (recommended) against B (runner-up) on the same traces, read again.
  ///
  /// - Parameters:
  ///   - a: the recommended configuration.
  ///   - b: the runner-up.
  ///   - request: the first read's request.
  ///   - evaluation: what the first read scored.
  ///   - mergedInputs: merging, the inputs' SHA-256 as the shards recorded them.
  /// - Returns: the comparison (clustered too with the request's `groupBy`), or why it is not
  ///   made (standard input without a spool, inputs changed, another set of traces).
  public static func comparison(
    _ a: Configuration, _ b: Configuration, request: ScoredStream.Request, evaluation: Evaluation,
    mergedInputs: [StudyPartial.InputHash]? = nil
  ) throws -> Result<(comparison: PairedComparison, clustered: ClusteredMcNemarTest?), Unavailable> {
    if !request.canReadAgain {
      let spool = request.spool?.failure.map { " and could not be spooled (\($0))" } ?? ""
      return .failure(
        Unavailable(
          text:
            "the traces came from standard input, which is read once\(spool); save them to a file, or run touchtrace compare"
        ))
    }
    let paired = PairedAccumulation(
      evaluation.keepsTraces || request.groupBy != nil
        ? nil : PairedComparison.Accumulator(shapeA: a.shape, shapeB: b.shape))
    let second = secondRead(a, b, request: request, evaluation: evaluation, into: paired, merging: mergedInputs != nil)
    let data: StudyData
    do {
      data = try StudyData.readAgain(second)
    } catch let error as ReplayError {
      throw error
    } catch {
      guard mergedInputs != nil else { throw error }
      return .failure(Unavailable(text: "the inputs the shards read cannot be read again here (\(error))"))
    }
    if let mergedInputs, data.stream?.inputs != mergedInputs {
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
        return try fromSummary(data, a, b, request: request, count: n)
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
      throw StudyError(description: "touchtrace \(request.command): error: \(error.description)")
    }
  }

  /// The second read of the pair: when the first read kept only the traces' summary and
  /// nothing is clustered, the pair is compared as it passes (into `paired`: no trace's outcomes
  /// or truth are kept, about 100 bytes a contact); otherwise it keeps the two outcome columns,
  /// and after a summary-only first read the truths (and with a grouping label, each trace's
  /// label for the clustered test).
  private static func secondRead(
    _ a: Configuration, _ b: Configuration, request: ScoredStream.Request, evaluation: Evaluation,
    into paired: PairedAccumulation, merging: Bool
  ) -> ScoredStream.Request {
    var second = request.replaying([a.recognizer, b.recognizer])
    if paired.accumulator != nil {
      second.keepsReplays = false
      second.onReplays = { _, truths, outcomes in
        for (x, y) in zip(outcomes[0], outcomes[1]) {
          paired.accumulator!.add(x, y, intent: truths[x.trace].intent, actualClass: truths[x.trace].actualClass)
        }
      }
    }
    second.keepsTruths = !evaluation.keepsTraces && paired.accumulator == nil
    second.writesPartial = merging  // the inputs' SHA-256, to compare with the shards'
    second.keepsUnits = !evaluation.keepsTraces && request.groupBy != nil
    return second
  }

  /// The comparison after a first read that kept a summary: the second read kept the truths
  /// (and the labels, clustered by them); the columns, in trace order, compared as they are.
  private static func fromSummary(
    _ data: StudyData, _ a: Configuration, _ b: Configuration, request: ScoredStream.Request, count n: Int
  ) throws(TuningError) -> Result<(comparison: PairedComparison, clustered: ClusteredMcNemarTest?), Unavailable> {
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
    let comparison = try PairedComparison(
      a: data.outcomes[0], shapeA: a.shape, b: data.outcomes[1], shapeB: b.shape, truths: truths,
      units: [], bootstrap: nil, random: &unusedRandom)
    return .success((comparison, clustered))
  }
}

extension ScoredStream {
  /// The resampling units of a read that kept them (``Request/keepsUnits``), grouped by `key`
  /// (the request's ``Request/groupBy``); one group per trace without a key.
  public func unitGroups(by key: GroupKey?) -> TraceGroups {
    key.map { TraceGroups(labels: units, key: $0) } ?? TraceGroups(names: units)
  }

  /// The groups by `column` (`--by`) of a read that kept only its traces' summary, truths and
  /// `column` labels (``Request/keepsLabels``); `nil` for any other read or without a column.
  public func labelledGroups(by column: TraceFilter.Field?) -> GroupBreakdown? {
    guard summary != nil, let column, labels.count == truths.count else { return nil }
    return GroupBreakdown(labels: labels, truths: truths, by: column)
  }
}
