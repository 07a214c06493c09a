public import TouchCore
public import TouchEvaluation
public import TouchRecognizers

/// All partials of one job, checked and merged: the traces in the order one run gives them,
/// and the scoring state over all of them.
public struct MergedStudy: Sendable {
  /// The command.
  public let command: String
  /// The command's arguments (no outputs, threads or shard options).
  public let arguments: [String]
  /// The maximum forces the plan followed, force units.
  public let maximumForces: [Double]
  /// The dataset: analyzed traces without samples (metadata only), every skipped trace.
  public let dataset: Dataset
  /// The ground truth of each analyzed trace (parallel to `dataset.traces`; empty for `run`).
  public let truths: [TraceTruth]
  /// Each trace's replay (`run`; parallel to `dataset.traces`).
  public let replays: [ReplayResult]
  /// The merged per-configuration partial.
  public let sweep: SweepPartial?
  /// The merged per-group partials.
  public let groups: GroupPartials?
  /// Per-trace outcomes, a column per list: one outcome per trace of `dataset.traces`, in trace
  /// order, each column merged from the partials' when it is read.
  public let outcomes: OutcomeColumns
  /// The SHA-256 of every input the shards read (the same in every partial), in input order.
  public let inputs: [StudyPartial.InputHash]

  /// Checks and merges `partials`: one run (same tool, command, arguments, shard count, inputs),
  /// every shard once.
  ///
  /// - Parameter partials: the partials with the files they were read from.
  /// - Throws: ``PartialError``: a mismatch, missing or doubled shards, overlapping traces.
  public init(_ partials: [(file: String, partial: StudyPartial)]) throws(PartialError) {
    guard let first = partials.first else { throw .none }
    let p0 = first.partial
    for (file, p) in partials.dropFirst() {
      try Self.requireOneRun(p0, p, first.file, file)
    }
    try Self.requireEveryShardOnce(partials)
    let kept = try Self.loadOrder(partials)
    func trace(_ entry: (ordinal: Int, partial: Int, local: Int)) -> KeptTrace {
      partials[entry.partial].partial.traces[entry.local]
    }
    func mismatch(_ what: String) -> PartialError {
      .mismatch(what: what, file: first.file, other: partials.last!.file)
    }
    var skips = partials.flatMap(\.partial.skipped)
    skips.sort { ($0.stage, $0.ordinal) < ($1.stage, $1.ordinal) }
    var dataset = Dataset(
      traces: kept.map { trace($0).hollowTrace }, origins: kept.map { trace($0).origin },
      skipped: skips.map(\.skipped), files: p0.files, diagnostics: p0.diagnostics)
    dataset.labelOverrides = p0.labelOverrides
    dataset.overriddenTraces = p0.overriddenTraces
    self.dataset = dataset
    truths = kept.compactMap { trace($0).truth }
    guard truths.isEmpty || truths.count == kept.count else { throw mismatch("traces with and without ground truth") }
    replays =
      p0.replays.isEmpty && kept.isEmpty
      ? []
      : kept.compactMap { entry in
        let p = partials[entry.partial].partial
        return p.replays.isEmpty ? nil : p.replays[entry.local]
      }
    guard replays.isEmpty || replays.count == kept.count else { throw mismatch("traces with and without replays") }
    command = p0.command
    arguments = p0.arguments
    maximumForces = p0.maximumForces
    inputs = p0.inputs
    var sweep = p0.sweep
    var groups = p0.groups
    for (_, p) in partials.dropFirst() {
      if let s = p.sweep { sweep?.merge(s) }
      if let g = p.groups { groups?.merge(g) }
    }
    self.sweep = sweep
    self.groups = groups
    outcomes = try Self.mergedOutcomes(
      partials.map(\.partial), order: kept.map { ($0.partial, $0.local) },
      notOnePerTrace: mismatch("per-trace outcomes that are not one per trace"))
  }

  /// Refuses `p` (read from `file`) unless it comes from the run `p0` (read from `file0`) comes
  /// from: the same tool, command, arguments, shard count, inputs and their contents, and
  /// scoring state of the same shape.
  private static func requireOneRun(
    _ p0: StudyPartial, _ p: StudyPartial, _ file0: String, _ file: String
  ) throws(PartialError) {
    func differs(_ what: String) -> PartialError { .mismatch(what: what, file: file0, other: file) }
    if p.tool != p0.tool { throw differs("written by \(p0.tool) and by \(p.tool)") }
    if p.command != p0.command { throw differs("touchtrace \(p0.command) and touchtrace \(p.command)") }
    if p.arguments != p0.arguments {
      throw differs("arguments `\(p0.arguments.joined(separator: " "))` and `\(p.arguments.joined(separator: " "))`")
    }
    if p.shard.count != p0.shard.count { throw differs("shard \(p0.shard) and shard \(p.shard)") }
    if p.files != p0.files { throw differs("other input files") }
    if p.inputs != p0.inputs { throw differs("the same files with other contents") }
    if p.maximumForces != p0.maximumForces || p.diagnostics != p0.diagnostics
      || p.labelOverrides != p0.labelOverrides || p.overriddenTraces != p0.overriddenTraces
    {
      throw differs("the same files with other contents")
    }
    if (p.sweep == nil) != (p0.sweep == nil) || (p.groups?.column != p0.groups?.column)
      || p.outcomeListCount != p0.outcomeListCount || p.sweep?.methods != p0.sweep?.methods
      || p.sweep?.configurations.map(\.shape) != p0.sweep?.configurations.map(\.shape)
      || (p.traces.first?.truth == nil) != (p0.traces.first?.truth == nil) && !p.traces.isEmpty && !p0.traces.isEmpty
      || p.replays.isEmpty != p0.replays.isEmpty && !p.traces.isEmpty && !p0.traces.isEmpty
    {
      throw differs("other scoring state")
    }
  }

  /// Refuses partials that leave a shard out or hold one twice.
  private static func requireEveryShardOnce(_ partials: [(file: String, partial: StudyPartial)]) throws(PartialError) {
    let count = partials[0].partial.shard.count
    var byShard = [[String]](repeating: [], count: count)
    for (file, p) in partials { byShard[p.shard.index].append(file) }
    if let doubled = byShard.indices.first(where: { byShard[$0].count > 1 }) {
      throw .doubled(shard: doubled, count: count, files: byShard[doubled])
    }
    let missing = byShard.indices.filter { byShard[$0].isEmpty }
    guard missing.isEmpty else { throw .missing(shards: missing, count: count) }
  }

  /// The partials' traces in load order, as (ordinal, partial, index) triples, not copies of
  /// the traces (the outcomes follow the same order).
  ///
  /// - Throws: ``PartialError/overlapping(trace:files:)`` when two partials hold one trace.
  private static func loadOrder(
    _ partials: [(file: String, partial: StudyPartial)]
  ) throws(PartialError) -> [(ordinal: Int, partial: Int, local: Int)] {
    var kept: [(ordinal: Int, partial: Int, local: Int)] = []
    kept.reserveCapacity(partials.reduce(0) { $0 + $1.partial.traces.count })
    for (k, (_, p)) in partials.enumerated() {
      for (i, t) in p.traces.enumerated() { kept.append((t.ordinal, k, i)) }
    }
    kept.sort { $0.ordinal < $1.ordinal }
    for (previous, entry) in zip(kept, kept.dropFirst()) where previous.ordinal == entry.ordinal {
      throw .overlapping(
        trace: partials[entry.partial].partial.traces[entry.local].metadata.name,
        files: [partials[previous.partial].file, partials[entry.partial].file])
    }
    return kept
  }

  /// Every partial's outcome lists merged, list by list, into columns in the merged trace order
  /// (`order[g]`: the partial and index of merged trace `g`), each made when it is read: a
  /// partial's list `l` (read back from its spill, or its list in memory) at a time.
  ///
  /// - Throws: `notOnePerTrace` unless every partial's lists hold one outcome per trace of its
  ///   own, in order (as shards write them; what ``StudyPartial/init(reading:spill:piece:)``
  ///   keeps on disk always does).
  private static func mergedOutcomes(
    _ partials: [StudyPartial], order: [(partial: Int, local: Int)], notOnePerTrace: PartialError
  ) throws(PartialError) -> OutcomeColumns {
    let count = partials.first?.outcomeListCount ?? 0
    for p in partials where p.outcomeColumns == nil {
      let n = p.traces.count
      guard p.outcomes.count == count,
        p.outcomes.allSatisfy({ list in list.count == n && list.indices.allSatisfy { list[$0].trace == $0 } })
      else { throw notOnePerTrace }
    }
    let sources = partials.map { p in (columns: p.outcomeColumns, lists: p.outcomeColumns == nil ? p.outcomes : []) }
    return OutcomeColumns(count: count) { l in
      let parts = try sources.map { try $0.columns?.column(l) ?? OutcomeColumn($0.lists[l]) }
      var merged = OutcomeColumn()
      for (g, entry) in order.enumerated() {
        var outcome = parts[entry.partial][entry.local]
        outcome.trace = g
        merged.append(outcome)
      }
      return merged
    }
  }
}
