import TouchCore

/// The outcomes of a chunk of traces for every level of a group (a one-pass threshold sweep or a
/// class sweep). Trace `j`'s steps are `stepStart[j] ..< stepStart[j + 1]` in ``uppers``: levels
/// below `uppers[s]` (and at or above the previous step's) give step `s`; levels at or above the
/// last `upper` give the trace's last entry ("never crossed" in a one-pass sweep). The tallies
/// hold, per trace, one entry per step and that last one.
struct OnePassTable: Sendable {
  var uppers: [Int32] = []
  var stepStart: [Int32] = [0]
  var tallies: [TraceTally] = []
  /// The tallies' latencies.
  var store = LatencyStore()
  /// The full outcomes, parallel to ``tallies``, when they are kept.
  var outcomes: [TraceOutcome] = []
  var intents: [Intent] = []
  var classes: [PressClass] = []

  /// Appends the tally of `outcome` (and the outcome, when kept) as the next entry.
  mutating func add(_ outcome: TraceOutcome, keep: Bool) {
    tallies.append(TraceTally(outcome, store: &store))
    if keep { outcomes.append(outcome) }
  }

  /// Appends entry `entry` again (same tally, same latencies), as the next entry.
  mutating func repeatEntry(_ entry: Int, keep: Bool) {
    tallies.append(tallies[entry])
    if keep { outcomes.append(outcomes[entry]) }
  }

  /// Appends every trace's outcome at level index `level`.
  func outcomes(level: Int32, into list: inout [TraceOutcome]) {
    for j in 0..<(stepStart.count - 1) {
      list.append(outcomes[entry(trace: j, level: Int(level))])
    }
  }

  /// The entry of trace `j` at level `level`.
  private func entry(trace j: Int, level: Int) -> Int {
    var low = Int(stepStart[j])
    var high = Int(stepStart[j + 1])
    while low < high {
      let middle = (low + high) >> 1
      if Int(uppers[middle]) > level { high = middle } else { low = middle + 1 }
    }
    return low + j  // each earlier trace has one extra last entry
  }

  /// Calls `body(trace, lower, upper, entry)` for every trace's steps and its last entry, each
  /// covering levels `lower ..< upper` (`levels` = K).
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

  /// Calls `body(entry, from, to)` for every trace's entries that cover part of `block`, with
  /// the covered levels `from ..< to` (non-empty), finding each trace's first by bisection.
  func forEachRange(in block: Range<Int>, levels: Int, _ body: (Int, Int, Int) -> Void) {
    for j in 0..<(stepStart.count - 1) {
      let end = Int(stepStart[j + 1])
      var s = entry(trace: j, level: block.lowerBound) - j
      var lower = s == Int(stepStart[j]) ? 0 : Int(uppers[s - 1])
      while lower < block.upperBound {
        let upper = s < end ? Int(uppers[s]) : levels
        let from = Swift.max(lower, block.lowerBound)
        let to = Swift.min(upper, block.upperBound)
        if from < to { body(s + j, from, to) }
        if s >= end { break }
        lower = upper
        s += 1
      }
    }
  }
}

/// The levels of a level group cut where any trace's outcome changes: between two consecutive
/// cuts every trace has the same outcome at every level, so the levels share their metrics.
struct LevelClasses: Sendable {
  /// The number of levels.
  var levelCount: Int
  /// Each class's first level, ascending (the first is 0).
  var starts: [Int]
  /// Per level: its class.
  var classOf: [Int32]

  /// The classes of `levels` levels given every trace's steps in `tables`.
  init(levels: Int, tables: [SweepItemResult]) {
    levelCount = levels
    var cut = [Bool](repeating: false, count: levels + 1)
    if levels > 0 { cut[0] = true }
    for item in tables {
      guard case .onePass(let table) = item else { continue }
      for upper in table.uppers { cut[Int(upper)] = true }
    }
    starts = []
    classOf = []
    classOf.reserveCapacity(levels)
    for level in 0..<levels {
      if cut[level] { starts.append(level) }
      classOf.append(Int32(starts.count - 1))
    }
  }

  /// The number of classes.
  var count: Int { starts.count }

  /// The levels of classes `classes`.
  func levels(of classes: Range<Int>) -> Range<Int> {
    classes.isEmpty
      ? 0..<0
      : starts[classes.lowerBound]..<(classes.upperBound < starts.count ? starts[classes.upperBound] : levelCount)
  }
}
