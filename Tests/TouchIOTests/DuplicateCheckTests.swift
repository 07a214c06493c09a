import Testing

@testable import TouchIO

/// The duplicate check keeps digests of trace keys, not the ids: it must still tell keys apart
/// as `String` keys did, and name the file that first defined a trace.
@Suite struct DuplicateCheckTests {
  @Test func aKeyIsItsIdAndTouchAsStringsCompareThem() {
    #expect(TraceKeyDigest(id: "a", touch: 0) == TraceKeyDigest(id: "a", touch: 0))
    #expect(TraceKeyDigest(id: "a", touch: 0) != TraceKeyDigest(id: "a", touch: 1))
    #expect(TraceKeyDigest(id: "a", touch: 0) != TraceKeyDigest(id: "b", touch: 0))
    #expect(TraceKeyDigest(id: "ab", touch: 0) != TraceKeyDigest(id: "a", touch: 0))
    // "é" precomposed and as e + combining acute accent are one `String`, so one trace id.
    #expect("\u{E9}" == "e\u{301}")
    #expect(TraceKeyDigest(id: "\u{E9}") == TraceKeyDigest(id: "e\u{301}"))
    // Ids longer than a small string, differing in their last byte.
    #expect(TraceKeyDigest(id: "iphone6s-s7-00001") != TraceKeyDigest(id: "iphone6s-s7-00002"))
  }

  @Test func namesTheFileThatFirstDefinedATrace() {
    var check = DuplicateCheck()
    #expect(check.firstFile(id: "a", touch: 0, file: "one.csv") == nil)
    #expect(check.firstFile(id: "a", touch: 1, file: "one.csv") == nil)
    #expect(check.firstFile(id: "b", touch: 0, file: "two.csv") == nil)
    #expect(check.firstFile(id: "c", touch: 0, file: "one.csv") == nil)
    #expect(check.firstFile(id: "a", touch: 0, file: "three.csv") == "one.csv")
    #expect(check.firstFile(id: "b", touch: 0, file: "three.csv") == "two.csv")
    #expect(check.firstFile(id: "c", touch: 0, file: "three.csv") == "one.csv")
    #expect(check.firstFile(id: "a", touch: 1, file: "three.csv") == "one.csv")
    // 100 000 distinct keys: none is taken for another.
    var many = DuplicateCheck()
    let repeats = (0..<100_000).filter { many.firstFile(id: "trace-\($0)", touch: $0 % 3, file: "f") != nil }
    #expect(repeats.isEmpty)
  }
}
