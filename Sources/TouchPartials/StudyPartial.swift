public import TouchCore
public import TouchEvaluation
public import TouchRecognizers

/// An analyzed trace as a partial keeps it: what reports read (metadata, origin, ground truth),
/// not its samples.
public struct KeptTrace: Sendable, Hashable {
  /// The trace's place among all traces loaded (every shard counts every trace it reads), which
  /// orders the merged traces as one run over all the data orders them.
  public var ordinal: Int
  /// The trace's metadata.
  public var metadata: TraceMetadata
  /// Where the trace was read.
  public var origin: TraceOrigin
  /// Its ground truth (`nil` for `run`, which scores nothing).
  public var truth: TraceTruth?

  /// A kept trace.
  ///
  /// - Parameters:
  ///   - ordinal: the trace's place among all traces loaded.
  ///   - metadata: its metadata.
  ///   - origin: where it was read.
  ///   - truth: its ground truth (`nil` when nothing is scored).
  public init(ordinal: Int, metadata: TraceMetadata, origin: TraceOrigin, truth: TraceTruth?) {
    self.ordinal = ordinal
    self.metadata = metadata
    self.origin = origin
    self.truth = truth
  }

  /// The samples of a trace whose time was synthesized (`import --interval`): reports state
  /// the interval those traces share, which comes from their samples. `nil` for other traces.
  public var synthesizedSamples: Trace? {
    get { synthesized.first }
    set { synthesized = newValue.map { [$0] } ?? [] }
  }
  /// ``synthesizedSamples``, held in an array: 8 bytes, empty for nearly every trace, where an
  /// optional `Trace` takes its whole size inline even when `nil` (merge holds every partial's
  /// kept traces at once).
  private var synthesized: [Trace] = []

  /// The fewest bytes a kept trace is written in: its ordinal (8); the metadata's id, touch,
  /// press times and labels counts (8 each) and its five optional fields' and one flag's bytes;
  /// the origin's file count (8) and two optional fields' bytes; the truth's and the samples'
  /// optional bytes. A count of kept traces is checked against it, and reserved whole.
  static let minimumEncodedSize = 8 + (4 * 8 + 6) + (8 + 2) + 2

  /// The trace for reports: without samples (reports read only metadata), except a trace
  /// with synthesized time, kept whole.
  public var hollowTrace: Trace { synthesizedSamples ?? Trace(metadata: metadata, t: [], force: []) }

  /// The trace as a partial keeps it: metadata only, or whole when its time was synthesized.
  ///
  /// - Parameters:
  ///   - ordinal: the trace's place among all traces loaded.
  ///   - trace: the trace.
  ///   - origin: where it was read.
  ///   - truth: its ground truth (`nil` when nothing is scored).
  public init(ordinal: Int, trace: Trace, origin: TraceOrigin, truth: TraceTruth?) {
    self.init(ordinal: ordinal, metadata: trace.metadata, origin: origin, truth: truth)
    if trace.metadata.timeSynthesized { synthesizedSamples = trace }
  }
}

/// A trace left out, with the step that left it out and its place, so merged lists keep the
/// order of one run.
public struct KeptSkip: Sendable, Hashable {
  /// The step that skipped it (0: loading; higher: later steps, in the order they run).
  public var stage: Int
  /// Its place among the traces that step saw (loading: among skipped records).
  public var ordinal: Int
  /// The trace and reason.
  public var skipped: SkippedTrace

  /// A kept skip.
  ///
  /// - Parameters:
  ///   - stage: the step that skipped it.
  ///   - ordinal: its place in that step.
  ///   - skipped: the trace and reason.
  public init(stage: Int, ordinal: Int, skipped: SkippedTrace) {
    self.stage = stage
    self.ordinal = ordinal
    self.skipped = skipped
  }
}

/// Per-group partials of every configuration (`--by COLUMN`).
public struct GroupPartials: Sendable, Hashable {
  /// The column (user, device, …).
  public var column: String
  /// For each configuration, each group's partial, keyed by the group's label (`nil`: no label).
  public var configurations: [[GroupPartial]]

  /// One group's partial.
  public struct GroupPartial: Sendable, Hashable {
    /// The group's label; `nil` for traces without one.
    public var name: String?
    /// Its partial.
    public var partial: ConfigurationPartial

    /// A group's partial.
    ///
    /// - Parameters:
    ///   - name: the label.
    ///   - partial: the partial.
    public init(name: String?, partial: ConfigurationPartial) {
      self.name = name
      self.partial = partial
    }
  }

  /// Group partials of a column.
  ///
  /// - Parameters:
  ///   - column: the column.
  ///   - configurations: per configuration, per group.
  public init(column: String, configurations: [[GroupPartial]]) {
    self.column = column
    self.configurations = configurations
  }

  /// Adds `other`'s groups (other traces) to these.
  public mutating func merge(_ other: GroupPartials) {
    precondition(other.configurations.count == configurations.count, "group partials of the same plan")
    for c in configurations.indices {
      for group in other.configurations[c] {
        if let k = configurations[c].firstIndex(where: { $0.name == group.name }) {
          configurations[c][k].partial.merge(group.partial)
        } else {
          configurations[c].append(group)
        }
      }
    }
  }
}

/// Everything a shard of `sweep`, `tune`, `compare` or `run` (or a batch of a stream) needs to
/// hand over so that merging all of them gives the report one run over all the data gives, bit
/// for bit: the run's identity (tool, command, arguments), the load's accounting, the analyzed
/// traces without samples, the skipped ones, and the scoring state — per-configuration sums and
/// latency lists, per-group partials, and per-trace outcomes where the report needs them
/// (tune's cross-validation and bootstrap, compare's pairing).
///
/// Stored as a versioned little-endian binary file (``encoded()``, ``init(decoding:file:)``);
/// doubles keep their exact bits. The file ends with the SHA-256 of everything before it, and
/// records the SHA-256 of every input's content (``inputs``), so that a damaged file is refused
/// and so are shards run on other contents under the same names. Reading checks the checksum,
/// then bounds every length by the bytes left and checks every count against the others (see
/// ``init(decoding:file:)``): no file, damaged or forged, makes a merge crash or allocate more
/// than its size implies.
public struct StudyPartial: Sendable {
  /// The first bytes of every partial file.
  public static let magic = Array("touchtrace partial\n".utf8)
  /// The format version this build writes and reads: 2 adds the input hashes and the checksum;
  /// 3 each trace's lift-off time (misfires per minute of contact).
  public static let formatVersion = 3
  /// The most shards a job may have (a partial declaring more is damaged): merging keeps a list
  /// per shard.
  public static let maximumShards = 1 << 20

  /// An input's name and the SHA-256 of its content (of the bytes read, for standard input).
  public struct InputHash: Sendable, Hashable {
    /// The file as messages name it (`<stdin>` for standard input).
    public var file: String
    /// The SHA-256 of its bytes.
    public var sha256: SHA256.Digest

    /// An input's hash.
    ///
    /// - Parameters:
    ///   - file: the file's name.
    ///   - sha256: the SHA-256 of its content.
    public init(file: String, sha256: SHA256.Digest) {
      self.file = file
      self.sha256 = sha256
    }
  }

  /// The tool that wrote it (`touchtrace VERSION`).
  public var tool: String
  /// The command (`sweep`, `tune`, `compare`, `run`).
  public var command: String
  /// The command's arguments, study files expanded, without outputs, threads and the shard
  /// options: equal in every partial of one job.
  public var arguments: [String]
  /// This partial's shard.
  public var shard: Shard
  /// The maximum possible forces (force units) the default grids followed.
  public var maximumForces: [Double]
  /// The files read, in order (the same in every shard).
  public var files: [String]
  /// The SHA-256 of every input read (the labels file first, when there is one), in order:
  /// the same in every shard of one job.
  public var inputs: [InputHash]
  /// The load's diagnostics (the same in every shard).
  public var diagnostics: [Diagnostic]
  /// Labels the labels file replaced and traces it changed (every shard counts every trace).
  public var labelOverrides: Int
  /// Traces whose labels the labels file changed.
  public var overriddenTraces: Int
  /// The shard's analyzed traces, by ``KeptTrace/ordinal``.
  public var traces: [KeptTrace]
  /// The shard's analyzed traces encoded as they were read, written instead of ``traces`` (a
  /// shard keeps them so, not as values); `nil` in a partial read from a file.
  package var encodedTraces: EncodedTraces?
  /// The shard's skipped traces.
  public var skipped: [KeptSkip]
  /// Per-configuration sums and latency lists over ``traces``.
  public var sweep: SweepPartial?
  /// Per-group partials (`--by`).
  public var groups: GroupPartials?
  /// Per-trace outcomes: one list per configuration (tune) or compared configuration
  /// (compare), each outcome's `trace` an index into ``traces``. Empty in a partial that
  /// `merge` read, which keeps them as compact columns on disk (package-internal).
  public var outcomes: [[TraceOutcome]]
  /// Per-trace replays (`run`), parallel to ``traces``.
  public var replays: [ReplayResult]
  /// Per-trace outcomes kept as columns instead of ``outcomes``, one per list, read one at a
  /// time: a shard's as it writes its partial (on disk or in memory, never every
  /// configuration's `TraceOutcome` list at once), and what ``init(reading:spill:piece:)`` wrote
  /// to its spill (9–13 bytes an outcome on disk, against about 120 bytes and two arrays as a
  /// list); `nil` otherwise.
  package var outcomeColumns: OutcomeColumns?

  /// The number of per-trace outcome lists, however they are kept.
  package var outcomeListCount: Int { outcomeColumns?.count ?? outcomes.count }

  /// A partial.
  ///
  /// - Parameters:
  ///   - tool: the tool's name and version.
  ///   - command: the command.
  ///   - arguments: its arguments (no outputs, threads or shard options).
  ///   - shard: the shard.
  ///   - maximumForces: the maximum forces the plan followed, force units.
  ///   - files: the files read.
  ///   - inputs: the SHA-256 of every input's content.
  ///   - diagnostics: the load's diagnostics.
  ///   - labelOverrides: labels replaced by a labels file.
  ///   - overriddenTraces: traces whose labels it changed.
  ///   - traces: the analyzed traces.
  ///   - skipped: the skipped traces.
  ///   - sweep: the per-configuration partial.
  ///   - groups: per-group partials.
  ///   - outcomes: per-trace outcome lists.
  ///   - replays: per-trace replays (`run`), parallel to `traces`.
  public init(
    tool: String, command: String, arguments: [String], shard: Shard, maximumForces: [Double], files: [String],
    inputs: [InputHash] = [], diagnostics: [Diagnostic], labelOverrides: Int, overriddenTraces: Int,
    traces: [KeptTrace], skipped: [KeptSkip],
    sweep: SweepPartial?, groups: GroupPartials?, outcomes: [[TraceOutcome]], replays: [ReplayResult] = []
  ) {
    self.tool = tool
    self.command = command
    self.arguments = arguments
    self.shard = shard
    self.maximumForces = maximumForces
    self.files = files
    self.inputs = inputs
    self.diagnostics = diagnostics
    self.labelOverrides = labelOverrides
    self.overriddenTraces = overriddenTraces
    self.traces = traces
    self.skipped = skipped
    self.sweep = sweep
    self.groups = groups
    self.outcomes = outcomes
    self.replays = replays
  }

  /// The file's bytes, ending with the SHA-256 of all that comes before.
  ///
  /// - Precondition: no ``encodedTraces`` (a shard's, possibly in a temporary file, whose read
  ///   can fail: ``write(_:)`` says so instead).
  public func encoded() -> [UInt8] {
    precondition(encodedTraces == nil, "a shard's encoded traces are written with write(_:)")
    var bytes: [UInt8] = []
    // Appending to memory cannot fail, and traces kept as values are not read from a file.
    try! write { bytes += $0 }
    return bytes
  }

  /// Hands the file's bytes to `emit` in order, a run at a time (the SHA-256 of all before it
  /// last), holding at most a run besides the partial: a shard's encoded traces come from their
  /// temporary file (``encodedTraces``).
  ///
  /// - Throws: ``LatencySpill/Failure`` when the encoded traces cannot be read back, what
  ///   ``outcomeColumns`` throws, and what `emit` throws.
  package func write(_ emit: ([UInt8]) throws -> Void) throws {
    var hash = SHA256()
    func out(_ bytes: [UInt8]) throws {
      hash.update(bytes)
      try emit(bytes)
    }
    var w = BinaryWriter()
    writeHeader(&w)
    if let encodedTraces {
      w.int(encodedTraces.count)
      try out(w.bytes)
      w.bytes.removeAll()
      try encodedTraces.forEachRun(out)
    } else {
      w.array(traces) { $0.keptTrace($1) }
    }
    w.array(skipped) {
      $0.int($1.stage)
      $0.int($1.ordinal)
      $0.skipped($1.skipped)
    }
    writeScoringState(&w)
    if let columns = outcomeColumns {
      // A configuration's outcomes at a time, the same bytes as the lists' array.
      w.int(columns.count)
      for c in 0..<columns.count {
        let column = try columns.column(c)
        w.int(column.count)
        for outcome in column { w.outcome(outcome) }
        try out(w.bytes)
        w.bytes.removeAll(keepingCapacity: true)
      }
    } else {
      w.array(outcomes) { w, list in w.array(list) { $0.outcome($1) } }
    }
    w.array(replays) { $0.replay($1) }
    try out(w.bytes)
    try emit(hash.finalize().bytes)
  }

  /// The magic, the version and the run's fields, up to the traces.
  private func writeHeader(_ w: inout BinaryWriter) {
    w.bytes = Self.magic
    w.int(Self.formatVersion)
    w.string(tool)
    w.string(command)
    w.array(arguments) { $0.string($1) }
    w.int(shard.index)
    w.int(shard.count)
    w.doubles(maximumForces)
    w.array(files) { $0.string($1) }
    w.array(inputs) {
      $0.string($1.file)
      $0.bytes += $1.sha256.bytes
    }
    w.array(diagnostics) { $0.diagnostic($1) }
    w.int(labelOverrides)
    w.int(overriddenTraces)
  }

  /// The scoring state: the latency lists, each distinct list once, in a table the sweep's and
  /// the groups' configurations then index.
  private func writeScoringState(_ w: inout BinaryWriter) {
    var table = ListTable()
    var body = BinaryWriter()
    body.optional(sweep) { w, sweep in
      w.array(sweep.methods) { $0.method($1) }
      w.array(sweep.configurations) { $0.configurationPartial($1, table: &table) }
    }
    body.optional(groups) { w, groups in
      w.string(groups.column)
      w.array(groups.configurations) { w, list in
        w.array(list) {
          $0.optional($1.name) { $0.string($1) }
          $0.configurationPartial($1.partial, table: &table)
        }
      }
    }
    w.array(table.lists) { $0.doubles($1) }
    w.bytes += body.bytes
  }

  /// `body` followed by its SHA-256: a partial's last 32 bytes.
  public static func sealed(_ body: [UInt8]) -> [UInt8] { body + SHA256.hash(body).bytes }

  /// Reads a partial file's bytes.
  ///
  /// Checks, before anything is used: the magic and version, the SHA-256 at the end against
  /// the rest, every length against the bytes left, and that the counts agree with each other
  /// (every count non-negative, a stage's TP + FN equal to its references, positive and
  /// negative traces adding up to the traces scored, at most as many traces scored as the
  /// partial holds, latency lists as long as the true positives, times, latencies and maximum
  /// forces finite, forces positive and increasing, trace ordinals increasing, outcome indices
  /// in range, replays one per trace).
  ///
  /// - Parameters:
  ///   - bytes: the file's content.
  ///   - file: its name, for errors.
  /// - Throws: ``PartialError`` when it is not a partial, of another format version, damaged,
  ///   cut short or inconsistent.
  public init(decoding bytes: [UInt8], file: String) throws(PartialError) {
    var r = try Self.checkedReader(bytes, file: file)
    do {
      try self.init(body: &r, file: file, spill: nil)
    } catch let error as PartialError {
      throw error
    } catch {
      preconditionFailure("only a spill's writes fail otherwise, and there is none: \(error)")
    }
  }

  /// A reader of `bytes` after the magic and version, up to the checksum, once they are checked.
  private static func checkedReader(_ bytes: [UInt8], file: String) throws(PartialError) -> BinaryReader {
    guard bytes.starts(with: Self.magic) else { throw .notAPartial(file: file) }
    var r = BinaryReader(bytes, offset: Self.magic.count)
    guard let version = try? r.int() else { throw .damaged(file: file) }
    guard version == Self.formatVersion else { throw .formatVersion(file: file, found: version) }
    let end = bytes.count - SHA256.byteCount
    guard end >= r.offset, SHA256.hash(bytes[0..<end]).bytes[...] == bytes[end...] else { throw .damaged(file: file) }
    // The checksum is left out by the reader's end, not by a copy of the bytes (a partial of
    // 200 000 contacts is about 38 MB).
    return BinaryReader(bytes, offset: r.offset, end: end)
  }

  /// Reads the partial file `file` a piece at a time (`-`: standard input, read whole), with the
  /// checks of ``init(decoding:file:)``, its outcome lists written to a temporary file as they
  /// are read when each holds one outcome per trace in order, as shards write them
  /// (``outcomeColumns``; otherwise every list is kept in ``outcomes``). Memory holds a piece
  /// of the file, its traces' metadata and truths, its sums and latency lists, and one outcome
  /// list at a time: not the file (a `tune` partial holds every configuration's outcome on
  /// every trace). The checksum, hashed as the file is read, is compared at its end, before
  /// the partial is returned.
  ///
  /// - Parameters:
  ///   - file: the partial's path.
  ///   - spill: where the outcome columns go (one spill can take those of every partial of a
  ///     merge: one temporary file, however many shards).
  ///   - piece: the bytes read at least at a time.
  /// - Throws: ``PartialError`` as ``init(decoding:file:)``; `TraceLoadError` when the file
  ///   cannot be opened or read; ``LatencySpill/Failure`` when the temporary file cannot be
  ///   made or written.
  package init(reading file: String, spill: OutcomeSpill, piece: Int = 1 << 20) throws {
    let feed = try BinaryFeed(file: file, piece: piece)
    // Past the magic, the version and the checksum: read a piece at a time.
    guard let size = feed.size, size >= Self.magic.count + 8 + SHA256.byteCount else {
      // A stream, or too short to be a partial: read whole, then checked as bytes are.
      var bytes: [UInt8] = []
      while true {
        let next = (try? feed.read(piece)) ?? []
        if let failure = feed.failure { throw failure }
        if next.isEmpty { break }
        bytes += next
      }
      var r = try Self.checkedReader(bytes, file: file)
      try self.init(body: &r, file: file, spill: spill)
      return
    }
    let end = size - SHA256.byteCount
    var r = BinaryReader(feed, end: end)
    do throws(BinaryReader.Truncated) {
      guard try r.raw(Self.magic.count) == Self.magic else { throw BinaryReader.Truncated() }
    } catch {
      if let failure = feed.failure { throw failure }
      throw PartialError.notAPartial(file: file)
    }
    let version: Int
    do throws(BinaryReader.Truncated) { version = try r.int() } catch {
      if let failure = feed.failure { throw failure }
      throw PartialError.damaged(file: file)
    }
    guard version == Self.formatVersion else { throw PartialError.formatVersion(file: file, found: version) }
    do {
      try self.init(body: &r, file: file, spill: spill)
    } catch {
      if let failure = feed.failure { throw failure }
      throw error
    }
    guard try feed.trailerMatches() else { throw PartialError.damaged(file: file) }
  }

  /// Reads the fields after the version from `r`, checking them (see ``init(decoding:file:)``);
  /// outcome lists that hold one outcome per trace in order go to `spill` when there is one.
  ///
  /// - Throws: ``PartialError/damaged(file:)``; ``LatencySpill/Failure`` when `spill` cannot
  ///   be written or read.
  private init(body r: inout BinaryReader, file: String, spill: OutcomeSpill?) throws {
    var spillFailure: LatencySpill.Failure?
    do throws(BinaryReader.Truncated) {
      tool = try r.string()
      command = try r.string()
      arguments = try r.array { r throws(BinaryReader.Truncated) in try r.string() }
      guard let shard = Shard(index: try r.int(), count: try r.int()), shard.count <= Self.maximumShards else {
        throw BinaryReader.Truncated()
      }
      self.shard = shard
      maximumForces = try r.finites()
      guard maximumForces.allSatisfy({ $0 > 0 }), zip(maximumForces, maximumForces.dropFirst()).allSatisfy({ $0 < $1 })
      else {
        throw BinaryReader.Truncated()
      }
      files = try r.array { r throws(BinaryReader.Truncated) in try r.string() }
      inputs = try r.array { r throws(BinaryReader.Truncated) in InputHash(file: try r.string(), sha256: try r.digest())
      }
      diagnostics = try r.array { r throws(BinaryReader.Truncated) in try r.diagnostic() }
      labelOverrides = try r.natural(atMost: Int.max)
      overriddenTraces = try r.natural(atMost: Int.max)
      traces = try Self.readTraces(&r)
      skipped = try r.array { r throws(BinaryReader.Truncated) in
        KeptSkip(
          stage: try r.natural(atMost: Int.max), ordinal: try r.natural(atMost: Int.max), skipped: try r.skipped())
      }
      // In load order: ordinals increasing (so distinct), each trace with ground truth or none.
      guard zip(traces, traces.dropFirst()).allSatisfy({ $0.ordinal < $1.ordinal }),
        traces.allSatisfy({ $0.truth != nil }) || traces.allSatisfy({ $0.truth == nil }),
        Set(skipped.map { [$0.stage, $0.ordinal] }).count == skipped.count
      else { throw BinaryReader.Truncated() }
      let n = traces.count
      (sweep, groups) = try Self.readScoringState(&r, traces: n)
      let lists = try Self.outcomeLists(&r, traces: n, spill: spill, failure: &spillFailure)
      outcomes = lists.lists
      outcomeColumns = lists.spilled.map { slots in
        OutcomeColumns(count: slots.count) { try spill!.column(slots.lowerBound + $0) }
      }
      guard Self.groupsFit(groups, sweep, traces: n) else { throw BinaryReader.Truncated() }
      replays = try r.array { r throws(BinaryReader.Truncated) in try r.replay() }
      guard replays.isEmpty || replays.count == traces.count else { throw BinaryReader.Truncated() }
      guard r.isAtEnd else { throw BinaryReader.Truncated() }
    } catch {
      if let spillFailure { throw spillFailure }
      throw PartialError.damaged(file: file)
    }
  }

  /// The kept traces, each with its samples when its time was synthesized.
  private static func readTraces(_ r: inout BinaryReader) throws(BinaryReader.Truncated) -> [KeptTrace] {
    try r.array(minimumSize: KeptTrace.minimumEncodedSize) { r throws(BinaryReader.Truncated) in
      var kept = KeptTrace(
        ordinal: try r.natural(atMost: Int.max), metadata: try r.metadata(), origin: try r.origin(),
        truth: try r.optional { r throws(BinaryReader.Truncated) in try r.truth() })
      kept.synthesizedSamples = try r.optional { r throws(BinaryReader.Truncated) in
        try r.samples(metadata: kept.metadata)
      }
      return kept
    }
  }

  /// The scoring state of a partial of `n` traces: the table of latency lists, then the sweep's
  /// and the groups' partials, which index it.
  private static func readScoringState(
    _ r: inout BinaryReader, traces n: Int
  ) throws(BinaryReader.Truncated) -> (SweepPartial?, GroupPartials?) {
    let table = try r.array { r throws(BinaryReader.Truncated) in try r.doubles() }
    let sweep = try r.optional { r throws(BinaryReader.Truncated) in
      let methods = try r.array { r throws(BinaryReader.Truncated) in try r.method() }
      let configurations = try r.array { r throws(BinaryReader.Truncated) in
        try r.configurationPartial(table: table, traces: n)
      }
      guard methods.count == configurations.count else { throw BinaryReader.Truncated() }
      return SweepPartial(configurations: configurations, methods: methods)
    }
    let groups = try r.optional { r throws(BinaryReader.Truncated) in
      GroupPartials(
        column: try r.string(),
        configurations: try r.array { r throws(BinaryReader.Truncated) in
          try r.array { r throws(BinaryReader.Truncated) in
            GroupPartials.GroupPartial(
              name: try r.optional { r throws(BinaryReader.Truncated) in try r.string() },
              partial: try r.configurationPartial(table: table, traces: n))
          }
        })
    }
    return (sweep, groups)
  }

  /// Whether `groups` (if any) are groups of `sweep`'s configurations: one list per
  /// configuration, names distinct, of the same shape, holding at most the `n` traces.
  private static func groupsFit(_ groups: GroupPartials?, _ sweep: SweepPartial?, traces n: Int) -> Bool {
    guard let groups else { return true }
    guard let sweep, groups.configurations.count == sweep.configurations.count else { return false }
    return groups.configurations.indices.allSatisfy { c in
      let list = groups.configurations[c]
      return Set(list.map(\.name)).count == list.count && list.reduce(0) { $0 + $1.partial.counts.traces } <= n
        && list.allSatisfy { $0.partial.shape == sweep.configurations[c].shape }
    }
  }

  /// Reads the outcome lists of a partial of `n` traces, each checked (indices in range,
  /// increasing). With a `spill`, each list is written to it as a column as it is read, until
  /// one does not hold one outcome per trace in order: then every list is kept as a list.
  ///
  /// - Returns: the lists, or none and the spill's columns that hold them (`spilled`).
  private static func outcomeLists(
    _ r: inout BinaryReader, traces n: Int, spill: OutcomeSpill?, failure: inout LatencySpill.Failure?
  ) throws(BinaryReader.Truncated) -> (lists: [[TraceOutcome]], spilled: Range<Int>?) {
    let first = spill?.count ?? 0
    var spilled = spill != nil
    var lists: [[TraceOutcome]] = []
    for _ in 0..<(try r.count()) {
      let list = try r.array { r throws(BinaryReader.Truncated) in try r.outcome() }
      // Outcomes indexing this partial's traces, in order.
      guard list.allSatisfy({ $0.trace < n }), zip(list, list.dropFirst()).allSatisfy({ $0.trace < $1.trace })
      else { throw BinaryReader.Truncated() }
      do throws(LatencySpill.Failure) {
        if spilled, let spill {
          guard list.count == n, list.indices.allSatisfy({ list[$0].trace == $0 }) else {
            // Not as a shard writes them: the lists spilled so far are restored.
            lists = try (first..<spill.count).map { c throws(LatencySpill.Failure) in Array(try spill.column(c)) }
            spilled = false
            lists.append(list)
            continue
          }
          try spill.append(column: OutcomeColumn(list))
        } else {
          lists.append(list)
        }
      } catch {
        failure = error
        throw BinaryReader.Truncated()
      }
    }
    return (lists, spilled ? first..<(spill?.count ?? 0) : nil)
  }
}

/// Analyzed traces in a partial's encoding, appended one at a time as a shard reads them: the
/// bytes ``StudyPartial/encoded()`` writes for ``StudyPartial/traces`` (about 160 a
/// touch-screen contact), in memory up to 1 MiB and then in an anonymous temporary file
/// (``LatencySpill``), instead of each trace's metadata, origin and truth kept as values (about
/// 1 KB) until the partial is written.
package struct EncodedTraces: Sendable {
  /// The traces appended.
  package private(set) var count = 0
  /// Bytes not yet in the file.
  fileprivate var writer = BinaryWriter()
  /// The file, once a megabyte has been appended, and where each written run of bytes lies.
  private var spill: LatencySpill?
  private var runs: [LatencySpill.Ref] = []
  /// Bytes kept in memory before they go to the file.
  static let held = 1 << 20

  package init() {}

  /// Appends `trace`.
  ///
  /// - Throws: ``LatencySpill/Failure`` when the temporary file cannot be made or written.
  package mutating func append(_ trace: KeptTrace) throws(LatencySpill.Failure) {
    writer.keptTrace(trace)
    count += 1
    if writer.bytes.count >= Self.held {
      if spill == nil { spill = try LatencySpill() }
      runs.append(try spill!.append(bitsOf: writer.bytes))
      writer.bytes.removeAll(keepingCapacity: true)
    }
  }

  /// Hands every byte appended to `body`, in order, a run at a time.
  ///
  /// - Throws: ``LatencySpill/Failure`` when the file cannot be read, and what `body` throws.
  func forEachRun(_ body: ([UInt8]) throws -> Void) throws {
    for run in runs { try body(try spill!.read(run, as: UInt8.self)) }
    try body(writer.bytes)
  }
}

extension BinaryWriter {
  /// An analyzed trace as a partial keeps it.
  fileprivate mutating func keptTrace(_ trace: KeptTrace) {
    int(trace.ordinal)
    metadata(trace.metadata)
    origin(trace.origin)
    optional(trace.truth) { $0.truth($1) }
    optional(trace.synthesizedSamples) { $0.samples($1) }
  }
}
