import TouchCore
public import TouchRecognizers

extension Evaluation {
  /// Traces per work item.
  static let chunk = 64
  /// About how many trace outcomes a batch of configurations may hold at once.
  static let batchOutcomes = 4_000_000

  /// Evaluates every configuration of `plan` on every analyzed trace.
  ///
  /// Configurations that differ only in a first-crossing threshold (`ThresholdSweep`) are
  /// evaluated together in one pass per trace; the others are replayed (see the Sweeps
  /// article). Work is spread over `threads` threads by chunks of traces, each chunk running
  /// every configuration of a batch while its traces are in cache; every result goes to its own
  /// slot, counts are integer sums and latencies are sorted before any statistic, so the result
  /// does not depend on the thread count.
  ///
  /// - Parameters:
  ///   - plan: the configurations.
  ///   - threads: how many threads to use (1: the calling thread only).
  ///   - progress: called on the calling thread after each batch with the number of
  ///     configurations done and the total.
  ///   - perConfiguration: when given, called on the calling thread once per configuration with
  ///     its index and per-trace outcomes (in an order that depends only on the plan).
  /// - Throws: `ReplayError.missingMaximumForce(trace:variant:)` when a configuration cannot
  ///   replay a trace (checked before any work); `ReplayError.external(trace:variant:message:)`
  ///   when an external (`exec:`) recognizer fails (the first failing chunk's error).
  public func sweep(
    _ plan: SweepPlan, threads: Int = 1, progress: ((Int, Int) -> Void)? = nil,
    perConfiguration: ((Int, [TraceOutcome]) -> Void)? = nil
  ) throws(ReplayError) -> SweepResult {
    let partial = try sweepPartial(plan, threads: threads, progress: progress, perConfiguration: perConfiguration)
    return SweepResult(evaluation: self, plan: plan, partial: partial, threads: threads)
  }

  /// Evaluates every configuration of `plan` on every analyzed trace, as ``sweep(_:threads:progress:perConfiguration:)``
  /// does, and stops before the statistics: each configuration's sums and latency lists, to be
  /// merged with the partials of other traces (the next batch of a stream, other shards) and
  /// finished into a ``SweepResult`` by ``SweepResult/init(evaluation:plan:partial:threads:)``.
  ///
  /// - Parameters:
  ///   - plan: the configurations.
  ///   - threads: how many threads to use (1: the calling thread only).
  ///   - progress: called on the calling thread after each batch of configurations with the
  ///     number done and the total.
  ///   - perConfiguration: when given, called on the calling thread once per configuration with
  ///     its index and per-trace outcomes.
  /// - Throws: as ``sweep(_:threads:progress:perConfiguration:)``.
  public func sweepPartial(
    _ plan: SweepPlan, threads: Int = 1, progress: ((Int, Int) -> Void)? = nil,
    perConfiguration: ((Int, [TraceOutcome]) -> Void)? = nil
  ) throws(ReplayError) -> SweepPartial {
    let configurations = plan.configurations
    try checkMaximumForce(configurations)
    let units = SweepUnit.units(for: configurations)
    var accumulators = [MetricsAccumulator?](repeating: nil, count: configurations.count)
    let pieces = Chunks(self)
    let perBatch = Self.configurationsPerBatch(traces: traces.count, configurations: configurations.count)
    let keep = perConfiguration != nil
    var done = 0
    var u = 0
    while u < units.count {
      let end = Self.batchEnd(units, from: u, perBatch: perBatch)
      let batch = Array(units[u..<end])
      let computed = replayChunks(batch, configurations: configurations, pieces: pieces, keep: keep, threads: threads)
      try Self.throwFirstFailure(computed)
      Self.collectMetrics(
        batch, computed: computed, configurations: configurations, threads: threads, into: &accumulators)
      if let perConfiguration {
        Self.reportOutcomes(
          batch, computed: computed, traces: traces.count, perBatch: perBatch, threads: threads, to: perConfiguration)
      }
      done += batch.reduce(0) { $0 + $1.members.count }
      progress?(done, configurations.count)
      u = end
    }
    return SweepPartial(
      configurations: accumulators.map { ConfigurationPartial($0!) },
      methods: Self.methods(of: units, count: configurations.count))
  }

  /// Throws the failure of the first chunk (in chunk, then unit order) whose recognizer could
  /// not replay it.
  static func throwFirstFailure(_ computed: [[SweepItemResult]]) throws(ReplayError) {
    for chunk in computed {
      for item in chunk {
        if case .replayed(let replayed) = item, let failure = replayed.failure { throw failure }
      }
    }
  }

  /// Throws when a configuration needs the maximum force and a trace has none.
  private func checkMaximumForce(_ configurations: [Configuration]) throws(ReplayError) {
    if let trace = traces.first(where: { $0.metadata.maxForce == nil }),
      let configuration = configurations.first(where: { $0.recognizer.requiresMaximumForce })
    {
      throw .missingMaximumForce(trace: trace.name, variant: configuration.name)
    }
  }

  /// How each of the `count` configurations is evaluated, given the units.
  private static func methods(of units: [SweepUnit], count: Int) -> [SweepMethod] {
    var methods = [SweepMethod](repeating: .replay, count: count)
    for unit in units {
      switch unit {
      case .replay: break
      case .onePass(let group):
        for c in group.members { methods[c] = .onePass(parameter: group.sweep.parameter) }
      case .classes(let group):
        for c in group.members { methods[c] = .classes(parameters: group.compared.map(\.name)) }
      }
    }
    return methods
  }

  /// About how many configurations a batch holds. Batches bound memory (about
  /// ``batchOutcomes`` outcomes) and pace the progress reports (about 20 per sweep).
  private static func configurationsPerBatch(traces n: Int, configurations: Int) -> Int {
    Swift.max(1, Swift.min(batchOutcomes / Swift.max(n, 1), (configurations + 19) / 20))
  }

  /// The end of the batch starting at unit `u`: units until about `perBatch` configurations (at
  /// least one unit).
  private static func batchEnd(_ units: [SweepUnit], from u: Int, perBatch: Int) -> Int {
    var end = u
    var size = 0
    while end < units.count && (end == u || size + units[end].members.count <= perBatch) {
      size += units[end].members.count
      end += 1
    }
    return end
  }

  /// Phase A: per chunk of traces (kept in cache), every unit of the batch; indexed
  /// `[chunk][unit]`.
  private func replayChunks(
    _ batch: [SweepUnit], configurations: [Configuration], pieces: Chunks, keep: Bool, threads: Int
  ) -> [[SweepItemResult]] {
    Parallel.map(items: pieces.count, threads: threads) { c -> [SweepItemResult] in
      batch.map { unit in
        switch unit {
        case .replay(let index):
          let recognizer = configurations[index].recognizer
          return .replayed(
            pieces.replay(c, tolerance: options.tolerance, shape: configurations[index].shape, keep: keep).run(
              recognizer))
        case .onePass(let group):
          return .onePass(onePassChunk(group, range: pieces.range(c), keep: keep))
        case .classes(let group):
          return .onePass(classChunk(group, pieces: pieces, chunk: c, keep: keep))
        }
      }
    }
  }

  /// Phase B: the sums and latency lists of the batch's configurations, into their slots of
  /// `metrics`.
  /// Replays: merge the chunks' sums. Level groups (one-pass, classes): every level's sums by
  /// difference arrays over the steps; then the levels between two consecutive step boundaries
  /// of all traces, which have the same outcome on every trace, form one class whose latency
  /// lists and statistics are computed once, per block of classes.
  private static func collectMetrics(
    _ batch: [SweepUnit], computed: [[SweepItemResult]], configurations: [Configuration], threads: Int,
    into metrics: inout [MetricsAccumulator?]
  ) {
    var counts: [Int: [Int32]] = [:]
    var partitions: [Int: LevelClasses] = [:]
    var tasks: [(unit: Int, classes: Range<Int>?)] = []
    for (b, unit) in batch.enumerated() {
      guard let k = unit.levels?.count else {
        tasks.append((b, nil))
        continue
      }
      let tables = computed.map { $0[b] }
      counts[b] = levelCounts(levels: k, tables: tables)
      let partition = LevelClasses(levels: k, tables: tables)
      partitions[b] = partition
      for start in stride(from: 0, to: partition.count, by: levelBlock) {
        tasks.append((b, start..<Swift.min(partition.count, start + levelBlock)))
      }
    }
    let levelCounts = counts
    let levelClasses = partitions
    let work = tasks
    let results = Parallel.map(items: work.count, threads: threads) { t -> [MetricsAccumulator] in
      let (b, classes) = work[t]
      guard let shape = batch[b].levels?.shape, let classes else {
        guard case .replay(let index) = batch[b] else { preconditionFailure("a level unit without levels") }
        var accumulator = MetricsAccumulator(shape: configurations[index].shape)
        for c in computed.indices {
          if case .replayed(let chunk) = computed[c][b] { accumulator.merge(chunk.accumulator) }
        }
        return [accumulator]
      }
      return levelMetrics(
        classes: classes, partition: levelClasses[b]!, shape: shape, counts: levelCounts[b]!,
        tables: computed.map { $0[b] })
    }
    for (t, task) in tasks.enumerated() {
      let unit = batch[task.unit]
      guard let classes = task.classes, let index = unit.levels?.index, let partition = levelClasses[task.unit] else {
        metrics[unit.members[0]] = results[t][0]
        continue
      }
      for (m, level) in index.enumerated() {
        let c = Int(partition.classOf[level])
        if classes.contains(c) { metrics[unit.members[m]] = results[t][c - classes.lowerBound] }
      }
    }
  }

  /// Gives `perConfiguration` the per-trace outcomes of every configuration of the batch, in
  /// sub-batches of about `perBatch` configurations.
  private static func reportOutcomes(
    _ batch: [SweepUnit], computed: [[SweepItemResult]], traces n: Int, perBatch: Int, threads: Int,
    to perConfiguration: (Int, [TraceOutcome]) -> Void
  ) {
    var members: [(unit: Int, member: Int)] = []
    for (b, unit) in batch.enumerated() {
      for m in unit.members.indices { members.append((b, m)) }
    }
    var start = 0
    while start < members.count {
      let part = Array(members[start..<Swift.min(members.count, start + perBatch)])
      let lists = Parallel.map(items: part.count, threads: threads) { p -> [TraceOutcome] in
        let (b, m) = part[p]
        var outcomes: [TraceOutcome] = []
        outcomes.reserveCapacity(n)
        for c in computed.indices {
          switch computed[c][b] {
          case .replayed(let chunk): outcomes += chunk.outcomes
          case .onePass(let table):
            guard let index = batch[b].levels?.index else { preconditionFailure("a level table for a replay") }
            table.outcomes(level: Int32(index[m]), into: &outcomes)
          }
        }
        return outcomes
      }
      for (p, (b, m)) in part.enumerated() { perConfiguration(batch[b].members[m], lists[p]) }
      start += perBatch
    }
  }
}
