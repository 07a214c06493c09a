import Testing
import TouchCore
import TouchIO
import TouchStudy
import TouchTestSupport

/// Reading ahead (``BatchSource`` with `readAhead`, what a study scoring on several threads uses)
/// hands out what a plain read does: the same traces, skips, files and warnings in the same order,
/// the same error at the same place, the same digests; its batches grow from 1 024 traces to the
/// batch size; a source dropped before its end neither hangs nor disturbs the next one.
@Suite struct ReadAheadTests {
  /// `count` traces of three samples each, ids `c0`, `c1`, …; the trace numbered `invalid` (if
  /// any) has a sample going back in time on line `4 + 3 · invalid` (its last).
  static func csv(count: Int, invalid: Int? = nil) -> String {
    var text = "trace,t,force,phase,max_force\n"
    for i in 0..<count {
      let back = i == invalid ? "0.005" : "0.02"
      text += "c\(i),0.0,0.0,began,6.0\nc\(i),0.01,\(Double(i % 60) / 10),moved,6.0\nc\(i),\(back),0.0,ended,6.0\n"
    }
    return text
  }

  /// Every batch of `source`, or the error it stopped with after the batches before it.
  static func drain(_ source: inout BatchSource) -> (batches: [Dataset], error: String?) {
    var batches: [Dataset] = []
    do {
      while let batch = try source.next() { batches.append(batch) }
      return (batches, nil)
    } catch {
      return (batches, String(describing: error))
    }
  }

  static func read(_ paths: [String], batchTraces: Int, readAhead: Bool, skipInvalid: Bool = false) throws -> (
    batches: [Dataset], error: String?, digests: [String]
  ) {
    var options = LoadOptions()
    options.skipInvalid = skipInvalid
    var source = try BatchSource(
      paths, options: options, batchTraces: batchTraces, digests: true, readAhead: readAhead)
    let (batches, error) = drain(&source)
    return (batches, error, error == nil ? source.digests.map { "\($0.file) \($0.sha256)" } : [])
  }

  @Test(arguments: [7, 100, 16384])
  func readingAheadGivesWhatAPlainReadGives(batchTraces: Int) throws {
    let paths = [TestData.samples]
    let plain = try Self.read(paths, batchTraces: batchTraces, readAhead: false)
    let ahead = try Self.read(paths, batchTraces: batchTraces, readAhead: true)
    #expect(plain.error == nil && ahead.error == nil)
    #expect(ahead.batches.flatMap(\.traces).map(\.name) == plain.batches.flatMap(\.traces).map(\.name))
    #expect(ahead.batches.flatMap(\.traces).map(\.force) == plain.batches.flatMap(\.traces).map(\.force))
    #expect(ahead.batches.flatMap(\.origins) == plain.batches.flatMap(\.origins))
    #expect(ahead.batches.flatMap(\.skipped).map(\.description) == plain.batches.flatMap(\.skipped).map(\.description))
    #expect(ahead.batches.flatMap(\.files) == plain.batches.flatMap(\.files))
    #expect(
      ahead.batches.flatMap(\.diagnostics).map(\.description) == plain.batches.flatMap(\.diagnostics).map(\.description)
    )
    #expect(ahead.digests == plain.digests && plain.digests.count == plain.batches.flatMap(\.files).count)
  }

  @Test func batchesGrowFromAThousandTracesToTheBatchSize() throws {
    let directory = TestData.temporaryDirectory()
    defer { TestData.remove(directory) }
    let file = directory + "/many.csv"
    TestData.write(Self.csv(count: 10_000), to: file)
    let ahead = try Self.read([file], batchTraces: 3000, readAhead: true)
    // 1 024, 2 048, then the batch size, each batch ending after the trace that reaches it.
    #expect(ahead.batches.map(\.traces.count) == [1024, 2048, 3000, 3000, 928])
    let plain = try Self.read([file], batchTraces: 3000, readAhead: false)
    #expect(plain.batches.map(\.traces.count) == [3000, 3000, 3000, 1000])
    #expect(ahead.batches.flatMap(\.traces).map(\.name) == plain.batches.flatMap(\.traces).map(\.name))
  }

  @Test func anInvalidTraceStopsBothReadsAtTheSamePlace() throws {
    let directory = TestData.temporaryDirectory()
    defer { TestData.remove(directory) }
    let file = directory + "/bad.csv"
    // About 4.6 MB: the error is in the second 4 MiB chunk, after whole batches of the first.
    TestData.write(Self.csv(count: 60_000, invalid: 59_000), to: file)
    let plain = try Self.read([file], batchTraces: 700, readAhead: false)
    let ahead = try Self.read([file], batchTraces: 700, readAhead: true)
    let error = try #require(plain.error)
    #expect(error.hasPrefix("\(file):177004:8: error: t decreases"))
    #expect(ahead.error == error)
    // The same batches before the failing one (a chunk is validated whole before its batches go).
    #expect(!plain.batches.isEmpty)
    #expect(ahead.batches.flatMap(\.traces).map(\.name) == plain.batches.flatMap(\.traces).map(\.name))
    // Skipped instead, the trace is accounted for in its place.
    let skipped = try Self.read([file], batchTraces: 700, readAhead: true, skipInvalid: true)
    #expect(skipped.error == nil)
    #expect(skipped.batches.flatMap(\.traces).count == 59_999)
    #expect(skipped.batches.flatMap(\.skipped).map(\.trace) == ["c59000"])
  }

  @Test func aSourceDroppedBeforeItsEndLetsTheNextOneRead() throws {
    let directory = TestData.temporaryDirectory()
    defer { TestData.remove(directory) }
    let file = directory + "/many.csv"
    TestData.write(Self.csv(count: 5000), to: file)
    for _ in 0..<20 {
      var first = try BatchSource([file], options: LoadOptions(), batchTraces: 500, readAhead: true)
      #expect(try first.next()?.traces.count == 500)
    }
    let whole = try Self.read([file], batchTraces: 500, readAhead: true)
    #expect(whole.batches.flatMap(\.traces).count == 5000)
  }
}
