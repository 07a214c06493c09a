import TouchCore

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
