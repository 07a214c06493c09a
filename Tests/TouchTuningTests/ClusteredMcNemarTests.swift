import Foundation
import Testing
import TouchTestSupport
import TouchTuning

/// Durkalski's clustered McNemar test against NumPy/SciPy (Scripts/make-clustered-mcnemar-fixtures.py),
/// hand-computed cases, and a simulation of its size under the null with correlated clusters.
@Suite("clustered McNemar test")
struct ClusteredMcNemarTests {
  struct Case: Decodable {
    var name: String
    var a: [Bool]
    var b: [Bool]
    var clusters: [[Int]]
    var statistic: Double
    var p_value: Double
  }

  @Test func matchesTheNumPyReference() throws {
    let url = try #require(
      Bundle.module.url(forResource: "clustered-mcnemar", withExtension: "json", subdirectory: "Fixtures"))
    let cases = try JSONDecoder().decode([String: [Case]].self, from: Data(contentsOf: url))["cases"] ?? []
    #expect(cases.count == 9)
    for c in cases {
      let test = try ClusteredMcNemarTest(a: c.a, b: c.b, clusters: c.clusters)
      #expect(abs(test.statistic - c.statistic) <= 1e-12 * max(1, c.statistic), "\(c.name)")
      #expect(
        abs(test.pValue - c.p_value) <= 1e-12 * max(1e-300, c.p_value) + 1e-15,
        "\(c.name): \(test.pValue) vs \(c.p_value)")
    }
  }

  /// One pair per cluster is McNemar's uncorrected chi-square: b = 7, c = 2, (7 − 2)² / 9.
  @Test func singletonClustersAreTheUncorrectedTest() throws {
    let a = Array(repeating: true, count: 7) + [false, false] + Array(repeating: true, count: 5)
    let b = Array(repeating: false, count: 7) + [true, true] + Array(repeating: true, count: 5)
    let clustered = try ClusteredMcNemarTest(a: a, b: b, clusters: a.indices.map { [$0] })
    let plain = try McNemarTest(bothCorrect: 5, onlyA: 7, onlyB: 2, neither: 0, continuityCorrection: false)
    #expect(abs(clustered.statistic - 25.0 / 9) < 1e-12)
    #expect(clustered.onlyA == 7 && clustered.onlyB == 2 && clustered.clusters == 14)
    // The plain test is exact below 25 discordant pairs; its chi-square form gives the same statistic.
    #expect(plain.method == .exactBinomial)
    #expect(abs(clustered.pValue - 0.09558070454562936) < 1e-12)
  }

  /// Under the null (A and B equally good on average) with an effect that varies from cluster to
  /// cluster, 2000 simulated studies of 20 clusters of 10–30 traces: the clustered test rejects at
  /// α = 0.05 about 5 % of the time (5.15 % in the same simulation in NumPy), the plain test about
  /// a third of the time (34 %).
  @Test func holdsItsSizeUnderCorrelatedClusters() throws {
    var random = SplitMix64(seed: 20_031_001)
    let replications = 2000
    var clusteredRejections = 0
    var plainRejections = 0
    for _ in 0..<replications {
      var a: [Bool] = []
      var b: [Bool] = []
      var clusters: [[Int]] = []
      for _ in 0..<20 {
        let n = Int.random(in: 10...30, using: &random)
        let base = Double.random(in: 0.3..<0.9, using: &random)
        let shift = random.normal(sd: 0.15)
        let (pa, pb) = (min(max(base + shift, 0), 1), min(max(base - shift, 0), 1))
        let start = a.count
        for _ in 0..<n {
          a.append(Double.random(in: 0..<1, using: &random) < pa)
          b.append(Double.random(in: 0..<1, using: &random) < pb)
        }
        clusters.append(Array(start..<a.count))
      }
      if try ClusteredMcNemarTest(a: a, b: b, clusters: clusters).pValue < 0.05 { clusteredRejections += 1 }
      if try McNemarTest(a: a, b: b).pValue < 0.05 { plainRejections += 1 }
    }
    let clusteredRate = Double(clusteredRejections) / Double(replications)
    let plainRate = Double(plainRejections) / Double(replications)
    // ±3 binomial standard errors around 0.05 (0.0146 at n = 2000).
    #expect(clusteredRate > 0.035 && clusteredRate < 0.065, "clustered rejection rate \(clusteredRate)")
    #expect(plainRate > 0.2, "plain rejection rate \(plainRate)")
  }
}

/// `touchtrace check`'s accuracy decision with clusters (`--group-by`): it reads the clustered
/// test, worked out by hand.
@Suite("Regression gate with clusters")
struct RegressionGateClusterTests {
  static func snapshot(_ correct: [Bool], configuration: String) -> RegressionGate.Snapshot {
    RegressionGate.Snapshot(
      tool: "touchtrace test", configuration: configuration, positives: ["press"], tolerance: 0.25, dataHash: "0",
      traces: correct.indices.map { "t\($0)" }, correct: correct, counts: (0, 0, 0, 0), absoluteLatencyP90: nil,
      latencyCount: 0, early: 0)
  }

  @Test func theDecisionReadsTheClusteredTest() throws {
    // Clusters {0,1} {2,3} {4,5,6} {7}. Only the baseline right: 0, 2, 3; only the current: 6.
    // dₖ = (bₖ − cₖ)/nₖ: 1/2, 2/2, −1/3, 0; Σd = 7/6, Σd² = 49/36: χ² = 1 exactly,
    // p = P(χ²₁ > 1) = 2(1 − Φ(1)) = 0.31731050786291404.
    let baseline = Self.snapshot([true, true, true, true, true, true, false, false], configuration: "a")
    let current = Self.snapshot([false, true, false, false, true, true, true, false], configuration: "b")
    let clusters = [[0, 1], [2, 3], [4, 5, 6], [7]]
    let result = try RegressionGate.check(
      current, against: baseline, alpha: 0.5, maxLatencyIncrease: 0, clusters: clusters, clusterUnit: "user")
    let k = try #require(result.clustered)
    #expect(k.clusters == 4 && k.onlyA == 3 && k.onlyB == 1)
    #expect(abs(k.statistic - 1) < 1e-12)
    #expect(abs(result.decisivePValue - 0.31731050786291404) < 1e-12)
    #expect(result.clusterUnit == "user")
    // 3 against 1 discordant: the plain test is exact binomial, p = 0.625 (2 × 5/16).
    #expect(abs(result.mcnemar.pValue - 0.625) < 1e-12)
    // α 0.5: the clustered p (0.317) is below it, the plain one (0.625) is not: the check fails.
    #expect(result.accuracyRegressed)
    let plain = try RegressionGate.check(current, against: baseline, alpha: 0.5, maxLatencyIncrease: 0)
    #expect(plain.clustered == nil && !plain.accuracyRegressed)
  }
}
