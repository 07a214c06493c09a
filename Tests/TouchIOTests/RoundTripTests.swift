import Testing
import TouchCore
import TouchIO
import TouchTestSupport

/// Reads `bytes` in `format` from memory.
private func read(_ bytes: [UInt8], _ format: TraceFiles.Format) throws(TraceLoadError) -> Dataset {
  var bytes = bytes
  return try TraceLoader.read(&bytes, file: "trip.\(format.rawValue)", format: format)
}

/// Whether two lists of traces are equal bit for bit, recording the first difference.
private func expectBitIdentical(
  _ actual: [Trace], _ expected: [Trace], _ step: String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(actual.count == expected.count, "\(step): trace count", sourceLocation: sourceLocation)
  for (a, e) in zip(actual, expected) where !a.isBitIdentical(to: e) {
    Issue.record("\(step): trace '\(e.name)' differs:\n\(a)\nexpected\n\(e)", sourceLocation: sourceLocation)
    return
  }
}

/// CSV → JSON → JSON Lines → CSV, checking every step against `expected`.
private func expectRoundTrips(_ expected: [Trace], sourceLocation: SourceLocation = #_sourceLocation) throws {
  let fromJSON = try read(JSONTraceWriter.document(expected), .json)
  expectBitIdentical(fromJSON.traces, expected, "JSON", sourceLocation: sourceLocation)
  let fromLines = try read(JSONTraceWriter.lines(fromJSON.traces), .jsonl)
  expectBitIdentical(fromLines.traces, expected, "JSON Lines", sourceLocation: sourceLocation)
  let fromCSV = try read(TraceWriter.csv(fromLines.traces), .csv)
  expectBitIdentical(fromCSV.traces, expected, "CSV", sourceLocation: sourceLocation)
  let again = try read(JSONTraceWriter.lines(fromCSV.traces), .jsonl)
  expectBitIdentical(again.traces, expected, "CSV → JSON Lines", sourceLocation: sourceLocation)
}

@Suite("Round trips")
struct RoundTripTests {
  /// Two contacts of one recording (rows interleaved) and two more traces, with quoting,
  /// line breaks and non-ASCII text in strings, and numbers at the edges of the Double range.
  static let csv = #"""
    trace,touch,t,force,phase,max_force,x,y,radius,intent,press_at,user,session,device,time_synthesized
    "rec, ""one""",0,0,0,began,6.666666666666667,-0.0,5e-324,1e-05,press,0.016666666666666666,"line1
    line2","s;""x""",iPhone 6s,false
    "rec, ""one""",1,0.005,1.5,began,6.666666666666667,100,200,,none,,é😀 ünïcödé,,,true
    "rec, ""one""",0,0.016666666666666666,0.016666666666666666,moved,6.666666666666667,1e-05,-2.5,0.5,press,0.016666666666666666,"line1
    line2","s;""x""",iPhone 6s,false
    "rec, ""one""",1,0.02,0,cancelled,6.666666666666667,101,201,,none,,é😀 ünïcödé,,,true
    "rec, ""one""",0,0.03333333333333333,6.666666666666667,ended,6.666666666666667,1e300,0,0.5,press,0.016666666666666666,"line1
    line2","s;""x""",iPhone 6s,false
    plain,0,1e9,0.25,began,,,,,,,,,,false
    "#hash",0,4e9,1e-300,began,,,,,,,,,,false
    "#hash",0,4e9,2.2250738585072014e-308,ended,,,,,,,,,,false

    """#

  /// The traces of ``csv``, written out by hand.
  static let expected: [Trace] = [
    Trace(
      metadata: TraceMetadata(
        id: "rec, \"one\"", intent: .press, pressAt: [1.0 / 60.0], user: "line1\nline2",
        session: "s;\"x\"", device: "iPhone 6s", maxForce: 20.0 / 3.0),
      t: [0, 1.0 / 60.0, 2.0 / 60.0], force: [0, 1.0 / 60.0, 20.0 / 3.0],
      phase: [.began, .moved, .ended], x: [-0.0, 1e-5, 1e300],
      y: [Double.leastNonzeroMagnitude, -2.5, 0], radius: [1e-5, 0.5, 0.5]),
    Trace(
      metadata: TraceMetadata(
        id: "rec, \"one\"", touch: 1, intent: Intent.none, user: "é😀 ünïcödé", maxForce: 20.0 / 3.0,
        timeSynthesized: true),
      t: [0.005, 0.02], force: [1.5, 0], phase: [.began, .cancelled], x: [100, 101], y: [200, 201]),
    Trace(metadata: TraceMetadata(id: "plain"), t: [1e9], force: [0.25], phase: [.began]),
    Trace(
      metadata: TraceMetadata(id: "#hash"), t: [4e9, 4e9],
      force: [1e-300, Double.leastNormalMagnitude], phase: [.began, .ended]),
  ]

  @Test func handWrittenCSVRoundTripsThroughJSONAndJSONLines() throws {
    let fromCSV = try read(Array(Self.csv.utf8), .csv)
    expectBitIdentical(fromCSV.traces, Self.expected, "CSV as written by hand")
    #expect(fromCSV.traces[0].x?[0].sign == .minus)
    try expectRoundTrips(fromCSV.traces)
  }

  @Test func writerOutputIsTheDocumentedForm() {
    let trace = Trace(
      metadata: TraceMetadata(
        id: "a\"b\\c\n\u{1}é", touch: 2, intent: .press, pressAt: [0.5], user: "u", session: "s",
        device: "d", maxForce: 20.0 / 3.0, timeSynthesized: true),
      t: [0, 0.5, 1], force: [0, 1.5, 0], phase: [.began, .stationary, .ended], x: [-0.0, 1, 2],
      y: [3, 4, 5], radius: [1e-5, 2, 1e300])
    let line =
      #"{"id":"a\"b\\c\n\u0001é","touch":2,"intent":"press","press_at":[0.5],"user":"u","session":"s","device":"d","max_force":6.666666666666667,"time_synthesized":true,"t":[0.0,0.5,1.0],"force":[0.0,1.5,0.0],"phase":["began","stationary","ended"],"x":[-0.0,1.0,2.0],"y":[3.0,4.0,5.0],"radius":[1e-05,2.0,1e+300]}"#
    #expect(String(decoding: JSONTraceWriter.lines([trace]), as: UTF8.self) == line + "\n")

    let minimal = Trace(metadata: TraceMetadata(id: "m"), t: [0, 1], force: [0.25, 0])
    let minimalLine = #"{"id":"m","t":[0.0,1.0],"force":[0.25,0.0]}"#
    #expect(
      String(decoding: JSONTraceWriter.document([trace, minimal]), as: UTF8.self)
        == "{\"format\":\"touchtrace\",\"version\":1,\"traces\":[\n\(line),\n\(minimalLine)\n]}\n")
    #expect(
      String(decoding: JSONTraceWriter.document([]), as: UTF8.self)
        == "{\"format\":\"touchtrace\",\"version\":1,\"traces\":[]}\n")
    #expect(TraceWriter.encode([trace], as: .json) == JSONTraceWriter.document([trace]))
    #expect(TraceWriter.encode([trace], as: .jsonl) == JSONTraceWriter.lines([trace]))
  }

  @Test func everyControlCharacterIsEscapedAndReadBack() throws {
    let id = String(String.UnicodeScalarView((0..<0x20).map { Unicode.Scalar(UInt8($0)) })) + "\"\\/\u{7F}\u{2028}"
    let trace = Trace(metadata: TraceMetadata(id: id), t: [0], force: [0])
    let bytes = JSONTraceWriter.lines([trace])
    // Nothing below U+0020 is written raw.
    #expect(!bytes.dropLast().contains { $0 < 0x20 })
    #expect(try read(bytes, .jsonl).traces == [trace])
  }

  /// Random traces over the awkward corners: multiples of 1/60, negative zero, subnormal and
  /// huge magnitudes, arbitrary bit patterns, strings with quotes, delimiters, line breaks and
  /// non-ASCII text, every metadata field present or absent.
  @Test(arguments: [1, 2, 3, 0xC0FFEE] as [UInt64])
  func randomTracesRoundTripBitExactly(seed: UInt64) throws {
    var rng = SplitMix64(seed: seed)
    let traces = (0..<40).map { randomTrace(&rng, index: $0) }
    for trace in traces { #expect(trace.validate() == nil, "generator made an invalid trace") }
    try expectRoundTrips(traces)
  }
}

// MARK: Random traces

private func randomString(_ rng: inout SplitMix64) -> String {
  let pieces = [
    "a", "Z", "0", " ", ",", ";", "\t", "\"", "\"\"", "\\", "/", "#", "\n", "\r\n", "\r", "é", "😀", "ü",
    "\u{7}", "\u{0}", "{", "}", "[", "]", ":", "\u{2028}", "id",
  ]
  let count = Int.random(in: 1...8, using: &rng)
  return (0..<count).map { _ in pieces.randomElement(using: &rng)! }.joined()
}

/// A finite double of one of several awkward kinds.
private func randomValue(_ rng: inout SplitMix64, nonNegative: Bool) -> Double {
  var value: Double
  switch Int.random(in: 0..<8, using: &rng) {
  case 0: value = Double(Int.random(in: 0...600, using: &rng)) / 60
  case 1: value = Double.random(in: 0..<10, using: &rng)
  case 2: value = 0
  case 3: value = Double.leastNonzeroMagnitude * Double(Int.random(in: 1...1000, using: &rng))
  case 4: value = Double.greatestFiniteMagnitude / Double(Int.random(in: 1...1000, using: &rng))
  case 5: value = Double(Int.random(in: -1_000_000...1_000_000, using: &rng)) * 1e-5
  case 6: value = 1e-5
  default:
    repeat {
      value = Double(bitPattern: rng.next())
    } while !value.isFinite
  }
  if nonNegative { return abs(value) }
  return Bool.random(using: &rng) ? -value : value
}

private func randomColumn(_ rng: inout SplitMix64, count: Int, nonNegative: Bool) -> [Double] {
  (0..<count).map { _ in
    // Negative zero where signs are free.
    if !nonNegative, Int.random(in: 0..<10, using: &rng) == 0 { return -0.0 }
    return randomValue(&rng, nonNegative: nonNegative)
  }
}

private func randomTrace(_ rng: inout SplitMix64, index: Int) -> Trace {
  let n = Int.random(in: 1...30, using: &rng)
  // Times: frames at 60 Hz, or sorted arbitrary values (repeats allowed) folded into the
  // valid range (|t| ≤ 2^32 s, a span ≤ 1e6 s): remainders keep their digits and exponents.
  var t: [Double]
  if Bool.random(using: &rng) {
    let start = Int.random(in: 0...100_000, using: &rng)
    t = (0..<n).map { Double(start + $0) / 60 }
  } else {
    t = randomColumn(&rng, count: n, nonNegative: false).map { $0.truncatingRemainder(dividingBy: 499_999) }.sorted()
    if n > 2 { t[1] = t[0] }
  }
  let maxForce: Double? = Bool.random(using: &rng) ? randomValue(&rng, nonNegative: true) + 1e-3 : nil
  let force = (0..<n).map { _ -> Double in
    if let maxForce { return maxForce * Double.random(in: 0...1, using: &rng) }
    return randomValue(&rng, nonNegative: true)
  }
  var phase: [TouchPhase]?
  if Bool.random(using: &rng) {
    var phases: [TouchPhase] = [.began]
    for _ in 1..<max(n, 1) { phases.append(Bool.random(using: &rng) ? .moved : .stationary) }
    if n > 1 { phases[n - 1] = [.ended, .cancelled, .moved].randomElement(using: &rng)! }
    phase = phases
  }
  let hasPosition = Bool.random(using: &rng)
  let x = hasPosition ? randomColumn(&rng, count: n, nonNegative: false) : nil
  let y = hasPosition ? randomColumn(&rng, count: n, nonNegative: false) : nil
  let radius = Bool.random(using: &rng) ? randomColumn(&rng, count: n, nonNegative: true) : nil
  // press_at: strictly increasing times inside the span.
  var pressAt: [Double] = []
  for time in t where Int.random(in: 0..<4, using: &rng) == 0 && time > (pressAt.last ?? -.infinity) {
    pressAt.append(time)
  }
  let metadata = TraceMetadata(
    id: randomString(&rng) + "-\(index)", touch: Int.random(in: 0...3, using: &rng),
    intent: Bool.random(using: &rng) ? Intent.allCases.randomElement(using: &rng)! : nil,
    pressAt: pressAt,
    user: Bool.random(using: &rng) ? randomString(&rng) : nil,
    session: Bool.random(using: &rng) ? randomString(&rng) : nil,
    device: Bool.random(using: &rng) ? randomString(&rng) : nil,
    maxForce: maxForce, timeSynthesized: Bool.random(using: &rng))
  return Trace(metadata: metadata, t: t, force: force, phase: phase, x: x, y: y, radius: radius)
}
