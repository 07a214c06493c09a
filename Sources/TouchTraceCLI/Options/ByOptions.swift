import ArgumentParser
import TouchCore
import TouchEvaluation
import TouchRecognizers

/// `--by COLUMN`: per-group breakdowns in the reports of `sweep`, `tune` and `compare`.
struct ByOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Also report per group of this label column (id, touch, user, session, device, intent, or an extra label such as hand): counts, rates with intervals, latency quantiles with n.",
      valueName: "column"))
  var by: ByColumn?

  /// A label column traces can be grouped by: `id`, `touch`, `user`, `session`, `device`,
  /// `intent` or an extra label (a labels-file column, a `--label-from-path` placeholder).
  struct ByColumn: ExpressibleByArgument {
    var field: TraceFilter.Field

    init?(argument: String) {
      guard let field = TraceFilter.Field(rawValue: argument) else { return nil }
      self.field = field
    }
  }

  /// The metrics per group of `configurations` (index, configuration), replayed on `threads`
  /// threads, or from `scored` (a configuration's outcomes by its index) when given; `nil`
  /// without `--by`.
  ///
  /// - Parameter labelled: the groups when the evaluation keeps only its traces' summary (made
  ///   from the labels and truths the read kept); `nil`: from the evaluation's traces.
  func grouped(
    _ configurations: [(index: Int, configuration: Configuration)], evaluation: Evaluation, threads: Int,
    command: String,
    outcomes scored: ((Int) throws -> [TraceOutcome])? = nil, labelled: GroupBreakdown? = nil
  ) throws -> GroupedMetrics? {
    guard let by else { return nil }
    let breakdown = labelled ?? GroupBreakdown(evaluation, by: by.field)
    var metrics: [[ConfigurationMetrics]] = []
    for (index, configuration) in configurations {
      let outcomes: [TraceOutcome]
      if let scored {
        outcomes = try scored(index)
      } else {
        do throws(ReplayError) {
          outcomes = try evaluation.outcomes(of: configuration.recognizer, threads: threads)
        } catch {
          throw DataError.replay(error, command: command)
        }
      }
      metrics.append(breakdown.metrics(of: outcomes, shape: configuration.shape))
    }
    return GroupedMetrics(breakdown: breakdown, configurations: configurations.map(\.index), metrics: metrics)
  }
}

extension ByOptions {
  /// Refuses a `--by` column that no analyzed trace has (exit 65: a typo such as `devices` would
  /// otherwise give one group without a value), naming the labels the traces have and the
  /// closest one.
  func requirePresent(in evaluation: Evaluation, command: String) throws {
    let summary = evaluation.summary
    guard let field = by?.field, summary.analyzed > 0 else { return }
    guard !summary.presentLabels.contains(field.rawValue) else { return }
    var present: [String] = TraceFilter.Field.builtIn.map(\.rawValue).filter(summary.presentLabels.contains)
    for name in summary.extraLabelNames.sorted() where !present.contains(name) {
      present.append(name)
    }
    throw DataError(
      description:
        "touchtrace \(command): error: --by \(field.rawValue): no trace has this label\(NameSuggestion.clause(for: field.rawValue, in: present)); the traces have \(present.joined(separator: ", "))"
    )
  }
}
