import Testing
import TouchCore
import TouchTestSupport

@testable import TouchIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `TraceStream`: batches that add up to what a whole read of each file gives, whatever the
/// batch and chunk sizes (tiny ones put chunk boundaries inside quoted fields and inside
/// multi-byte UTF-8), the contiguity rule, and labels applied per batch.
@Suite struct TraceStreamTests {
  /// (traces per batch, bytes per chunk): boundaries everywhere, and the defaults.
  static let sizes: [(Int, Int)] = [(1, 16), (1, 64), (3, 100), (7, 1000), (2048, 4 << 20)]

  /// A fresh directory for the files of one test.
  static func directory() -> String { TestData.temporaryDirectory("touchtrace-stream") }

  static func write(_ bytes: [UInt8], to path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    precondition(fd >= 0, "cannot create \(path)")
    defer { close(fd) }
    precondition(FileSystem.writeAll(bytes, to: fd) == 0, "cannot write \(path)")
  }

  /// Writes `text` as UTF-8 to `path`, creating or replacing the file.
  static func write(_ text: String, to path: String) {
    write(Array(text.utf8), to: path)
  }

  /// All batches of a stream, appended.
  static func streamed(_ paths: [String], options: LoadOptions, batch: Int, chunk: Int) throws(TraceLoadError)
    -> (Dataset, batches: Int)
  {
    let stream = try TraceStream(paths, options: options, batchTraces: batch, chunkBytes: chunk)
    var dataset = Dataset()
    var count = 0
    while let part = try stream.next() {
      #expect(part.total <= max(batch, 1) + 16, "a batch holds about batchTraces traces")
      dataset.append(contentsOf: part)
      count += 1
    }
    return (dataset, count)
  }

  /// The reference: each file read whole in one buffer (`TraceLoader.read`), appended.
  static func wholeReads(_ files: [String], options: LoadOptions) throws(TraceLoadError) -> Dataset {
    var dataset = Dataset()
    for file in try TraceFiles.expand(files) {
      var bytes = try TraceFiles.read(file)
      dataset.append(
        contentsOf: try TraceLoader.read(&bytes, file: file, format: TraceFiles.Format(path: file), options: options))
    }
    return dataset
  }

  static func expectSame(_ a: Dataset, _ b: Dataset, _ what: String, sourceLocation: SourceLocation = #_sourceLocation)
  {
    #expect(a.traces == b.traces, "traces: \(what)", sourceLocation: sourceLocation)
    #expect(a.origins == b.origins, "origins: \(what)", sourceLocation: sourceLocation)
    #expect(a.skipped == b.skipped, "skipped: \(what)", sourceLocation: sourceLocation)
    #expect(a.files == b.files, "files: \(what)", sourceLocation: sourceLocation)
    #expect(a.diagnostics == b.diagnostics, "diagnostics: \(what)", sourceLocation: sourceLocation)
    #expect(a.labelOverrides == b.labelOverrides, "labelOverrides: \(what)", sourceLocation: sourceLocation)
    #expect(a.overriddenTraces == b.overriddenTraces, "overriddenTraces: \(what)", sourceLocation: sourceLocation)
  }

  static func error(_ body: () throws(TraceLoadError) -> Void) -> TraceLoadError? {
    do throws(TraceLoadError) {
      try body()
      return nil
    } catch {
      return error
    }
  }

  // MARK: Equivalence

  @Test func samplesStreamLikeWholeReads() throws {
    let files = try TraceFiles.expand([TestData.samples])
    #expect(files.count >= 3)
    for skip in [false, true] {
      let options = LoadOptions(skipInvalid: skip)
      let reference = try Self.wholeReads(files, options: options)
      #expect(reference.traces.count > 100)
      Self.expectSame(try TraceLoader.load([TestData.samples], options: options), reference, "load")
      Self.expectSame(
        try TraceLoader.load([TestData.samples], options: LoadOptions(skipInvalid: skip, wholeFiles: true)), reference,
        "whole files")
      for (batch, chunk) in Self.sizes {
        let (dataset, batches) = try Self.streamed([TestData.samples], options: options, batch: batch, chunk: chunk)
        Self.expectSame(dataset, reference, "batch \(batch), chunk \(chunk)")
        if batch == 1 { #expect(batches >= reference.total) }
      }
    }
  }

  /// Traces whose CSV needs quoting (delimiters, quotes, line breaks in labels) and whose text
  /// has two-, three- and four-byte UTF-8 characters, as CSV, JSON Lines and JSON.
  static func awkwardTraces() throws -> [Trace] {
    var traces = Array(try TraceLoader.load([TestData.samples + "/synth-iphone6s.csv"]).traces.prefix(40))
    for k in traces.indices {
      traces[k].metadata.id = "é,\"日本\"\n🙂 \(k)"
      traces[k].metadata.user = "ü \(k % 3)"
      traces[k].metadata.labels["note"] = k % 2 == 0 ? "a \"quoted\"\nline, 🙂" : "ß"
    }
    return traces
  }

  @Test(arguments: [TraceFiles.Format.csv, .jsonl, .json])
  func quotedFieldsAndMultiByteTextAcrossChunks(format: TraceFiles.Format) throws {
    let directory = Self.directory()
    let path = directory + "/awkward." + format.rawValue
    Self.write(TraceWriter.encode(try Self.awkwardTraces(), as: format), to: path)
    let reference = try Self.wholeReads([path], options: LoadOptions())
    #expect(reference.traces.count == 40)
    #expect(reference.traces[3].metadata.labels["note"] == "ß")
    for (batch, chunk) in Self.sizes {
      let (dataset, _) = try Self.streamed([path], options: LoadOptions(), batch: batch, chunk: chunk)
      Self.expectSame(dataset, reference, "\(format) batch \(batch), chunk \(chunk)")
    }
  }

  /// A bad value after multi-byte text (`b",日本,0.1,x`: `x` is the 11th character): the column counts characters, the line counts the line
  /// breaks inside quoted fields before it, whatever the chunks.
  @Test func errorsKeepTheirPositionAcrossChunks() throws {
    let directory = Self.directory()
    let path = directory + "/bad.csv"
    let text = "trace,user,t,force\n\"a\nb\",日本,0,1\n\"a\nb\",日本,0.1,x\n"
    Self.write(text, to: path)
    let expected = "\(path):5:11: error: 'force' is not a number: 'x' (trace 'a\\nb')"
    for (batch, chunk) in Self.sizes {
      let failure = Self.error { () throws(TraceLoadError) in
        _ = try Self.streamed([path], options: LoadOptions(), batch: batch, chunk: chunk)
      }
      #expect(failure?.description == expected, "chunk \(chunk)")
      #expect(failure?.position == TextPosition(line: 5, column: 11))
    }
    let skipped = try Self.streamed([path], options: LoadOptions(skipInvalid: true), batch: 1, chunk: 16).0
    #expect(skipped.skipped.map(\.position) == [TextPosition(line: 5, column: 11)])
    #expect(skipped.skipped.map(\.origin.position) == [TextPosition(line: 2, column: 1)])
  }

  @Test func rowsThatComeBackAreFoundWhateverTheChunks() throws {
    let directory = Self.directory()
    let path = directory + "/scattered.csv"
    Self.write("trace,t,force\na,0,1\na,0.1,2\nb,0,1\n# note\na,0.2,3\nb,0.1,2\n", to: path)
    for (batch, chunk) in Self.sizes {
      let failure = Self.error { () throws(TraceLoadError) in
        _ = try Self.streamed([path], options: LoadOptions(), batch: batch, chunk: chunk)
      }
      #expect(failure?.position == TextPosition(line: 6, column: 1))
      #expect(
        failure?.message.hasPrefix("rows of trace 'a' reappear after other traces' rows (its first rows are lines 2–3)")
          == true)
      let (dataset, _) = try Self.streamed([path], options: LoadOptions(skipInvalid: true), batch: batch, chunk: chunk)
      #expect(dataset.traces.map(\.name) == ["a", "b"])
      #expect(dataset.traces.map(\.count) == [2, 1])
      // The second blocks of a (line 6) and of b (line 7) are skipped, in file order.
      #expect(dataset.skipped.map(\.trace) == ["a", "b"])
      #expect(dataset.skipped.map(\.origin.position?.line) == [6, 7])
    }
    // Whole files accept the scattered rows.
    let whole = try TraceLoader.load([path], options: LoadOptions(wholeFiles: true))
    #expect(whole.traces.map(\.name) == ["a", "b"])
    #expect(whole.traces.map(\.force) == [[1, 2, 3], [1, 2]])
  }

  @Test func aTraceLargerThanAChunkGrowsIt() throws {
    let directory = Self.directory()
    let path = directory + "/long.csv"
    var text = "trace,t,force\n"
    for k in 0..<500 { text += "long,\(Double(k) / 100),\(k % 7)\n" }
    text += "short,0,1\n"
    Self.write(text, to: path)
    let (dataset, _) = try Self.streamed([path], options: LoadOptions(), batch: 1, chunk: 16)
    #expect(dataset.traces.map(\.count) == [500, 1])
    #expect(dataset.traces[0].force[499] == Double(499 % 7))
    #expect(dataset.origins.map(\.position) == [TextPosition(line: 2, column: 1), TextPosition(line: 502, column: 1)])
  }

  @Test func duplicatesAcrossFilesAndBatches() throws {
    let directory = temporaryDirectory(with: [
      "1.csv": "trace,t,force\na,0,1\nb,0,1\n",
      "2.jsonl": "{\"id\":\"c\",\"t\":[0],\"force\":[1]}\n{\"id\":\"a\",\"t\":[0],\"force\":[2]}\n",
    ])
    for (batch, chunk) in Self.sizes {
      let (dataset, _) = try Self.streamed(
        [directory], options: LoadOptions(skipInvalid: true), batch: batch, chunk: chunk)
      #expect(dataset.traces.map(\.name) == ["a", "b", "c"])
      #expect(dataset.skipped.map(\.reason) == ["trace 'a' is defined twice (first in \(directory)/1.csv) (record 1)"])
      #expect(dataset.skipped.first?.origin.record == 1)
      #expect(dataset.files == [directory + "/1.csv", directory + "/2.jsonl"])
    }
  }

  /// Random edits of small CSV, JSON Lines and JSON document files (quotes, CR and CRLF line
  /// endings, blank and comment lines, a byte order mark, multi-byte characters, stray bytes,
  /// brackets and backslashes): streamed in chunks of 16 and 37 bytes, each gives what a whole
  /// read of the same bytes gives — the same dataset, or the same error.
  @Test(arguments: [TraceFiles.Format.csv, .jsonl, .json])
  func randomEditsStreamLikeWholeReads(format: TraceFiles.Format) throws {
    let directory = Self.directory()
    let base: String
    switch format {
    case .csv:
      base =
        "\u{FEFF}trace,touch,t,force,user\r\n# c\r\n\"a,\"\"1\"\"\",0,0,1,\"ü\nx\"\r\n\"a,\"\"1\"\"\",1,0,2,\"ü\nx\"\r\"a,\"\"1\"\"\",0,0.1,3,\"ü\nx\"\n\nb,0,0,1,日本\rb,0,0.2,2,日本\n"
    case .jsonl:
      base =
        "{\"id\":\"a\",\"t\":[0,0.1],\"force\":[1,2],\"user\":\"ü\"}\r\n\n{\"id\":\"b\",\"t\":[0],\"force\":[1],\"x\":[1]}\r{\"id\":\"c\",\"t\":[0],\"force\":[1],\"k\":1}\n"
    case .json:
      base =
        "\u{FEFF}{\"format\": \"touchtrace\", \"version\": 1, \"note\": [\"ü\\\"]\"],\r\n \"traces\": [\n  {\"id\":\"a\",\"t\":[0,0.1],\"force\":[1,2],\"user\":\"日本\"},\r{\"id\":\"b\",\"t\":[0],\"force\":[1],\"x\":[1]}, {\"id\":\"c\",\"t\":[0],\"force\":[1],\"k\":{\"n\":[1]}}\n ], \"more\": {\"a\": [1]}}\n"
    }
    var pieces: [[UInt8]] = [
      [0x22], [0x0D], [0x0A], [0x0D, 0x0A], [0x2C], [0x23], Array("日".utf8), [0x7B], [0x7D], [0x30], [0x2E], [0xFF],
    ]
    if format == .json { pieces += [[0x5B], [0x5D], [0x5C], [0x3A], [0x20]] }
    var rng = SplitMix64(seed: format == .csv ? 16 : format == .jsonl ? 61 : 62)
    var compared = 0
    var datasets = 0
    var errors = 0
    for round in 0..<150 {
      var bytes = Array(base.utf8)
      for _ in 0..<Int.random(in: 0...3, using: &rng) {
        let at = Int.random(in: 0...bytes.count, using: &rng)
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: bytes.insert(contentsOf: pieces[Int.random(in: 0..<pieces.count, using: &rng)], at: at)
        case 1: if at < bytes.count { bytes.remove(at: at) }
        default:
          let piece = bytes[at..<min(bytes.count, at + Int.random(in: 1...12, using: &rng))]
          bytes.insert(contentsOf: piece, at: min(bytes.count, at + Int.random(in: 0...20, using: &rng)))
        }
      }
      let path = directory + "/r\(round)." + format.rawValue
      Self.write(bytes, to: path)
      for skip in [false, true] {
        let options = LoadOptions(skipInvalid: skip)
        var whole = bytes
        let expected: Result<Dataset, TraceLoadError>
        do throws(TraceLoadError) {
          expected = .success(try TraceLoader.read(&whole, file: path, format: format, options: options))
        } catch {
          expected = .failure(error)
        }
        for chunk in [16, 37] {
          let got: Result<Dataset, TraceLoadError>
          do throws(TraceLoadError) {
            got = .success(try Self.streamed([path], options: options, batch: 1, chunk: chunk).0)
          } catch {
            got = .failure(error)
          }
          switch (expected, got) {
          case (.success(let a), .success(let b)):
            Self.expectSame(b, a, "round \(round), skip \(skip), chunk \(chunk)")
            datasets += 1
          case (.failure(let a), .failure(let b)):
            errors += 1
            #expect(b.description == a.description, "round \(round), chunk \(chunk)")
            #expect(b.position == a.position)
          default:
            Issue.record("round \(round), skip \(skip), chunk \(chunk): whole read \(expected), stream \(got)")
          }
          compared += 1
        }
      }
    }
    #expect(compared == 600)
    print("random edits, \(format): \(datasets) datasets and \(errors) errors alike")
    #expect(datasets > 100)
    #expect(errors > 20)
  }

  // MARK: Labels

  @Test func labelsApplyPerBatchWithWarningsOnceAtTheEnd() throws {
    let directory = temporaryDirectory(with: [
      "data.csv": "trace,t,force,intent\na,0,1,press\nb,0,1,\nc,0,1,\n",
      "labels.csv": "trace,intent,hand,t\nc,press,left,\nb,drag,right,\na,drag,left,\nghost,press,,\nghost,drag,,\n",
    ])
    let options = LoadOptions(skipInvalid: true, labels: directory + "/labels.csv", labelsOverride: true)
    var last: Dataset?
    let stream = try TraceStream([directory + "/data.csv"], options: options, batchTraces: 1, chunkBytes: 16)
    var all = Dataset()
    while let batch = try stream.next() {
      all.append(contentsOf: batch)
      last = batch
    }
    #expect(all.traces.map(\.metadata.intent) == [.drag, .drag, .press])
    #expect(all.traces.map { $0.metadata.labels["hand"] } == ["left", "right", "left"])
    #expect(all.labelOverrides == 1)
    #expect(all.overriddenTraces == 1)
    // One skip for the unknown trace (its second row is not reported again), in the last batch.
    #expect(all.skipped.map(\.trace) == ["ghost"])
    #expect(last?.skipped.map(\.trace) == ["ghost"])
    #expect(all.skipped.first?.origin.position?.line == 5)
    // The labels file's warning (column `t`) once, at the end.
    #expect(all.diagnostics.count == 1)
    #expect(last?.diagnostics.count == 1)
    Self.expectSame(all, try TraceLoader.load([directory + "/data.csv"], options: options), "load")
    // Strict: the label for the unknown trace is the error, after all data.
    let strict = LoadOptions(labels: directory + "/labels.csv", labelsOverride: true)
    let failure = Self.error { () throws(TraceLoadError) in
      _ = try Self.streamed([directory + "/data.csv"], options: strict, batch: 1, chunk: 16)
    }
    #expect(
      failure?.description == "\(directory)/labels.csv:5:1: error: labels name trace 'ghost', which has no samples")
  }

  @Test func pathLabelsPerBatch() throws {
    let directory = Self.directory()
    Self.write("trace,t,force\na,0,1\nb,0,1\n", to: directory + "/u1-left.csv")
    Self.write("trace,t,force\nc,0,1\n", to: directory + "/other.csv")
    let pattern = try PathLabels("{user}-{hand}.csv")
    let options = LoadOptions(labelFromPath: [pattern])
    for (batch, chunk) in Self.sizes {
      let (dataset, _) = try Self.streamed([directory], options: options, batch: batch, chunk: chunk)
      #expect(dataset.traces.map(\.metadata.user) == [nil, "u1", "u1"])
      #expect(dataset.traces.map { $0.metadata.labels["hand"] } == [nil, "left", "left"])
      #expect(dataset.diagnostics.count == 1)
      #expect(dataset.diagnostics.first?.message.contains("matched no path of 1 file") == true)
    }
  }

  // MARK: Real recordings and synthesized files

  /// The shared recordings are not in the trace formats: reading them fails, with the same
  /// error whatever the chunks.
  @Test func realRecordingsFailTheSameWay() throws {
    guard TestData.hasRealData else { return }
    let csv = TestData.realData + "/algal-3dtouch/data-weightMeasurements/weightCSV.csv"
    let json = try #require(
      SharedData.files(in: TestData.realData + "/algal-3dtouch/data-60secondsVariedForce", suffix: ".json").first)
    for path in [csv, json] {
      let whole = Self.error { () throws(TraceLoadError) in _ = try Self.wholeReads([path], options: LoadOptions()) }
      #expect(whole != nil)
      for (batch, chunk) in Self.sizes {
        let streamed = Self.error { () throws(TraceLoadError) in
          _ = try Self.streamed([path], options: LoadOptions(), batch: batch, chunk: chunk)
        }
        #expect(streamed?.description == whole?.description)
      }
    }
  }
}

/// Reads the file named by `TOUCHTRACE_STREAM_MEASURE` (when set; the test does nothing
/// otherwise) the way `TOUCHTRACE_STREAM_MODE` says — `stream` (batch by batch, each batch
/// dropped), `load` (`TraceLoader.load`) or `whole` (`load` with whole files) — and prints the
/// traces, samples and seconds. Run under `/usr/bin/time -f %M` for the peak memory (README).
@Suite struct TraceStreamMeasurement {
  @Test func measure() throws {
    guard let path = getenv("TOUCHTRACE_STREAM_MEASURE").map({ String(cString: $0) }) else { return }
    let mode = getenv("TOUCHTRACE_STREAM_MODE").map { String(cString: $0) } ?? "stream"
    let clock = ContinuousClock()
    var traces = 0
    var samples = 0
    let elapsed = try clock.measure {
      switch mode {
      case "load", "whole":
        let dataset = try TraceLoader.load([path], options: LoadOptions(wholeFiles: mode == "whole"))
        traces = dataset.traces.count
        samples = dataset.sampleCount
      default:
        let stream = try TraceStream([path])
        while let batch = try stream.next() {
          traces += batch.traces.count
          samples += batch.sampleCount
        }
      }
    }
    #expect(traces > 0)
    print("measure \(mode): \(traces) traces, \(samples) samples, \(elapsed)")
  }
  /// Content hashes, asked for (a partial records them): each input's SHA-256 as hashlib gives it
  /// (`hashlib.sha256(text.encode()).hexdigest()`), whether the file is read in 16-byte chunks,
  /// whole (`--whole-files`) or as a JSON document; not asked for, no hashing at all.
  @Test func contentDigestsOnlyWhenAsked() throws {
    let directory = TraceStreamTests.directory()
    defer { TestData.remove(directory) }
    let csv = "trace,t,force\na,0,0.1\na,0.1,0.5\nb,0,0.2\nb,0.05,0.3\n"
    let json =
      "{\"format\":\"touchtrace\",\"version\":1,\"traces\":[\n{\"id\":\"c\",\"t\":[0,0.1],\"force\":[0.1,0.4]}\n]}\n"
    TraceStreamTests.write(csv, to: directory + "/a.csv")
    TraceStreamTests.write(json, to: directory + "/c.json")
    let expected = [
      directory + "/a.csv": "67620a08949c75c14016ea21234dc4a6cee409ba9c3bdf66e43ceb48ca6ca933",
      directory + "/c.json": "74bc2be07c34b4822dd8790ced2da09bba842f2fce8db34fd1976e5071026f6e",
    ]
    let paths = [directory + "/a.csv", directory + "/c.json"]
    for whole in [false, true] {
      let stream = try TraceStream(
        paths, options: LoadOptions(wholeFiles: whole), batchTraces: 1, chunkBytes: 16, digests: true)
      while try stream.next() != nil {}
      #expect(stream.digests.map { $0.file } == paths)
      for (file, digest) in stream.digests { #expect(digest.hex == expected[file], "\(file), whole files: \(whole)") }
    }
    let plain = try TraceStream(paths, batchTraces: 1, chunkBytes: 16)
    while try plain.next() != nil {}
    #expect(plain.digests.isEmpty)
  }
}
