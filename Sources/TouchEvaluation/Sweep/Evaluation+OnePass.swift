import TouchCore
import TouchRecognizers

extension Evaluation {
  /// Levels per one-pass metrics task.
  static let levelBlock = 16

  /// The integer sums of every level of a level group (K rows of ``CountVector/width``): each
  /// step adds its tally to its range of levels through a difference array.
  static func levelCounts(levels k: Int, tables: [SweepItemResult]) -> [Int32] {
    let width = CountVector.width
    var sums = [Int32](repeating: 0, count: (k + 1) * width)
    sums.withUnsafeMutableBufferPointer { v in
      let base = v.baseAddress!
      for item in tables {
        guard case .onePass(let table) = item else { continue }
        table.forEachRange(levels: k) { j, lower, upper, entry in
          guard lower < upper else { return }
          let tally = table.tallies[entry]
          CountVector.add(
            tally, intent: table.intents[j], actualClass: table.classes[j], sign: 1, to: base + lower * width)
          CountVector.add(
            tally, intent: table.intents[j], actualClass: table.classes[j], sign: -1, to: base + upper * width)
        }
      }
      for level in stride(from: 1, through: k, by: 1) {
        for f in 0..<width { base[level * width + f] &+= base[(level - 1) * width + f] }
      }
    }
    return sums
  }

  /// The metrics of classes `classes` of a level group's partition (outcomes of `shape`): the
  /// sums from `counts` at each class's first level, the latencies gathered in trace order from
  /// the steps covering each class.
  static func levelMetrics(
    classes: Range<Int>, partition: LevelClasses, shape: OutcomeShape, counts: [Int32], tables: [SweepItemResult]
  ) -> [MetricsAccumulator] {
    var accumulators = classes.map { _ in MetricsAccumulator(shape: shape) }
    let levels = partition.levels(of: classes)
    for item in tables {
      guard case .onePass(let table) = item else { continue }
      table.forEachRange(in: levels, levels: partition.levelCount) { entry, from, to in
        let tally = table.tallies[entry]
        guard tally.hasLatencies else { return }
        for c in Int(partition.classOf[from])...Int(partition.classOf[to - 1]) {
          accumulators[c - classes.lowerBound].addLatencies(tally, from: table.store)
        }
      }
    }
    return counts.withUnsafeBufferPointer { v in
      classes.map { c in
        var accumulator = accumulators[c - classes.lowerBound]
        let level = partition.starts[c]
        CountVector.apply(v.baseAddress! + level * CountVector.width, to: &accumulator.metrics, shape: shape)
        return accumulator
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
    // Each trace is reached through a pointer: a copy would retain and release every column and
    // label of every trace.
    traces.withUnsafeBufferPointer { traces in
      for k in range {
        let trace = traces.baseAddress.unsafelyUnwrapped + k
        let truth = truths[k]
        let candidates = sweep.candidates(at: trace)
        let maxForce = trace.pointee.metadata.maxForce ?? .nan
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
        if steps.count < room {
          steps = [CrossingStep](repeating: CrossingStep(lower: 0, upper: 0, position: 0), count: room)
        }
        let found = quantities.withUnsafeBufferPointer { q in
          levels.withUnsafeLevels { l in
            steps.withUnsafeMutableBufferPointer { s -> Int in
              guard let base = s.baseAddress else { return 0 }
              switch sweep.comparison {
              case .greaterThan:
                return RunningMaxSweep.firstCrossings(
                  StrictlyAbove.self, quantities: q, range: 0..<q.count, levels: l, into: base)
              case .greaterThanOrEqual:
                return RunningMaxSweep.firstCrossings(
                  AtOrAbove.self, quantities: q, range: 0..<q.count, levels: l, into: base)
              }
            }
          }
        }
        // The other stage's event at its fixed threshold (a direct scan).
        var otherEvents: [Double] = []
        if let other = group.other,
          let hit = other.candidates(at: trace).first(where: {
            other.crosses(force: $0.force, threshold: group.otherThreshold, maxForce: maxForce)
          })
        {
          otherEvents = [trace.pointee.t[hit.index]]
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
          table.add(outcome([trace.pointee.t[candidates[steps[s].position].index]]), keep: keep)
        }
        table.add(outcome([]), keep: keep)
        table.stepStart.append(Int32(table.uppers.count))
      }
    }
    return table
  }
}
