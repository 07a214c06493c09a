import Foundation
import Testing
import TouchCore
import TouchRecognizers
import TouchTestSupport

/// The causal filters in front of recognizers (`ema/…`, `movmean/…`, `one-euro/…`): their outputs
/// against an independent Python implementation of the definitions
/// (Scripts/make-filter-fixtures.py), the two replay paths against each other, and the syntax.
@Suite struct CausalFilterTests {
  /// One fixture case: a trace of samples/ and each filter's outputs.
  struct Case {
    var trace: String
    var t: [Double]
    var force: [Double]
    var maxForce: Double
    var outputs: [(filter: CausalFilter, y: [Double])]
  }

  static func fixture() throws -> [Case] {
    let url = try #require(
      Bundle.module.url(forResource: "causal-filters", withExtension: "json", subdirectory: "Fixtures"))
    let data = try Data(contentsOf: url)
    let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let cases = try #require(root["cases"] as? [[String: Any]])
    /// The numbers are strings (Python's repr), read with Swift's correctly rounded conversion.
    func numbers(_ value: Any?) throws -> [Double] {
      let texts = try #require(value as? [String])
      let values = texts.compactMap(Double.init)
      try #require(values.count == texts.count)
      return values
    }
    return try cases.map { c in
      let outputs = try #require(c["outputs"] as? [[String: Any]]).map { o -> (CausalFilter, [Double]) in
        let p = try #require(o["params"] as? [String: Double])
        let filter: CausalFilter =
          switch o["filter"] as? String {
          case "ema": .ema(alpha: p["alpha"]!)
          case "movmean": .movingMean(window: Int(p["window"]!))
          default: .oneEuro(minCutoff: p["mincutoff"]!, beta: p["beta"]!, derivativeCutoff: p["dcutoff"]!)
          }
        return (filter, try numbers(o["y"]))
      }
      return Case(
        trace: try #require(c["trace"] as? String), t: try numbers(c["t"]), force: try numbers(c["force"]),
        maxForce: try numbers([c["max_force"] as Any])[0],
        outputs: outputs)
    }
  }

  @Test func outputsMatchAnIndependentImplementation() throws {
    let cases = try Self.fixture()
    #expect(cases.count == 8)
    for c in cases {
      for (filter, expected) in c.outputs {
        let y = filter.apply(t: c.t, force: c.force, maxForce: c.maxForce)
        #expect(y.count == expected.count)
        let worst = zip(y, expected).map { abs($0 - $1) / max(1, abs($1)) }.max() ?? 0
        #expect(worst <= 1e-12, "\(c.trace) \(filter): relative error \(worst)")
        if case .ema = filter {
          #expect(y == expected, "\(c.trace) \(filter): EMA is one rounding per step, bit for bit")
        }
      }
    }
  }

  @Test func handComputedValues() {
    let t = [0.0, 0.01, 0.02, 0.03]
    #expect(CausalFilter.ema(alpha: 0.5).apply(t: t, force: [4, 0, 2, 2], maxForce: 6) == [4, 2, 2, 2])
    #expect(CausalFilter.movingMean(window: 2).apply(t: t, force: [4, 0, 2, 6], maxForce: 6) == [4, 2, 1, 4])
    // 1€ at beta 0 is a low-pass at mincutoff: alpha = 1/(1 + tau/dt), tau = 1/(2*pi*fc).
    let tau = 1 / (2 * Double.pi * 1)
    let a = 1 / (1 + tau / 0.01)
    let y = CausalFilter.oneEuro(minCutoff: 1, beta: 0, derivativeCutoff: 1).apply(
      t: [0, 0.01, 0.01], force: [0, 1, 5], maxForce: 6)
    #expect(y[0] == 0 && abs(y[1] - a) < 1e-15)
    #expect(y[2] == y[1], "a sample at the same instant repeats the last output")
    // Clamped to [0, max], and to [0, inf) without a maximum.
    #expect(CausalFilter.ema(alpha: 1).apply(t: [0, 1], force: [7, -1], maxForce: 6) == [6, 0])
    #expect(CausalFilter.ema(alpha: 1).apply(t: [0, 1], force: [7, -1], maxForce: .nan) == [7, 0])
  }

  /// The batch path (filter the columns, replay the recognizer's own loop) and the per-sample path
  /// (what a composition drives) give the same events, for every catalog recognizer and filter.
  @Test(arguments: ["ema", "movmean", "one-euro"])
  func batchAndPerSamplePathsAgree(filter: String) throws {
    var rng = SplitMix64(seed: 0xF11)
    let traces = (0..<40).map { randomTrace(&rng, id: "r\($0)", positions: $0 % 2 == 0) }
    let settings: [(name: String, value: String)] =
      switch filter {
      case "ema": [("ema.alpha", "0.4")]
      case "movmean": [("movmean.window", "4")]
      default: [("one-euro.mincutoff", "3"), ("one-euro.beta", "0.2")]
      }
    for name in RecognizerCatalog.builtIn.names {
      let recognizer = try RecognizerCatalog.builtIn.recognizer("\(filter)/\(name)", settings: settings)
      let batch = try recognizer.replay(traces: traces)
      let perSample = try Self.perSample(recognizer.base, traces)
      for (b, p) in zip(batch, perSample) {
        #expect(b.transitions == p.transitions && b.actions == p.actions, "\(filter)/\(name) on \(b.trace)")
      }
    }
  }

  /// Replays through the per-sample methods (the generic harness), bypassing the batch override.
  static func perSample(_ recognizer: any ForceRecognizer, _ traces: [Trace]) throws -> [ReplayResult] {
    func run<R: ForceRecognizer>(_ r: R) throws -> [ReplayResult] {
      try traces.map { try Replay.replay(trace: $0, using: r) }
    }
    return try run(recognizer)
  }

  @Test func filteredRecognizersOnPreFilteredTracesActAlike() throws {
    // ema/deep-press on a trace equals deep-press on the trace filtered beforehand.
    var rng = SplitMix64(seed: 7)
    let traces = (0..<30).map { randomTrace(&rng, id: "p\($0)", positions: false) }
    let filtered = try RecognizerCatalog.builtIn.recognizer("ema/deep-press", settings: [("ema.alpha", "0.5")])
    let plain = try AnyForceRecognizer(variant: "deep-press")
    for trace in traces {
      var pre = trace
      pre.force = CausalFilter.ema(alpha: 0.5).apply(t: trace.t, force: trace.force, maxForce: trace.metadata.maxForce!)
      #expect(try filtered.replay(trace: trace).actions == plain.replay(trace: pre).actions)
    }
  }

  @Test func syntaxParametersAndErrors() throws {
    let catalog = RecognizerCatalog.builtIn
    let r = try catalog.recognizer("one-euro/deep-press", settings: [("one-euro.beta", "0.1"), ("threshold", "0.4")])
    #expect(r.name == "one-euro/deep-press")
    #expect(r.parameters.map(\.name) == ["one-euro.mincutoff", "one-euro.beta", "one-euro.dcutoff", "threshold"])
    #expect(r.parameters["one-euro.beta"] == .number(0.1) && r.parameters["threshold"] == .number(0.4))
    #expect(catalog.entry("ema/deep-press")?.descriptor.sweptByDefault == "threshold")
    func reason(_ name: String, _ settings: [(name: String, value: String)] = []) -> String {
      do {
        _ = try catalog.recognizer(name, settings: settings)
        return "accepted"
      } catch { return error.description }
    }
    #expect(reason("savgol/deep-press").contains("zero-phase (non-causal)"))
    #expect(reason("lowpass/deep-press").contains("causal filters: ema, movmean, one-euro"))
    #expect(reason("ema/no-such").contains("no-such"))
    #expect(reason("ema/deep-press", [("ema.alpha", "0")]).contains("ema.alpha"))
    #expect(reason("movmean/deep-press", [("movmean.window", "2.5")]).contains("whole number"))
    #expect(reason("movmean/deep-press", [("movmean.window", "65")]).contains("movmean.window"))
    #expect(reason("ema/deep-press", [("alpha", "0.5")]).contains("ema.alpha"), "the prefix is required")
  }
}
