import Foundation
import Synchronization
import Testing
import TouchCore
import TouchTestSupport

@testable import TouchIO

/// JSON documents read in chunks, trace object by trace object: the same dataset or error as a
/// whole read, the traces handed out before the document's end has arrived, and the documents
/// that are read whole (traces before `format` and `version`, no traces array).
@Suite struct JSONDocumentStreamTests {
  /// Streams `text` as a `.json` file in every batch and chunk size and expects what a whole read
  /// of the same bytes gives: the same dataset, or the same error at the same place.
  @discardableResult
  static func expectStreamsLikeWholeRead(_ text: String, options: LoadOptions = LoadOptions()) throws -> Result<
    Dataset, TraceLoadError
  > {
    try expectStreamsLikeWholeRead(bytes: Array(text.utf8), options: options)
  }

  @discardableResult
  static func expectStreamsLikeWholeRead(bytes: [UInt8], options: LoadOptions = LoadOptions()) throws -> Result<
    Dataset, TraceLoadError
  > {
    let path = TraceStreamTests.directory() + "/doc.json"
    TraceStreamTests.write(bytes, to: path)
    let expected: Result<Dataset, TraceLoadError>
    do throws(TraceLoadError) {
      expected = .success(try TraceStreamTests.wholeReads([path], options: options))
    } catch {
      expected = .failure(error)
    }
    for (batch, chunk) in TraceStreamTests.sizes + [(1, 17), (2, 23)] {
      let got: Result<Dataset, TraceLoadError>
      do throws(TraceLoadError) {
        got = .success(try TraceStreamTests.streamed([path], options: options, batch: batch, chunk: chunk).0)
      } catch {
        got = .failure(error)
      }
      switch (expected, got) {
      case (.success(let a), .success(let b)):
        TraceStreamTests.expectSame(b, a, "batch \(batch), chunk \(chunk)")
      case (.failure(let a), .failure(let b)):
        #expect(b.description == a.description, "batch \(batch), chunk \(chunk)")
        #expect(b.position == a.position)
      default:
        Issue.record("batch \(batch), chunk \(chunk): whole read \(expected), stream \(got)")
      }
    }
    return expected
  }

  static let head = "{\"format\":\"touchtrace\",\"version\":1,"
  static func trace(_ id: String, force: String = "1") -> String {
    "{\"id\":\"\(id)\",\"t\":[0,0.5],\"force\":[\(force),2]}"
  }

  /// A document on one line of 300 traces with a bad force in the 251st: the column of the error
  /// counts every character of the line before it, across chunks that start in the middle of it.
  @Test func errorColumnsOnOneLongLine() throws {
    var traces = (0..<300).map { Self.trace("t\($0)é") }
    traces[250] = Self.trace("bad", force: "\"x\"")
    let text = Self.head + "\"traces\":[" + traces.joined(separator: ",") + "]}"
    let result = try Self.expectStreamsLikeWholeRead(text)
    guard case .failure(let error) = result else {
      Issue.record("expected an error")
      return
    }
    // Hand count: the head and `"traces":[`, 250 traces and their commas, then up to the value.
    let before = Self.head.count + "\"traces\":[".count + traces[..<250].map(\.count).reduce(0, +) + 250
    let column = before + "{\"id\":\"bad\",\"t\":[0,0.5],\"force\":[".count + 1
    #expect(error.position == TextPosition(line: 1, column: column))
    #expect(error.trace == "bad")
    let skipped = try Self.expectStreamsLikeWholeRead(text, options: LoadOptions(skipInvalid: true)).get()
    #expect(skipped.traces.count == 299)
    #expect(skipped.skipped.map(\.trace) == ["bad"])
    #expect(skipped.skipped.first?.origin.position == TextPosition(line: 1, column: before + 1))
  }

  /// Members after the traces array are checked as a whole read checks them: unknown keys (a
  /// warning naming the first), a second `traces`, text after the document.
  @Test func membersAfterTheTraces() throws {
    let traces = "\"traces\":[\n" + Self.trace("a") + ",\n" + Self.trace("b") + "\n]"
    let warned = try Self.expectStreamsLikeWholeRead(
      Self.head + "\"x\":1,\n" + traces + ",\n\"y\":{\"z\":[1,2]}}\n"
    ).get()
    #expect(warned.traces.map(\.name) == ["a", "b"])
    #expect(warned.diagnostics.map(\.message) == ["ignoring unknown keys 'x', 'y'"])
    let twice = try Self.expectStreamsLikeWholeRead(Self.head + traces + ",\"traces\":[]}")
    #expect(twice.failureMessage == "key 'traces' appears twice")
    let after = try Self.expectStreamsLikeWholeRead(Self.head + traces + "}\n  日")
    #expect(after.failureMessage == "invalid JSON: unexpected '日' after the end of the document")
    #expect(after.failurePosition == TextPosition(line: 5, column: 3))
  }

  /// A whole read checks `format` and `version` before any trace, wherever they are: such a
  /// document, and one without traces, is read whole, with the whole read's result.
  @Test func documentsReadWhole() throws {
    let late = "{\"traces\":[" + Self.trace("a") + "],\"format\":\"touchtrace\",\"version\":1}"
    #expect(try Self.expectStreamsLikeWholeRead(late).get().traces.map(\.name) == ["a"])
    let lateBad = "{\"traces\":[" + Self.trace("a") + ",5],\"format\":\"other\",\"version\":1}"
    #expect(
      try Self.expectStreamsLikeWholeRead(lateBad).failureMessage == "'format' is \"other\"; expected \"touchtrace\"")
    let none = try Self.expectStreamsLikeWholeRead("{\"format\":\"touchtrace\",\"version\":1}")
    #expect(none.failureMessage?.hasPrefix("missing key 'traces'") == true)
    #expect(none.failurePosition == TextPosition(line: 1, column: 1))
    #expect(
      try Self.expectStreamsLikeWholeRead("").failureMessage?.hasPrefix("invalid JSON: the file is empty") == true)
    #expect(try Self.expectStreamsLikeWholeRead(Self.head + "\"traces\":[]}").get().traces.isEmpty)
  }

  /// Found by fuzz-stream: 25 bytes 0xFF, then a trace object. A whole read quotes the word that
  /// starts the file, up to 40 characters, in its error; the stream quoted the 16 bytes its first
  /// chunk held. The framer now waits for the whole word (or 256 bytes of it) before the parser
  /// may quote it.
  @Test func aWordLongerThanAChunkIsQuotedWhole() throws {
    let path = TestData.repositoryRoot + "/Tests/FuzzRegressions/stream/word-before-the-document.json"
    let bytes = try TraceFiles.read(path)
    let result = try Self.expectStreamsLikeWholeRead(bytes: bytes)
    #expect(result.failureMessage?.hasPrefix("invalid JSON: unexpected word '\\u{FFFD}") == true)
    let long = String(repeating: "x", count: 300) + "{}"
    #expect(try Self.expectStreamsLikeWholeRead(long).failureMessage?.hasSuffix("x…'; expected a value") == true)
  }

  /// Written to a named pipe in two parts, a document's first trace comes out of the stream
  /// before the second part is written: the reader does not wait for the end of the document.
  @Test func tracesComeOutBeforeTheDocumentEnds() throws {
    let path = TraceStreamTests.directory() + "/pipe.json"
    #expect(mkfifo(path, 0o600) == 0)
    let first = Self.head + "\"traces\":[" + Self.trace("a") + ",{\"id\":"
    let rest = "\"b\",\"t\":[0],\"force\":[2]}]}\n"
    let release = DispatchSemaphore(value: 0)
    let restWritten = Flag()
    let writer = Thread {
      let fd = open(path, O_WRONLY)
      precondition(fd >= 0)
      precondition(FileSystem.writeAll(Array(first.utf8), to: fd) == 0)
      _ = release.wait(timeout: .now() + 20)
      restWritten.value.store(true, ordering: .sequentiallyConsistent)
      precondition(FileSystem.writeAll(Array(rest.utf8), to: fd) == 0)
      close(fd)
    }
    writer.start()
    let stream = try TraceStream([path], batchTraces: 1, chunkBytes: 16)
    let firstBatch = try #require(try stream.next())
    #expect(firstBatch.traces.map(\.name) == ["a"])
    let waited = restWritten.value.load(ordering: .sequentiallyConsistent)
    #expect(!waited, "the first trace waited for the whole document")
    release.signal()
    var names: [String] = []
    while let batch = try stream.next() { names += batch.traces.map(\.name) }
    #expect(names == ["b"])
  }
}

/// A flag shared with the writer thread.
private final class Flag: Sendable {
  let value = Atomic<Bool>(false)
}

extension Result where Failure == TraceLoadError {
  fileprivate var failureMessage: String? {
    if case .failure(let error) = self { error.message } else { nil }
  }
  fileprivate var failurePosition: TextPosition? {
    if case .failure(let error) = self { error.position } else { nil }
  }
}
