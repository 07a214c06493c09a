import Testing
import TouchCore
import TouchTestSupport

@testable import TouchIO

@Suite("CSV fast path and round trips")
struct CSVRoundTripTests {
  /// A random valid dataset: several traces, some interleaved, optional columns, all metadata.
  static func randomTraces(seed: UInt64) -> [Trace] {
    var rng = SplitMix64(seed: seed)
    var traces: [Trace] = []
    for k in 0..<12 {
      let n = Int.random(in: 1...40, using: &rng)
      let maxForce: Double? = Bool.random(using: &rng) ? 20.0 / 3 : nil
      var t: [Double] = []
      var now = Double.random(in: 0...10, using: &rng)
      for _ in 0..<n {
        t.append(now)
        if Int.random(in: 0..<10, using: &rng) > 0 { now += Double.random(in: 0.001...0.03, using: &rng) }
      }
      let force = (0..<n).map { _ in
        Bool.random(using: &rng)
          ? Double(Int.random(in: 0...400, using: &rng)) / 60 : Double.random(in: 0...6.6, using: &rng)
      }
      let positioned = k % 3 != 0
      let x = positioned ? (0..<n).map { _ in Double.random(in: -50...400, using: &rng) } : nil
      let y = positioned ? (0..<n).map { _ in Double.random(in: 0...800, using: &rng) } : nil
      let radius = k % 4 == 1 ? (0..<n).map { _ in Double.random(in: 0...30, using: &rng) } : nil
      var phase = TouchPhase.defaultSequence(count: n)
      if n > 2 { phase[1] = .stationary }
      if n > 1, k % 5 == 0 { phase[n - 1] = .cancelled }
      let intent = Intent.allCases.randomElement(using: &rng)
      let pressAt = n > 1 && Bool.random(using: &rng) ? [t[n / 2]] : []
      let metadata = TraceMetadata(
        id: k % 4 == 3 ? "rec \"\(k / 4)\", #x" : "trace-\(k)", touch: k % 4 == 3 ? k % 2 : 0, intent: intent,
        pressAt: pressAt, user: "user \(k % 3)", session: k % 2 == 0 ? "s,1" : nil, device: "iphone6s",
        maxForce: maxForce, timeSynthesized: k == 7)
      traces.append(Trace(metadata: metadata, t: t, force: force, phase: phase, x: x, y: y, radius: radius))
    }
    return traces
  }

  @Test(arguments: [11, 12, 13, 14])
  func csvWriteThenReadGivesTheSameTraces(seed: UInt64) throws {
    let traces = Self.randomTraces(seed: seed)
    var bytes = TraceWriter.csv(traces)
    let dataset = try TraceLoader.read(&bytes, file: "round.csv", format: .csv)
    #expect(dataset.skipped.isEmpty)
    #expect(dataset.traces.count == traces.count)
    for (read, written) in zip(dataset.traces, traces) {
      #expect(read == written)
      #expect(read.force.map(\.bitPattern) == written.force.map(\.bitPattern))
    }
  }

  /// Rows of several traces interleaved at random (as simultaneous contacts are recorded).
  static func interleaved(_ bytes: [UInt8], seed: UInt64) -> [UInt8] {
    let text = String(decoding: bytes, as: UTF8.self)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let header = lines.removeFirst()
    if lines.last == "" { lines.removeLast() }
    // Split the rows into runs by trace (first field), then merge the runs randomly.
    func firstField(_ line: String) -> Substring {
      var quoted = false
      for index in line.indices {
        if line[index] == "\"" { quoted.toggle() }
        if line[index] == ",", !quoted { return line[..<index] }
      }
      return line[...]
    }
    var runs: [[String]] = []
    var last: Substring?
    for line in lines {
      let key = firstField(line)
      if key != last { runs.append([]) }
      runs[runs.count - 1].append(line)
      last = key
    }
    var rng = SplitMix64(seed: seed)
    var output = [header]
    while !runs.isEmpty {
      let k = Int.random(in: 0..<min(3, runs.count), using: &rng)
      output.append(runs[k].removeFirst())
      if runs[k].isEmpty { runs.remove(at: k) }
    }
    return Array((output.joined(separator: "\n") + "\n").utf8)
  }

  @Test(arguments: [21, 22, 23, 24, 25])
  func fastAndGeneralPathsAgree(seed: UInt64) throws {
    var traces = Self.randomTraces(seed: seed)
    // Spell some numbers in forms the fast path declines.
    var text = String(decoding: TraceWriter.csv(traces), as: UTF8.self)
    text = text.replacingOccurrences(",0.0,", ",0e0,")
    let bytes = Self.interleaved(Array(text.utf8), seed: seed)
    // Break one trace so both paths must skip it at the same row.
    traces[2].force[0] = -1
    let broken = Self.interleaved(TraceWriter.csv(traces), seed: seed)
    for skip in [false, true] {
      // Each trace's rows in one block (the default) and interleaved (whole files).
      let (fastBlocks, generalBlocks) = try Self.readBothPaths(
        Array(text.utf8), options: LoadOptions(skipInvalid: skip))
      #expect(fastBlocks.traces == generalBlocks.traces)
      #expect(fastBlocks.origins == generalBlocks.origins)
      #expect(fastBlocks.traces.count == traces.count)
      let options = LoadOptions(skipInvalid: skip, wholeFiles: true)
      let (fast, general) = try Self.readBothPaths(bytes, options: options)
      #expect(fast.traces == general.traces)
      #expect(fast.origins == general.origins)
      #expect(fast.traces.count == traces.count)
      if skip {
        let (fastBroken, generalBroken) = try Self.readBothPaths(broken, options: options)
        #expect(fastBroken.traces == generalBroken.traces)
        #expect(fastBroken.skipped == generalBroken.skipped)
        #expect(fastBroken.skipped.count == 1)
      }
    }
  }

  /// Reads `bytes` with the fast row path and with the general one. Reading unescapes quoted
  /// fields in place: each read gets its own copy.
  static func readBothPaths(_ bytes: [UInt8], options: LoadOptions) throws(TraceLoadError)
    -> (fast: Dataset, general: Dataset)
  {
    var a = bytes
    var b = bytes
    let fast = try CSVTraceReader(file: "f.csv", options: options).read(&a)
    let general = try CSVTraceReader(file: "f.csv", options: options, fastPath: false).read(&b)
    return (fast, general)
  }
}

extension String {
  fileprivate func replacingOccurrences(_ target: String, _ replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
