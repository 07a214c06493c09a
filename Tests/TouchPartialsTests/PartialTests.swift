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
    let url = try #require(Bundle.module.url(forResource: "shard-hash.json", withExtension: nil, subdirectory: "Fixtures"))
    let fixture = try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
    #expect(fixture.ids.count == 28)
    for entry in fixture.ids { #expect(String(Shard.hash(entry.id)) == entry.hash, "\(entry.id)") }
  }

  @Test func parsesIndexOverCount() {
    #expect(Shard(parsing: "0/1") == Shard.whole)
    #expect(Shard(parsing: "3/4")?.index == 3)
    #expect(Shard(parsing: "3/4")?.count == 4)
    for bad in ["4/4", "-1/4", "1/0", "1", "a/b", "1/4/2", "", " 1/4", "+1/4", "1/٤"] { #expect(Shard(parsing: bad) == nil, "\(bad)") }
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
  static func partial(_ shard: Shard, ordinals: [Int], arguments: [String] = ["--recognizer", "deep-press", "--", "data/"])
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
    var counts = ConfigurationPartial(shape: shape).counts
    counts.traces = ordinals.count
    counts.stage1.truePositives = ordinals.filter { $0 % 3 == 0 }.count
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
      files: ["data/x.csv"], diagnostics: [Diagnostic(.warning, "a warning", file: "data/x.csv", position: TextPosition(line: 3, column: 4))],
      labelOverrides: 0, overriddenTraces: 0, traces: traces,
      skipped: [KeptSkip(stage: 0, ordinal: ordinals.first ?? 0, skipped: SkippedTrace(trace: "bad\u{7}name", origin: TraceOrigin(file: "data/x.csv"), reason: "no samples"))],
      sweep: SweepPartial(configurations: [configuration], methods: [.onePass(parameter: "threshold")]),
      groups: GroupPartials(column: "user", configurations: [[GroupPartials.GroupPartial(name: "u0", partial: configuration)]]),
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

  @Test func refusesWhatIsNotAWholePartial() {
    let bytes = Self.partial(.whole, ordinals: [0, 1]).encoded()
    #expect(throws: PartialError.notAPartial(file: "x")) { try StudyPartial(decoding: Array("trace,t\n".utf8), file: "x") }
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
    #expect(merged.outcomes[0].map(\.trace) == [0, 1, 2, 3, 4, 5])
    #expect(merged.outcomes[0].map(\.stage1.isPositive) == [true, false, false, true, false, false])
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
    var other = Self.partial(Shard(index: 1, count: 3)!, ordinals: [1, 4], arguments: ["--recognizer", "peek-pop", "--", "data/"])
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
