import TouchCore
import TouchEvaluation
import TouchIO
import TouchPartials
import TouchRecognizers
import TouchReports
import TouchTuning

/// One pass of a ``ScoredStream`` over its input, stage by stage: each batch is accounted for
/// (``account(_:)``), filtered (``select(_:_:)``), checked for maximum forces (``noteForces(_:)``),
/// cut to the shard and the grouping label (``narrow(_:_:)``), then replayed (``replayOnly(_:_:)``)
/// or scored (``score(_:_:)``); ``finish()`` gathers what the pass kept.
struct StreamPass {
  let request: ScoredStream.Request
  private let makePlan: ([Double]) throws -> SweepPlan?
  private let planFollowsData: Bool
  /// The batches of the input, or of the spool a first read wrote.
  var source: PassSource
  /// The spool this pass writes its analyzed traces to.
  private let spooling: AnalyzedSpool?
  private var state = ScoredStream()
  private var configurations: [Configuration] = []
  /// The maximum forces the plan is made from: a restarted pass's, else the first batch's.
  private var known: [Double]?
  private var forces: Set<Double>
  private var started = false
  /// Traces read, load-skipped and left out by the filters so far.
  private var loaded = 0
  private var loadSkips = 0
  private var filteredOut = 0
  private var loadSkipped: [SkippedTrace] = []
  /// The metadata of the traces read while the filters have kept none, for the selection's
  /// message if they never do (dropped at the first trace they keep).
  private var unselected = Dataset()
  private var selected = false
  /// Per configuration, `--by` groups by name and in order of appearance.
  private var groupByName: [[String?: ConfigurationPartial]] = []
  private var groupOrder: [[String?]] = []

  init(
    _ request: ScoredStream.Request, plan makePlan: @escaping ([Double]) throws -> SweepPlan?, known: [Double]?,
    planFollowsData: Bool
  ) throws {
    precondition(
      !request.summaryOnly || (request.truths && !request.writesPartial && !request.keepSamples),
      "a summary-only read scores, writes no partial and keeps no samples")
    self.request = request
    if request.summaryOnly { state.summary = EvaluationSummary.Tally(by: request.by) }
    // A shard's traces, encoded as its partial writes them (second reads keep none).
    if request.writesPartial && request.keepsTraces { state.encoded = EncodedTraces() }
    self.makePlan = makePlan
    self.planFollowsData = planFollowsData
    self.known = known
    forces = Set(known ?? [])
    if let spool = request.spool, spool.isReadable {
      var reader = spool.reader(command: request.command)
      if request.threads > 1 {
        source = .spoolAhead(ReadAhead(size: request.batchTraces) { size in try reader.next(upTo: size) })
      } else {
        source = .spool(reader, batchTraces: request.batchTraces)
      }
      spooling = nil
    } else {
      source = .inputs(
        try BatchSource(
          request.input.paths, options: request.input.loadOptions, batchTraces: request.batchTraces,
          digests: request.writesPartial || request.hashesInputs, onBatch: request.onBatch,
          readAhead: request.threads > 1))
      spooling = request.spool.flatMap { $0.isComplete ? nil : $0 }
      spooling?.reset()
    }
  }

  /// Takes one batch through every stage.
  mutating func absorb(_ batch: Dataset) throws {
    var batch = batch
    var ordinals = account(&batch)
    select(&batch, &ordinals)
    try noteForces(batch)
    if !started { try start() }
    try narrow(&batch, &ordinals)
    if request.truths {
      try score(batch, ordinals)
    } else {
      try replayOnly(batch, ordinals)
    }
    request.progress?(loaded)
  }

  /// Makes the plan and the per-configuration state, once the maximum forces are known.
  private mutating func start() throws {
    started = true
    let plan = try makePlan((known ?? []).sorted())
    state.plan = plan
    configurations = plan?.configurations ?? []
    if request.sweep, let plan {
      let empty = try Evaluation(dataset: Dataset(), options: request.options).sweepPartial(plan, threads: 1)
      state.sweep = SpilledSweep(empty, spill: try LatencySpill())
    }
    switch request.outcomes {
    case .none: break
    case .all: state.outcomes = Array(repeating: OutcomeColumn(), count: configurations.count)
    case .allOnDisk: state.outcomeSpill = try OutcomeSpill(configurations: configurations.count)
    case .configurations(let list): state.outcomes = Array(repeating: OutcomeColumn(), count: list.count)
    case .replays(let list): state.outcomes = Array(repeating: OutcomeColumn(), count: list.count)
    }
    if request.by != nil {
      groupByName = Array(repeating: [:], count: configurations.count)
      groupOrder = Array(repeating: [], count: configurations.count)
    }
  }

  /// Adds the batch's files, warnings, overrides and load-skipped traces (those the shard owns
  /// kept with their place); returns the ordinals of its traces.
  private mutating func account(_ batch: inout Dataset) -> [Int] {
    state.files += batch.files
    state.diagnostics += batch.diagnostics
    state.labelOverrides += batch.labelOverrides
    state.overriddenTraces += batch.overriddenTraces
    for skip in batch.skipped {
      if ScoredStream.owns(request.shard, skip) {
        state.skipped.append(KeptSkip(stage: ScoredStream.Step.load.rawValue, ordinal: loadSkips, skipped: skip))
      }
      loadSkipped.append(skip)
      loadSkips += 1
    }
    batch.skipped = []
    defer { loaded += batch.traces.count }
    return Array(loaded..<(loaded + batch.traces.count))
  }

  /// The input's filters: left-out traces are skipped with the reason, as
  /// `Dataset.keep(matching:)` does.
  private mutating func select(_ batch: inout Dataset, _ ordinals: inout [Int]) {
    let filters = request.input.filters
    guard !filters.isEmpty else { return }
    if !selected {
      unselected.traces += batch.traces.map { Trace(metadata: $0.metadata, t: [], force: []) }
      unselected.origins += batch.origins
    }
    let before = batch.traces.count
    state.skip(&batch, &ordinals, step: .filter, shard: request.shard) { trace in
      filters.first { !$0.matches(trace) }.map { "not selected (\($0))" }
    }
    filteredOut += before - batch.traces.count
    if !selected && !batch.traces.isEmpty {
      selected = true
      unselected = Dataset()
    }
  }

  /// Adds the batch's maximum forces; a new one after the plan was made from others restarts
  /// the pass when the plan follows the data.
  private mutating func noteForces(_ batch: Dataset) throws {
    for trace in batch.traces { if let f = trace.metadata.maxForce { forces.insert(f) } }
    if known == nil { known = forces.sorted() }
    if planFollowsData && forces.count != known!.count { throw ScoredStream.Restart(forces: forces.sorted()) }
  }

  /// Traces the recognizers cannot replay (every trace is checked, so every shard stops at the
  /// same first one when strict, or skips them with the reason), then this shard's contacts,
  /// then the traces without the grouping label.
  private mutating func narrow(_ batch: inout Dataset, _ ordinals: inout [Int]) throws {
    if let needsMaximum = request.recognizers.first(where: { $0.requiresMaximumForce }) {
      if request.input.skipInvalid {
        state.skip(&batch, &ordinals, step: .maximumForce, shard: request.shard) {
          needsMaximum.unsupportedReason(for: $0)
        }
      } else if let k = batch.traces.firstIndex(where: { needsMaximum.unsupportedReason(for: $0) != nil }) {
        throw StudyError.maximumForce(
          batch, index: k, reason: needsMaximum.unsupportedReason(for: batch.traces[k]) ?? "")
      }
    }
    if request.shard.count > 1 {
      let mine = batch.traces.indices.filter { request.shard.contains(id: batch.traces[$0].metadata.id) }
      batch = Dataset(traces: mine.map { batch.traces[$0] }, origins: mine.map { batch.origins[$0] })
      ordinals = mine.map { ordinals[$0] }
    }
    if let key = request.groupBy {
      state.skip(&batch, &ordinals, step: .groupLabel, shard: .whole) {
        key.label(of: $0.metadata) == nil ? "no \(key) label (--group-by \(key))" : nil
      }
    }
  }

  /// Unlabelled traces (`run`): each replayed through the request's recognizer, and kept; with
  /// ``ScoredStream/Request/carriesState``, the traces of the session still open at the batch's
  /// end wait for the next batch.
  private mutating func replayOnly(_ batch: Dataset, _ ordinals: [Int]) throws {
    guard request.carriesState else { return try replay(batch, ordinals) }
    // The batch joins the open session's traces; what precedes the last session is closed.
    let waiting = openSession.traces.count
    let lastSession = batch.traces.last?.metadata.session
    var open = batch.traces.count
    while open > 0 && batch.traces[open - 1].metadata.session == lastSession { open -= 1 }
    // How many of the traces waiting, then the batch's, close: none when the whole batch
    // continues the open session.
    let continues = open == 0 && waiting > 0 && openSession.traces[waiting - 1].metadata.session == lastSession
    let closed = continues ? 0 : waiting + open
    openSession.traces += batch.traces
    openSession.origins += batch.origins
    openSession.ordinals += ordinals
    guard closed > 0 else { return }
    let traces = Array(openSession.traces[..<closed])
    let origins = Array(openSession.origins[..<closed])
    let closedOrdinals = Array(openSession.ordinals[..<closed])
    openSession.traces.removeFirst(closed)
    openSession.origins.removeFirst(closed)
    openSession.ordinals.removeFirst(closed)
    try replay(Dataset(traces: traces, origins: origins), closedOrdinals)
  }

  /// The session still open at the end of the last batch (``replayOnly(_:_:)``).
  private var openSession: (traces: [Trace], origins: [TraceOrigin], ordinals: [Int]) = ([], [], [])

  /// Replays `batch` (with ``ScoredStream/Request/carriesState``, whole sessions, each through
  /// one instance) and keeps its traces.
  private mutating func replay(_ batch: Dataset, _ ordinals: [Int]) throws {
    if let recognizer = request.replay {
      if request.carriesState {
        var start = 0
        let traces = batch.traces
        while start < traces.count {
          var end = start + 1
          while end < traces.count && traces[end].metadata.session == traces[start].metadata.session { end += 1 }
          state.replays += try recognizer.replay(traces: Array(traces[start..<end]), carryingState: true)
          start = end
        }
      } else {
        state.replays += try recognizer.replay(traces: batch.traces)
      }
    }
    try scoreReplayed(batch)
    for k in batch.traces.indices {
      try state.keep(
        batch.traces[k], origin: batch.origins[k], ordinal: ordinals[k], truth: nil, samples: request.keepSamples,
        keepsTraces: request.keepsTraces)
    }
  }

  /// Replayed traces scored too (`Outcomes.replays` without requiring truths: `run --outcomes`):
  /// the outcomes of those with a ground truth, which are noted (``ScoredStream/scoredTraces``)
  /// with their truths; the others are noted with the reason (``ScoredStream/unscored``).
  private mutating func scoreReplayed(_ batch: Dataset) throws {
    guard case .replays(let recognizers) = request.outcomes else { return }
    let resolved = resolvedTruths(batch.traces)
    var scored = batch
    scored.skipped = []
    var truths: [TraceTruth] = []
    var k = 0
    scored.skipTraces { _ in
      defer { k += 1 }
      switch resolved[k] {
      case .success(let truth):
        truths.append(truth)
        state.scoredTraces.append(state.analyzed + k)
        return nil
      case .failure(let error): return error.description
      }
    }
    state.unscored += scored.skipped
    let evaluation = Evaluation(dataset: scored, truths: truths, options: request.options)
    let base = state.truths.count
    state.truths += evaluation.truths
    for (slot, recognizer) in recognizers.enumerated() {
      var list = try evaluation.outcomes(of: recognizer, threads: request.threads)
      list.sort { $0.trace < $1.trace }
      for k in list.indices { list[k].trace += base }
      state.outcomes[slot].append(contentsOf: list)
    }
  }

  /// Each trace's ground truth, or why it has none (the reference rule runs on every thread).
  private func resolvedTruths(_ traces: [Trace]) -> [Result<TraceTruth, TruthError>] {
    let options = request.options
    return Parallel.map(count: traces.count, chunk: 16, threads: request.threads) { range in
      range.map { TraceTruth.resolve(traces[$0], options: options) }
    }.flatMap { $0 }
  }

  /// Ground truth of each trace (the reference rule runs on every thread; traces without one are
  /// skipped), then every configuration's sums and the outcomes asked for, and the traces kept.
  private mutating func score(_ batch: Dataset, _ ordinals: [Int]) throws {
    var batch = batch
    var ordinals = ordinals
    let traces = batch.traces
    let options = request.options
    let resolved = resolvedTruths(traces)
    var truths: [TraceTruth] = []
    var k = 0
    state.skip(&batch, &ordinals, step: .truth, shard: .whole) { _ in
      defer { k += 1 }
      switch resolved[k] {
      case .success(let truth):
        truths.append(truth)
        return nil
      case .failure(let error): return error.description
      }
    }
    let evaluation = Evaluation(dataset: batch, truths: truths, options: options)
    if !evaluation.traces.isEmpty {
      try sweep(evaluation)
      try replayOutcomes(evaluation)
    }
    spooling?.append(evaluation.traces, origins: evaluation.dataset.origins)
    for (k, trace) in evaluation.traces.enumerated() {
      try state.keep(
        trace, origin: evaluation.dataset.origins[k], ordinal: ordinals[k], truth: truths[k],
        samples: request.keepSamples, keepsTraces: request.keepsTraces, keepsTruths: request.keepsTruths,
        unit: request.keepsUnits ? request.groupBy.map { $0.label(of: trace.metadata) ?? "" } ?? trace.name : nil,
        labelOf: request.keepsLabels)
    }
  }

  /// Every configuration of the plan over the batch: its sums into the spilled sweep, and per
  /// trace into the `--by` groups and the outcome lists asked for.
  private mutating func sweep(_ evaluation: Evaluation) throws {
    guard request.sweep, let plan = state.plan else { return }
    // On disk: this batch's columns, numbered from its first trace, then written out.
    let onDisk = state.outcomeSpill != nil
    let base = onDisk ? 0 : state.analyzed
    var collected = Collected(
      groupByName: groupByName, groupOrder: groupOrder,
      outcomes: onDisk ? Array(repeating: OutcomeColumn(), count: configurations.count) : state.outcomes, base: base)
    groupByName = []
    groupOrder = []
    state.outcomes = []
    let wanted = request.by != nil || !collected.outcomes.isEmpty
    let (by, outcomes, configurations) = (request.by, request.outcomes, configurations)
    let part = try evaluation.sweepPartial(
      plan, threads: request.threads,
      perConfiguration: wanted
        ? { (c: Int, list: [TraceOutcome]) in
          collected.add(list, of: c, evaluation: evaluation, by: by, outcomes: outcomes, shape: configurations[c].shape)
        } : nil)
    (groupByName, groupOrder) = (collected.groupByName, collected.groupOrder)
    if let spill = state.outcomeSpill {
      for (c, column) in collected.outcomes.enumerated() { try spill.append(column, to: c) }
    } else {
      state.outcomes = collected.outcomes
    }
    try state.sweep!.absorb(part)
  }

  /// The per-trace outcomes of each configuration, gathered on the calling thread as the sweep
  /// hands them over.
  private struct Collected {
    var groupByName: [[String?: ConfigurationPartial]]
    var groupOrder: [[String?]]
    var outcomes: [OutcomeColumn]
    /// The analyzed traces kept before this batch (outcome indices are made global with it).
    let base: Int

    mutating func add(
      _ list: [TraceOutcome], of c: Int, evaluation: Evaluation, by: TraceFilter.Field?,
      outcomes kept: ScoredStream.Outcomes, shape: OutcomeShape
    ) {
      if let column = by {
        for outcome in list {
          let name = GroupBreakdown.label(evaluation.traces[outcome.trace].metadata, column)
          if groupByName[c][name] == nil {
            groupByName[c][name] = ConfigurationPartial(shape: shape)
            groupOrder[c].append(name)
          }
          groupByName[c][name]!.add(outcome, truth: evaluation.truths[outcome.trace])
        }
      }
      let slot: Int? =
        switch kept {
        case .none: nil
        case .all, .allOnDisk: c
        case .configurations(let list): list.firstIndex(of: c)
        case .replays: nil
        }
      if let slot {
        let ordered =
          zip(list, list.dropFirst()).allSatisfy { $0.trace < $1.trace } ? list : list.sorted { $0.trace < $1.trace }
        for var outcome in ordered {
          outcome.trace += base
          outcomes[slot].append(outcome)
        }
      }
    }
  }

  /// The outcomes of the recognizers the request replays (`Outcomes.replays`), each trace once
  /// per recognizer.
  private mutating func replayOutcomes(_ evaluation: Evaluation) throws {
    guard case .replays(let recognizers) = request.outcomes else { return }
    let base = state.analyzed
    var lists: [[TraceOutcome]] = []
    for recognizer in recognizers {
      var list = try evaluation.outcomes(of: recognizer, threads: request.threads)
      list.sort { $0.trace < $1.trace }
      lists.append(list)
    }
    request.onReplays?(evaluation.traces, evaluation.truths, lists)
    guard request.keepsReplays else { return }
    for (slot, var list) in lists.enumerated() {
      for k in list.indices { list[k].trace += base }
      state.outcomes[slot].append(contentsOf: list)
    }
  }

  /// What the pass kept: the groups, the maximum forces, the inputs' digests, the skipped traces
  /// in one load's order and what the filters did.
  mutating func finish() throws -> ScoredStream {
    if !started { try start() }  // no trace at all
    if !openSession.traces.isEmpty {
      let (traces, origins, ordinals) = openSession
      openSession = ([], [], [])
      try replay(Dataset(traces: traces, origins: origins), ordinals)
    }
    if let column = request.by {
      state.groups = GroupPartials(
        column: column.rawValue,
        configurations: configurations.indices.map { c in
          groupOrder[c].map { GroupPartials.GroupPartial(name: $0, partial: groupByName[c][$0]!) }
        })
    }
    state.maximumForces = forces.sorted()
    spooling?.complete()
    state.inputs = source.digests.map { StudyPartial.InputHash(file: $0.file, sha256: $0.sha256) }
    state.skipped.sort { ($0.stage, $0.ordinal) < ($1.stage, $1.ordinal) }
    state.loadSkipped = loadSkipped
    let filters = request.input.filters
    if !filters.isEmpty {
      unselected.files = state.files
      state.selection = FilterSelection(
        filters: filters, kept: loaded - filteredOut, leftOut: filteredOut,
        empty: selected ? nil : unselected.emptyingFilter(filters))
    }
    return state
  }
}

/// Where a pass's batches come from: the inputs, or the spool a first read wrote
/// (``AnalyzedSpool``), cut to the pass's batch size, read ahead on a thread of its own when the
/// pass scores on several (``ReadAhead``).
enum PassSource {
  case inputs(BatchSource)
  case spool(AnalyzedSpool.Reader, batchTraces: Int)
  case spoolAhead(ReadAhead)

  /// The next batch; `nil` at the end.
  ///
  /// - Throws: `TraceLoadError` from reading the inputs, ``StudyError`` from reading the spool.
  mutating func next() throws -> Dataset? {
    switch self {
    case .inputs(var source):
      defer { self = .inputs(source) }
      return try source.next()
    case .spool(var reader, let batchTraces):
      defer { self = .spool(reader, batchTraces: batchTraces) }
      return try reader.next(upTo: batchTraces)
    case .spoolAhead(let ahead):
      return try ahead.next()
    }
  }

  /// The SHA-256 of each input read to its end (``BatchSource/digests``); none from a spool.
  var digests: [(file: String, sha256: SHA256.Digest)] {
    switch self {
    case .inputs(let source): source.digests
    case .spool, .spoolAhead: []
    }
  }
}
