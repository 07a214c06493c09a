import Testing
import TouchIO
import TouchTestSupport

/// A streamed output: written in pieces, committed with the run's other outputs, or nothing.
@Suite struct StreamedOutputTests {
  let files = OutputFilesTests()

  @Test func piecesLargerThanTheBufferArriveWholeOnCommit() throws {
    try files.inDirectory { directory in
      let path = directory + "/rows.csv"
      TestData.write("old\n", to: path)
      let stream = try StreamedOutput(path: path, inputs: [directory + "/t.csv"])
      var expected: [UInt8] = []
      for k in 0..<20_000 {
        let line = Array("row \(k),\(k * k)\n".utf8)
        expected += line
        try stream.append(line)
      }
      #expect(stream.byteCount == expected.count && expected.count > 200_000)
      // Not committed yet: the target is untouched.
      #expect(files.contents(path) == "old\n")
      try OutputFiles(inputs: [directory + "/t.csv"]).write(
        [(directory + "/report.md", Array("report\n".utf8))], committing: [stream])
      #expect(files.contents(path) == String(decoding: expected, as: UTF8.self))
      #expect(files.contents(directory + "/report.md") == "report\n")
      #expect(files.leftovers(in: directory, besides: ["t.csv", "rows.csv", "report.md"]).isEmpty)
    }
  }

  @Test func refusedTargetsAndFailedBatchesChangeNothing() throws {
    try files.inDirectory { directory in
      let input = directory + "/t.csv"
      #expect(throws: FileWriteError.self) { try StreamedOutput(path: input, inputs: [input]) }
      #expect(throws: FileWriteError.self) { try StreamedOutput(path: directory, inputs: [input]) }
      #expect(throws: FileWriteError.self) { try StreamedOutput(path: "-", inputs: [input]) }
      // A batch whose other output is refused: the stream is discarded, no file appears.
      let stream = try StreamedOutput(path: directory + "/rows.csv", inputs: [input])
      try stream.append(Array("a\n".utf8))
      #expect(throws: FileWriteError.self) {
        try OutputFiles(inputs: [input]).write([(input, Array("x".utf8))], committing: [stream])
      }
      #expect(files.contents(directory + "/rows.csv") == nil)
      #expect(files.contents(input) == "input\n")
      // The same target as a report: refused.
      let twice = try StreamedOutput(path: directory + "/same.csv", inputs: [input])
      #expect(throws: FileWriteError.self) {
        try OutputFiles(inputs: [input]).write([(directory + "/same.csv", Array("x".utf8))], committing: [twice])
      }
      #expect(files.contents(directory + "/same.csv") == nil)
      // Dropped without a commit: removed.
      do {
        let dropped = try StreamedOutput(path: directory + "/dropped.csv", inputs: [input])
        try dropped.append(Array("b\n".utf8))
      }
      #expect(files.leftovers(in: directory, besides: ["t.csv"]).isEmpty)
    }
  }
}
