import Testing
import TouchTestSupport

@testable import TouchIO

/// Standard output held until the run succeeds: in memory up to the limit, then in a spool file.
@Suite struct HeldOutputTests {
  let files = OutputFilesTests()

  /// Pieces of 7 bytes against limits below, at and above the total (350 bytes): the bytes
  /// written out are the bytes appended, in order, and no spool file is left.
  @Test(arguments: [1, 100, 349, 350, 1_000])
  func bytesArriveInOrderWhateverTheLimit(limit: Int) throws {
    try files.inDirectory { directory in
      let held = HeldOutput(spoolBeside: directory + "/touchtrace-output", limit: limit)
      var expected: [UInt8] = []
      for k in 0..<50 {
        let piece = Array("row\(k % 10),\(k % 10)\n".utf8)
        expected += piece
        try held.append(piece)
      }
      #expect(expected.count == 350)
      #expect(held.isSpilled == (limit < 350))
      #expect(files.leftovers(in: directory, besides: ["t.csv"]).count == (limit < 350 ? 1 : 0))
      let sink = MemorySink()
      try held.write(to: sink)
      #expect(sink.bytes == expected)
      #expect(files.leftovers(in: directory, besides: ["t.csv"]).isEmpty)
    }
  }

  @Test func discardRemovesTheSpool() throws {
    try files.inDirectory { directory in
      let held = HeldOutput(spoolBeside: directory + "/touchtrace-output", limit: 4)
      try held.append(Array("more than four bytes".utf8))
      #expect(held.isSpilled)
      held.discard()
      held.discard()
      #expect(files.leftovers(in: directory, besides: ["t.csv"]).isEmpty)
    }
  }
}
