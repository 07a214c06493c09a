import Foundation
import Testing
import TouchCore
import TouchEvaluation
import TouchIO
import TouchTestSupport

/// The library's scores on samples/ against `Scripts/make-evaluation-fixtures.py`, which scores
/// the same replays with its own matching (exhaustive search), counting and NumPy statistics.
@Suite("Scores on samples/ against an independent Python scorer")
struct SamplesFixtureTests {
  struct Fixture: Decodable {
    struct Latency: Decodable {
      var n: Int
      var mean, sd, min, p50, p90, p95, p99, max: Double?
      var early: Int
    }
    struct Stage: Decodable {
      var tp, fp, fn, tn: Int
      var fp_by_intent: [String: Int]
      var latency: Latency
      var latency_from_down: Latency
    }
    struct Case: Decodable {
      var name: String
      var recognizer: String
      var required: String?
      var settings: [String: String]
      var positives: [String]
      var tolerance: Double
      var stage1: Stage
      var stage2: Stage?
      var flaps: Int?
      var added_latency: Latency?
      var waited: Int?
    }
    var cases: [Case]
  }

  static let fixture: Fixture = {
    let url = Bundle.module.url(forResource: "samples-scores", withExtension: "json", subdirectory: "Fixtures")!
    return try! JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
  }()

  static let samples: Dataset = try! TraceLoader.load([TestData.samples])

  @Test(arguments: fixture.cases.map(\.name))
  func matchesThePythonScorer(name: String) throws {
    let expected = try #require(Self.fixture.cases.first { $0.name == name })
    let options = EvaluationOptions(
      positives: expected.positives.compactMap { Intent(name: $0) }, tolerance: expected.tolerance)
    let evaluation = Evaluation(dataset: Self.samples, options: options, threads: 2)
    let spec = RecognizerSpec(variant: expected.recognizer, required: expected.required)
    let axes = try expected.settings.keys.sorted().map { try SweepAxis(parsing: "\($0)=\(expected.settings[$0]!)") }
    let result = try evaluation.sweep(SweepPlan(recognizers: [spec], axes: axes), threads: 2)
    #expect(result.metrics.count == 1)
    let m = try #require(result.metrics.first)
    check(m.stage1, expected.stage1)
    if let stage2 = expected.stage2 { check(try #require(m.stage2), stage2) } else { #expect(m.stage2 == nil) }
    #expect(m.flaps == expected.flaps)
    if let added = expected.added_latency {
      check(try #require(m.addedLatency), added)
      #expect(m.waited == expected.waited)
    }
  }

  private func check(_ s: StageMetrics, _ e: Fixture.Stage) {
    let counts: [Int] = [s.truePositives, s.falsePositives, s.falseNegatives, s.trueNegatives]
    #expect(counts == [e.tp, e.fp, e.fn, e.tn])
    for intent in Intent.allCases {
      let count: Int = e.fp_by_intent[intent.rawValue] ?? 0
      #expect(s.falsePositivesByIntent[intent] == count, "\(intent)")
    }
    check(s.latency, e.latency)
    check(s.latencyFromDown, e.latency_from_down)
  }

  private func check(_ l: LatencySummary, _ e: Fixture.Latency) {
    #expect(l.count == e.n && l.early == e.early)
    let pairs: [(Double?, Double?)] = [
      (l.mean, e.mean), (l.standardDeviation, e.sd), (l.minimum, e.min), (l.p50, e.p50), (l.p90, e.p90),
      (l.p95, e.p95), (l.p99, e.p99), (l.maximum, e.max),
    ]
    for (value, reference) in pairs {
      switch (value, reference) {
      case (nil, nil): break
      case (let v?, let r?): #expect(abs(v - r) <= 1e-12 * max(1, abs(r)), "\(v) vs \(r)")
      default: Issue.record("\(String(describing: value)) vs \(String(describing: reference))")
      }
    }
  }
}
