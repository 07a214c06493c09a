public import TouchCore
public import TouchSignal

/// What the reports count of an evaluation's analyzed traces, without the traces: how many, their
/// intents, positives and reference times, the maximum forces, the labels present, the
/// contacts' time, the `--by` groups' sizes and every trace's reference times in compact form.
///
/// A stream of batches adds each analyzed trace to a ``Tally`` and keeps nothing else of it, so
/// the memory a sweep's report needs no longer grows with the traces' metadata: per trace with
/// reference times it keeps their record in ``references`` (5 bytes, its name's UTF-8 and 8 a
/// time), per `--by` group a count and a sum. An `Evaluation` that keeps its traces
/// makes the same summary from them, so a report reads one or the other the same way.
public struct EvaluationSummary: Sendable, Equatable {
  /// Analyzed traces.
  public var analyzed = 0
  /// Analyzed traces per intent.
  public var intents = IntentCounts()
  /// Stage-1 positives.
  public var positives = 0
  /// Stage-2 positives (intent `pop`).
  public var stage2Positives = 0
  /// Stage-1 reference times, over every trace.
  public var stage1References = 0
  /// Traces whose reference times came from `press_at`.
  public var pressAtTraces = 0
  /// Traces whose reference times came from the rule.
  public var ruleTraces = 0
  /// Stage-1 reference times the rule derived.
  public var ruleReferences = 0
  /// Those of ``ruleReferences`` less than ``nearTouchDown`` after their trace's touch-down.
  public var ruleReferencesNearTouchDown = 0
  /// The distinct maximum possible forces (force units), ascending.
  public var maximumForces: [Double] = []
  /// The analyzed traces' synthesized time.
  public var synthesizedTime = SynthesizedTime(traces: 0, interval: nil)
  /// The label names some analyzed trace has a (non-empty) value for: the built-in columns
  /// (`id`, `touch`, `intent`, `user`, `session`, `device`) and extra labels.
  public var presentLabels: Set<String> = []
  /// Every extra label name of the analyzed traces (with a value or empty).
  public var extraLabelNames: Set<String> = []
  /// The contacts' time, seconds: lift-off − touch-down summed in trace order.
  public var contactTime = 0.0
  /// The traces' sizes per group of the column ``Tally`` was made for (`--by`), if any.
  public var groups: Groups?
  /// The reference times of every trace that has some, in trace order (the JSON report's
  /// `references_by_trace`).
  public var references = ReferenceRecords()
  /// A digest of the analyzed traces' names in order (``addingName(_:to:)`` of each name's
  /// FNV-1a, from FNV-1a's offset basis): two reads of the same input give the same digest.
  public var namesDigest = FNV1a().value

  /// `digest` followed by a name whose FNV-1a is `nameHash` (xor, then FNV's 64-bit prime).
  public static func addingName(_ nameHash: UInt64, to digest: UInt64) -> UInt64 {
    (digest ^ nameHash) &* 0x0000_0100_0000_01b3
  }

  /// The ``namesDigest`` of traces whose names' FNV-1a are `nameHashes`, in order (a read that
  /// kept only those: `ScoredStream.nameDigests`).
  public static func namesDigest(ofNameHashes nameHashes: some Sequence<UInt64>) -> UInt64 {
    nameHashes.reduce(FNV1a().value) { addingName($1, to: $0) }
  }

  /// A reference the rule derived this close to touch-down (seconds) or closer may mark the
  /// contact rather than the press.
  public static let nearTouchDown = 0.03

  /// The traces' sizes per value of one label column.
  public struct Groups: Sendable, Equatable {
    /// The column.
    public let column: TraceFilter.Field
    /// The values in order of first appearance; `nil` for traces without one.
    public internal(set) var names: [String?] = []
    /// Traces per group, parallel to ``names``.
    public internal(set) var traces: [Int] = []
    /// The groups' contact time, seconds (lift-off − touch-down summed in trace order), parallel
    /// to ``names``.
    public internal(set) var contactTime: [Double] = []
    var index: [String?: Int] = [:]

    init(column: TraceFilter.Field) { self.column = column }

    mutating func add(_ name: String?, duration: Double) {
      if let k = index[name] {
        traces[k] += 1
        contactTime[k] += duration
      } else {
        index[name] = names.count
        names.append(name)
        traces.append(1)
        contactTime.append(0 + duration)
      }
    }
  }

  /// An empty summary.
  public init() {}

  /// The summary of `traces` (metadata suffices, but for synthesized time) with their `truths`,
  /// with group sizes by `column` when given.
  public init(traces: [Trace], truths: [TraceTruth], by column: TraceFilter.Field? = nil) {
    var tally = Tally(by: column)
    for (trace, truth) in zip(traces, truths) { tally.add(trace, truth: truth) }
    self = tally.summary
  }

  /// A summary built trace by trace, in trace order.
  public struct Tally: Sendable {
    /// The counts so far (the maximum forces and synthesized time are kept as sets and tallies
    /// until ``summary`` is read).
    private var counted = EvaluationSummary()
    private var forces: Set<Double> = []
    private var time = SynthesizedTime.Tally()

    /// The summary so far.
    public var summary: EvaluationSummary {
      var summary = counted
      summary.maximumForces = forces.sorted()
      summary.synthesizedTime = time.result
      return summary
    }

    private static let builtIn = TraceFilter.Field.builtIn.map(\.rawValue)

    /// An empty tally, keeping group sizes by `column` when given.
    public init(by column: TraceFilter.Field? = nil) {
      counted.groups = column.map { Groups(column: $0) }
    }

    /// Adds the next analyzed trace and its truth.
    public mutating func add(_ trace: Trace, truth: TraceTruth) {
      let metadata = trace.metadata
      counted.analyzed += 1
      counted.intents[truth.intent] += 1
      if truth.isPositive { counted.positives += 1 }
      if truth.isStage2Positive { counted.stage2Positives += 1 }
      counted.stage1References += truth.references.count
      switch truth.referenceSource {
      case .pressAt: counted.pressAtTraces += 1
      case .rule:
        counted.ruleTraces += 1
        for reference in truth.references {
          counted.ruleReferences += 1
          if reference - truth.touchDown < EvaluationSummary.nearTouchDown {
            counted.ruleReferencesNearTouchDown += 1
          }
        }
      case nil: break
      }
      if let force = metadata.maxForce { forces.insert(force) }
      time.add(trace)
      for name in Self.builtIn where !counted.presentLabels.contains(name) {
        if metadata.label(name) != nil { counted.presentLabels.insert(name) }
      }
      for (name, value) in metadata.labels {
        counted.extraLabelNames.insert(name)
        if !value.isEmpty { counted.presentLabels.insert(name) }
      }
      counted.contactTime += truth.duration
      counted.namesDigest = EvaluationSummary.addingName(FNV1a.hash(trace.name.utf8), to: counted.namesDigest)
      if let column = counted.groups?.column {
        counted.groups!.add(GroupBreakdown.label(metadata, column), duration: truth.duration)
      }
      if truth.referenceSource != nil { counted.references.append(trace.name, truth) }
    }
  }
}

/// The reference times of the traces that have some, in trace order, packed in one byte list:
/// per trace its name (UTF-8), intent, source and times (what the JSON report's
/// `references_by_trace` lists): 5 bytes (lengths and counts under 128 take one), the name's UTF-8
/// and 8 a time.
public struct ReferenceRecords: Sendable, Equatable, Sequence {
  private var bytes: [UInt8] = []
  /// The number of traces listed.
  public private(set) var count = 0

  /// No trace.
  public init() {}

  /// One trace's record.
  public struct Record: Sendable, Hashable {
    /// The trace's name (`id#touch`).
    public var trace: String
    /// Its intent.
    public var intent: Intent
    /// Where its reference times came from.
    public var source: ReferenceTimes.Source
    /// Its stage-1 reference times, seconds.
    public var references: [Double]
    /// Its stage-2 reference times (a `pop`), seconds.
    public var stage2References: [Double]
  }

  /// Appends the record of the trace `name` with `truth` (which has a reference source).
  mutating func append(_ name: String, _ truth: TraceTruth) {
    guard let source = truth.referenceSource else { return }
    appendLength(name.utf8.count)
    bytes.append(contentsOf: name.utf8)
    bytes.append(UInt8(Intent.allCases.firstIndex(of: truth.intent)!))
    bytes.append(source == .pressAt ? 0 : 1)
    appendTimes(truth.references)
    appendTimes(truth.stage2References)
    count += 1
  }

  private mutating func appendLength(_ n: Int) {
    var n = n
    while n >= 0x80 {
      bytes.append(UInt8(n & 0x7F) | 0x80)
      n >>= 7
    }
    bytes.append(UInt8(n))
  }

  private mutating func appendTimes(_ times: [Double]) {
    appendLength(times.count)
    for time in times {
      withUnsafeBytes(of: time.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }
  }

  /// The records in order.
  public func makeIterator() -> Iterator { Iterator(bytes: bytes) }

  /// Reads the records one by one.
  public struct Iterator: IteratorProtocol {
    let bytes: [UInt8]
    var at = 0

    public mutating func next() -> Record? {
      guard at < bytes.count else { return nil }
      let length = readLength()
      let trace = String(decoding: bytes[at..<(at + length)], as: UTF8.self)
      at += length
      let intent = Intent.allCases[Int(bytes[at])]
      let source: ReferenceTimes.Source = bytes[at + 1] == 0 ? .pressAt : .rule
      at += 2
      let references = readTimes()
      let stage2 = readTimes()
      return Record(trace: trace, intent: intent, source: source, references: references, stage2References: stage2)
    }

    private mutating func readLength() -> Int {
      var n = 0
      var shift = 0
      while true {
        let byte = bytes[at]
        at += 1
        n |= Int(byte & 0x7F) << shift
        if byte < 0x80 { return n }
        shift += 7
      }
    }

    private mutating func readTimes() -> [Double] {
      let n = readLength()
      var times: [Double] = []
      times.reserveCapacity(n)
      for _ in 0..<n {
        var bits: UInt64 = 0
        for k in 0..<8 { bits |= UInt64(bytes[at + k]) << (8 * k) }
        at += 8
        times.append(Double(bitPattern: bits))
      }
      return times
    }
  }
}
