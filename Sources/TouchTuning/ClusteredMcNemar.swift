public import TouchSignal

/// McNemar's test for clustered paired decisions (Durkalski, Palesch, Lipsitz and Rust, 2003,
/// "Analysis of clustered matched-pair data", Statistics in Medicine 22:2417–2428).
///
/// Traces of one user or one device are not independent: the plain test (``McNemarTest``)
/// counts each trace as a separate trial and gives p-values that are too small when the
/// difference between A and B varies from cluster to cluster. With clusters k = 1…K of nₖ
/// traces, bₖ the proportion of cluster k's traces that only A gets right and cₖ the proportion
/// that only B gets right,
///
///     χ² = (Σₖ (bₖ − cₖ))² / Σₖ (bₖ − cₖ)²,   p = P(χ²₁ > χ²)   (`gsl_cdf_chisq_Q`)
///
/// With one trace per cluster it is McNemar's χ² without continuity correction. The
/// approximation needs a fair number of clusters: reports say how many there are. χ² is 0 and
/// p = 1 when every cluster has bₖ = cₖ.
public struct ClusteredMcNemarTest: Sendable, Hashable {
  /// The number of clusters (groups with at least one trace).
  public let clusters: Int
  /// The number of traces.
  public let traces: Int
  /// Traces only A gets right, over all clusters.
  public let onlyA: Int
  /// Traces only B gets right, over all clusters.
  public let onlyB: Int
  /// The statistic.
  public let statistic: Double
  /// The two-sided p-value, 0…1.
  public let pValue: Double

  /// Tests paired decisions (`true`: correct) grouped into `clusters` (positions in `a` and
  /// `b`; each position in at most one cluster, empty clusters ignored).
  ///
  /// - Precondition: `a` and `b` are equally long and every position is in range.
  /// - Throws: `GSLError` when the chi-square distribution function fails.
  public init(a: [Bool], b: [Bool], clusters: [[Int]]) throws(GSLError) {
    precondition(a.count == b.count, "paired decisions need equally long lists")
    var sum = 0.0
    var sumOfSquares = 0.0
    var k = 0
    var n = 0
    var onlyA = 0
    var onlyB = 0
    for members in clusters where !members.isEmpty {
      var bk = 0
      var ck = 0
      for p in members {
        if a[p] && !b[p] { bk += 1 }
        if b[p] && !a[p] { ck += 1 }
      }
      let d = Double(bk - ck) / Double(members.count)
      sum += d
      sumOfSquares += d * d
      k += 1
      n += members.count
      onlyA += bk
      onlyB += ck
    }
    self.clusters = k
    traces = n
    self.onlyA = onlyA
    self.onlyB = onlyB
    if sumOfSquares == 0 {
      statistic = 0
      pValue = 1
    } else {
      statistic = sum * sum / sumOfSquares
      pValue = try ChiSquareDistribution(degreesOfFreedom: 1).probability(above: statistic)
    }
  }

  /// The test with A and B exchanged (the same statistic and p-value).
  public func swapped() -> ClusteredMcNemarTest {
    ClusteredMcNemarTest(
      clusters: clusters, traces: traces, onlyA: onlyB, onlyB: onlyA, statistic: statistic, pValue: pValue)
  }

  private init(clusters: Int, traces: Int, onlyA: Int, onlyB: Int, statistic: Double, pValue: Double) {
    self.clusters = clusters
    self.traces = traces
    self.onlyA = onlyA
    self.onlyB = onlyB
    self.statistic = statistic
    self.pValue = pValue
  }
}
