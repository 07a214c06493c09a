import Foundation
import Testing
import TouchCore
import TouchEvaluation
import TouchPartials

/// Shards: the hash against an independent Python implementation (Scripts/make-partial-fixtures.py),
/// parsing, and an even split.
@Suite("Shards")
struct ShardTests {
  struct Entry: Decodable {
    var id: String
    var hash: String
  }
  struct Fixture: Decodable { var ids: [Entry] }

  @Test func hashEqualsIndependentImplementation() throws {
    let url = try #require(
      Bundle.module.url(forResource: "shard-hash.json", withExtension: nil, subdirectory: "Fixtures"))
    let fixture = try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
    #expect(fixture.ids.count == 28)
    for entry in fixture.ids { #expect(String(Shard.hash(entry.id)) == entry.hash, "\(entry.id)") }
  }

  @Test func parsesIndexOverCount() {
    #expect(Shard(parsing: "0/1") == Shard.whole)
    #expect(Shard(parsing: "3/4")?.index == 3)
    #expect(Shard(parsing: "3/4")?.count == 4)
    for bad in ["4/4", "-1/4", "1/0", "1", "a/b", "1/4/2", "", " 1/4", "+1/4", "1/٤"] {
      #expect(Shard(parsing: bad) == nil, "\(bad)")
    }
  }

  /// Every id in exactly one shard; 20 000 ids split evenly for 2, 4 and 7 shards.
  @Test func splitsEvenlyAndCompletely() {
    let ids = (0..<20_000).map { "u\($0 % 37)-trace-\($0)" }
    for n in [2, 4, 7] {
      let shards = (0..<n).map { Shard(index: $0, count: n)! }
      var counts = [Int](repeating: 0, count: n)
      for id in ids {
        let owners = shards.filter { $0.contains(id: id) }
        #expect(owners.count == 1)
        counts[owners[0].index] += 1
      }
      // Pearson's chi-square against an even split, below its 0.999 quantile (n − 1 degrees of
      // freedom: 10.83, 16.27, 22.46), as a uniform hash passes 999 times in 1000.
      let even = Double(ids.count) / Double(n)
      let chiSquare = counts.reduce(0.0) { $0 + (Double($1) - even) * (Double($1) - even) / even }
      #expect(chiSquare < [2: 10.83, 4: 16.27, 7: 22.46][n]!, "\(n) shards: \(counts)")
    }
  }
}

/// Partial files: exact round trips, refusals of damaged files, and the merge's checks.
@Suite("Partial files and merging")
struct PartialFileTests {
  static let shape = OutcomeShape(twoStage: false, reportsFlaps: false, isComposition: false)

  /// A partial of `shard` holding traces with the given ordinals.
  static func partial(
    _ shard: Shard, ordinals: [Int], arguments: [String] = ["--recognizer", "deep-press", "--", "data/"]
  )
    -> StudyPartial
  {
    let traces = ordinals.map { k in
      KeptTrace(
        ordinal: k,
        metadata: TraceMetadata(
          id: "t\(k)", touch: k % 2, intent: k % 3 == 0 ? .press : .tap, pressAt: k % 3 == 0 ? [0.1 * Double(k)] : [],
          user: "u\(k % 2)", maxForce: 20.0 / 3, labels: ["hand": k % 2 == 0 ? "left" : "right"]),
        origin: TraceOrigin(file: "data/x.csv", position: TextPosition(line: 2 + 10 * k, column: 1)),
        truth: TraceTruth(
          intent: k % 3 == 0 ? .press : .tap, isPositive: k % 3 == 0, references: k % 3 == 0 ? [0.1 * Double(k)] : [],
          referenceSource: k % 3 == 0 ? .pressAt : nil, touchDown: 0.0))
    }
    // Consistent sums (reading checks them): every trace acts once; positives match it.
    let positives = ordinals.filter { $0 % 3 == 0 }.count
    var counts = ConfigurationPartial(shape: shape).counts
    counts.traces = ordinals.count
    counts.stage1.truePositives = positives
    counts.stage1.references = positives
    counts.stage1.positiveTraces = positives
    counts.stage1.negativeTraces = ordinals.count - positives
    counts.stage1.falsePositiveTraces = ordinals.count - positives
    counts.stage1.falsePositives = ordinals.count - positives
    counts.stage1.falsePositivesByIntent[.tap] = ordinals.count - positives
    counts.stage1.actions = ordinals.count
    let latencies = ordinals.filter { $0 % 3 == 0 }.map { 0.001 * Double($0) + 1.0 / 3 }
    let configuration = ConfigurationPartial(counts: counts, shape: shape, lists: [latencies, latencies, [], [], []])
    let outcomes = ordinals.indices.map { i in
      TraceOutcome(
        trace: i,
        stage1: StageOutcome(
          isPositive: ordinals[i] % 3 == 0, actions: 1, references: ordinals[i] % 3 == 0 ? 1 : 0,
          matches: ordinals[i] % 3 == 0 ? [MatchedEvent(action: 0.2, reference: 0.1, touchDown: 0)] : [], events: [0.2]),
        flaps: 2, addedLatency: 0.05)
    }
    return StudyPartial(
      tool: "touchtrace 0.1.0", command: "sweep", arguments: arguments, shard: shard, maximumForces: [20.0 / 3],
      files: ["data/x.csv"],
      diagnostics: [Diagnostic(.warning, "a warning", file: "data/x.csv", position: TextPosition(line: 3, column: 4))],
      labelOverrides: 0, overriddenTraces: 0, traces: traces,
      skipped: [
        KeptSkip(
          stage: 0, ordinal: ordinals.first ?? 0,
          skipped: SkippedTrace(trace: "bad\u{7}name", origin: TraceOrigin(file: "data/x.csv"), reason: "no samples"))
      ],
      sweep: SweepPartial(configurations: [configuration], methods: [.onePass(parameter: "threshold")]),
      groups: GroupPartials(
        column: "user", configurations: [[GroupPartials.GroupPartial(name: "u0", partial: configuration)]]),
      outcomes: [outcomes])
  }

  @Test func roundTripsExactly() throws {
    let p = Self.partial(Shard(index: 1, count: 3)!, ordinals: [1, 4, 6, 9])
    let read = try StudyPartial(decoding: p.encoded(), file: "p.partial")
    #expect(read.encoded() == p.encoded())
    #expect(read.traces == p.traces)
    #expect(read.skipped == p.skipped)
    #expect(read.skipped[0].skipped.trace == p.skipped[0].skipped.trace)  // escaped once, not twice
    #expect(read.sweep == p.sweep)
    #expect(read.groups == p.groups)
    #expect(read.outcomes == p.outcomes)
    #expect(read.diagnostics == p.diagnostics)
    #expect(read.sweep?.configurations[0].lists[0] == [1.0 / 3 + 0.006, 1.0 / 3 + 0.009])
  }

  /// A shard encodes its traces as it reads them (`EncodedTraces`): the file is the one the
  /// traces kept as values give, and reads back to them.
  @Test func tracesEncodedAsTheyAreReadWriteTheSameFile() throws {
    let p = Self.partial(Shard(index: 2, count: 3)!, ordinals: [2, 5, 8, 11])
    var encoded = EncodedTraces()
    for trace in p.traces { try encoded.append(trace) }
    #expect(encoded.count == 4)
    var streamed = p
    streamed.traces = []
    streamed.encodedTraces = encoded
    var bytes: [UInt8] = []
    try streamed.write { bytes += $0 }
    #expect(bytes == p.encoded())
    #expect(try StudyPartial(decoding: bytes, file: "p.partial").traces == p.traces)
  }

  /// Past a megabyte, the encoded traces go to a temporary file and come back from it in order:
  /// the same file again.
  @Test func tracesEncodedPastAMegabyteComeBackFromTheirFile() throws {
    let p = Self.partial(Shard(index: 0, count: 1)!, ordinals: Array(0..<15_000))
    var encoded = EncodedTraces()
    for trace in p.traces { try encoded.append(trace) }
    var streamed = p
    streamed.traces = []
    streamed.encodedTraces = encoded
    let whole = p.encoded()
    #expect(whole.count > 1 << 20)
    var runs = 0
    var bytes: [UInt8] = []
    try streamed.write {
      runs += 1
      bytes += $0
    }
    #expect(runs > 3)
    #expect(bytes == whole)
  }

  @Test func refusesWhatIsNotAWholePartial() {
    let bytes = Self.partial(.whole, ordinals: [0, 1]).encoded()
    #expect(throws: PartialError.notAPartial(file: "x")) {
      try StudyPartial(decoding: Array("trace,t\n".utf8), file: "x")
    }
    for cut in [StudyPartial.magic.count + 3, bytes.count / 2, bytes.count - 1] {
      #expect(throws: PartialError.damaged(file: "x")) { try StudyPartial(decoding: Array(bytes[..<cut]), file: "x") }
    }
    var other = bytes
    other[StudyPartial.magic.count] = 9
    #expect(throws: PartialError.formatVersion(file: "x", found: 9)) { try StudyPartial(decoding: other, file: "x") }
    #expect(throws: PartialError.damaged(file: "x")) { try StudyPartial(decoding: bytes + [0], file: "x") }
  }

  /// Shards merge into trace order, sums add, lists join, outcomes are renumbered.
  @Test func mergesInTraceOrder() throws {
    let a = Self.partial(Shard(index: 0, count: 2)!, ordinals: [0, 3, 5])
    let b = Self.partial(Shard(index: 1, count: 2)!, ordinals: [1, 2, 4])
    let merged = try MergedStudy([("b.partial", b), ("a.partial", a)])
    #expect(merged.dataset.traces.map(\.metadata.id) == ["t0", "t1", "t2", "t3", "t4", "t5"])
    #expect(merged.dataset.traces.allSatisfy { $0.isEmpty })
    #expect(merged.dataset.origins.map { $0.position?.line } == [2, 12, 22, 32, 42, 52])
    #expect(merged.truths.map(\.isPositive) == [true, false, false, true, false, false])
    let total = try #require(merged.sweep?.configurations[0])
    #expect(total.counts.traces == 6)
    #expect(total.counts.stage1.truePositives == 2)
    #expect(total.lists[0].sorted() == [1.0 / 3, 1.0 / 3 + 0.003])
    #expect(merged.outcomes.count == 1)
    let outcomes = try merged.outcomes.column(0)
    #expect(outcomes.map(\.trace) == [0, 1, 2, 3, 4, 5])
    #expect(outcomes.map(\.stage1.isPositive) == [true, false, false, true, false, false])
    #expect(merged.groups?.configurations[0].count == 1)
    #expect(merged.groups?.configurations[0][0].partial.counts.traces == 6)
    #expect(merged.dataset.skipped.count == 2)
  }

  @Test func namesMissingDoubledAndMismatchedShards() {
    let s = (0..<3).map { Self.partial(Shard(index: $0, count: 3)!, ordinals: [$0, $0 + 3]) }
    #expect(throws: PartialError.missing(shards: [1], count: 3)) { try MergedStudy([("0", s[0]), ("2", s[2])]) }
    #expect(throws: PartialError.missing(shards: [0, 2], count: 3)) { try MergedStudy([("1", s[1])]) }
    #expect(throws: PartialError.doubled(shard: 2, count: 3, files: ["a", "b"])) {
      try MergedStudy([("0", s[0]), ("1", s[1]), ("a", s[2]), ("b", s[2])])
    }
    #expect(throws: PartialError.none) { try MergedStudy([]) }
    var other = Self.partial(
      Shard(index: 1, count: 3)!, ordinals: [1, 4], arguments: ["--recognizer", "peek-pop", "--", "data/"])
    #expect(throws: PartialError.self) { try MergedStudy([("0", s[0]), ("1", other), ("2", s[2])]) }
    other = s[1]
    other.command = "tune"
    #expect(throws: PartialError.self) { try MergedStudy([("0", s[0]), ("1", other), ("2", s[2])]) }
    other = Self.partial(Shard(index: 1, count: 4)!, ordinals: [1, 4])
    #expect(throws: PartialError.self) { try MergedStudy([("0", s[0]), ("1", other), ("2", s[2])]) }
    other = s[1]
    other.files = ["data/y.csv"]
    #expect(throws: PartialError.self) { try MergedStudy([("0", s[0]), ("1", other), ("2", s[2])]) }
    let overlapping = Self.partial(Shard(index: 1, count: 3)!, ordinals: [1, 3])
    #expect(throws: PartialError.overlapping(trace: "t3#1", files: ["0", "1"])) {
      try MergedStudy([("0", s[0]), ("1", overlapping), ("2", s[2])])
    }
  }
}

/// The latency spill: exact round trips, identical lists written once, and the same metrics as
/// the lists kept in memory; the file is gone from the directory from the start.
@Suite("Latency spill")
struct LatencySpillTests {
  @Test func roundTripsAndLeavesNothing() throws {
    let before = try FileManager.default.contentsOfDirectory(atPath: "/tmp").filter { $0.hasPrefix("touchtrace-spill") }
    let spill = try LatencySpill()
    let values = [0.1, -0.25, 1.0 / 3, .pi, 1e-300, -0.0]
    let a = try spill.append(values)
    let b = try spill.append([])
    let c = try spill.append([42])
    #expect(try spill.read(a).map(\.bitPattern) == values.map(\.bitPattern))
    #expect(try spill.read(b).isEmpty)
    #expect(try spill.read(c) == [42])
    #expect(spill.size == 7 * 8)
    let after = try FileManager.default.contentsOfDirectory(atPath: "/tmp").filter { $0.hasPrefix("touchtrace-spill") }
    #expect(after == before)
  }

  /// Two batches of three configurations, two of them alike: the spilled state finishes to the
  /// metrics of the merged in-memory partials, and the alike lists are written once per batch.
  @Test func spilledSweepEqualsMergedPartials() throws {
    let shape = PartialFileTests.shape
    func part(_ lists: [[Double]]) -> SweepPartial {
      SweepPartial(
        configurations: lists.map { list in
          var counts = ConfigurationPartial(shape: shape).counts
          counts.traces = 3
          counts.stage1.truePositives = list.count
          return ConfigurationPartial(counts: counts, shape: shape, lists: [list, list.map { $0 + 0.3 }, [], [], []])
        },
        methods: [.replay, .replay, .replay])
    }
    let first = part([[0.01, 0.02], [0.01, 0.02], [0.05]])
    let second = part([[-0.01], [-0.01], [0.07, 0.2, 0.09]])
    let spill = try LatencySpill()
    let empty = SweepPartial(
      configurations: Array(repeating: ConfigurationPartial(shape: shape), count: 3), methods: first.methods)
    var spilled = SpilledSweep(empty, spill: spill)
    try spilled.absorb(first)
    try spilled.absorb(second)
    var merged = first
    merged.merge(second)
    #expect(try spilled.metrics(threads: 2) == merged.metrics())
    #expect(try spilled.materialized() == merged)
    // Batch 1: [0.01, 0.02] (+0.3) once, [0.05] (+0.3); batch 2: [-0.01] (+0.3) once, three (+0.3).
    #expect(spill.size == 8 * (2 + 2 + 1 + 1 + 1 + 1 + 3 + 3))
  }
}

/// Damaged and forged partials (issue 26): refused, never decoded into another partial, never a
/// crash or an allocation their size does not imply.
@Suite("Damaged and forged partials")
struct DamagedPartialTests {
  /// A small partial of two shards' worth of traces, with groups and outcomes (a few KB).
  static let bytes = PartialFileTests.partial(Shard(index: 0, count: 2)!, ordinals: [0, 2, 3, 5, 6]).encoded()

  /// Everything a report derives from a decoded partial: finished metrics and the intervals
  /// the reports draw (`ProportionInterval.wilson` traps on inconsistent counts).
  static func use(_ p: StudyPartial) throws {
    var whole = p
    whole.shard = .whole
    let merged = try MergedStudy([("p", whole)])
    var all = merged.sweep?.metrics() ?? []
    all += merged.groups?.configurations.flatMap { $0.map { $0.partial.finish() } } ?? []
    for m in all {
      for s in [m.stage1] + (m.stage2.map { [$0] } ?? []) {
        _ = ProportionInterval.wilson(s.truePositives, of: s.truePositives + s.falsePositives)
        _ = ProportionInterval.wilson(s.truePositives, of: s.truePositives + s.falseNegatives)
        _ = ProportionInterval.wilson(s.falsePositiveTraces, of: s.negativeTraces)
        _ = (s.precision, s.recall, s.f1, s.accuracy, s.falsePositiveRate)
      }
    }
    for list in try merged.outcomes.all() {
      _ = ConfigurationMetrics(outcomes: list, truths: merged.truths, shape: PartialFileTests.shape)
    }
  }

  /// Every bit of every byte flipped in turn: the checksum (or the magic, or the version) refuses
  /// each flip; none decodes to anything, let alone to another partial.
  @Test func everyBitFlipIsRefused() throws {
    let original = try StudyPartial(decoding: Self.bytes, file: "p")
    #expect(Self.bytes.count > 1000 && Self.bytes.count < 8000)
    var refused = 0
    for k in Self.bytes.indices {
      for bit in 0..<8 {
        var damaged = Self.bytes
        damaged[k] ^= 1 << bit
        do {
          let read = try StudyPartial(decoding: damaged, file: "p")
          #expect(read.encoded() == original.encoded(), "byte \(k) bit \(bit) decoded to another partial")
        } catch {
          refused += 1
        }
      }
    }
    #expect(refused == 8 * Self.bytes.count)
  }

  /// The same flips in the body, the checksum then recomputed (a forger's file): each is refused
  /// or decodes to a partial whose every count is consistent — never a crash, in decoding,
  /// merging or the statistics reports compute.
  @Test func everyResealedBitFlipIsRefusedOrConsistent() throws {
    let body = Array(Self.bytes.dropLast(SHA256.byteCount))
    #expect(StudyPartial.sealed(body) == Self.bytes)
    var decoded = 0
    for k in body.indices {
      for bit in [0, 7] {
        var forged = body
        forged[k] ^= 1 << bit
        guard let read = try? StudyPartial(decoding: StudyPartial.sealed(forged), file: "p") else { continue }
        decoded += 1
        for c in read.sweep?.configurations ?? [] {
          let s = c.counts.stage1
          #expect(s.truePositives + s.falseNegatives == s.references)
          #expect(s.positiveTraces + s.negativeTraces == c.counts.traces)
          #expect(c.counts.traces <= read.traces.count)
        }
        try? Self.use(read)
      }
    }
    // Flips of text and of doubles' low bits still decode (the checksum is what refuses them).
    #expect(decoded > 0)
  }

  /// A declared length far beyond the file (the 100 GB allocation), a count of large
  /// elements as big as the bytes left, and counts that contradict each other: refused as
  /// damaged, at once.
  @Test func hugeLengthsAndInconsistentCountsAreRefused() throws {
    func int(_ v: Int) -> [UInt8] {
      (0..<8).map { UInt8(truncatingIfNeeded: UInt64(bitPattern: Int64(v)) >> (8 * UInt64($0))) }
    }
    func string(_ s: String) -> [UInt8] { int(s.utf8.count) + Array(s.utf8) }
    let head = StudyPartial.magic + int(StudyPartial.formatVersion) + string("touchtrace 0.1.0") + string("sweep")
    // Arguments: 2^62 strings declared.
    #expect(throws: PartialError.damaged(file: "x")) {
      try StudyPartial(decoding: StudyPartial.sealed(head + int(1 << 62) + [UInt8](repeating: 0, count: 64)), file: "x")
    }
    // Traces: as many as there are bytes left (1 MB), each hundreds of bytes in memory (the
    // reader reserved room for all of them before: gigabytes for a file of tens of megabytes).
    let empty = int(0) + int(0) + int(1) + int(0) + int(0) + int(0) + int(0) + int(0) + int(0)
    let filler = [UInt8](repeating: 0xFF, count: 1 << 20)
    #expect(throws: PartialError.damaged(file: "x")) {
      try StudyPartial(decoding: StudyPartial.sealed(head + empty + int(filler.count) + filler), file: "x")
    }
    // TP = 4,294,967,322 in a partial of five traces (the flip), and TP + FN ≠ references.
    for tamper in [
      { (c: inout ConfigurationMetrics) in c.stage1.truePositives = 4_294_967_322 },
      { (c: inout ConfigurationMetrics) in c.stage1.falseNegatives += 1 },
      { (c: inout ConfigurationMetrics) in c.traces = 6 },
      { (c: inout ConfigurationMetrics) in c.stage1.negativeTraces = -1 },
    ] {
      var p = PartialFileTests.partial(Shard(index: 0, count: 2)!, ordinals: [0, 2, 3, 5, 6])
      let c = p.sweep!.configurations[0]
      var counts = c.counts
      tamper(&counts)
      p.sweep = SweepPartial(
        configurations: [ConfigurationPartial(counts: counts, shape: c.shape, lists: c.lists)],
        methods: p.sweep!.methods)
      #expect(throws: PartialError.damaged(file: "x")) { try StudyPartial(decoding: p.encoded(), file: "x") }
    }
    // An outcome naming a trace the partial does not hold; a trace ordinal given twice.
    var p = PartialFileTests.partial(Shard(index: 0, count: 2)!, ordinals: [0, 2, 3, 5, 6])
    p.outcomes[0][4].trace = 5
    #expect(throws: PartialError.damaged(file: "x")) { try StudyPartial(decoding: p.encoded(), file: "x") }
    p = PartialFileTests.partial(Shard(index: 0, count: 2)!, ordinals: [0, 2, 2, 5])
    #expect(throws: PartialError.damaged(file: "x")) { try StudyPartial(decoding: p.encoded(), file: "x") }
  }

  /// Shards of inputs with the same names and other contents do not merge.
  @Test func otherInputContentsAreRefused() throws {
    func hash(_ text: String) -> StudyPartial.InputHash {
      .init(file: "data/x.csv", sha256: SHA256.hash(Array(text.utf8)))
    }
    var a = PartialFileTests.partial(Shard(index: 0, count: 2)!, ordinals: [0, 3])
    var b = PartialFileTests.partial(Shard(index: 1, count: 2)!, ordinals: [1, 2])
    a.inputs = [hash("version 1")]
    b.inputs = [hash("version 2")]
    let readA = try StudyPartial(decoding: a.encoded(), file: "a")
    #expect(readA.inputs == a.inputs)
    #expect(throws: PartialError.mismatch(what: "the same files with other contents", file: "a", other: "b")) {
      try MergedStudy([("a", readA), ("b", try StudyPartial(decoding: b.encoded(), file: "b"))])
    }
    b.inputs = a.inputs
    _ = try MergedStudy([("a", readA), ("b", try StudyPartial(decoding: b.encoded(), file: "b"))])
  }
}
