import TouchEvaluation
import TouchReports
import TouchStudy
import TouchTuning

/// The verdict of `sweep` and `tune` (TouchStudy's `StudyVerdict`): merging, the recorded
/// inputs are read again after checking that their SHA-256 is the one the shards recorded; the
/// caveats about the data go to standard error too.
enum VerdictPass {
  /// The verdict on `configurations` scored with `metrics` (`StudyVerdict.verdict`), its data
  /// caveats said on standard error.
  ///
  /// - Parameters:
  ///   - request: the request the scores came from (same inputs, filters and grouping).
  ///   - noChoiceReason: why nothing is eligible, as the command explains it.
  static func verdict(
    configurations: [Configuration], metrics: [ConfigurationMetrics], rule: OperatingPointRule, evaluation: Evaluation,
    request: ScoredStream.Request, grouped: GroupedMetrics?, noChoiceReason: String? = nil
  ) throws -> Verdict {
    let verdict = try StudyVerdict.verdict(
      configurations: configurations, metrics: metrics, rule: rule, evaluation: evaluation, request: request,
      grouped: grouped, noChoiceReason: noChoiceReason, mergedInputs: ScoredData.merged?.inputs)
    warnAboutData(verdict)
    return verdict
  }

  /// The verdict's caveats about the data itself (references the rule put at touch-down, a raw
  /// force threshold over devices of different maxima) also go to standard error as warnings:
  /// they question the inputs, not the choice, and a reader of the terminal should see them.
  static func warnAboutData(_ verdict: Verdict) {
    for caveat in verdict.caveats where StudyVerdict.dataCaveats.contains(caveat.code) {
      Console.diagnose("warning: \(caveat.code): \(caveat.text)")
    }
  }
}
