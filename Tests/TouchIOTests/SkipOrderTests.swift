import Testing
import TouchCore
import TouchTestSupport

@testable import TouchIO

/// Skips are listed in file order, whether a file is read whole or streamed: a duplicate trace's
/// skip stands where its trace stands among the records skipped for other reasons.
@Suite("Skip order: whole reads and streams")
struct SkipOrderTests {
  /// Found by fuzz-stream (`make fuzz` in CI, 2026-12-04): JSON Lines with --skip-invalid, a
  /// duplicate trace between two unreadable records. The whole read listed the duplicate after
  /// both (it checks duplicates once the file is parsed); the stream, which checks each record
  /// as it comes, between them.
  @Test func aDuplicateBetweenUnreadableRecordsKeepsItsPlace() throws {
    let jsonl = """
      {"id":"a","t":[0,0.5],"force":[1,2]}
      {"id":"b","t":[0,x],"force":[1,2]}
      {"id":"a","t":[0,0.5],"force":[1,2]}
      {"id":"c","t":[0,x],"force":[1,2]}

      """
    let path = TraceStreamTests.directory() + "/order.jsonl"
    TraceStreamTests.write(jsonl, to: path)
    let options = LoadOptions(skipInvalid: true)
    let whole = try TraceStreamTests.wholeReads([path], options: options)
    #expect(whole.skipped.map(\.origin.record) == [1, 2, 3])
    #expect(whole.skipped[1].reason.hasPrefix("trace 'a' is defined twice"))
    for (batch, chunk) in TraceStreamTests.sizes {
      let streamed = try TraceStreamTests.streamed([path], options: options, batch: batch, chunk: chunk).0
      TraceStreamTests.expectSame(streamed, whole, "batch \(batch), chunk \(chunk)")
    }
  }

  /// The fuzzer's input itself (`Tests/FuzzRegressions/stream/duplicate-before-a-later-skip.jsonl`):
  /// streamed in 16-byte chunks a trace a batch, as the harness does, it gives the whole read's
  /// skips, in record order.
  @Test func theFuzzInputStreamsAsItReadsWhole() throws {
    let source = TestData.repositoryRoot + "/Tests/FuzzRegressions/stream/duplicate-before-a-later-skip.jsonl"
    let path = TraceStreamTests.directory() + "/input.jsonl"
    TraceStreamTests.write(try TraceFiles.read(source), to: path)
    let options = LoadOptions(skipInvalid: true)
    let whole = try TraceStreamTests.wholeReads([path], options: options)
    let records = whole.skipped.compactMap(\.origin.record)
    #expect(records == records.sorted() && records.count == whole.skipped.count)
    let streamed = try TraceStreamTests.streamed([path], options: options, batch: 1, chunk: 16).0
    TraceStreamTests.expectSame(streamed, whole, "batch 1, chunk 16")
  }
}
