import TouchCore
import TouchEvaluation
import TouchRecognizers
import TouchSignal

/// Little-endian binary writing of a partial's fields.
struct BinaryWriter {
  var bytes: [UInt8] = []

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
  mutating func doubles(_ values: [Double]) {
    int(values.count)
    bytes.reserveCapacity(bytes.count + 8 * values.count)
    for v in values { double(v) }
  }
}

/// Reading back what ``BinaryWriter`` wrote, every read bounds-checked.
struct BinaryReader {
  let bytes: [UInt8]
  var offset: Int

  init(_ bytes: [UInt8], offset: Int = 0) {
    self.bytes = bytes
    self.offset = offset
  }

  struct Truncated: Error {}

  var isAtEnd: Bool { offset == bytes.count }

  mutating func u8() throws(Truncated) -> UInt8 {
    guard offset < bytes.count else { throw Truncated() }
    defer { offset += 1 }
    return bytes[offset]
  }
  mutating func bool() throws(Truncated) -> Bool {
    switch try u8() {
    case 0: return false
    case 1: return true
    default: throw Truncated()
    }
  }
  mutating func u64() throws(Truncated) -> UInt64 {
    guard bytes.count - offset >= 8 else { throw Truncated() }
    var v: UInt64 = 0
    for k in 0..<8 { v |= UInt64(bytes[offset + k]) << (8 * UInt64(k)) }
    offset += 8
    return v
  }
  mutating func int() throws(Truncated) -> Int { Int(Int64(bitPattern: try u64())) }
  /// A count, which must fit in the bytes left (each element at least `minimumSize` bytes).
  mutating func count(minimumSize: Int = 1) throws(Truncated) -> Int {
    let n = try int()
    guard n >= 0, n <= (bytes.count - offset) / Swift.max(1, minimumSize) else { throw Truncated() }
    return n
  }
  mutating func double() throws(Truncated) -> Double { Double(bitPattern: try u64()) }
  mutating func string() throws(Truncated) -> String {
    let n = try count()
    defer { offset += n }
    return String(decoding: bytes[offset..<(offset + n)], as: UTF8.self)
  }
  mutating func optional<T>(_ read: (inout BinaryReader) throws(Truncated) -> T) throws(Truncated) -> T? {
    try bool() ? try read(&self) : nil
  }
  mutating func array<T>(_ read: (inout BinaryReader) throws(Truncated) -> T) throws(Truncated) -> [T] {
    let n = try count()
    var values: [T] = []
    values.reserveCapacity(n)
    for _ in 0..<n { values.append(try read(&self)) }
    return values
  }
  mutating func doubles() throws(Truncated) -> [Double] {
    let n = try count(minimumSize: 8)
    var values = [Double](repeating: 0, count: n)
    for k in 0..<n { values[k] = try double() }
    return values
  }
}

// MARK: - The model's types

extension BinaryWriter {
  mutating func position(_ p: TextPosition) {
    int(p.line)
    int(p.column)
  }
  mutating func origin(_ o: TraceOrigin) {
    string(o.file)
    optional(o.position) { $0.position($1) }
    optional(o.record) { $0.int($1) }
  }
  mutating func metadata(_ m: TraceMetadata) {
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
  mutating func configurationPartial(_ p: ConfigurationPartial) {
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
    array(p.lists) { $0.doubles($1) }
  }
}

extension BinaryReader {
  mutating func position() throws(Truncated) -> TextPosition {
    TextPosition(line: try int(), column: try int())
  }
  mutating func origin() throws(Truncated) -> TraceOrigin {
    TraceOrigin(
      file: try string(), position: try optional { r throws(Truncated) in try r.position() },
      record: try optional { r throws(Truncated) in try r.int() })
  }
  mutating func intent() throws(Truncated) -> Intent {
    guard let intent = Intent(rawValue: try string()) else { throw Truncated() }
    return intent
  }
  mutating func metadata() throws(Truncated) -> TraceMetadata {
    let id = try string()
    let touch = try int()
    let intent = try optional { r throws(Truncated) in try r.intent() }
    let pressAt = try doubles()
    let user = try optional { r throws(Truncated) in try r.string() }
    let session = try optional { r throws(Truncated) in try r.string() }
    let device = try optional { r throws(Truncated) in try r.string() }
    let maxForce = try optional { r throws(Truncated) in try r.double() }
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
    let references = try doubles()
    let stage2 = try doubles()
    let source = try optional { r throws(Truncated) -> ReferenceTimes.Source in
      guard let s = ReferenceTimes.Source(rawValue: try r.string()) else { throw Truncated() }
      return s
    }
    return TraceTruth(
      intent: intent, isPositive: positive, references: references, stage2References: stage2, referenceSource: source,
      touchDown: try double())
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
    let actions = try int()
    let references = try int()
    let matches = try array { r throws(Truncated) -> MatchedEvent in
      var m = MatchedEvent(action: try r.double(), reference: try r.double(), touchDown: 0)
      m.latency = try r.double()
      m.latencyFromDown = try r.double()
      return m
    }
    return StageOutcome(isPositive: positive, actions: actions, references: references, matches: matches, events: try doubles())
  }
  mutating func outcome() throws(Truncated) -> TraceOutcome {
    TraceOutcome(
      trace: try int(), stage1: try stage(), stage2: try optional { r throws(Truncated) in try r.stage() },
      flaps: try optional { r throws(Truncated) in try r.int() },
      addedLatency: try optional { r throws(Truncated) in try r.double() }, waited: try bool())
  }
  mutating func shape() throws(Truncated) -> OutcomeShape {
    OutcomeShape(twoStage: try bool(), reportsFlaps: try bool(), isComposition: try bool())
  }
  mutating func stageCounts() throws(Truncated) -> StageMetrics {
    var s = StageMetrics()
    s.truePositives = try int()
    s.falsePositives = try int()
    s.falseNegatives = try int()
    s.trueNegatives = try int()
    s.positiveTraces = try int()
    s.negativeTraces = try int()
    s.falsePositiveTraces = try int()
    s.references = try int()
    s.actions = try int()
    for intent in Intent.allCases { s.falsePositivesByIntent[intent] = try int() }
    return s
  }
  mutating func configurationPartial() throws(Truncated) -> ConfigurationPartial {
    let shape = try shape()
    var m = ConfigurationPartial(shape: shape).counts
    m.traces = try int()
    m.stage1 = try stageCounts()
    m.stage2 = try optional { r throws(Truncated) in try r.stageCounts() }
    m.confusion = try optional { r throws(Truncated) -> ClassConfusion in
      var c = ClassConfusion()
      for a in PressClass.allCases { for q in PressClass.allCases { c[a, q] = try r.int() } }
      return c
    }
    m.flaps = try optional { r throws(Truncated) in try r.int() }
    m.waited = try optional { r throws(Truncated) in try r.int() }
    let lists = try array { r throws(Truncated) in try r.doubles() }
    return ConfigurationPartial(counts: m, shape: shape, lists: lists)
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
  mutating func samples(_ trace: Trace) {
    doubles(trace.t)
    doubles(trace.force)
    array(trace.phase) { $0.u8($1.rawValue) }
    optional(trace.x) { $0.doubles($1) }
    optional(trace.y) { $0.doubles($1) }
    optional(trace.radius) { $0.doubles($1) }
  }
}

extension BinaryReader {
  mutating func samples(metadata: TraceMetadata) throws(Truncated) -> Trace {
    let t = try doubles()
    let force = try doubles()
    let phase = try array { r throws(Truncated) -> TouchPhase in
      guard let phase = TouchPhase(rawValue: try r.u8()) else { throw Truncated() }
      return phase
    }
    let x = try optional { r throws(Truncated) in try r.doubles() }
    let y = try optional { r throws(Truncated) in try r.doubles() }
    let radius = try optional { r throws(Truncated) in try r.doubles() }
    guard force.count == t.count, phase.count == t.count, [x, y, radius].allSatisfy({ $0 == nil || $0!.count == t.count })
    else { throw Truncated() }
    return Trace(metadata: metadata, t: t, force: force, phase: phase, x: x, y: y, radius: radius)
  }
}
