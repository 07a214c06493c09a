import TouchCore
import TouchRecognizers

extension Evaluation {
  /// The level table of chunk `c` for a class group: per trace, one replay per equivalence
  /// class of the compared parameters that the levels touch, each class's outcome given to the
  /// range of levels it covers.
  ///
  /// A parameter used only in order comparisons of a per-sample quantity `q` with a level `d`
  /// (``ParameterSpec/comparison``) gives a trace the same replay for every value whose `d` has
  /// the same position among the trace's distinct quantities u₀ < u₁ < … : below u₀, equal to
  /// u₀, strictly between u₀ and u₁, and so on (class `2i` below or strictly between, `2i + 1`
  /// equal to uᵢ). A level's key is its classes' tuple; levels with one key share one replay.
  /// Adjacent ranges with equal outcomes are merged.
  func classChunk(_ group: ClassGroup, pieces: Chunks, chunk c: Int, keep: Bool) -> OnePassTable {
    let traces = pieces.traces[c]
    let truths = pieces.truths[c]
    let first = pieces.range(c).lowerBound
    var table = OnePassTable()
    table.stepStart.reserveCapacity(traces.count + 1)
    var work = ClassChunkWork(group)

    // Each trace (and its truth) is reached through a pointer: a copy would retain and release
    // every column and label of every trace.
    traces.withUnsafeBufferPointer { buffer in
      truths.withUnsafeBufferPointer { truths in
        for i in buffer.indices {
          let trace = buffer.baseAddress.unsafelyUnwrapped + i
          let truth = truths.baseAddress.unsafelyUnwrapped + i
          let maxForce = trace.pointee.metadata.maxForce ?? .nan
          // The force the comparisons see (filtered, behind a filter; the filter is the same in
          // every member).
          let filtered = group.recognizers[0].base.comparedForce(of: trace.pointee)
          let compared = filtered ?? trace.pointee.force
          work.classifyValues(group, of: compared, maxForce: maxForce)
          work.findRuns(group, maxForce: maxForce)
          work.replaySlots(
            group, traces, at: i, comparedForce: filtered, trace: first + i, truth: truth.pointee,
            tolerance: options.tolerance)
          work.appendEntries(to: &table, truth: truth.pointee, keep: keep)
        }
      }
    }
    return table
  }

  /// The distinct values of `scale`'s quantity over `force` (NaN left out: it compares false
  /// with every level, whatever the value), ascending.
  static func distinctQuantities(_ force: [Double], scale: ThresholdSweep.Scale, maxForce: Double) -> [Double] {
    var q: [Double] = []
    q.reserveCapacity(force.count)
    for f in force {
      let x = scale.quantity(force: f, maxForce: maxForce)
      if !x.isNaN { q.append(x) }
    }
    q.sort()
    var n = 0
    for x in q where n == 0 || x != q[n - 1] {
      q[n] = x
      n += 1
    }
    q.removeLast(q.count - n)
    return q
  }

  /// The first value index of each class of `values` (ascending, NaN last) among the distinct
  /// quantities `u` (see ``classify(_:scale:maxForce:among:into:)``), in order, found by
  /// bisection: O(|u| log |values|). The levels of the numbers never decrease with the value (every
  /// scale's level is monotone); a NaN value starts a class of its own.
  static func classStarts(
    _ values: [Double], scale: ThresholdSweep.Scale, maxForce: Double, among u: [Double], into starts: inout [Int32]
  ) {
    let numbers = values.last?.isNaN == true ? values.count - 1 : values.count
    starts.append(0)
    func first(_ test: (Double) -> Bool) -> Int {
      var low = 0
      var high = numbers
      while low < high {
        let middle = (low + high) >> 1
        if test(scale.level(threshold: values[middle], maxForce: maxForce)) { high = middle } else { low = middle + 1 }
      }
      return low
    }
    var from = 0
    for x in u {
      let reached = first { $0 >= x }
      if reached >= numbers { break }
      if reached > from {
        starts.append(Int32(reached))
        from = reached
      }
      let passed = first { $0 > x }
      if passed >= numbers { break }
      if passed > from {
        starts.append(Int32(passed))
        from = passed
      }
    }
    if numbers < values.count && numbers > 0 { starts.append(Int32(numbers)) }
  }

  /// The class of each value (ascending, NaN last) among the distinct quantities `u`: `2i` when
  /// its level lies below `u[i]` and above `u[i − 1]`, `2i + 1` when it equals `u[i]`; NaN
  /// levels (every comparison false) are `Int32.max`.
  static func classify(
    _ values: [Double], scale: ThresholdSweep.Scale, maxForce: Double, among u: [Double], into classes: inout [Int32]
  ) {
    var i = 0
    var last = -Double.infinity
    for v in values.indices {
      let d = scale.level(threshold: values[v], maxForce: maxForce)
      if d.isNaN {
        classes[v] = Int32.max
        continue
      }
      if d < last { i = 0 }  // levels not monotone in the value: search from the start
      last = d
      while i < u.count && u[i] < d { i += 1 }
      classes[v] = Int32(2 * i + (i < u.count && u[i] == d ? 1 : 0))
    }
  }
}

/// The buffers ``Evaluation/classChunk(_:pieces:chunk:keep:)`` reuses from trace to trace, and
/// the four steps it takes per trace. The steps are always inlined: they are the sweep's inner loop.
private struct ClassChunkWork {
  /// The number of compared parameters.
  let dimensions: Int
  /// The number of levels.
  let levels: Int
  /// The replays' events.
  var log = ReplayLog()
  /// The scoring's event lists.
  var scratch = ScoringScratch()
  /// Per compared parameter: the trace's distinct quantities (shared when scales agree).
  var quantities: [[Double]] = []
  /// Per compared parameter: each value's class on the trace (two or more parameters).
  var classes: [[Int32]]
  /// Per run of levels with one key: its first level.
  var runStart: [Int32] = []
  /// Per run: its slot.
  var runSlot: [Int32] = []
  /// Per slot (one replay per distinct key): the level replayed.
  var slotLevel: [Int32] = []
  /// Per slot: the outcome of its replay.
  var slotOutcome: [TraceOutcome] = []
  /// Per slot: the first slot with an equal outcome (adjacent ones only, for one parameter).
  var slotCanonical: [Int32] = []
  /// Per canonical slot: its entry in the table, or -1 before it has one.
  var canonicalEntry: [Int32] = []
  /// Two parameters: the slot of each second-parameter class in the block (-1: none yet).
  var lastSlot: [Int32] = []
  /// Two parameters: the entries of ``lastSlot`` set in the block.
  var touched: [Int32] = []
  /// Three or more parameters: the slot of each key.
  var keyed: [[Int32]: Int32] = [:]
  /// Two or more parameters: the first slot of each outcome.
  var byOutcome: [TraceOutcome: Int32] = [:]
  /// Three or more parameters: a level's key, built in place.
  var key: [Int32]

  /// Empty buffers for `group`'s levels and compared parameters.
  init(_ group: ClassGroup) {
    dimensions = group.compared.count
    levels = group.levelCount
    classes = group.compared.map { [Int32](repeating: 0, count: $0.values.count) }
    key = [Int32](repeating: 0, count: dimensions)
  }

  /// Step 1: each compared parameter's distinct quantities on the trace whose compared force is
  /// `compared` and, with two or more parameters, each value's class among them.
  @inline(__always)
  mutating func classifyValues(_ group: ClassGroup, of compared: [Double], maxForce: Double) {
    quantities.removeAll(keepingCapacity: true)
    for p in 0..<dimensions {
      let scale = group.compared[p].scale
      if let same = (0..<p).first(where: { group.compared[$0].scale == scale }) {
        quantities.append(quantities[same])
      } else {
        quantities.append(Evaluation.distinctQuantities(compared, scale: scale, maxForce: maxForce))
      }
      // (One parameter: its class changes are found by bisection below, not value by value.)
      if dimensions > 1 {
        Evaluation.classify(
          group.compared[p].values, scale: scale, maxForce: maxForce, among: quantities[p], into: &classes[p])
      }
    }
  }

  /// Step 2: the runs of levels with one key, and a slot (one replay) per distinct key.
  @inline(__always)
  mutating func findRuns(_ group: ClassGroup, maxForce: Double) {
    runStart.removeAll(keepingCapacity: true)
    runSlot.removeAll(keepingCapacity: true)
    slotLevel.removeAll(keepingCapacity: true)
    keyed.removeAll(keepingCapacity: true)
    switch dimensions {
    case 0:
      // Duplicated settings only: one class.
      runStart.append(0)
      runSlot.append(0)
      slotLevel.append(0)
    case 1:
      // The levels are the values, ascending: each class starts where some distinct quantity u
      // is first reached (level ≥ u) or first passed (level > u).
      Evaluation.classStarts(
        group.compared[0].values, scale: group.compared[0].scale, maxForce: maxForce, among: quantities[0],
        into: &runStart)
      for start in runStart {
        runSlot.append(Int32(slotLevel.count))
        slotLevel.append(start)
      }
    case 2:
      findTwoParameterRuns(group)
    default:
      findManyParameterRuns(group)
    }
    for t in touched { lastSlot[Int(t)] = -1 }
    touched.removeAll(keepingCapacity: true)
  }

  /// Step 2 for two parameters: the first class rises with the level; within its block, second
  /// classes repeat: a table by second class, cleared at each block, finds their slots.
  @inline(__always)
  mutating func findTwoParameterRuns(_ group: ClassGroup) {
    let levels = levels
    let width = 2 * quantities[1].count + 3
    if lastSlot.count < width { lastSlot += [Int32](repeating: -1, count: width - lastSlot.count) }
    classes[0].withUnsafeBufferPointer { c0 in
      classes[1].withUnsafeBufferPointer { c1 in
        group.compared[0].valueOfLevel.withUnsafeBufferPointer { v0 in
          group.compared[1].valueOfLevel.withUnsafeBufferPointer { v1 in
            lastSlot.withUnsafeMutableBufferPointer { table in
              var last0 = Int32(-1)
              var last1 = Int32(-1)
              for level in 0..<levels {
                let k0 = c0[Int(v0[level])]
                let k1 = c1[Int(v1[level])]
                if level > 0 && k0 == last0 && k1 == last1 { continue }
                if k0 != last0 || level == 0 {
                  for t in touched { table[Int(t)] = -1 }
                  touched.removeAll(keepingCapacity: true)
                }
                last0 = k0
                last1 = k1
                let b = k1 == Int32.max ? width - 1 : Int(k1)
                if table[b] < 0 {
                  table[b] = Int32(slotLevel.count)
                  touched.append(Int32(b))
                  slotLevel.append(Int32(level))
                }
                runStart.append(Int32(level))
                runSlot.append(table[b])
              }
            }
          }
        }
      }
    }
  }

  /// Step 2 for three or more parameters: each new key (the tuple of the level's classes) gets a
  /// slot, found again through ``keyed`` when it recurs.
  @inline(__always)
  mutating func findManyParameterRuns(_ group: ClassGroup) {
    var previous = [Int32](repeating: 0, count: dimensions)
    for level in 0..<levels {
      for p in 0..<dimensions { key[p] = classes[p][Int(group.compared[p].valueOfLevel[level])] }
      if level > 0 && key == previous { continue }
      swap(&key, &previous)
      let slot: Int32
      if let known = keyed[previous] {
        slot = known
      } else {
        slot = Int32(slotLevel.count)
        keyed[previous] = slot
        slotLevel.append(Int32(level))
      }
      runStart.append(Int32(level))
      runSlot.append(slot)
    }
  }

  /// Step 3: one replay of trace `i` of `traces` per slot, scored (`trace`: its index among all
  /// traces; `truth`: its ground truth; `tolerance`: the matching window, seconds); equal outcomes
  /// share a canonical slot.
  @inline(__always)
  mutating func replaySlots(
    _ group: ClassGroup, _ traces: [Trace], at i: Int, comparedForce filtered: [Double]?, trace: Int,
    truth: borrowing TraceTruth, tolerance: Double
  ) {
    log.removeAll()
    slotOutcome.removeAll(keepingCapacity: true)
    slotCanonical.removeAll(keepingCapacity: true)
    byOutcome.removeAll(keepingCapacity: true)
    for s in slotLevel.indices {
      group.recognizers[Int(slotLevel[s])].base.replay(traces, at: i, comparedForce: filtered, into: &log)
      let outcome = scratch.outcome(
        of: log, span: s, trace: trace, truth: truth, shape: group.shape, tolerance: tolerance)
      if dimensions <= 1 {
        // Equal outcomes can only be merged when adjacent: compare with the previous class.
        slotCanonical.append(s > 0 && slotOutcome[s - 1] == outcome ? slotCanonical[s - 1] : Int32(s))
      } else if let known = byOutcome[outcome] {
        slotCanonical.append(known)
      } else {
        byOutcome[outcome] = Int32(s)
        slotCanonical.append(Int32(s))
      }
      slotOutcome.append(outcome)  // its last use: moved, not copied
    }
  }

  /// Step 4: the trace's entries in `table` (`truth`: its ground truth): runs merged where the
  /// outcome does not change.
  @inline(__always)
  mutating func appendEntries(to table: inout OnePassTable, truth: borrowing TraceTruth, keep: Bool) {
    table.intents.append(truth.intent)
    table.classes.append(truth.actualClass)
    canonicalEntry.removeAll(keepingCapacity: true)
    canonicalEntry += repeatElement(-1, count: slotLevel.count)
    var current = slotCanonical[Int(runSlot[0])]
    for r in 1...runStart.count {
      let next = r < runStart.count ? slotCanonical[Int(runSlot[r])] : -1
      if r < runStart.count && next == current { continue }
      if r < runStart.count { table.uppers.append(runStart[r]) }
      let canonical = Int(current)
      if canonicalEntry[canonical] >= 0 {
        table.repeatEntry(Int(canonicalEntry[canonical]), keep: keep)
      } else {
        canonicalEntry[canonical] = Int32(table.tallies.count)
        // Borrowed in place: a subscript would copy the outcome (retaining its four lists).
        slotOutcome.withUnsafeBufferPointer { table.add($0[canonical], keep: keep) }
      }
      current = next
    }
    table.stepStart.append(Int32(table.uppers.count))
  }
}
