package import TouchCore
import TouchEvaluation
import TouchRecognizers
import TouchSignal

/// Little-endian binary writing of a partial's fields (and of TouchStudy's spool of analyzed
/// traces).
package struct BinaryWriter {
  package var bytes: [UInt8] = []

  package init() {}

  mutating func u8(_ v: UInt8) { bytes.append(v) }
  mutating func bool(_ v: Bool) { bytes.append(v ? 1 : 0) }
  mutating func u64(_ v: UInt64) {
    for k in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(k)))) }
  }
  mutating func int(_ v: Int) { u64(UInt64(bitPattern: Int64(v))) }
  /// The exact bits.
  mutating func double(_ v: Double) { u64(v.bitPattern) }
  mutating func string(_ s: String) {
    int(s.utf8.count)
    bytes.append(contentsOf: s.utf8)
  }
  mutating func optional<T>(_ v: T?, _ write: (inout BinaryWriter, T) -> Void) {
    bool(v != nil)
    if let v { write(&self, v) }
  }
  mutating func array<T>(_ values: [T], _ write: (inout BinaryWriter, T) -> Void) {
    int(values.count)
    for v in values { write(&self, v) }
  }
  package mutating func doubles(_ values: [Double]) {
    int(values.count)
    #if _endian(little)
      // The exact bits, little-endian: the memory's own bytes, copied at once.
      values.withUnsafeBytes { bytes.append(contentsOf: $0) }
    #else
      bytes.reserveCapacity(bytes.count + 8 * values.count)
      for v in values { double(v) }
    #endif
  }
}

/// Reading back what ``BinaryWriter`` wrote, every read bounds-checked: from bytes in memory,
/// or from a file a window at a time (``BinaryFeed``), which holds the bytes not yet read of
/// the last piece and no more.
package struct BinaryReader {
  /// The bytes held: all of them, or the window of a feed's file from ``base`` on.
  private var bytes: [UInt8]
  /// Where ``bytes`` starts among all the bytes (0 without a feed).
  private var base = 0
  /// Where the next read starts among all the bytes.
  var offset: Int
  /// Where reading stops: `bytes.count`, or before a trailer the reader must not read (a
  /// partial's checksum), so that the bytes are not copied to leave it out.
  let end: Int
  /// The file the window comes from; `nil` when every byte is in ``bytes``.
  private let feed: BinaryFeed?
  /// The file name of the last origin read: the traces of one file share its string instead of
  /// a copy each (a path past 15 bytes is a heap string of its own).
  private var lastFile = ""

  package init(_ bytes: [UInt8], offset: Int = 0, end: Int? = nil) {
    precondition(end.map { $0 >= 0 && $0 <= bytes.count } ?? true, "the end lies within the bytes")
    self.bytes = bytes
    self.offset = offset
    self.end = end ?? bytes.count
    self.feed = nil
  }

  /// Reads `feed`'s bytes from its start up to `end` (the bytes after it are the feed's to read).
  package init(_ feed: BinaryFeed, end: Int) {
    precondition(end >= 0, "an end")
    self.bytes = []
    self.offset = 0
    self.end = end
    self.feed = feed
  }

  /// Makes the next `n` bytes available at `offset - base`, reading the feed further when the
  /// window ends before them.
  ///
  /// - Throws: `Truncated` when fewer than `n` bytes are left before ``end``, or the feed fails
  ///   (it keeps the reason).
  @inline(__always)
  private mutating func need(_ n: Int) throws(Truncated) {
    guard end - offset >= n else { throw Truncated() }
    if offset - base + n > bytes.count { try refill(n) }
  }

  /// Drops the bytes before `offset` from the window and reads at least what `n` needs, a
  /// piece of the feed's size at a time when less.
  private mutating func refill(_ n: Int) throws(Truncated) {
    guard let feed else { throw Truncated() }
    let kept = bytes[(offset - base)...]
    let read = base + bytes.count
    let more = Swift.min(Swift.max(n - kept.count, feed.piece), end - read)
    let next = try feed.read(more)
    guard next.count == more else { throw Truncated() }
    bytes = kept.isEmpty ? next : Array(kept) + next
    base = offset
  }

  package struct Truncated: Error {}

  package var isAtEnd: Bool { offset == end }

  /// The next `n` bytes as they are.
  package mutating func raw(_ n: Int) throws(Truncated) -> [UInt8] {
    try need(n)
    defer { offset += n }
    return Array(bytes[(offset - base)..<(offset - base + n)])
  }

  mutating func u8() throws(Truncated) -> UInt8 {
    try need(1)
    defer { offset += 1 }
    return bytes[offset - base]
  }
  mutating func bool() throws(Truncated) -> Bool {
    switch try u8() {
    case 0: return false
    case 1: return true
    default: throw Truncated()
    }
  }
  mutating func u64() throws(Truncated) -> UInt64 {
    try need(8)
    var v: UInt64 = 0
    let at = offset - base
    for k in 0..<8 { v |= UInt64(bytes[at + k]) << (8 * UInt64(k)) }
    offset += 8
    return v
  }
  mutating func int() throws(Truncated) -> Int { Int(Int64(bitPattern: try u64())) }
  /// A count, which must fit in the bytes left (each element at least `minimumSize` bytes).
  mutating func count(minimumSize: Int = 1) throws(Truncated) -> Int {
    let n = try int()
    guard n >= 0, n <= (end - offset) / Swift.max(1, minimumSize) else { throw Truncated() }
    return n
  }
  mutating func double() throws(Truncated) -> Double { Double(bitPattern: try u64()) }
  /// A double that must be finite (times, latencies, forces).
  mutating func finite() throws(Truncated) -> Double {
    let v = try double()
    guard v.isFinite else { throw Truncated() }
    return v
  }
  /// A count stored as an integer: 0 ... `limit`.
  mutating func natural(atMost limit: Int = Int(Int32.max)) throws(Truncated) -> Int {
    let v = try int()
    guard v >= 0, v <= limit else { throw Truncated() }
    return v
  }
  /// The 32 bytes of a SHA-256 digest.
  mutating func digest() throws(Truncated) -> SHA256.Digest {
    try need(SHA256.byteCount)
    defer { offset += SHA256.byteCount }
    return SHA256.Digest(bytes: Array(bytes[(offset - base)..<(offset - base + SHA256.byteCount)]))!
  }
  mutating func string() throws(Truncated) -> String {
    let n = try count()
    try need(n)
    defer { offset += n }
    return String(decoding: bytes[(offset - base)..<(offset - base + n)], as: UTF8.self)
  }
  mutating func optional<T>(_ read: (inout BinaryReader) throws(Truncated) -> T) throws(Truncated) -> T? {
    try bool() ? try read(&self) : nil
  }
  /// An array of elements each encoded in at least `minimumSize` bytes.
  ///
  /// `n` is bounded by the bytes left, not by what `n` elements take in memory: with the default
  /// size of 1 byte, no more than a small start is reserved and the array grows as elements are
  /// actually read. Given the element's true minimum, the whole count is reserved at once (one
  /// allocation instead of doublings, which hold the old and the new buffer together: half as
  /// much again at the peak); a forged count can then reserve at most `MemoryLayout<T>.stride /
  /// minimumSize` times the bytes left.
  mutating func array<T>(minimumSize: Int = 1, _ read: (inout BinaryReader) throws(Truncated) -> T) throws(Truncated)
    -> [T]
  {
    let n = try count(minimumSize: minimumSize)
    var values: [T] = []
    values.reserveCapacity(minimumSize > 1 ? n : Swift.min(n, 256))
    for _ in 0..<n { values.append(try read(&self)) }
    return values
  }
  mutating func doubles() throws(Truncated) -> [Double] {
    let n = try count(minimumSize: 8)
    #if _endian(little)
      // The count fits in the bytes left (checked above): copy the bits at once.
      try need(8 * n)
      let start = offset - base
      offset += 8 * n
      return [Double](unsafeUninitializedCapacity: n) { buffer, initialized in
        bytes.withUnsafeBytes { source in
          UnsafeMutableRawBufferPointer(buffer).copyMemory(
            from: UnsafeRawBufferPointer(rebasing: source[start..<(start + 8 * n)]))
        }
        initialized = n
      }
    #else
      var values = [Double](repeating: 0, count: n)
      for k in 0..<n { values[k] = try double() }
      return values
    #endif
  }
  /// Doubles that must all be finite.
  mutating func finites() throws(Truncated) -> [Double] {
    let values = try doubles()
    guard values.allSatisfy(\.isFinite) else { throw Truncated() }
    return values
  }
}

// MARK: - The model's types

extension BinaryWriter {
  mutating func position(_ p: TextPosition) {
    int(p.line)
    int(p.column)
  }
  package mutating func origin(_ o: TraceOrigin) {
    string(o.file)
    optional(o.position) { $0.position($1) }
    optional(o.record) { $0.int($1) }
  }
  package mutating func metadata(_ m: TraceMetadata) {
    string(m.id)
    int(m.touch)
    optional(m.intent) { $0.string($1.rawValue) }
    doubles(m.pressAt)
    optional(m.user) { $0.string($1) }
    optional(m.session) { $0.string($1) }
    optional(m.device) { $0.string($1) }
    optional(m.maxForce) { $0.double($1) }
    bool(m.timeSynthesized)
    array(m.labels.sorted { $0.key < $1.key }) {
      $0.string($1.key)
      $0.string($1.value)
    }
  }
  mutating func truth(_ t: TraceTruth) {
    string(t.intent.rawValue)
    bool(t.isPositive)
    doubles(t.references)
    doubles(t.stage2References)
    optional(t.referenceSource) { $0.string($1.rawValue) }
    double(t.touchDown)
    double(t.liftOff)
  }
  mutating func skipped(_ s: SkippedTrace) {
    optional(s.trace) { $0.string($1) }
    origin(s.origin)
    optional(s.position) { $0.position($1) }
    string(s.reason)
  }
  mutating func diagnostic(_ d: Diagnostic) {
    string(d.severity.rawValue)
    optional(d.file) { $0.string($1) }
    optional(d.position) { $0.position($1) }
    string(d.message)
  }
  mutating func stage(_ s: StageOutcome) {
    bool(s.isPositive)
    int(s.actions)
    int(s.references)
    array(s.matches) {
      $0.double($1.action)
      $0.double($1.reference)
      $0.double($1.latency)
      $0.double($1.latencyFromDown)
    }
    doubles(s.events)
  }
  mutating func outcome(_ o: TraceOutcome) {
    int(o.trace)
    stage(o.stage1)
    optional(o.stage2) { $0.stage($1) }
    optional(o.flaps) { $0.int($1) }
    optional(o.addedLatency) { $0.double($1) }
    bool(o.waited)
  }
  mutating func shape(_ s: OutcomeShape) {
    bool(s.twoStage)
    bool(s.reportsFlaps)
    bool(s.isComposition)
  }
  mutating func stageCounts(_ s: StageMetrics) {
    for v in [
      s.truePositives, s.falsePositives, s.falseNegatives, s.trueNegatives, s.positiveTraces, s.negativeTraces,
      s.falsePositiveTraces, s.references, s.actions,
    ] { int(v) }
    for intent in Intent.allCases { int(s.falsePositivesByIntent[intent]) }
  }
  /// A partial's sums, then its lists as indices into `table` (identical lists stored once).
  mutating func configurationPartial(_ p: ConfigurationPartial, table: inout ListTable) {
    configurationCounts(p)
    array(p.lists.map { table.index(of: $0) }) { $0.int($1) }
  }

  mutating func configurationCounts(_ p: ConfigurationPartial) {
    shape(p.shape)
    let m = p.counts
    int(m.traces)
    stageCounts(m.stage1)
    optional(m.stage2) { $0.stageCounts($1) }
    optional(m.confusion) { w, c in
      for a in PressClass.allCases { for q in PressClass.allCases { w.int(c[a, q]) } }
    }
    optional(m.flaps) { $0.int($1) }
    optional(m.waited) { $0.int($1) }
  }
}

extension BinaryReader {
  mutating func position() throws(Truncated) -> TextPosition {
    TextPosition(line: try int(), column: try int())
  }
  package mutating func origin() throws(Truncated) -> TraceOrigin {
    let n = try count()
    try need(n)
    let name = bytes[(offset - base)..<(offset - base + n)]
    offset += n
    if !lastFile.utf8.elementsEqual(name) { lastFile = String(decoding: name, as: UTF8.self) }
    return TraceOrigin(
      file: lastFile, position: try optional { r throws(Truncated) in try r.position() },
      record: try optional { r throws(Truncated) in try r.int() })
  }
  mutating func intent() throws(Truncated) -> Intent {
    guard let intent = Intent(rawValue: try string()) else { throw Truncated() }
    return intent
  }
  package mutating func metadata() throws(Truncated) -> TraceMetadata {
    let id = try string()
    let touch = try natural(atMost: Int.max)
    let intent = try optional { r throws(Truncated) in try r.intent() }
    let pressAt = try finites()
    let user = try optional { r throws(Truncated) in try r.string() }
    let session = try optional { r throws(Truncated) in try r.string() }
    let device = try optional { r throws(Truncated) in try r.string() }
    let maxForce = try optional { r throws(Truncated) -> Double in
      let f = try r.finite()
      guard f > 0 else { throw Truncated() }
      return f
    }
    let synthesized = try bool()
    let pairs = try array { r throws(Truncated) in (try r.string(), try r.string()) }
    var labels: [String: String] = [:]
    for (k, v) in pairs { labels[k] = v }
    return TraceMetadata(
      id: id, touch: touch, intent: intent, pressAt: pressAt, user: user, session: session, device: device,
      maxForce: maxForce, timeSynthesized: synthesized, labels: labels)
  }
  mutating func truth() throws(Truncated) -> TraceTruth {
    let intent = try intent()
    let positive = try bool()
    let references = try finites()
    let stage2 = try finites()
    let source = try optional { r throws(Truncated) -> ReferenceTimes.Source in
      guard let s = ReferenceTimes.Source(rawValue: try r.string()) else { throw Truncated() }
      return s
    }
    let touchDown = try finite()
    return TraceTruth(
      intent: intent, isPositive: positive, references: references, stage2References: stage2, referenceSource: source,
      touchDown: touchDown, liftOff: try finite())
  }
  mutating func skipped() throws(Truncated) -> SkippedTrace {
    // The name was escaped when first made: kept as stored, not escaped again.
    let name = try optional { r throws(Truncated) in try r.string() }
    var skipped = SkippedTrace(
      trace: nil, origin: try origin(), position: try optional { r throws(Truncated) in try r.position() },
      reason: try string())
    skipped.trace = name
    return skipped
  }
  mutating func diagnostic() throws(Truncated) -> Diagnostic {
    guard let severity = Diagnostic.Severity(rawValue: try string()) else { throw Truncated() }
    let file = try optional { r throws(Truncated) in try r.string() }
    let position = try optional { r throws(Truncated) in try r.position() }
    return Diagnostic(severity, try string(), file: file, position: position)
  }
  mutating func stage() throws(Truncated) -> StageOutcome {
    let positive = try bool()
    // Counts a trace's tally holds in 32 bits.
    let actions = try natural()
    let references = try natural()
    let matches = try array { r throws(Truncated) -> MatchedEvent in
      var m = MatchedEvent(action: try r.finite(), reference: try r.finite(), touchDown: 0)
      m.latency = try r.finite()
      m.latencyFromDown = try r.finite()
      return m
    }
    guard matches.count <= Swift.min(actions, references) else { throw Truncated() }
    return StageOutcome(
      isPositive: positive, actions: actions, references: references, matches: matches, events: try finites())
  }
  mutating func outcome() throws(Truncated) -> TraceOutcome {
    TraceOutcome(
      trace: try natural(atMost: Int.max), stage1: try stage(),
      stage2: try optional { r throws(Truncated) in try r.stage() },
      flaps: try optional { r throws(Truncated) in try r.natural() },
      addedLatency: try optional { r throws(Truncated) in try r.finite() }, waited: try bool())
  }
  mutating func shape() throws(Truncated) -> OutcomeShape {
    OutcomeShape(twoStage: try bool(), reportsFlaps: try bool(), isComposition: try bool())
  }
  /// A stage's sums, each non-negative and consistent with the others: TP + FN = references,
  /// positive + negative traces = `traces`, TN + false-positive traces = negative traces, the
  /// false positives by intent add up to FP, TP ≤ actions.
  /// Stage 2 counts only the traces that have a stage 2 (`exact` false: at most `traces`).
  mutating func stageCounts(traces: Int, exact: Bool = true) throws(Truncated) -> StageMetrics {
    var s = StageMetrics()
    // A trace's own counts fit 32 bits (its tally's), so sums over `traces` (bounded by the file
    // size) stay far from overflowing even when reports add several of them.
    let limit = traces * Int(Int32.max)
    s.truePositives = try natural(atMost: limit)
    s.falsePositives = try natural(atMost: limit)
    s.falseNegatives = try natural(atMost: limit)
    s.trueNegatives = try natural(atMost: traces)
    s.positiveTraces = try natural(atMost: traces)
    s.negativeTraces = try natural(atMost: traces)
    s.falsePositiveTraces = try natural(atMost: traces)
    s.references = try natural(atMost: limit)
    s.actions = try natural(atMost: limit)
    var byIntent = 0
    for intent in Intent.allCases {
      let v = try natural(atMost: s.falsePositives)
      s.falsePositivesByIntent[intent] = v
      byIntent += v
    }
    guard exact ? s.positiveTraces == traces - s.negativeTraces : s.positiveTraces <= traces - s.negativeTraces,
      s.falseNegatives <= s.references, s.truePositives == s.references - s.falseNegatives,
      s.falsePositiveTraces <= s.negativeTraces, s.trueNegatives == s.negativeTraces - s.falsePositiveTraces,
      byIntent == s.falsePositives, s.truePositives <= s.actions
    else { throw Truncated() }
    return s
  }
  /// A configuration's partial over at most `traces` traces, its lists from `table`: the lists
  /// as long as the sums say (a latency per true positive of each stage, an added latency per
  /// trace at most).
  mutating func configurationPartial(table: [[Double]], traces: Int) throws(Truncated) -> ConfigurationPartial {
    let (counts, shape) = try configurationCounts(traces: traces)
    let lists = try array { r throws(Truncated) -> [Double] in
      let k = try r.int()
      guard k >= 0 && k < table.count else { throw Truncated() }
      return table[k]
    }
    typealias List = ConfigurationPartial.LatencyList
    guard lists.count == List.allCases.count,
      lists[List.latency.rawValue].count == counts.stage1.truePositives,
      lists[List.fromDown.rawValue].count == counts.stage1.truePositives,
      lists[List.stage2Latency.rawValue].count == counts.stage2?.truePositives ?? 0,
      lists[List.stage2FromDown.rawValue].count == counts.stage2?.truePositives ?? 0,
      lists[List.added.rawValue].count <= (shape.isComposition ? counts.traces : 0)
    else { throw Truncated() }
    return ConfigurationPartial(counts: counts, shape: shape, lists: lists)
  }

  /// A configuration's sums over at most `traces` traces, the parts its shape has (and only
  /// those) present.
  mutating func configurationCounts(traces: Int) throws(Truncated) -> (ConfigurationMetrics, OutcomeShape) {
    let shape = try shape()
    var m = ConfigurationPartial(shape: shape).counts
    m.traces = try natural(atMost: traces)
    let n = m.traces
    m.stage1 = try stageCounts(traces: n)
    m.stage2 = try optional { r throws(Truncated) in try r.stageCounts(traces: n, exact: false) }
    m.confusion = try optional { r throws(Truncated) -> ClassConfusion in
      var c = ClassConfusion()
      var sum = 0
      for a in PressClass.allCases {
        for q in PressClass.allCases {
          c[a, q] = try r.natural(atMost: n)
          sum += c[a, q]
        }
      }
      guard sum == n else { throw Truncated() }
      return c
    }
    m.flaps = try optional { r throws(Truncated) in try r.natural(atMost: n * Int(Int32.max)) }
    m.waited = try optional { r throws(Truncated) in try r.natural(atMost: n) }
    guard (m.stage2 != nil) == shape.twoStage, (m.confusion != nil) == shape.twoStage,
      (m.flaps != nil) == shape.reportsFlaps, (m.waited != nil) == shape.isComposition
    else { throw Truncated() }
    return (m, shape)
  }
}

extension BinaryWriter {
  mutating func method(_ m: SweepMethod) {
    switch m {
    case .replay: u8(0)
    case .onePass(let parameter):
      u8(1)
      string(parameter)
    case .classes(let parameters):
      u8(2)
      array(parameters) { $0.string($1) }
    }
  }
}

extension BinaryReader {
  mutating func method() throws(Truncated) -> SweepMethod {
    switch try u8() {
    case 0: return .replay
    case 1: return .onePass(parameter: try string())
    case 2: return .classes(parameters: try array { r throws(Truncated) in try r.string() })
    default: throw Truncated()
    }
  }
}

extension BinaryWriter {
  mutating func transition(_ e: StateTransition) {
    string(e.state.name)
    double(e.t)
    int(e.index)
    bool(e.implicit)
    u8(e.source)
  }
  mutating func action(_ e: ActionEvent) {
    string(e.kind.name)
    double(e.t)
    int(e.index)
    int(e.detail)
    u8(e.source)
  }
  mutating func replay(_ r: ReplayResult) {
    string(r.trace)
    string(r.variant)
    bool(r.reportsFlaps)
    array(r.transitions + r.requiredTransitions) { $0.transition($1) }
    array(r.actions + r.requiredActions) { $0.action($1) }
  }
}

extension BinaryReader {
  mutating func transition() throws(Truncated) -> StateTransition {
    let name = try string()
    guard let state = GestureState.allCases.first(where: { $0.name == name }) else { throw Truncated() }
    return StateTransition(state: state, t: try double(), index: try int(), implicit: try bool(), source: try u8())
  }
  mutating func action() throws(Truncated) -> ActionEvent {
    let name = try string()
    guard let kind = ActionKind.allCases.first(where: { $0.name == name }) else { throw Truncated() }
    return ActionEvent(kind: kind, t: try double(), index: try int(), detail: try int(), source: try u8())
  }
  mutating func replay() throws(Truncated) -> ReplayResult {
    let trace = try string()
    let variant = try string()
    let flaps = try bool()
    let transitions = try array { r throws(Truncated) in try r.transition() }
    let actions = try array { r throws(Truncated) in try r.action() }
    return ReplayResult(trace: trace, variant: variant, reportsFlaps: flaps, transitions: transitions, actions: actions)
  }
}

extension BinaryWriter {
  /// A trace's sample columns (its metadata is written separately).
  package mutating func samples(_ trace: Trace) {
    doubles(trace.t)
    doubles(trace.force)
    array(trace.phase) { $0.u8($1.rawValue) }
    optional(trace.x) { $0.doubles($1) }
    optional(trace.y) { $0.doubles($1) }
    optional(trace.radius) { $0.doubles($1) }
  }
}

extension BinaryReader {
  /// The sample columns ``BinaryWriter/samples(_:)`` wrote, as a trace with `metadata`.
  package mutating func samples(metadata: TraceMetadata) throws(Truncated) -> Trace {
    let t = try doubles()
    let force = try doubles()
    let phase = try array { r throws(Truncated) -> TouchPhase in
      guard let phase = TouchPhase(rawValue: try r.u8()) else { throw Truncated() }
      return phase
    }
    let x = try optional { r throws(Truncated) in try r.doubles() }
    let y = try optional { r throws(Truncated) in try r.doubles() }
    let radius = try optional { r throws(Truncated) in try r.doubles() }
    guard force.count == t.count, phase.count == t.count,
      [x, y, radius].allSatisfy({ $0 == nil || $0!.count == t.count })
    else { throw Truncated() }
    return Trace(metadata: metadata, t: t, force: force, phase: phase, x: x, y: y, radius: radius)
  }
}

/// Distinct latency lists, each stored once in a partial file (configurations that act alike on
/// the shard's traces share their lists).
struct ListTable {
  private(set) var lists: [[Double]] = []
  private var byHash: [Int: [Int]] = [:]

  /// The index of `list`, added when new.
  mutating func index(of list: [Double]) -> Int {
    let key = list.hashValue
    if let k = byHash[key]?.first(where: { lists[$0] == list }) { return k }
    lists.append(list)
    byHash[key, default: []].append(lists.count - 1)
    return lists.count - 1
  }
}
