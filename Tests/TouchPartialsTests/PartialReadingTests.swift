import Foundation
import Testing
import TouchCore
import TouchEvaluation
import TouchIO
import TouchPartials

/// Partial files read a piece at a time (`StudyPartial(reading:spill:piece:)`, what `merge`
/// does): the same partial as the whole file decoded, whatever the piece, its outcome lists on
/// disk; the same refusals of damaged files.
@Suite("Partial files read a piece at a time")
struct PartialReadingTests {
  /// A partial of `ordinals` with `lists` outcome lists (each the fixture's list, its flaps
  /// numbered by the list so that the lists differ).
  static func partial(_ shard: Shard, ordinals: [Int], lists: Int) -> StudyPartial {
    var p = PartialFileTests.partial(shard, ordinals: ordinals)
    p.outcomes = (0..<lists).map { l in p.outcomes[0].map { o in with(o) { $0.flaps = l } } }
    return p
  }

  static func with(_ outcome: TraceOutcome, _ change: (inout TraceOutcome) -> Void) -> TraceOutcome {
    var changed = outcome
    change(&changed)
    return changed
  }

  /// A file of `bytes` in a directory of its own, removed after `body`.
  static func withFile<R>(_ bytes: [UInt8], _ body: (String) throws -> R) throws -> R {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("partial-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("p.partial").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return try body(path)
  }

  /// The error reading `path` a piece at a time throws, as the `PartialError` it must be.
  static func readingError(_ path: String, piece: Int) -> PartialError? {
    do {
      _ = try StudyPartial(reading: path, spill: try OutcomeSpill(configurations: 0), piece: piece)
      return nil
    } catch {
      return error as? PartialError
    }
  }

  @Test(arguments: [1, 7, 64, 4096, 1 << 20])
  func readsTheSamePartialWhateverThePiece(piece: Int) throws {
    // 3 000 traces and 3 lists: about 700 KB, many pieces of the smaller sizes.
    let p = Self.partial(Shard(index: 1, count: 2)!, ordinals: Array(0..<3000), lists: 3)
    let bytes = p.encoded()
    try Self.withFile(bytes) { path in
      let spill = try OutcomeSpill(configurations: 0)
      let read = try StudyPartial(reading: path, spill: spill, piece: piece)
      let whole = try StudyPartial(decoding: bytes, file: path)
      #expect(read.traces == whole.traces)
      #expect(read.skipped == whole.skipped)
      #expect(read.sweep == whole.sweep)
      #expect(read.groups == whole.groups)
      #expect(read.diagnostics == whole.diagnostics)
      #expect(read.outcomes.isEmpty)
      let columns = try #require(read.outcomeColumns)
      #expect(columns.count == 3)
      for l in 0..<3 { #expect(Array(try columns.column(l)) == whole.outcomes[l]) }
      // Written again from its columns: the file it was read from.
      #expect(read.encoded() == bytes)
    }
  }

  /// One spill takes every partial's columns (one temporary file for a merge of many shards),
  /// and the merge of partials read so equals the merge of the partials decoded whole.
  @Test func partialsShareASpillAndMergeAsDecoded() throws {
    let a = Self.partial(Shard(index: 0, count: 2)!, ordinals: [0, 3, 5, 8], lists: 2)
    let b = Self.partial(Shard(index: 1, count: 2)!, ordinals: [1, 2, 4, 6, 7], lists: 2)
    let spill = try OutcomeSpill(configurations: 0)
    let read = try [a, b].map { p in try Self.withFile(p.encoded()) { try StudyPartial(reading: $0, spill: spill) } }
    #expect(spill.count == 4)
    let merged = try MergedStudy([("b", read[1]), ("a", read[0])])
    let decoded = try MergedStudy([("a", a), ("b", b)])
    #expect(merged.outcomes.count == 2)
    for l in 0..<2 {
      let column = try merged.outcomes.column(l)
      #expect(column == (try decoded.outcomes.column(l)))
      #expect(column.map(\.trace) == Array(0..<9))
      // Trace 0 (a's first), trace 1 (b's first), trace 3 (a's second), by their positives.
      #expect(column.map(\.stage1.isPositive) == (0..<9).map { $0 % 3 == 0 })
      #expect(column.allSatisfy { $0.flaps == l })
    }
  }

  /// Cut short, one byte more, a flipped bit early, in the middle and in the checksum, another
  /// format, not a partial: the errors decoding the whole file gives, whatever the piece.
  @Test func refusesDamagedFilesAsDecodingDoes() throws {
    let bytes = Self.partial(.whole, ordinals: Array(0..<200), lists: 2).encoded()
    var cases: [[UInt8]] = [Array("trace,t\n".utf8), [], Array(bytes[..<5]), bytes + [0]]
    for cut in [StudyPartial.magic.count + 3, StudyPartial.magic.count + 8, bytes.count / 2, bytes.count - 1] {
      cases.append(Array(bytes[..<cut]))
    }
    for k in [StudyPartial.magic.count + 20, bytes.count / 2, bytes.count - 3] {
      var flipped = bytes
      flipped[k] ^= 0x10
      cases.append(flipped)
    }
    var version = bytes
    version[StudyPartial.magic.count] = 9
    cases.append(version)
    for damaged in cases {
      let expected: PartialError
      do {
        _ = try StudyPartial(decoding: damaged, file: "x")
        Issue.record("a damaged partial of \(damaged.count) bytes decoded")
        continue
      } catch {
        expected = error
      }
      try Self.withFile(damaged) { path in
        for piece in [3, 64, 1 << 20] {
          let error = Self.readingError(path, piece: piece)
          // The same case, naming the path read.
          #expect(error?.description == expected.description.replacingOccurrences(of: "x:", with: "\(path):"))
        }
      }
    }
  }

  /// A file that cannot be read is an input error (exit 66), not a damaged partial.
  @Test func aMissingFileOrADirectoryIsAnInputError() throws {
    let spill = try OutcomeSpill(configurations: 0)
    #expect(throws: TraceLoadError.self) { try StudyPartial(reading: "/nonexistent/p.partial", spill: spill) }
    let directory = FileManager.default.temporaryDirectory.path
    #expect(throws: TraceLoadError.self) { try StudyPartial(reading: directory, spill: spill) }
  }

  /// A list that does not hold one outcome per trace (not as a shard writes it) is kept as a
  /// list, the lists before it restored from the spill; merging then names it.
  @Test func aListNotOnePerTraceIsKeptAsAList() throws {
    var p = Self.partial(Shard(index: 0, count: 1)!, ordinals: [0, 1, 2, 3], lists: 3)
    p.outcomes[1].removeLast()
    let read = try Self.withFile(p.encoded()) {
      try StudyPartial(reading: $0, spill: try OutcomeSpill(configurations: 0))
    }
    #expect(read.outcomeColumns == nil)
    #expect(read.outcomes == p.outcomes)
    #expect(throws: PartialError.self) { try MergedStudy([("p", read)]) }
  }
}
