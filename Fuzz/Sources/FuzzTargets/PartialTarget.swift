import TouchCore
import TouchEvaluation
import TouchPartials

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension FuzzTargets {
  /// Decode then merge a partial file: the bytes are a partial's body after its version (the
  /// harness puts the magic and version in front and the SHA-256 behind, so that mutations reach
  /// the reader instead of stopping at the checksum: the file a forger writes). Whatever decodes
  /// is merged alone (as the whole job) and as shard 0/2 with ``partialSeeds``' shard 1/2, and
  /// every statistic a report draws from it is computed (finished metrics, Wilson intervals,
  /// metrics of the per-trace outcomes). A `PartialError` is the expected answer; a trap is a
  /// finding, and so is a decoded partial whose encoding does not read back to itself.
  public static func partial(_ data: UnsafeRawBufferPointer) {
    let file = StudyPartial.sealed(partialHead + Array(data))
    let read: StudyPartial
    do {
      read = try StudyPartial(decoding: file, file: "fuzz.partial")
    } catch {
      _ = error.description
      return
    }
    // What it decodes to writes a file that reads back to itself (not necessarily these bytes:
    // labels are written sorted, identical latency lists once).
    do {
      let again = try StudyPartial(decoding: read.encoded(), file: "again.partial")
      precondition(again.encoded() == read.encoded(), "a decoded partial does not read back to itself")
    } catch {
      preconditionFailure("a decoded partial, written again, does not read back: \(error)")
    }
    var whole = read
    whole.shard = .whole
    use([whole])
    var first = read
    first.shard = Shard(index: 0, count: 2)!
    use([first, partialSeeds[1]])
  }

  /// Merges `partials` and computes what reports compute from the merge.
  static func use(_ partials: [StudyPartial]) {
    let merged: MergedStudy
    do {
      merged = try MergedStudy(partials.enumerated().map { ("\($0.offset).partial", $0.element) })
    } catch {
      _ = error.description
      return
    }
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
    if merged.truths.count == merged.dataset.traces.count, let shapes = merged.sweep?.configurations.map(\.shape) {
      for (c, shape) in zip(0..<merged.outcomes.count, shapes) {
        guard let list = try? merged.outcomes.column(c), list.count == merged.truths.count else { continue }
        _ = ConfigurationMetrics(outcomes: list, truths: merged.truths, shape: shape)
      }
    }
  }

  /// What the harness puts before its input: the magic and the format version.
  static let partialHead: [UInt8] =
    StudyPartial.magic
    + (0..<8).map { UInt8(truncatingIfNeeded: UInt64(StudyPartial.formatVersion) >> (8 * UInt64($0))) }

  /// Shards 0/2 and 1/2 of a small sweep (one-stage and two-stage configurations, a
  /// composition's added latency and waits, per-user groups, per-trace outcomes, a skip, input
  /// hashes): the seeds (``writePartialSeeds(into:)``) and the shard merged with each input.
  public static let partialSeeds: [StudyPartial] = [0, 1].map { shard in
    let ordinals = shard == 0 ? [0, 2, 3, 5, 6] : [1, 4, 7]
    let one = OutcomeShape(twoStage: false, reportsFlaps: true, isComposition: true)
    let two = OutcomeShape(twoStage: true, reportsFlaps: false, isComposition: false)
    let traces = ordinals.map { k in
      KeptTrace(
        ordinal: k,
        metadata: TraceMetadata(
          id: "t\(k)", touch: 0, intent: k % 3 == 0 ? .press : .tap, pressAt: k % 3 == 0 ? [0.1 * Double(k)] : [],
          user: "u\(k % 2)", maxForce: 20.0 / 3, labels: ["hand": "left"]),
        origin: TraceOrigin(file: "data/x.csv", position: TextPosition(line: 2 + 10 * k, column: 1)),
        truth: TraceTruth(
          intent: k % 3 == 0 ? .press : .tap, isPositive: k % 3 == 0, references: k % 3 == 0 ? [0.1 * Double(k)] : [],
          referenceSource: k % 3 == 0 ? .pressAt : nil, touchDown: 0.0))
    }
    let truths = traces.map { $0.truth! }
    let outcomes = ordinals.indices.map { i in
      let positive = ordinals[i] % 3 == 0
      let stage = StageOutcome(
        isPositive: positive, actions: 1, references: positive ? 1 : 0,
        matches: positive
          ? [MatchedEvent(action: 0.2 + 0.1 * Double(ordinals[i]), reference: 0.1 * Double(ordinals[i]), touchDown: 0)]
          : [],
        events: [0.2])
      return TraceOutcome(trace: i, stage1: stage, stage2: stage, flaps: 1, addedLatency: 0.05, waited: positive)
    }
    var configurations: [ConfigurationPartial] = []
    for shape in [one, two] {
      var c = ConfigurationPartial(shape: shape)
      for (o, t) in zip(outcomes, truths) { c.add(o, truth: t) }
      configurations.append(c)
    }
    var byUser: [[GroupPartials.GroupPartial]] = []
    for c in configurations.indices {
      var groups: [GroupPartials.GroupPartial] = []
      for user in ["u0", "u1"] {
        var g = ConfigurationPartial(shape: configurations[c].shape)
        for (o, t) in zip(outcomes, traces) where t.metadata.user == user { g.add(o, truth: t.truth!) }
        groups.append(GroupPartials.GroupPartial(name: user, partial: g))
      }
      byUser.append(groups)
    }
    return StudyPartial(
      tool: "touchtrace 0.1.0", command: "sweep", arguments: ["--recognizer", "deep-press", "--", "data/"],
      shard: Shard(index: shard, count: 2)!, maximumForces: [20.0 / 3], files: ["data/x.csv"],
      inputs: [StudyPartial.InputHash(file: "data/x.csv", sha256: SHA256.hash(Array("data".utf8)))],
      diagnostics: [Diagnostic(.warning, "a warning", file: "data/x.csv", position: TextPosition(line: 3, column: 4))],
      labelOverrides: 0, overriddenTraces: 0, traces: traces,
      skipped: [
        KeptSkip(
          stage: 0, ordinal: shard,
          skipped: SkippedTrace(trace: "bad", origin: TraceOrigin(file: "data/x.csv"), reason: "no samples"))
      ],
      sweep: SweepPartial(configurations: configurations, methods: [.replay, .onePass(parameter: "threshold")]),
      groups: GroupPartials(column: "user", configurations: byUser),
      outcomes: [outcomes, outcomes])
  }

  /// Writes the seeds of the partial harness (each seed partial's body after its version,
  /// without its checksum) into `directory` when it holds none: the harness calls it from
  /// `LLVMFuzzerInitialize`, so the seeds always follow the format this build writes.
  public static func writePartialSeeds(into directory: String) {
    for (k, p) in partialSeeds.enumerated() {
      let path = "\(directory)/seed-\(k).partial-body"
      if access(path, F_OK) == 0 { continue }
      let bytes = Array(p.encoded().dropFirst(partialHead.count).dropLast(SHA256.byteCount))
      guard let f = fopen(path, "wb") else { continue }
      _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, f) }
      fclose(f)
    }
  }
}
