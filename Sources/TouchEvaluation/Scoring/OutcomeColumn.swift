/// One configuration's per-trace outcomes in trace order, kept compactly: a few bytes of counts
/// and flags per trace, and the numbers (matched pairs, unmatched event times, added latency)
/// in one shared list. Reading an element rebuilds the ``TraceOutcome`` it was made from,
/// exactly (every number is kept bit for bit).
///
/// A `[TraceOutcome]` costs about 120 bytes a trace plus a heap array for each trace's matched
/// pairs and one for its event times; a column costs 9 bytes a trace (13 with stage 2) plus
/// 24 bytes a matched pair (32 when a latency is not its action − reference) and 8 an event
/// time. What `tune` keeps of every configuration on
/// every trace, and `compare` of its two, is kept this way.
///
/// ```swift
/// var column = OutcomeColumn()
/// for outcome in outcomes { column.append(outcome) }  // outcome.trace == 0, 1, 2, …
/// column[1] == outcomes[1]                            // true
/// ```
public struct OutcomeColumn: RandomAccessCollection, Sendable, Hashable {
  /// Stage 1's counts: actions, references, matched pairs and event times, a byte each (255:
  /// the four are in the numbers instead).
  private var counts1: [UInt32] = []
  /// Stage 2's, the same way (0 for outcomes without stage 2); empty until an outcome has a
  /// stage 2.
  private var counts2: [UInt32] = []
  /// Each outcome's ``Flags``.
  private var flags: [UInt8] = []
  /// Where each outcome's numbers start in ``numbers``; they end where the next one's start.
  private var starts: [UInt32] = []
  private var numbers: [Double] = []

  private struct Flags: OptionSet, Sendable, Hashable {
    let rawValue: UInt8
    static let positive1 = Flags(rawValue: 1)
    static let hasStage2 = Flags(rawValue: 2)
    static let positive2 = Flags(rawValue: 4)
    static let hasFlaps = Flags(rawValue: 8)
    static let hasAddedLatency = Flags(rawValue: 16)
    static let waited = Flags(rawValue: 32)
    /// Every matched pair's latency is its action − reference (as ``MatchedEvent`` computes
    /// it), so it is not kept.
    static let derivedLatency = Flags(rawValue: 64)
  }

  /// An empty column.
  public init() {}

  /// The column of `outcomes`, whose `trace` fields are 0, 1, 2, … in order.
  public init(_ outcomes: some Sequence<TraceOutcome>) {
    for outcome in outcomes { append(outcome) }
  }

  /// 0, the first trace's position.
  public var startIndex: Int { 0 }
  /// The number of outcomes (traces).
  public var endIndex: Int { flags.count }

  /// Appends the outcome of the next trace.
  ///
  /// - Precondition: `outcome.trace == count` (outcomes come in trace order, one per trace).
  public mutating func append(_ outcome: TraceOutcome) {
    precondition(outcome.trace == count, "outcome of trace \(outcome.trace) where trace \(count) comes next")
    precondition(numbers.count < Int(UInt32.max), "an outcome column holds fewer than 2³² numbers")
    starts.append(UInt32(numbers.count))
    var f: Flags = outcome.stage1.isPositive ? [.positive1] : []
    let derived = Self.latenciesDerived(outcome.stage1) && outcome.stage2.map(Self.latenciesDerived) ?? true
    if derived { f.insert(.derivedLatency) }
    counts1.append(put(outcome.stage1, derived: derived))
    if let stage2 = outcome.stage2 {
      f.insert(.hasStage2)
      if stage2.isPositive { f.insert(.positive2) }
      if counts2.count < counts1.count - 1 { counts2 += repeatElement(0, count: counts1.count - 1 - counts2.count) }
      counts2.append(put(stage2, derived: derived))
    }
    if let flaps = outcome.flaps {
      f.insert(.hasFlaps)
      numbers.append(Double(flaps))
    }
    if let added = outcome.addedLatency {
      f.insert(.hasAddedLatency)
      numbers.append(added)
    }
    if outcome.waited { f.insert(.waited) }
    flags.append(f.rawValue)
  }

  /// Appends every outcome of `outcomes`, in order.
  public mutating func append(contentsOf outcomes: some Sequence<TraceOutcome>) {
    for outcome in outcomes { append(outcome) }
  }

  /// The outcome of trace `position`.
  public subscript(position: Int) -> TraceOutcome {
    let f = Flags(rawValue: flags[position])
    var at = Int(starts[position])
    let derived = f.contains(.derivedLatency)
    let stage1 = take(counts1[position], positive: f.contains(.positive1), derived: derived, at: &at)
    let stage2 =
      f.contains(.hasStage2)
      ? take(counts2[position], positive: f.contains(.positive2), derived: derived, at: &at) : nil
    var flaps: Int?
    if f.contains(.hasFlaps) {
      flaps = Int(numbers[at])
      at += 1
    }
    let added = f.contains(.hasAddedLatency) ? numbers[at] : nil
    return TraceOutcome(
      trace: position, stage1: stage1, stage2: stage2, flaps: flaps, addedLatency: added,
      waited: f.contains(.waited))
  }

  /// The column's storage, for writing it to a spill file and reading it back
  /// (``init(parts:)``).
  package var parts: Parts {
    Parts(counts1: counts1, counts2: counts2, flags: flags, starts: starts, numbers: numbers)
  }

  /// A column's storage: per outcome its packed counts, flags and first number, and the numbers.
  package struct Parts: Sendable {
    package var counts1: [UInt32]
    package var counts2: [UInt32]
    package var flags: [UInt8]
    package var starts: [UInt32]
    package var numbers: [Double]

    package init(counts1: [UInt32], counts2: [UInt32], flags: [UInt8], starts: [UInt32], numbers: [Double]) {
      (self.counts1, self.counts2, self.flags, self.starts) = (counts1, counts2, flags, starts)
      self.numbers = numbers
    }
  }

  /// The column whose storage is `parts` (as ``parts`` gave it).
  package init(parts: Parts) {
    precondition(
      parts.counts1.count == parts.flags.count && parts.starts.count == parts.flags.count
        && parts.counts2.count <= parts.flags.count, "a column's parts have one entry per outcome")
    (counts1, counts2, flags, starts, numbers) = (
      parts.counts1, parts.counts2, parts.flags, parts.starts, parts.numbers
    )
  }

  /// Appends the outcomes of `other`, which are those of the traces after this column's: its
  /// first is trace `count`.
  package mutating func append(contentsOf other: OutcomeColumn) {
    precondition(
      numbers.count + other.numbers.count < Int(UInt32.max), "an outcome column holds fewer than 2³² numbers")
    let base = UInt32(numbers.count)
    if !other.counts2.isEmpty || !counts2.isEmpty {
      counts2 += repeatElement(0, count: count - counts2.count)
      counts2 += other.counts2 + repeatElement(0, count: other.count - other.counts2.count)
    }
    counts1 += other.counts1
    flags += other.flags
    starts += other.starts.map { $0 + base }
    numbers += other.numbers
  }

  /// Puts a stage's numbers (and its counts, when one does not fit a byte) and returns its
  /// packed counts.
  private mutating func put(_ s: StageOutcome, derived: Bool) -> UInt32 {
    let (a, r, m, e) = (s.actions, s.references, s.matches.count, s.events.count)
    let packed: UInt32
    if a < 255 && r < 255 && m < 255 && e < 255 {
      packed = UInt32(a) | UInt32(r) << 8 | UInt32(m) << 16 | UInt32(e) << 24
    } else {
      packed = UInt32.max
      for n in [a, r, m, e] { numbers.append(Double(n)) }
    }
    for match in s.matches {
      numbers.append(match.action)
      numbers.append(match.reference)
      if !derived { numbers.append(match.latency) }
      numbers.append(match.latencyFromDown)
    }
    numbers.append(contentsOf: s.events)
    return packed
  }

  /// Whether every matched pair's latency is its action − reference, bit for bit.
  private static func latenciesDerived(_ s: StageOutcome) -> Bool {
    s.matches.allSatisfy { ($0.action - $0.reference).bitPattern == $0.latency.bitPattern }
  }

  /// Reads a stage back from its packed counts and the numbers at `at`, advancing `at`.
  private func take(_ packed: UInt32, positive: Bool, derived: Bool, at: inout Int) -> StageOutcome {
    let a: Int
    let r: Int
    let m: Int
    let e: Int
    if packed == UInt32.max {
      (a, r, m, e) = (Int(numbers[at]), Int(numbers[at + 1]), Int(numbers[at + 2]), Int(numbers[at + 3]))
      at += 4
    } else {
      (a, r) = (Int(packed & 0xFF), Int(packed >> 8 & 0xFF))
      (m, e) = (Int(packed >> 16 & 0xFF), Int(packed >> 24))
    }
    var matches: [MatchedEvent] = []
    matches.reserveCapacity(m)
    for _ in 0..<m {
      var match = MatchedEvent(action: numbers[at], reference: numbers[at + 1], touchDown: 0)
      if !derived {
        match.latency = numbers[at + 2]
        at += 1
      }
      match.latencyFromDown = numbers[at + 2]
      matches.append(match)
      at += 3
    }
    let events = e == 0 ? [] : Array(numbers[at..<at + e])
    at += e
    return StageOutcome(isPositive: positive, actions: a, references: r, matches: matches, events: events)
  }
}
