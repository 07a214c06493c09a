public import TouchCore

/// The analyzed traces of an evaluation split by a label column (`--by user`): one group per
/// value, in name order, and a last group of the traces without the label (named `nil`).
///
/// Scoring a configuration's outcomes per group (``metrics(of:shape:)``) gives the same counts as
/// scoring it on each group's traces alone: the ground truth of a trace does not depend on the
/// other traces.
public struct GroupBreakdown: Sendable {
  /// The label column: `id`, `touch`, `user`, `session`, `device`, `intent` or an extra label.
  public let column: TraceFilter.Field
  /// The group names in order (Swift's `String` order); `nil` for the traces without the label,
  /// last.
  public let names: [String?]
  /// The trace indices of each group (into the evaluation's traces), ascending; empty when the
  /// evaluation keeps no traces (its summary gives the groups' sizes: ``traceCounts``).
  public let members: [[Int]]
  /// The number of traces in each group.
  public let traceCounts: [Int]
  /// Each group's contact time, seconds (lift-off − touch-down summed in trace order).
  public let contactTime: [Double]
  /// The evaluation's truths (what outcomes are scored against).
  let truths: [TraceTruth]

  /// Splits `evaluation`'s analyzed traces by `column`; an evaluation that keeps no traces
  /// gives its summary's groups (which must be by `column`), without their members.
  ///
  /// - Parameters:
  ///   - evaluation: the traces and their truths.
  ///   - column: the label column.
  public init(_ evaluation: Evaluation, by column: TraceFilter.Field) {
    guard evaluation.keepsTraces else {
      self.init(summaryOf: evaluation, by: column)
      return
    }
    self.init(labels: evaluation.traces.map { Self.label($0.metadata, column) }, truths: evaluation.truths, by: column)
  }

  /// The groups of `evaluation`'s summary (which must be by `column`), without their members.
  private init(summaryOf evaluation: Evaluation, by column: TraceFilter.Field) {
    self.column = column
    guard let groups = evaluation.summary.groups, groups.column == column else {
      preconditionFailure("the summary has no groups by \(column.rawValue)")
    }
    let named = groups.names.indices.filter { groups.names[$0] != nil }.sorted {
      groups.names[$0]! < groups.names[$1]!
    }
    let order = named + groups.names.indices.filter { groups.names[$0] == nil }
    names = order.map { groups.names[$0] }
    traceCounts = order.map { groups.traces[$0] }
    contactTime = order.map { groups.contactTime[$0] }
    members = []
    truths = []
  }

  /// Splits traces known by their `column` labels alone (`labels`, one per trace in trace order,
  /// `nil` for a trace without it) and their truths: for a read that kept only each trace's
  /// summary, truth and label.
  ///
  /// - Parameters:
  ///   - labels: each trace's value of `column` (``label(_:_:)``), in trace order.
  ///   - truths: each trace's truth, in the same order.
  ///   - column: the label column.
  public init(labels: [String?], truths: [TraceTruth], by column: TraceFilter.Field) {
    precondition(labels.count == truths.count, "one label per trace")
    self.column = column
    self.truths = truths
    var byName: [String: [Int]] = [:]
    var unlabelled: [Int] = []
    for (k, label) in labels.enumerated() {
      if let label {
        byName[label, default: []].append(k)
      } else {
        unlabelled.append(k)
      }
    }
    let sorted = byName.keys.sorted()
    var names: [String?] = sorted
    var members = sorted.map { byName[$0]! }
    if !unlabelled.isEmpty {
      names.append(nil)
      members.append(unlabelled)
    }
    self.names = names
    self.members = members
    traceCounts = members.map(\.count)
    contactTime = members.map { group in group.reduce(0) { $0 + truths[$1].duration } }
  }

  /// The value of `column` in `metadata`; `nil` when it has none (an empty label is none).
  public static func label(_ metadata: TraceMetadata, _ column: TraceFilter.Field) -> String? {
    metadata.label(column.rawValue)
  }

  /// The number of groups.
  public var count: Int { names.count }

  /// One configuration's metrics per group, in group order.
  ///
  /// - Parameters:
  ///   - outcomes: the configuration's outcomes, one per analyzed trace, in trace order (as
  ///     `Evaluation.outcomes(of:threads:)` and the sweep's `perConfiguration` give them).
  ///   - shape: which parts the configuration fills in.
  /// - Precondition: `outcomes[k].trace == k`; the breakdown was made from an evaluation that
  ///   keeps its traces.
  public func metrics(of outcomes: [TraceOutcome], shape: OutcomeShape) -> [ConfigurationMetrics] {
    members.map { group in
      ConfigurationMetrics(outcomes: group.lazy.map { outcomes[$0] }, truths: truths, shape: shape)
    }
  }
}

/// Configurations' metrics per group of a ``GroupBreakdown`` (what `--by` reports).
public struct GroupedMetrics: Sendable {
  /// The groups.
  public let breakdown: GroupBreakdown
  /// The configurations broken down (indices into the report's configurations), ascending.
  public let configurations: [Int]
  /// Per configuration (parallel to ``configurations``), its metrics per group.
  public let metrics: [[ConfigurationMetrics]]

  /// Creates grouped metrics.
  ///
  /// - Parameters:
  ///   - breakdown: the groups.
  ///   - configurations: the configurations' indices, ascending.
  ///   - metrics: per configuration, one `ConfigurationMetrics` per group.
  public init(breakdown: GroupBreakdown, configurations: [Int], metrics: [[ConfigurationMetrics]]) {
    self.breakdown = breakdown
    self.configurations = configurations
    self.metrics = metrics
  }

  /// Configuration `index`'s metrics per group; `nil` when it was not broken down.
  public func metrics(ofConfiguration index: Int) -> [ConfigurationMetrics]? {
    configurations.firstIndex(of: index).map { metrics[$0] }
  }
}
