import TouchCore
import TouchEvaluation
import TouchIO
import TouchPartials
import TouchRecognizers
import TouchReports
import TouchTuning

/// The traces of a scoring command (`sweep`, `tune`, `compare`), read batch by batch and scored
/// as they come, keeping only what the report needs: the analyzed traces' metadata and truths
/// (not their samples, unless asked), the skipped traces, each configuration's sums and latency
/// lists, per-group partials and, when asked, per-trace outcomes. With a shard, only the shard's
/// contacts are scored (every trace is still read, so every shard knows the whole input's
/// accounting and maximum forces).
///
/// Skipped traces are kept with the step that skipped them and their place, and sorted at the
/// end, so the lists are those one pass over everything gives, whatever the batch size.
struct ScoredStream {
  /// What to keep per configuration besides its sums and latency lists.
  enum Outcomes {
    /// Nothing.
    case none
    /// Every configuration's per-trace outcomes.
    case all
    /// These configurations' per-trace outcomes, in this order.
    case configurations([Int])
    /// These recognizers' per-trace outcomes (each trace replayed once per recognizer).
    case replays([AnyForceRecognizer])
  }

  /// What to read and how to score it.
  struct Request {
    var input: InputOptions
    var shard: Shard = .whole
    /// The recognizers (traces they cannot replay are handled first).
    var recognizers: [AnyForceRecognizer]
    /// Traces without this label are skipped (the bootstrap's or cross-validation's unit).
    var groupBy: GroupKey?
    var options: EvaluationOptions
    var threads: Int
    var command: String
    /// Keep the analyzed traces' samples (for replays after the sweep: examples, outcomes
    /// files, bootstrap); memory then grows with the input.
    var keepSamples = false
    /// Per-group partials for `--by`.
    var by: TraceFilter.Field?
    var outcomes: Outcomes = .none
    /// Whether to score at all (`false`: only read and account, as `compare` does before
    /// replaying its two configurations).
    var sweep = true
    /// Traces per batch.
    var batchTraces = ScoredStream.defaultBatch
    /// Whether traces need a ground truth (`false` for `run`, which replays unlabelled traces
    /// too and scores nothing).
    var truths = true
    /// Each trace replayed through this recognizer (`run`), results kept in order.
    var replay: AnyForceRecognizer?
    /// Whether the result becomes a partial file (`--partial`), which records every input's
    /// SHA-256: only then are the inputs hashed as they are read.
    var writesPartial = false
    /// Whether every input's SHA-256 is computed as it is read (``inputs``) although no partial
    /// is written (`tune --export` records it in the code's provenance).
    var hashesInputs = false
  }

  /// Traces per batch by default: large enough that every thread has many chunks, small
  /// enough that a batch's samples and work stay a few tens of megabytes.
  static let defaultBatch = 16_384

  /// The analyzed traces: metadata only (whole when their time was synthesized, or when the
  /// request keeps samples), in input order, with their origins, truths and ordinals.
  var traces: [Trace] = []
  var origins: [TraceOrigin] = []
  var truths: [TraceTruth] = []
  var ordinals: [Int] = []
  var skipped: [KeptSkip] = []
  var files: [String] = []
  /// The SHA-256 of every input's content (the labels file first), for a partial.
  var inputs: [StudyPartial.InputHash] = []
  var diagnostics: [Diagnostic] = []
  var labelOverrides = 0
  var overriddenTraces = 0
  var maximumForces: [Double] = []
  /// Each configuration's sums, its latency lists on disk.
  var sweep: SpilledSweep?
  var groups: GroupPartials?
  var outcomes: [[TraceOutcome]] = []
  /// Each kept trace's replay (`Request.replay`).
  var replays: [ReplayResult] = []
  /// The plan the traces were scored with.
  var plan: SweepPlan?

  /// The steps that skip traces, in the order they run.
  enum Step: Int {
    case load = 0
    case filter, maximumForce, groupLabel, truth
  }

  /// Reads and scores every batch. `plan` is called with the maximum forces known so far; when
  /// a later batch brings a maximum force a default grid follows, the input is read again from
  /// the start with the larger set (never for standard input: that is an error).
  static func run(
    _ request: Request, plan makePlan: ([Double]) throws -> SweepPlan?, planFollowsData: Bool,
    progress: Progress? = nil
  ) throws -> ScoredStream {
    var known: [Double]?
    while true {
      do {
        return try once(request, plan: makePlan, known: known, planFollowsData: planFollowsData, progress: progress)
      } catch let restart as Restart {
        guard !request.input.paths.contains(TraceFiles.standardInput) else {
          throw DataError(
            description:
              "touchtrace \(request.command): error: a trace on standard input has the maximum force \(restart.forces.last ?? 0), which the default grids follow, after traces with others: give --vary (or --max-force-override with --max-force) or read the data from a file"
          )
        }
        known = restart.forces
      }
    }
  }

  /// A new maximum force after scoring began: read again with these.
  struct Restart: Error {
    var forces: [Double]
  }

  /// One pass over the input. The plan is made when the first batch is read, from the maximum
  /// forces `known` (a pass after a restart) or else those of that batch.
  private static func once(
    _ request: Request, plan makePlan: ([Double]) throws -> SweepPlan?, known: [Double]?, planFollowsData: Bool,
    progress: Progress?
  ) throws -> ScoredStream {
    var state = ScoredStream()
    var plan: SweepPlan?
    var configurations: [Configuration] = []
    var known = known
    var source = try BatchSource(
      request.input.paths, options: request.input.loadOptions, batchTraces: request.batchTraces,
      digests: request.writesPartial || request.hashesInputs)
    let filters = request.input.filters.compactMap(TraceFilter.init(parsing:))
    // The metadata of the traces read while --only has kept none, for its message if it never
    // does (dropped at the first trace it keeps).
    var selection = Dataset()
    var selected = false
    var forces = Set(known ?? [])
    var loadSkips = 0
    var loaded = 0
    var filteredOut = 0
    var loadSkipped: [SkippedTrace] = []
    let groupsWanted = request.by
    var groupByName: [[String?: ConfigurationPartial]] = []
    var groupOrder: [[String?]] = []
    // Whether the plan is made: at the first batch, from the forces of a restarted pass or else
    // those of that batch (a restarted pass knows its forces before it reads anything).
    var started = false
    /// Makes the plan and the per-configuration state, once the maximum forces are known.
    func start() throws {
      started = true
      plan = try makePlan((known ?? []).sorted())
      state.plan = plan
      configurations = plan?.configurations ?? []
      if request.sweep, let plan {
        let empty = try Evaluation(dataset: Dataset(), options: request.options).sweepPartial(plan, threads: 1)
        state.sweep = SpilledSweep(empty, spill: try LatencySpill())
      }
      switch request.outcomes {
      case .none: break
      case .all: state.outcomes = Array(repeating: [], count: configurations.count)
      case .configurations(let list): state.outcomes = Array(repeating: [], count: list.count)
      case .replays(let list): state.outcomes = Array(repeating: [], count: list.count)
      }
      if groupsWanted != nil {
        groupByName = Array(repeating: [:], count: configurations.count)
        groupOrder = Array(repeating: [], count: configurations.count)
      }
    }

    while var batch = try source.next() {
      state.files += batch.files
      state.diagnostics += batch.diagnostics
      state.labelOverrides += batch.labelOverrides
      state.overriddenTraces += batch.overriddenTraces
      for skip in batch.skipped {
        if Self.owns(request.shard, skip) {
          state.skipped.append(KeptSkip(stage: Step.load.rawValue, ordinal: loadSkips, skipped: skip))
        }
        loadSkipped.append(skip)
        loadSkips += 1
      }
      batch.skipped = []
      var ordinals = Array(loaded..<(loaded + batch.traces.count))
      loaded += batch.traces.count
      // --only: left-out traces are skipped with the reason, as Dataset.keep(matching:) does.
      if !filters.isEmpty {
        if !selected {
          selection.traces += batch.traces.map { Trace(metadata: $0.metadata, t: [], force: []) }
          selection.origins += batch.origins
        }
        let before = batch.traces.count
        state.skip(&batch, &ordinals, step: .filter, shard: request.shard) { trace in
          filters.first { !$0.matches(trace) }.map { "not selected (\($0))" }
        }
        filteredOut += before - batch.traces.count
        if !selected && !batch.traces.isEmpty {
          selected = true
          selection = Dataset()
        }
      }
      for trace in batch.traces { if let f = trace.metadata.maxForce { forces.insert(f) } }
      if known == nil { known = forces.sorted() }
      if planFollowsData && forces.count != known!.count { throw Restart(forces: forces.sorted()) }
      if !started { try start() }
      // Traces the recognizers cannot replay: every trace is checked, so every shard stops at the
      // same first one (strict), or skips them with the reason.
      if let needsMaximum = request.recognizers.first(where: { $0.requiresMaximumForce }) {
        if request.input.skipInvalid {
          state.skip(&batch, &ordinals, step: .maximumForce, shard: request.shard) {
            needsMaximum.unsupportedReason(for: $0)
          }
        } else if let k = batch.traces.firstIndex(where: { needsMaximum.unsupportedReason(for: $0) != nil }) {
          throw Scoring.maximumForceError(
            batch, index: k, reason: needsMaximum.unsupportedReason(for: batch.traces[k]) ?? "")
        }
      }
      // This shard's contacts only.
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
      if !request.truths {
        if let recognizer = request.replay { state.replays += try recognizer.replay(traces: batch.traces) }
        for k in batch.traces.indices {
          state.keep(
            batch.traces[k], origin: batch.origins[k], ordinal: ordinals[k], truth: nil, samples: request.keepSamples)
        }
        progress?.traces(loaded)
        continue
      }
      // Ground truth of each trace (the reference rule runs on every thread).
      let traces = batch.traces
      let options = request.options
      let resolved = Parallel.map(count: traces.count, chunk: 16, threads: request.threads) { range in
        range.map { TraceTruth.resolve(traces[$0], options: options) }
      }.flatMap { $0 }
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
      if request.sweep, let plan, !evaluation.traces.isEmpty {
        let base = state.traces.count
        var outcomes = state.outcomes
        state.outcomes = []
        let part = try evaluation.sweepPartial(
          plan, threads: request.threads,
          perConfiguration: groupsWanted == nil && outcomes.isEmpty
            ? nil
            : { (c: Int, list: [TraceOutcome]) in
              if let column = groupsWanted {
                for outcome in list {
                  let name = GroupBreakdown.label(evaluation.traces[outcome.trace].metadata, column)
                  if groupByName[c][name] == nil {
                    groupByName[c][name] = ConfigurationPartial(shape: configurations[c].shape)
                    groupOrder[c].append(name)
                  }
                  groupByName[c][name]!.add(outcome, truth: evaluation.truths[outcome.trace])
                }
              }
              let slot: Int? =
                switch request.outcomes {
                case .none: nil
                case .all: c
                case .configurations(let list): list.firstIndex(of: c)
                case .replays: nil
                }
              if let slot {
                for var outcome in list {
                  outcome.trace += base
                  outcomes[slot].append(outcome)
                }
              }
            })
        state.outcomes = outcomes
        try state.sweep!.absorb(part)
      }
      if case .replays(let recognizers) = request.outcomes, !evaluation.traces.isEmpty {
        let base = state.traces.count
        for (slot, recognizer) in recognizers.enumerated() {
          var list = try evaluation.outcomes(of: recognizer, threads: request.threads)
          list.sort { $0.trace < $1.trace }
          for k in list.indices { list[k].trace += base }
          state.outcomes[slot] += list
        }
      }
      for (k, trace) in evaluation.traces.enumerated() {
        state.keep(
          trace, origin: evaluation.dataset.origins[k], ordinal: ordinals[k], truth: truths[k],
          samples: request.keepSamples)
      }
      progress?.traces(loaded)
    }
    if !started { try start() }  // no trace at all
    if let column = groupsWanted {
      state.groups = GroupPartials(
        column: column.rawValue,
        configurations: configurations.indices.map { c in
          groupOrder[c].map { GroupPartials.GroupPartial(name: $0, partial: groupByName[c][$0]!) }
        })
    }
    state.maximumForces = forces.sorted()
    state.inputs = source.digests.map { StudyPartial.InputHash(file: $0.file, sha256: $0.sha256) }
    state.skipped.sort { ($0.stage, $0.ordinal) < ($1.stage, $1.ordinal) }
    // What loading says, once, in the order one load says it.
    Console.report(diagnostics: state.diagnostics, skipped: loadSkipped)
    var overrides = Dataset()
    overrides.labelOverrides = state.labelOverrides
    overrides.overriddenTraces = state.overriddenTraces
    Console.reportOverrides(overrides)
    if !filters.isEmpty {
      selection.files = state.files
      if !selected, let empty = selection.emptyingFilter(filters) { throw InputOptions.emptyFilterError(empty) }
      Console.diagnose(
        "note: --only \(filters.map(\.description).joined(separator: " --only ")) kept \(loaded - filteredOut) traces, left out \(filteredOut)"
      )
    }
    return state
  }

  /// Says on standard error why traces were skipped after loading: those no recognizer can
  /// replay with their first positions, then one line per other reason.
  func reportSkips(command: String) {
    Console.report(skipped: skipped.filter { $0.stage == Step.maximumForce.rawValue }.map(\.skipped))
    Scoring.summarize(skipped.filter { $0.stage > Step.maximumForce.rawValue }.map(\.skipped), command: command)
  }

  /// Keeps an analyzed trace: its metadata only, unless its samples are wanted or its time was
  /// synthesized (reports state the interval such traces share).
  private mutating func keep(_ trace: Trace, origin: TraceOrigin, ordinal: Int, truth: TraceTruth?, samples: Bool) {
    traces.append(samples || trace.metadata.timeSynthesized ? trace : Trace(metadata: trace.metadata, t: [], force: []))
    origins.append(origin)
    if let truth { truths.append(truth) }
    ordinals.append(ordinal)
  }

  /// The analyzed traces as a partial keeps them.
  var kept: [KeptTrace] {
    traces.indices.map { k in
      KeptTrace(ordinal: ordinals[k], trace: traces[k], origin: origins[k], truth: truths.isEmpty ? nil : truths[k])
    }
  }

  /// The dataset read: the analyzed traces (metadata only unless kept whole) and every skipped
  /// trace, in the order one load gives them.
  func dataset() -> Dataset {
    var dataset = Dataset(
      traces: traces, origins: origins, skipped: skipped.map(\.skipped), files: files, diagnostics: diagnostics)
    dataset.labelOverrides = labelOverrides
    dataset.overriddenTraces = overriddenTraces
    return dataset
  }

  /// Writes this shard's partial (with the command's scoring state) to `path`, through the
  /// outputs' checks (never over an input), and says what it holds on standard error.
  func writePartial(
    _ path: String, command: String, shard: Shard, sweep: SpilledSweep?, groups: GroupPartials?,
    outcomes: [[TraceOutcome]], inputs: [String]
  ) throws {
    let partial = StudyPartial(
      tool: "touchtrace \(TouchTraceVersion.current)", command: command, arguments: StudyFile.replayArguments(),
      shard: shard, maximumForces: maximumForces, files: files, inputs: self.inputs, diagnostics: diagnostics,
      labelOverrides: labelOverrides,
      overriddenTraces: overriddenTraces, traces: kept, skipped: skipped, sweep: try sweep?.materialized(),
      groups: groups,
      outcomes: outcomes,
      replays: replays)
    let bytes = partial.encoded()
    try Console.emit([(path, bytes)], inputs: inputs)
    Console.diagnose(
      "touchtrace \(command): note: shard \(shard): \(traces.count) analyzed traces, \(skipped.count) skipped; partial \(path): \(bytes.count) bytes"
    )
  }

  /// Skips the traces of `batch` `reason` gives a reason for, as `Dataset.skipTraces(where:)`
  /// does, keeping each skip (with `step` and the trace's ordinal) when `shard` owns it, and
  /// the ordinals of the traces left.
  private mutating func skip(
    _ batch: inout Dataset, _ ordinals: inout [Int], step: Step, shard: Shard, reason: (Trace) -> String?
  ) {
    var left: [Int] = []
    var k = 0
    let before = batch.skipped.count
    var skippedOrdinals: [Int] = []
    batch.skipTraces { trace in
      defer { k += 1 }
      guard let why = reason(trace) else {
        left.append(ordinals[k])
        return nil
      }
      skippedOrdinals.append(ordinals[k])
      return why
    }
    for (i, skip) in batch.skipped[before...].enumerated() where shard.contains(id: Self.id(of: skip)) {
      skipped.append(KeptSkip(stage: step.rawValue, ordinal: skippedOrdinals[i], skipped: skip))
    }
    batch.skipped.removeSubrange(before...)
    ordinals = left
  }

  /// Whether `shard` keeps a trace skipped while loading (by its name's id; nameless records go
  /// to shard 0).
  private static func owns(_ shard: Shard, _ skip: SkippedTrace) -> Bool {
    guard shard.count > 1 else { return true }
    guard skip.trace != nil else { return shard.index == 0 }
    return shard.contains(id: id(of: skip))
  }

  /// The trace id a skip's name starts with (`id#touch` → `id`).
  private static func id(of skip: SkippedTrace) -> String {
    guard let name = skip.trace else { return "" }
    if let hash = name.lastIndex(of: "#"), name[name.index(after: hash)...].allSatisfy(\.isNumber) {
      return String(name[..<hash])
    }
    return name
  }
}
