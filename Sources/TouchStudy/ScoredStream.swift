public import TouchCore
public import TouchEvaluation
import TouchIO
public import TouchPartials
public import TouchRecognizers
import TouchReports
public import TouchTuning

/// The traces of a scoring command (`sweep`, `tune`, `compare`), read batch by batch and scored
/// as they come, keeping only what the report needs: the analyzed traces' metadata and truths
/// (not their samples, unless asked), the skipped traces, each configuration's sums and latency
/// lists, per-group partials and, when asked, per-trace outcomes. With a shard, only the shard's
/// contacts are scored (every trace is still read, so every shard knows the whole input's
/// accounting and maximum forces).
///
/// Skipped traces are kept with the step that skipped them and their place, and sorted at the
/// end, so the lists are those one pass over everything gives, whatever the batch size.
///
/// It prints nothing: what loading said (``diagnostics``, ``loadSkipped``, the label overrides,
/// ``selection``) is in the result for the caller to report.
///
/// ```swift
/// let request = ScoredStream.Request(
///   input: StudyInput(paths: ["samples/"]), recognizers: [], options: EvaluationOptions(), threads: 2,
///   command: "study", sweep: false)
/// let stream = try ScoredStream.run(request, plan: { _ in nil }, planFollowsData: false)
/// print(stream.traces.count, "analyzed,", stream.skipped.count, "skipped")
/// ```
public struct ScoredStream {
  /// What to keep per configuration besides its sums and latency lists.
  public enum Outcomes {
    /// Nothing.
    case none
    /// Every configuration's per-trace outcomes.
    case all
    /// Every configuration's per-trace outcomes, on disk (``ScoredStream/outcomeSpill``): each
    /// batch's are written as they come, and memory holds one batch's.
    case allOnDisk
    /// These configurations' per-trace outcomes, in this order.
    case configurations([Int])
    /// These recognizers' per-trace outcomes (each trace replayed once per recognizer).
    case replays([AnyForceRecognizer])
  }

  /// What to read and how to score it.
  public struct Request {
    /// The traces to read.
    public var input: StudyInput
    /// The part of the contacts scored (every trace is still read).
    public var shard: Shard
    /// The recognizers (traces they cannot replay are handled first).
    public var recognizers: [AnyForceRecognizer]
    /// Traces without this label are skipped (the bootstrap's or cross-validation's unit).
    public var groupBy: GroupKey?
    /// How traces are scored (positives, tolerance, reference rule).
    public var options: EvaluationOptions
    /// Threads for scoring (the result does not depend on it).
    public var threads: Int
    /// The command's name, for messages (`touchtrace COMMAND: error: …`).
    public var command: String
    /// Keep the analyzed traces' samples (for replays after the sweep: examples, outcomes
    /// files, bootstrap); memory then grows with the input.
    public var keepSamples = false
    /// Per-group partials for `--by`.
    public var by: TraceFilter.Field?
    /// What to keep per configuration besides its sums and latency lists.
    public var outcomes: Outcomes = .none
    /// Whether to score at all (`false`: only read and account, as `compare` does before
    /// replaying its two configurations).
    public var sweep = true
    /// Traces per batch.
    public var batchTraces = ScoredStream.defaultBatch
    /// Whether traces need a ground truth (`false` for `run`, which replays unlabelled traces
    /// too and scores nothing).
    public var truths = true
    /// Each trace replayed through this recognizer (`run`), results kept in order.
    public var replay: AnyForceRecognizer?
    /// With ``replay``, each session (consecutive traces with the same `session`) replayed
    /// through one instance that carries its state from trace to trace (`run --carry-state`): a
    /// session's traces wait, across batches, for the rest of their session, so memory holds a
    /// batch and the longest session.
    public var carriesState = false
    /// Whether the result becomes a partial file (`--partial`), which records every input's
    /// SHA-256: only then are the inputs hashed as they are read.
    public var writesPartial = false
    /// Whether every input's SHA-256 is computed as it is read (``inputs``) although no partial
    /// is written (`tune --export` records it in the code's provenance).
    public var hashesInputs = false
    /// Whether the analyzed traces' metadata, origins, truths and ordinals are kept (``traces``
    /// and the lists beside it). `false` keeps only a hash of each trace's name
    /// (``nameDigests``): for a second read that only replays, whose traces a first read kept.
    public var keepsTraces = true
    /// Whether only what the reports count of the analyzed traces is kept (``summary``): no
    /// metadata, origin, truth or ordinal per trace, so memory does not grow with their number
    /// but for each trace's reference times, kept compactly for the JSON report. For a report
    /// that lists or replays no trace (a sweep's Markdown, JSON or CSV); not with a partial,
    /// outcomes or a replay.
    public var summaryOnly = false
    /// With ``keepsTraces`` `false`, whether each analyzed trace's truth is kept besides its
    /// name's hash (``truths``): for a second read whose first kept only a summary.
    public var keepsTruths = false
    /// Receives each batch's replays (``Outcomes/replays(_:)``) while its samples are in memory:
    /// the batch's analyzed traces, their truths and, per recognizer, their outcomes in trace
    /// order, numbered within the batch (for what is chosen among the traces as they pass, such
    /// as a report's example traces); `nil` for none.
    public var onReplays: ((_ traces: [Trace], _ truths: [TraceTruth], _ outcomes: [[TraceOutcome]]) -> Void)?
    /// Whether the replays' outcomes are kept (``ScoredStream/outcomes``); `false` when
    /// ``onReplays`` takes all it needs.
    public var keepsReplays = true
    /// With ``summaryOnly`` or without ``keepsTraces``, whether each analyzed trace's truth
    /// (``truths``) and resampling unit (``units``: its ``groupBy`` label, else its name) are
    /// kept: for resampling and cross-validation without each trace's metadata (`tune`,
    /// `compare`, a second read for the bootstrap or the verdict).
    public var keepsUnits = false
    /// With ``keepsUnits``, each analyzed trace's value of this label column is kept too
    /// (``labels``, `nil` for a trace without it): for `--by` without each trace's metadata.
    public var keepsLabels: TraceFilter.Field?
    /// Where the analyzed traces are spooled, whole, for second reads (``AnalyzedSpool``): a
    /// read with a spool that is not complete yet writes every trace it analyzes there; a read
    /// whose spool is complete (a second read, ``replaying(_:)``) reads the spool instead of the
    /// inputs, when it holds them (else the inputs again). `nil`: no spool.
    public var spool: AnalyzedSpool?
    /// Receives a line saying what each batch holds (`--verbose`); `nil` for none.
    public var onBatch: ((String) -> Void)?
    /// Receives the number of traces read after each batch; `nil` for none.
    public var progress: ((Int) -> Void)?

    /// A request to read `input` and score it with `recognizers` (each parameter is the field of
    /// the same name).
    public init(
      input: StudyInput, shard: Shard = .whole, recognizers: [AnyForceRecognizer], groupBy: GroupKey? = nil,
      options: EvaluationOptions, threads: Int, command: String, keepSamples: Bool = false,
      by: TraceFilter.Field? = nil, outcomes: Outcomes = .none, sweep: Bool = true,
      batchTraces: Int = ScoredStream.defaultBatch, truths: Bool = true, replay: AnyForceRecognizer? = nil,
      writesPartial: Bool = false, hashesInputs: Bool = false
    ) {
      self.input = input
      self.shard = shard
      self.recognizers = recognizers
      self.groupBy = groupBy
      self.options = options
      self.threads = threads
      self.command = command
      self.keepSamples = keepSamples
      self.by = by
      self.outcomes = outcomes
      self.sweep = sweep
      self.batchTraces = batchTraces
      self.truths = truths
      self.replay = replay
      self.writesPartial = writesPartial
      self.hashesInputs = hashesInputs
    }
  }

  /// Traces per batch by default: large enough that every thread has many chunks, small
  /// enough that a batch's samples and work stay a few tens of megabytes.
  public static let defaultBatch = 16_384

  /// The analyzed traces: metadata only (whole when their time was synthesized, or when the
  /// request keeps samples), in input order, with their origins, truths and ordinals.
  public internal(set) var traces: [Trace] = []
  /// Where each analyzed trace was read.
  public internal(set) var origins: [TraceOrigin] = []
  /// Each analyzed trace's ground truth (empty when the request needs none, or keeps neither
  /// traces nor truths: ``Request/keepsTruths``, ``Request/keepsUnits``).
  public internal(set) var truths: [TraceTruth] = []
  /// Each analyzed trace's resampling unit (``Request/keepsUnits``): its ``Request/groupBy``
  /// label, else its name; empty otherwise.
  public internal(set) var units: [String] = []
  /// Each analyzed trace's value of ``Request/keepsLabels`` (with ``Request/keepsUnits``);
  /// empty otherwise.
  public internal(set) var labels: [String?] = []
  /// Each analyzed trace's place among the traces read.
  public internal(set) var ordinals: [Int] = []
  /// A read writing a partial (``Request/writesPartial``): the analyzed traces as the partial
  /// writes them, encoded as they are read, instead of kept in ``traces``, ``origins``,
  /// ``truths`` and ``ordinals`` (about 160 bytes a contact instead of about 1 KB).
  package internal(set) var encoded: EncodedTraces?
  /// How many traces were analyzed (kept or not).
  public internal(set) var analyzed = 0
  /// What the reports count of the analyzed traces, when the request keeps only that
  /// (``Request/summaryOnly``; with group sizes by ``Request/by``).
  public internal(set) var summary: EvaluationSummary.Tally?
  /// Each analyzed trace's name hashed (`FNV1a` of its UTF-8), in input order, when the request
  /// does not keep traces (``Request/keepsTraces``); empty otherwise.
  public internal(set) var nameDigests: [UInt64] = []
  /// The skipped traces this shard owns, with the step that skipped them, in one load's order.
  public internal(set) var skipped: [KeptSkip] = []
  /// The files read.
  public internal(set) var files: [String] = []
  /// The SHA-256 of every input's content (the labels file first), for a partial.
  public internal(set) var inputs: [StudyPartial.InputHash] = []
  /// The loader's warnings.
  public internal(set) var diagnostics: [Diagnostic] = []
  /// Every trace the loader skipped (all shards'), in input order, for reporting.
  public internal(set) var loadSkipped: [SkippedTrace] = []
  /// Labels replaced by an overrides file, and the traces they belong to.
  public internal(set) var labelOverrides = 0
  public internal(set) var overriddenTraces = 0
  /// The distinct maximum possible forces of the input, ascending.
  public internal(set) var maximumForces: [Double] = []
  /// Each configuration's sums, its latency lists on disk.
  public internal(set) var sweep: SpilledSweep?
  /// Per-group partials (`Request.by`).
  public internal(set) var groups: GroupPartials?
  /// The per-trace outcomes asked for (`Request.outcomes`), one column per slot, in trace order.
  public internal(set) var outcomes: [OutcomeColumn] = []
  /// Every configuration's per-trace outcomes on disk (`Outcomes.allOnDisk`), read back one
  /// configuration at a time.
  public internal(set) var outcomeSpill: OutcomeSpill?
  /// Each kept trace's replay (`Request.replay`).
  public internal(set) var replays: [ReplayResult] = []
  /// A replay that scores too (`Request.replay` with `Outcomes.replays` and no truth required:
  /// `run --outcomes`): the positions among ``traces`` of the traces with a ground truth, in
  /// order; ``truths`` and ``outcomes`` follow them.
  public internal(set) var scoredTraces: [Int] = []
  /// With ``scoredTraces``, the traces without a ground truth, each with the reason, in order.
  public internal(set) var unscored: [SkippedTrace] = []
  /// The plan the traces were scored with.
  public internal(set) var plan: SweepPlan?
  /// What the input's filters did; `nil` without filters.
  public internal(set) var selection: FilterSelection?

  /// The steps that skip traces, in the order they run (TouchPartials' `KeptSkip.stage`).
  public enum Step: Int, Sendable {
    case load = 0
    case filter, maximumForce, groupLabel, truth
  }

  /// Reads and scores every batch. `plan` is called with the maximum forces known so far; when
  /// a later batch brings a maximum force a default grid follows, the input is read again from
  /// the start with the larger set (never for standard input: that is an error).
  ///
  /// - Throws: `TraceLoadError` from reading, ``StudyError`` for data the study cannot use,
  ///   `ReplayError` from a replay, and what `plan` throws.
  public static func run(
    _ request: Request, plan makePlan: ([Double]) throws -> SweepPlan?, planFollowsData: Bool
  ) throws -> ScoredStream {
    var known: [Double]?
    while true {
      do {
        return try withoutActuallyEscaping(makePlan) { makePlan in
          try once(request, plan: makePlan, known: known, planFollowsData: planFollowsData)
        }
      } catch let restart as Restart {
        guard !request.input.paths.contains(TraceFiles.standardInput) else {
          throw StudyError(
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

  /// One pass over the input (``StreamPass``). The plan is made when the first batch is read,
  /// from the maximum forces `known` (a pass after a restart) or else those of that batch.
  private static func once(
    _ request: Request, plan makePlan: @escaping ([Double]) throws -> SweepPlan?, known: [Double]?,
    planFollowsData: Bool
  ) throws -> ScoredStream {
    var pass = try StreamPass(request, plan: makePlan, known: known, planFollowsData: planFollowsData)
    while let batch = try pass.source.next() {
      try pass.absorb(consume batch)
      FreedMemory.release()
    }
    return try pass.finish()
  }

  /// Keeps an analyzed trace: its metadata only, unless its samples are wanted or its time was
  /// synthesized (reports state the interval such traces share); only its name's hash when the
  /// request keeps no traces.
  ///
  /// - Throws: `LatencySpill.Failure` when a shard's encoded traces cannot go to their file.
  mutating func keep(
    _ trace: Trace, origin: TraceOrigin, ordinal: Int, truth: TraceTruth?, samples: Bool, keepsTraces: Bool,
    keepsTruths: Bool = false, unit: String? = nil, labelOf column: TraceFilter.Field? = nil
  ) throws(LatencySpill.Failure) {
    analyzed += 1
    if summary != nil, let truth {
      summary!.add(trace, truth: truth)
      if let unit {
        truths.append(truth)
        units.append(unit)
        if let column { labels.append(GroupBreakdown.label(trace.metadata, column)) }
      }
      return
    }
    guard keepsTraces else {
      nameDigests.append(FNV1a.hash(trace.name.utf8))
      if keepsTruths || unit != nil, let truth { truths.append(truth) }
      if let unit { units.append(unit) }
      return
    }
    if encoded != nil {
      try encoded!.append(KeptTrace(ordinal: ordinal, trace: trace, origin: origin, truth: truth))
      return
    }
    traces.append(samples || trace.metadata.timeSynthesized ? trace : Trace(metadata: trace.metadata, t: [], force: []))
    origins.append(origin)
    if let truth { truths.append(truth) }
    ordinals.append(ordinal)
  }

  /// The analyzed traces as a partial keeps them.
  public var kept: [KeptTrace] {
    traces.indices.map { k in
      KeptTrace(ordinal: ordinals[k], trace: traces[k], origin: origins[k], truth: truths.isEmpty ? nil : truths[k])
    }
  }

  /// The dataset read: the analyzed traces (metadata only unless kept whole) and every skipped
  /// trace, in the order one load gives them.
  public func dataset() -> Dataset {
    var dataset = Dataset(
      traces: traces, origins: origins, skipped: skipped.map(\.skipped), files: files, diagnostics: diagnostics)
    dataset.labelOverrides = labelOverrides
    dataset.overriddenTraces = overriddenTraces
    return dataset
  }

  /// Skips the traces of `batch` `reason` gives a reason for, as `Dataset.skipTraces(where:)`
  /// does, keeping each skip (with `step` and the trace's ordinal) when `shard` owns it, and
  /// the ordinals of the traces left.
  mutating func skip(
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
  static func owns(_ shard: Shard, _ skip: SkippedTrace) -> Bool {
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

extension ScoredStream.Request {
  /// Whether the request reads standard input (its traces or its labels), which cannot be read
  /// a second time.
  public var readsOnce: Bool { input.readsOnce }

  /// Whether a second read of the request's traces can be made once its read ends: from its
  /// spool when one holds them, else from its inputs unless they are read once.
  public var canReadAgain: Bool { spool?.isReadable == true || !readsOnce }

  /// Whether a second read of the request will have its traces: it has a spool that has not
  /// failed yet, or inputs that can be read again. Known before the first read ends (to decide
  /// whether that read must keep its samples instead).
  public var willReadAgain: Bool { (spool != nil && spool?.failure == nil) || !readsOnce }

  /// A second read of the same inputs, with the same recognizers (which decide the traces
  /// skipped for lacking a maximum force), filters, shard and grouping label, that only replays
  /// `recognizers` (`Outcomes.replays`): no sweep, no samples, no partial, no `--by` groups, and
  /// of each trace its name's hash (``ScoredStream/nameDigests``), to check it read the same
  /// traces as the first; its replays are kept and go to no ``onReplays`` until it is set. It
  /// reads the first read's spool when that holds the traces (``spool``).
  public func replaying(_ recognizers: [AnyForceRecognizer]) -> ScoredStream.Request {
    var second = self
    second.sweep = false
    second.outcomes = .replays(recognizers)
    second.onReplays = nil
    second.keepsUnits = false
    second.keepsLabels = nil
    second.keepsReplays = true
    second.keepSamples = false
    second.keepsTraces = false
    second.keepsTruths = false
    second.summaryOnly = false
    second.by = nil
    second.writesPartial = false
    // The spool the first read wrote (read if whole, else the inputs are); a spool no read
    // completed (merging partials reads no input first) is not one to write now.
    if second.spool?.isComplete != true { second.spool = nil }
    return second
  }
}
