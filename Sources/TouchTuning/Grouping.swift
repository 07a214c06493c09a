public import TouchCore
public import TouchSignal

/// The trace label that groups traces for cross-validation and the bootstrap: all traces of one
/// user (or session, or device) stay together.
public struct GroupKey: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
  /// The label name.
  public let rawValue: String

  /// The key for the label `rawValue`: `user`, `session`, `device`, `intent` or a valid extra label
  /// name (`TraceMetadata.isValidExtraLabelName(_:)`); `nil` for anything else.
  public init?(rawValue: String) {
    guard ["user", "session", "device", "intent"].contains(rawValue) || TraceMetadata.isValidExtraLabelName(rawValue)
    else { return nil }
    self.rawValue = rawValue
  }

  private init(known: String) { rawValue = known }

  /// `TraceMetadata.user`.
  public static let user = GroupKey(known: "user")
  /// `TraceMetadata.session`.
  public static let session = GroupKey(known: "session")
  /// `TraceMetadata.device`.
  public static let device = GroupKey(known: "device")

  /// The trace's label; `nil` when it has none (a missing or empty label).
  public func label(of metadata: TraceMetadata) -> String? { metadata.label(rawValue) }

  /// The label name: `user`, `session`, `device` or an extra label's.
  public var description: String { rawValue }
}

/// Traces partitioned into groups: by a ``GroupKey``, or each trace its own group.
///
/// Groups are ordered by name (Swift's `String` order); each group lists its traces in ascending
/// index order. Without a key, group `k` is trace `k`, named after it.
public struct TraceGroups: Sendable, Hashable {
  /// The grouping label; `nil` when every trace is its own group.
  public let key: GroupKey?
  /// The group names, in group order.
  public let names: [String]
  /// The trace indices of each group, ascending.
  public let members: [[Int]]
  /// The group of each trace.
  public let groupOfTrace: [Int]

  /// Groups `traces` by `key` (or one group per trace when `key` is `nil`).
  ///
  /// - Throws: ``TuningError/missingGroupLabel(trace:key:)`` when a trace has no label for `key`.
  public init(traces: [Trace], key: GroupKey?) throws(TuningError) {
    guard let key else {
      self.init(names: traces.map(\.name))
      return
    }
    var labels: [String] = []
    labels.reserveCapacity(traces.count)
    for trace in traces {
      guard let label = key.label(of: trace.metadata) else {
        throw .missingGroupLabel(trace: trace.name, key: key)
      }
      labels.append(label)
    }
    self.init(labels: labels, key: key)
  }

  /// One group per trace, named by its trace's name (`names`, in trace order): the grouping
  /// without a key.
  public init(names: [String]) {
    key = nil
    self.names = names
    members = names.indices.map { [$0] }
    groupOfTrace = Array(names.indices)
  }

  /// Groups traces by their `key` labels (`labels`, one per trace in trace order): groups in
  /// label order, each trace's index in its group in trace order.
  public init(labels: [String], key: GroupKey) {
    self.key = key
    let sorted = Array(Set(labels)).sorted()
    var index: [String: Int] = [:]
    for (g, name) in sorted.enumerated() { index[name] = g }
    var members = [[Int]](repeating: [], count: sorted.count)
    var groupOfTrace = [Int](repeating: 0, count: labels.count)
    for (k, label) in labels.enumerated() {
      let g = index[label]!
      members[g].append(k)
      groupOfTrace[k] = g
    }
    self.names = sorted
    self.members = members
    self.groupOfTrace = groupOfTrace
  }

  /// The number of groups.
  public var count: Int { names.count }

  /// What one group is: the key's name, or `trace`.
  public var unit: String { key?.rawValue ?? "trace" }
}

/// Which fold each group belongs to in grouped K-fold cross-validation.
///
/// The assignment depends only on the groups' names and sizes and the random stream:
///
/// 1. The groups, in name order, are shuffled (`RandomSource.shuffle`, one Fisher–Yates pass).
/// 2. They are ordered by trace count, largest first; equal counts keep their shuffled order.
/// 3. Each group in turn joins the fold with the fewest traces so far (the lowest-numbered such
///    fold on a tie) — the greedy "largest first" rule that balances folds by trace count.
///
/// Every fold gets at least one group (the first K groups fill the K empty folds), and with as
/// many folds as groups each fold holds exactly one group: leave-one-group-out.
public struct FoldAssignment: Sendable, Hashable {
  /// What a tuning run starts from: the traces' groups (by `options.groupBy`) and their
  /// assignment to `options.folds` folds (`nil` below 2), drawn from `random`, which the run then
  /// goes on with (the bootstrap draws next).
  ///
  /// - Throws: ``TuningError/noTraces`` for no traces; the grouping's errors.
  static func setUp(_ traces: [Trace], options: TuningOptions, random: inout RandomSource) throws(TuningError) -> (
    groups: TraceGroups, assignment: FoldAssignment?
  ) {
    guard !traces.isEmpty else { throw .noTraces }
    let groups = try TraceGroups(traces: traces, key: options.groupBy)
    let assignment =
      options.folds >= 2 ? try FoldAssignment(groups: groups, folds: options.folds, random: &random) : nil
    return (groups, assignment)
  }

  /// The number of folds, K ≥ 2.
  public let folds: Int
  /// The fold of each group (indexed like ``TraceGroups/names``).
  public let foldOfGroup: [Int]
  /// The fold of each trace.
  public let foldOfTrace: [Int]

  /// Assigns `groups` to `folds` folds, drawing the shuffle from `random`.
  ///
  /// - Precondition: `folds >= 2`.
  /// - Throws: ``TuningError/tooFewGroups(by:groups:folds:)`` when there are fewer groups than
  ///   folds.
  public init(groups: TraceGroups, folds: Int, random: inout RandomSource) throws(TuningError) {
    precondition(folds >= 2, "cross-validation needs at least 2 folds, got \(folds)")
    guard groups.count >= folds else {
      throw .tooFewGroups(by: groups.unit, groups: groups.count, folds: folds)
    }
    var shuffled = Array(0..<groups.count)
    random.shuffle(&shuffled)
    var position = [Int](repeating: 0, count: groups.count)
    for (p, g) in shuffled.enumerated() { position[g] = p }
    let order = shuffled.sorted { a, b in
      let (na, nb) = (groups.members[a].count, groups.members[b].count)
      return na != nb ? na > nb : position[a] < position[b]
    }
    var load = [Int](repeating: 0, count: folds)
    var foldOfGroup = [Int](repeating: 0, count: groups.count)
    for g in order {
      var f = 0
      for candidate in 1..<folds where load[candidate] < load[f] { f = candidate }
      foldOfGroup[g] = f
      load[f] += groups.members[g].count
    }
    self.folds = folds
    self.foldOfGroup = foldOfGroup
    self.foldOfTrace = groups.groupOfTrace.map { foldOfGroup[$0] }
  }

  /// The groups of fold `fold`, ascending.
  public func groups(inFold fold: Int) -> [Int] {
    foldOfGroup.indices.filter { foldOfGroup[$0] == fold }
  }

  /// The number of traces in each fold.
  public var traceCounts: [Int] {
    var counts = [Int](repeating: 0, count: folds)
    for f in foldOfTrace { counts[f] += 1 }
    return counts
  }

  /// Whether each fold holds exactly one group (leave-one-group-out).
  public var isLeaveOneGroupOut: Bool { foldOfGroup.count == folds }
}
