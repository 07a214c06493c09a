import Testing
import TouchCore
import TouchIO
import TouchTestSupport

/// Trace files written batch by batch: JSON as it goes, CSV through a spool, the same bytes
/// however the traces are split, and no temporary file left behind.
@Suite struct TraceStreamWriterTests {
  let files = OutputFilesTests()

  /// Two traces with different optional columns: the header (written last) names the columns
  /// of both; the first trace's rows have empty cells for the second's columns.
  static let a = Trace(metadata: TraceMetadata(id: "a"), t: [0, 0.5], force: [0, 1])
  static let b = Trace(
    metadata: TraceMetadata(id: "b", touch: 2, user: "u", labels: ["hand": "left"]), t: [0], force: [0.25],
    phase: [.began], x: [1], y: [2])

  /// The CSV format's documented column order, written out by hand.
  static let expectedCSV = """
    trace,touch,t,force,phase,x,y,user,label:hand
    a,0,0.0,0.0,began,,,,
    a,0,0.5,1.0,ended,,,,
    b,2,0.0,0.25,began,1.0,2.0,u,left

    """

  @Test func csvHeaderNamesTheColumnsOfEveryBatch() throws {
    try files.inDirectory { directory in
      let path = directory + "/out.csv"
      let stream = try StreamedOutput(path: path, inputs: [])
      let writer = try TraceStreamWriter(format: .csv, sink: stream, spoolBeside: path)
      try writer.write([Self.a])
      try writer.write([])
      try writer.write([Self.b])
      // Nothing reaches the output before the last trace: the header depends on it.
      #expect(stream.byteCount == 0)
      try writer.finish()
      try OutputFiles(inputs: []).write([], committing: [stream])
      #expect(files.contents(path) == Self.expectedCSV)
      #expect(files.leftovers(in: directory, besides: ["out.csv", "t.csv"]).isEmpty)
    }
  }

  @Test func emptyDocumentsAreWhole() throws {
    try files.inDirectory { directory in
      for (format, expected) in [
        (TraceFiles.Format.json, "{\"format\":\"touchtrace\",\"version\":1,\"traces\":[]}\n"), (.jsonl, ""),
        (.csv, "trace,t,force,phase\n"),
      ] {
        let sink = MemorySink()
        let writer = try TraceStreamWriter(format: format, sink: sink, spoolBeside: directory + "/x")
        try writer.finish()
        #expect(String(decoding: sink.bytes, as: UTF8.self) == expected, "\(format)")
      }
    }
  }

  /// JSON documents and JSON Lines go out trace by trace: the sink holds the document's head and
  /// the traces written so far before the end.
  @Test func jsonGoesOutAsItIsWritten() throws {
    let sink = MemorySink()
    let writer = try TraceStreamWriter(format: .json, sink: sink, spoolBeside: "unused")
    try writer.write([Self.a])
    let head =
      "{\"format\":\"touchtrace\",\"version\":1,\"traces\":[\n{\"id\":\"a\",\"t\":[0.0,0.5],\"force\":[0.0,1.0]}"
    #expect(String(decoding: sink.bytes, as: UTF8.self) == head)
    try writer.finish()
    #expect(String(decoding: sink.bytes, as: UTF8.self) == head + "\n]}\n")
  }

  /// Every split of the samples into batches gives the bytes of one call with all traces, in
  /// each format; the sample traces cover positions, labels, intents and `press_at`.
  @Test func batchesGiveTheBytesOfOneCall() throws {
    let traces = try TraceLoader.load([TestData.samples]).traces
    try files.inDirectory { directory in
      for format in TraceFiles.Format.allCases {
        let whole = TraceWriter.encode(traces, as: format)
        for size in [1, 5, 64] {
          let sink = MemorySink()
          let writer = try TraceStreamWriter(format: format, sink: sink, spoolBeside: directory + "/x")
          for start in stride(from: 0, to: traces.count, by: size) {
            try writer.write(Array(traces[start..<min(traces.count, start + size)]))
          }
          try writer.finish()
          #expect(sink.bytes == whole, "\(format), batches of \(size)")
        }
      }
    }
  }

  /// A discarded writer removes its spool; the output's target is untouched.
  @Test func discardRemovesTheSpool() throws {
    try files.inDirectory { directory in
      let path = directory + "/out.csv"
      TestData.write("old\n", to: path)
      let stream = try StreamedOutput(path: path, inputs: [])
      let writer = try TraceStreamWriter(format: .csv, sink: stream, spoolBeside: path)
      try writer.write([Self.a, Self.b])
      #expect(files.leftovers(in: directory, besides: ["out.csv", "t.csv"]).count == 2)  // the stream's and the spool's
      writer.discard()
      stream.discard()
      #expect(files.contents(path) == "old\n")
      #expect(files.leftovers(in: directory, besides: ["out.csv", "t.csv"]).isEmpty)
    }
  }

  /// Bytes spooled in pieces larger than the buffer come back whole and in order.
  @Test func byteSpoolCopiesEverything() throws {
    try files.inDirectory { directory in
      let spool = try ByteSpool(beside: directory + "/out.json")
      var expected: [UInt8] = []
      for k in 0..<30_000 {
        let piece = Array("piece \(k);".utf8)
        expected += piece
        try spool.append(piece)
      }
      let sink = MemorySink()
      try spool.copy(to: sink)
      #expect(sink.bytes == expected && expected.count > 1 << 17)
      #expect(files.leftovers(in: directory, besides: ["t.csv"]).isEmpty)
    }
  }
}
