import TouchCore
public import TouchRecognizers

/// How a configuration was evaluated.
public enum SweepMethod: Sendable, Hashable, CustomStringConvertible {
  /// With the configurations that differ from it only in `parameter`, in one pass per trace
  /// (running maximum, ``RunningMaxSweep``).
  case onePass(parameter: String)
  /// By replaying every trace through it.
  case replay

  /// `one-pass` or `replay`.
  public var description: String {
    switch self {
    case .onePass: "one-pass"
    case .replay: "replay"
    }
  }
}

/// The result of a sweep: every configuration of the plan with its metrics.
public struct SweepResult: Sendable {
  /// The evaluation swept (traces, truths, options).
  public let evaluation: Evaluation
  /// The plan.
  public let plan: SweepPlan
  /// The metrics of each configuration (parallel to `plan.configurations`).
  public let metrics: [ConfigurationMetrics]
  /// How each configuration was evaluated (parallel to `plan.configurations`).
  public let methods: [SweepMethod]

  /// The configurations.
  public var configurations: [Configuration] { plan.configurations }

  /// The per-trace outcomes of configuration `index` (replayed again; the one-pass path gives
  /// the same outcomes, which the tests check).
  public func outcomes(configuration index: Int, threads: Int = 1) -> [TraceOutcome] {
    evaluation.outcomes(of: plan.configurations[index].recognizer, threads: threads)
  }
}

extension Evaluation {
  /// Traces per work item.
  static let chunk = 64
  /// About how many trace outcomes a batch of configurations may hold at once.
  static let batchOutcomes = 4_000_000

  /// Replays every trace through `recognizer` and scores it, on `threads` threads.
  ///
  /// - Precondition: `recognizer` can replay every analyzed trace (see
  ///   `AnyForceRecognizer.unsupportedReason(for:)`).
  /// - Returns: one outcome per analyzed trace, in trace order.
  public func outcomes(of recognizer: AnyForceRecognizer, threads: Int = 1) -> [TraceOutcome] {
    let chunks = Chunks(self)
    return Parallel.map(items: chunks.count, threads: threads) { c in
      chunks.replay(c, tolerance: options.tolerance, shape: OutcomeShape(recognizer: recognizer), keep: true).run(recognizer).outcomes
    }.flatMap { $0 }
  }

  /// Scores `outcomes` (one configuration's, any subset of traces, repeats allowed).
  public func metrics(of outcomes: some Sequence<TraceOutcome>, shape: OutcomeShape) -> ConfigurationMetrics {
    ConfigurationMetrics(outcomes: outcomes, truths: truths, shape: shape)
  }

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
  ///   replay a trace (checked before any work).
  public func sweep(
    _ plan: SweepPlan, threads: Int = 1, progress: ((Int, Int) -> Void)? = nil,
    perConfiguration: ((Int, [TraceOutcome]) -> Void)? = nil
  ) throws(ReplayError) -> SweepResult {
    let configurations = plan.configurations
    if let trace = traces.first(where: { $0.metadata.maxForce == nil }),
      let configuration = configurations.first(where: { $0.recognizer.requiresMaximumForce })
    {
      throw .missingMaximumForce(trace: trace.name, variant: configuration.name)
    }
    let units = SweepUnit.units(for: configurations)
    var methods = [SweepMethod](repeating: .replay, count: configurations.count)
    for unit in units {
      if case .onePass(let group) = unit {
        for c in group.members { methods[c] = .onePass(parameter: group.sweep.parameter) }
      }
    }
    var metrics = [ConfigurationMetrics?](repeating: nil, count: configurations.count)
    let n = traces.count
    let pieces = Chunks(self)
    let chunks = pieces.count
    // Batches bound memory (about `batchOutcomes` outcomes) and pace the progress reports
    // (about 20 per sweep).
    let perBatch = Swift.max(1, Swift.min(Self.batchOutcomes / Swift.max(n, 1), (configurations.count + 19) / 20))
    let keep = perConfiguration != nil
    var done = 0
    var u = 0
    while u < units.count {
      // A batch: units until about `perBatch` configurations (at least one unit).
      var end = u
      var size = 0
      while end < units.count && (end == u || size + units[end].members.count <= perBatch) {
        size += units[end].members.count
        end += 1
      }
      let batch = Array(units[u..<end])
      // Phase A: per chunk of traces (kept in cache), every unit of the batch.
      let computed = Parallel.map(items: chunks, threads: threads) { c -> [SweepItemResult] in
        batch.map { unit in
          switch unit {
          case .replay(let index):
            let recognizer = configurations[index].recognizer
            return .replayed(
              pieces.replay(c, tolerance: options.tolerance, shape: configurations[index].shape, keep: keep).run(recognizer))
          case .onePass(let group):
            return .onePass(onePassChunk(group, range: pieces.range(c), keep: keep))
          }
        }
      }
      // Phase B: metrics. Replays: merge the chunks' sums. One-pass groups: every level's sums by
      // difference arrays over the steps, then latency lists and statistics per block of levels.
      var counts: [Int: [Int32]] = [:]
      var tasks: [(unit: Int, levels: Range<Int>?)] = []
      for (b, unit) in batch.enumerated() {
        switch unit {
        case .replay: tasks.append((b, nil))
        case .onePass(let group):
          counts[b] = Self.levelCounts(group, tables: computed.map { $0[b] })
          let k = group.thresholds.count
          for start in stride(from: 0, to: k, by: Self.levelBlock) {
            tasks.append((b, start..<Swift.min(k, start + Self.levelBlock)))
          }
        }
      }
      let levelCounts = counts
      let work = tasks
      let results = Parallel.map(items: work.count, threads: threads) { t -> [ConfigurationMetrics] in
        let (b, levels) = work[t]
        switch batch[b] {
        case .replay(let index):
          var accumulator = MetricsAccumulator(shape: configurations[index].shape)
          for c in 0..<chunks {
            if case .replayed(let chunk) = computed[c][b] { accumulator.merge(chunk.accumulator) }
          }
          return [accumulator.finish()]
        case .onePass(let group):
          return Self.levelMetrics(
            group, levels: levels!, counts: levelCounts[b]!, tables: computed.map { $0[b] })
        }
      }
      for (t, task) in tasks.enumerated() {
        switch batch[task.unit] {
        case .replay(let index): metrics[index] = results[t][0]
        case .onePass(let group):
          let levels = task.levels!
          for (m, level) in group.levelIndex.enumerated() where levels.contains(level) {
            metrics[group.members[m]] = results[t][level - levels.lowerBound]
          }
        }
      }
      // The per-configuration outcomes, when asked for, in sub-batches of about `perBatch`.
      if let perConfiguration {
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
            for c in 0..<chunks {
              switch computed[c][b] {
              case .replayed(let chunk): outcomes += chunk.outcomes
              case .onePass(let table):
                guard case .onePass(let group) = batch[b] else { preconditionFailure("one-pass table for a replay") }
                table.outcomes(level: Int32(group.levelIndex[m]), into: &outcomes)
              }
            }
            return outcomes
          }
          for (p, (b, m)) in part.enumerated() { perConfiguration(batch[b].members[m], lists[p]) }
          start += perBatch
        }
      }
      done += batch.reduce(0) { $0 + $1.members.count }
      progress?(done, configurations.count)
      u = end
    }
    return SweepResult(evaluation: self, plan: plan, metrics: metrics.map { $0! }, methods: methods)
  }

  /// Levels per one-pass metrics task.
  static let levelBlock = 16

  /// The integer sums of every level of a one-pass group (K rows of ``CountVector/width``):
  /// each step adds its tally to its range of levels through a difference array.
  static func levelCounts(_ group: OnePassGroup, tables: [SweepItemResult]) -> [Int32] {
    let k = group.thresholds.count
    let width = CountVector.width
    var sums = [Int32](repeating: 0, count: (k + 1) * width)
    sums.withUnsafeMutableBufferPointer { v in
      let base = v.baseAddress!
      for item in tables {
        guard case .onePass(let table) = item else { continue }
        table.forEachRange(levels: k) { j, lower, upper, entry in
          guard lower < upper else { return }
          let tally = table.tallies[entry]
          CountVector.add(tally, intent: table.intents[j], actualClass: table.classes[j], sign: 1, to: base + lower * width)
          CountVector.add(tally, intent: table.intents[j], actualClass: table.classes[j], sign: -1, to: base + upper * width)
        }
      }
      for level in stride(from: 1, through: k, by: 1) {
        for f in 0..<width { base[level * width + f] &+= base[(level - 1) * width + f] }
      }
    }
    return sums
  }

  /// The metrics of levels `levels` of a one-pass group: the sums from `counts`, the latencies
  /// gathered from the steps covering each level.
  static func levelMetrics(
    _ group: OnePassGroup, levels: Range<Int>, counts: [Int32], tables: [SweepItemResult]
  ) -> [ConfigurationMetrics] {
    var accumulators = levels.map { _ in MetricsAccumulator(shape: group.shape) }
    for item in tables {
      guard case .onePass(let table) = item else { continue }
      table.forEachRange(levels: group.thresholds.count) { _, lower, upper, entry in
        let from = Swift.max(lower, levels.lowerBound)
        let to = Swift.min(upper, levels.upperBound)
        guard from < to else { return }
        let tally = table.tallies[entry]
        guard !tally.latency1.isNaN || !tally.latency2.isNaN else { return }
        for level in from..<to { accumulators[level - levels.lowerBound].addLatencies(tally) }
      }
    }
    return counts.withUnsafeBufferPointer { v in
      levels.map { level in
        var accumulator = accumulators[level - levels.lowerBound]
        CountVector.apply(v.baseAddress! + level * CountVector.width, to: &accumulator.metrics, shape: group.shape)
        return accumulator.finish()
      }
    }
  }

  /// One-pass tables of `traces[range]` for `group`.
  func onePassChunk(_ group: OnePassGroup, range: Range<Int>, keep: Bool) -> OnePassTable {
    var table = OnePassTable()
    table.stepStart.reserveCapacity(range.count + 1)
    var quantities: [Double] = []
    var steps: [CrossingStep] = []
    var levels = CrossingLevels([])
    var levelsMaxForce = Double.nan
    var levelsReady = false
    let sweep = group.sweep
    for k in range {
      let trace = traces[k]
      let truth = truths[k]
      let candidates = sweep.candidates(in: trace)
      let maxForce = trace.metadata.maxForce ?? .nan
      // The compared quantity and the levels, by the sweep's own scale arithmetic.
      quantities.removeAll(keepingCapacity: true)
      for c in candidates { quantities.append(sweep.scale.quantity(force: c.force, maxForce: maxForce)) }
      let sameLevels = levelsReady && (maxForce == levelsMaxForce || (maxForce.isNaN && levelsMaxForce.isNaN))
      if !sameLevels {
        levels = CrossingLevels(group.thresholds.map { sweep.scale.level(threshold: $0, maxForce: maxForce) })
        levelsMaxForce = maxForce
        levelsReady = true
      }
      let room = Swift.min(quantities.count, levels.count)
      if steps.count < room { steps = [CrossingStep](repeating: CrossingStep(lower: 0, upper: 0, position: 0), count: room) }
      let found = quantities.withUnsafeBufferPointer { q in
        levels.withUnsafeLevels { l in
          steps.withUnsafeMutableBufferPointer { s -> Int in
            guard let base = s.baseAddress else { return 0 }
            switch sweep.comparison {
            case .greaterThan:
              return RunningMaxSweep.firstCrossings(StrictlyAbove.self, quantities: q, range: 0..<q.count, levels: l, into: base)
            case .greaterThanOrEqual:
              return RunningMaxSweep.firstCrossings(AtOrAbove.self, quantities: q, range: 0..<q.count, levels: l, into: base)
            }
          }
        }
      }
      // The other stage's event at its fixed threshold (a direct scan).
      var otherEvents: [Double] = []
      if let other = group.other,
        let hit = other.candidates(in: trace).first(where: {
          other.crosses(force: $0.force, threshold: group.otherThreshold, maxForce: maxForce)
        })
      {
        otherEvents = [trace.t[hit.index]]
      }
      func outcome(_ events: [Double]) -> TraceOutcome {
        let (stage1, stage2) = sweep.event == .action ? (events, otherEvents) : (otherEvents, events)
        return Self.outcome(
          trace: k, truth: truth, stage1: stage1, stage2: group.shape.twoStage ? stage2 : nil, flaps: nil,
          addedLatency: nil, tolerance: options.tolerance)
      }
      table.intents.append(truth.intent)
      table.classes.append(truth.actualClass)
      for s in 0..<found {
        table.uppers.append(steps[s].upper)
        table.add(outcome([trace.t[candidates[steps[s].position].index]]), keep: keep)
      }
      table.add(outcome([]), keep: keep)
      table.stepStart.append(Int32(table.uppers.count))
    }
    return table
  }

  /// Builds a trace's outcome from its event times.
  static func outcome(
    trace k: Int, truth: TraceTruth, stage1: [Double], stage2: [Double]?, flaps: Int?, addedLatency: Double?,
    waited: Bool = false, tolerance: Double
  ) -> TraceOutcome {
    TraceOutcome(
      trace: k,
      stage1: StageOutcome(
        events: stage1, references: truth.references, isPositive: truth.isPositive, touchDown: truth.touchDown,
        tolerance: tolerance),
      stage2: stage2.map {
        StageOutcome(
          events: $0, references: truth.stage2References, isPositive: truth.isStage2Positive,
          touchDown: truth.touchDown, tolerance: tolerance)
      },
      flaps: flaps, addedLatency: addedLatency, waited: waited)
  }
}

/// The analyzed traces and truths cut once into chunks of ``Evaluation/chunk`` traces, the unit
/// of parallel work.
struct Chunks: Sendable {
  let traces: [[Trace]]
  let truths: [[TraceTruth]]
  let total: Int

  init(_ evaluation: Evaluation) {
    let size = Evaluation.chunk
    total = evaluation.traces.count
    let count = (total + size - 1) / size
    // Replay copies each trace it is given; traces stripped to what a replay reads (columns and
    // maximum force: no names or labels to retain and release) make those copies cheaper.
    traces = (0..<count).map { c in
      evaluation.traces[(c * size)..<Swift.min(evaluation.traces.count, (c + 1) * size)].map { trace in
        Trace(
          metadata: TraceMetadata(id: "", maxForce: trace.metadata.maxForce), t: trace.t, force: trace.force,
          phase: trace.phase, x: trace.x, y: trace.y)
      }
    }
    truths = (0..<count).map { Array(evaluation.truths[($0 * size)..<Swift.min(evaluation.truths.count, ($0 + 1) * size)]) }
  }

  var count: Int { traces.count }

  func range(_ c: Int) -> Range<Int> { (c * Evaluation.chunk)..<Swift.min(total, (c + 1) * Evaluation.chunk) }

  /// The visitor that replays and scores chunk `c`.
  func replay(_ c: Int, tolerance: Double, shape: OutcomeShape, keep: Bool) -> ChunkReplay {
    ChunkReplay(traces: traces[c], truths: truths[c], first: c * Evaluation.chunk, tolerance: tolerance, shape: shape, keep: keep)
  }
}

/// A replayed chunk: its metrics sums and, when asked for, its outcomes.
struct ReplayedChunk: Sendable {
  var accumulator: MetricsAccumulator
  var outcomes: [TraceOutcome]
}

/// Replays a chunk of traces through the concrete recognizer and scores them.
struct ChunkReplay {
  let traces: [Trace]
  let truths: [TraceTruth]
  let first: Int
  let tolerance: Double
  let shape: OutcomeShape
  let keep: Bool

  /// Replays the chunk through `recognizer` (one call into the code specialized for its concrete
  /// type) and scores each trace.
  func run(_ recognizer: AnyForceRecognizer) -> ReplayedChunk {
    var log = ReplayLog()
    do throws(ReplayError) {
      try recognizer.replay(traces: traces, into: &log)
    } catch {
      preconditionFailure("traces are checked before a sweep: \(error)")
    }
    let actions = log.actions
    var result = ReplayedChunk(accumulator: MetricsAccumulator(shape: shape), outcomes: [])
    if keep { result.outcomes.reserveCapacity(traces.count) }
    var stage1: [Double] = []
    var stage2: [Double] = []
    for k in traces.indices {
      stage1.removeAll(keepingCapacity: true)
      stage2.removeAll(keepingCapacity: true)
      var releases = 0
      var held: Double?
      for event in actions[log.spans[k].actions] where event.source == 0 {
        switch event.kind {
        case .action: stage1.append(event.t)
        case .stage2: stage2.append(event.t)
        case .release: releases += 1
        case .held: if held == nil { held = event.t }
        }
      }
      var added: Double?
      if shape.isComposition, let action = stage1.first { added = held.map { action - $0 } ?? 0 }
      let outcome = Evaluation.outcome(
        trace: first + k, truth: truths[k], stage1: stage1, stage2: shape.twoStage ? stage2 : nil,
        flaps: shape.reportsFlaps ? releases : nil, addedLatency: added, waited: added != nil && held != nil,
        tolerance: tolerance)
      result.accumulator.add(outcome, intent: truths[k].intent, actualClass: truths[k].actualClass)
      if keep { result.outcomes.append(outcome) }
    }
    return result
  }
}

/// The one-pass outcomes of a chunk of traces for every level of a group. Trace `j`'s steps are
/// `stepStart[j] ..< stepStart[j + 1]` in ``uppers``: levels below `uppers[s]` (and at or above
/// the previous step's) give step `s`; levels at or above the last `upper` are never crossed.
/// The tallies hold, per trace, one entry per step and a last one for "never crossed".
struct OnePassTable: Sendable {
  var uppers: [Int32] = []
  var stepStart: [Int32] = [0]
  var tallies: [TraceTally] = []
  /// The full outcomes, parallel to ``tallies``, when they are kept.
  var outcomes: [TraceOutcome] = []
  var intents: [Intent] = []
  var classes: [PressClass] = []

  mutating func add(_ outcome: TraceOutcome, keep: Bool) {
    tallies.append(TraceTally(outcome))
    if keep { outcomes.append(outcome) }
  }

  /// Appends every trace's outcome at level index `level`.
  func outcomes(level: Int32, into list: inout [TraceOutcome]) {
    for j in 0..<(stepStart.count - 1) {
      var low = Int(stepStart[j])
      var high = Int(stepStart[j + 1])
      while low < high {
        let middle = (low + high) >> 1
        if uppers[middle] > level { high = middle } else { low = middle + 1 }
      }
      list.append(outcomes[low + j])  // each earlier trace has one extra "never crossed" entry
    }
  }

  /// Calls `body(lower, upper, entry)` for every trace's steps and its "never crossed" entry,
  /// each covering levels `lower ..< upper` (`levels` = K).
  func forEachRange(levels: Int, _ body: (Int, Int, Int, Int) -> Void) {
    for j in 0..<(stepStart.count - 1) {
      var lower = 0
      for s in Int(stepStart[j])..<Int(stepStart[j + 1]) {
        body(j, lower, Int(uppers[s]), s + j)
        lower = Int(uppers[s])
      }
      body(j, lower, levels, Int(stepStart[j + 1]) + j)
    }
  }
}

/// What one (unit, chunk) item produced.
enum SweepItemResult: Sendable {
  case replayed(ReplayedChunk)
  case onePass(OnePassTable)
}

/// Configurations evaluated together in one pass: they differ only in the swept threshold.
struct OnePassGroup: Sendable {
  /// Configuration indices.
  var members: [Int]
  /// Per member: the index of its threshold in ``thresholds``.
  var levelIndex: [Int]
  /// The distinct thresholds, ascending.
  var thresholds: [Double]
  /// The sweep of the varied threshold.
  var sweep: ThresholdSweep
  /// The other stage's sweep (two-stage variants), at ``otherThreshold``.
  var other: ThresholdSweep?
  /// The other stage's threshold.
  var otherThreshold: Double
  /// The members' outcome shape.
  var shape: OutcomeShape
}

/// A unit of sweep work.
enum SweepUnit: Sendable {
  case replay(Int)
  case onePass(OnePassGroup)

  /// The configurations it evaluates.
  var members: [Int] {
    switch self {
    case .replay(let c): [c]
    case .onePass(let group): group.members
    }
  }

  /// Splits configurations into one-pass groups and replays, ordered by first configuration.
  ///
  /// A configuration can join a one-pass group when it is not a composition, its variant has no
  /// release (the sweep metadata describes first crossings only: releases, flaps and repeated
  /// actions need a replay), each of its events (action, and stage 2 if any) has a threshold
  /// sweep, and one of its varied parameters is such a sweep's parameter. The group is the
  /// configurations of the same recognizer with equal values of every other parameter; it is
  /// swept in one pass only when all members have identical sweep descriptions (operator,
  /// scale, eligible samples) for both events — otherwise its members are replayed.
  static func units(for configurations: [Configuration]) -> [SweepUnit] {
    struct Key: Hashable {
      var recognizer: String
      var parameter: String
      var others: [ParameterValues.Entry]
    }
    var groups: [Key: [Int]] = [:]
    var order: [(first: Int, key: Key?)] = []
    // The parameter to sweep per recognizer: the varied sweep parameter with most values.
    var chosen: [String: String?] = [:]
    for (c, configuration) in configurations.enumerated() {
      let name = configuration.name
      if chosen.index(forKey: name) == nil {
        chosen.updateValue(Self.sweepParameter(configurations.filter { $0.name == name }), forKey: name)
      }
      guard let parameter = chosen[name] ?? nil, Self.eligible(configuration, parameter: parameter) else {
        order.append((c, nil))
        continue
      }
      let key = Key(
        recognizer: name, parameter: parameter,
        others: configuration.parameters.entries.filter { $0.name != parameter })
      if groups[key] == nil { order.append((c, key)) }
      groups[key, default: []].append(c)
    }
    var units: [SweepUnit] = []
    for (first, key) in order {
      guard let key, let members = groups[key] else {
        units.append(.replay(first))
        continue
      }
      if let group = Self.group(members, parameter: key.parameter, configurations: configurations) {
        units.append(.onePass(group))
      } else {
        units += members.map { .replay($0) }
      }
    }
    return units
  }

  /// The varied parameter with a threshold sweep and the most distinct values, if any.
  static func sweepParameter(_ family: [Configuration]) -> String? {
    guard let first = family.first else { return nil }
    let swept = Set(first.recognizer.thresholdSweeps.map(\.parameter))
    var best: String?
    var bestCount = 0
    for parameter in first.varied where swept.contains(parameter) {
      let values = Set(family.compactMap { $0.parameters[parameter] })
      if values.count >= bestCount {
        best = parameter
        bestCount = values.count
      }
    }
    return best
  }

  /// Whether a configuration's events are all described by threshold sweeps, one of them on
  /// `parameter`.
  static func eligible(_ configuration: Configuration, parameter: String) -> Bool {
    if configuration.recognizer.isComposition { return false }
    let variant = configuration.recognizer.variant
    guard variant.releaseEvent == nil else { return false }
    let sweeps = configuration.recognizer.thresholdSweeps
    guard sweeps.contains(where: { $0.parameter == parameter }) else { return false }
    guard sweeps.contains(where: { $0.event == .action }) else { return false }
    if variant.stage2Event != nil && !sweeps.contains(where: { $0.event == .stage2 }) { return false }
    return true
  }

  /// The one-pass group of `members`, or `nil` when their sweep descriptions differ.
  static func group(_ members: [Int], parameter: String, configurations: [Configuration]) -> OnePassGroup? {
    let first = configurations[members[0]]
    guard let sweep = first.recognizer.thresholdSweeps.first(where: { $0.parameter == parameter }) else { return nil }
    let otherEvent: ThresholdSweep.Event = sweep.event == .action ? .stage2 : .action
    let shape = first.shape
    let other = shape.twoStage || sweep.event == .stage2
      ? first.recognizer.thresholdSweeps.first(where: { $0.event == otherEvent }) : nil
    if (shape.twoStage || sweep.event == .stage2) && other == nil { return nil }
    // Sweep descriptions are compared with `==` (every stored property, including the
    // eligibility rule; NaN settings such as "no limit" equal themselves).
    func same(_ a: ThresholdSweep?, _ b: ThresholdSweep?) -> Bool { a == b }
    var values: [Double] = []
    for c in members {
      let sweeps = configurations[c].recognizer.thresholdSweeps
      guard same(sweeps.first(where: { $0.parameter == parameter }), sweep),
        same(sweeps.first(where: { $0.event == otherEvent }), other),
        case .number(let x)? = configurations[c].parameters[parameter], !x.isNaN
      else { return nil }
      values.append(x)
    }
    let thresholds = Array(Set(values)).sorted()
    let levelIndex = values.map { x in thresholds.firstIndex(of: x)! }
    var otherThreshold = Double.nan
    if let other {
      guard case .number(let x)? = first.parameters[other.parameter] else { return nil }
      otherThreshold = x
    }
    return OnePassGroup(
      members: members, levelIndex: levelIndex, thresholds: thresholds, sweep: sweep, other: other,
      otherThreshold: otherThreshold, shape: shape)
  }
}

extension SweepResult {
  /// The best configuration of each recognizer, in the plan's recognizer order: the highest
  /// stage-1 F1; on a tie the lower p90 latency (action − reference; none ranks last); then the
  /// earlier configuration. A recognizer whose F1 is undefined everywhere gets its first
  /// configuration.
  public func bestConfigurations() -> [(recognizer: RecognizerSpec, configuration: Int)] {
    plan.recognizers.compactMap { spec in
      var best: Int?
      for (c, configuration) in configurations.enumerated() where configuration.spec == spec {
        guard let current = best else {
          best = c
          continue
        }
        if Self.isBetter(metrics[c], than: metrics[current]) { best = c }
      }
      return best.map { (spec, $0) }
    }
  }

  /// Whether `a` ranks above `b` by the rule of ``bestConfigurations()`` (equal: `false`).
  public static func isBetter(_ a: ConfigurationMetrics, than b: ConfigurationMetrics) -> Bool {
    let fa = a.stage1.f1 ?? -1
    let fb = b.stage1.f1 ?? -1
    if fa != fb { return fa > fb }
    let la = a.stage1.latency.p90 ?? .infinity
    let lb = b.stage1.latency.p90 ?? .infinity
    return la < lb
  }
}
