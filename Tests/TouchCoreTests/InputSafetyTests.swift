import Testing
import TouchCore

@Suite("Time resolution and quoted text")
struct InputSafetyTests {
  /// The first problem `validator` finds in `times` (force 0, no phases).
  func firstProblem(_ times: [Double]) -> TraceProblem? {
    var validator = SampleValidator(maxForce: nil)
    for t in times {
      if let problem = validator.check(t: t, force: 0, phase: nil) { return problem }
    }
    return nil
  }

  @Test func timesUpTo2To32SecondsAreAcceptedAndBeyondRefused() {
    let limit = 4_294_967_296.0
    #expect(firstProblem([limit - 10, limit]) == nil)
    #expect(firstProblem([-limit, -limit + 1]) == nil)
    #expect(firstProblem([limit.nextUp]) == .timeOutOfRange(limit.nextUp))
    #expect(firstProblem([-limit.nextUp]) == .timeOutOfRange(-limit.nextUp))
    // Nanoseconds of a 2026 Unix time read as seconds; a microsecond count.
    #expect(firstProblem([1.78e18]) == .timeOutOfRange(1.78e18))
    #expect(firstProblem([0, 0.01, 1e15]) == .timeOutOfRange(1e15))
    // Unix seconds of today keep sub-microsecond steps.
    #expect(firstProblem([1.78e9, 1.78e9 + 1e-6]) == nil)
  }

  @Test func aTraceSpansAtMostAMillionSeconds() {
    #expect(firstProblem([5, 5 + 1e6]) == nil)
    #expect(firstProblem([5, 7, (5 + 1e6).nextUp]) == .timeSpanTooLong(first: 5, current: (5 + 1e6).nextUp))
    // A half-second touch in nanoseconds read as seconds.
    #expect(firstProblem([0, 2.5e8, 5e8]) == .timeSpanTooLong(first: 0, current: 2.5e8))
    // The span starts at the first sample, not at zero.
    #expect(firstProblem([4e9, 4e9 + 5e5]) == nil)
  }

  @Test func timeProblemsNameTheLimitAndTheRemedy() {
    #expect(TraceProblem.timeOutOfRange(1e20).field == "t")
    #expect(TraceProblem.timeSpanTooLong(first: 0, current: 5e8).field == "t")
    #expect(
      TraceProblem.timeOutOfRange(1e20).description
        == "t 1e+20 s is beyond ±4294967296 s, where times lose 1 µs resolution; rebase times (subtract the first time) or convert them to seconds"
    )
    #expect(
      TraceProblem.timeSpanTooLong(first: 0, current: 5e8).description
        == "t 500000000.0 s is 500000000.0 s after the trace's first sample (at most 1000000 s); are the times in seconds? Convert or rebase them"
    )
  }

  @Test func wholeTraceValidationAppliesTheSameRules() {
    let trace = Trace(metadata: TraceMetadata(id: "ns"), t: [0, 3e8, 6e8], force: [0, 1, 0])
    #expect(trace.validate()?.sample == 1)
    #expect(trace.validate()?.problem == .timeSpanTooLong(first: 0, current: 3e8))
  }

  @Test func quotingEscapesControlCharactersAndCutsLongText() {
    #expect(Diagnostic.quoted("0.4x") == "'0.4x'")
    #expect(
      Diagnostic.quoted("a\u{0}b\tc\nd\re\u{1B}f\u{7F}g\u{85}h\u{FFFD}")
        == #"'a\u{0}b\tc\nd\re\u{1B}f\u{7F}g\u{85}h\u{FFFD}'"#)
    #expect(Diagnostic.quoted("é€😀") == "'é€😀'")  // printable non-ASCII stays
    let sixty = String(repeating: "7", count: 60)
    #expect(Diagnostic.quoted(sixty) == "'\(sixty)'")
    #expect(Diagnostic.quoted(sixty + "8") == "'\(String(repeating: "7", count: 59))…' (61 bytes)")
    let nuls = String(repeating: "\u{0}", count: 100_000)
    #expect(Diagnostic.quoted(nuls) == "'\(String(repeating: #"\u{0}"#, count: 59))…' (100000 bytes)")
    #expect(Diagnostic.escaped("x\ny", limit: 2) == "x…")
  }

  @Test func diagnosticsNeverPrintRawControlCharacters() {
    let diagnostic = Diagnostic(.error, "bad\u{1B}[2J", file: "a\nb.csv", position: TextPosition(line: 1, column: 2))
    #expect(diagnostic.description == #"a\nb.csv:1:2: error: bad\u{1B}[2J"#)
  }
}
