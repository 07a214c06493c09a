public import TouchSignal

/// McNemar's test of two classifiers' paired decisions: do A and B get different numbers of
/// traces right, beyond chance?
///
/// Only the **discordant** traces count: b = traces A gets right and B wrong, c = traces B gets
/// right and A wrong. Under the null hypothesis (equal error rates) each discordant trace is A's
/// win with probability ½, so b ~ Binomial(b + c, ½).
///
/// - With **b + c < 25** (``exactBelow``) the p-value is **exact**: two-sided binomial,
///   p = min(1, 2 · P(X ≤ min(b, c))) with X ~ Binomial(b + c, ½) (`gsl_cdf_binomial_P`);
///   p = 1 when b + c = 0.
/// - Otherwise it uses the **chi-square** approximation with one degree of freedom,
///   χ² = max(0, |b − c| − 1)² / (b + c) with Edwards' continuity correction (the default), or
///   χ² = (b − c)² / (b + c) without it; p = P(χ²₁ > χ²) (`gsl_cdf_chisq_Q`). The `max(0, …)`
///   only matters when b = c, where it gives χ² = 0 and p = 1.
public struct McNemarTest: Sendable, Hashable {
  /// How the p-value was computed.
  public enum Method: String, Sendable, Hashable, CustomStringConvertible {
    /// Two-sided exact binomial test on the discordant pairs.
    case exactBinomial = "exact-binomial"
    /// Chi-square with one degree of freedom, continuity-corrected.
    case chiSquareCorrected = "chi-square-corrected"
    /// Chi-square with one degree of freedom, without continuity correction.
    case chiSquare = "chi-square"

    /// The raw value.
    public var description: String { rawValue }
  }

  /// Below this many discordant pairs the exact binomial test is used.
  public static let exactBelow = 25

  /// Traces both get right.
  public let bothCorrect: Int
  /// b: traces A gets right and B wrong.
  public let onlyA: Int
  /// c: traces B gets right and A wrong.
  public let onlyB: Int
  /// Traces both get wrong.
  public let neither: Int
  /// How the p-value was computed.
  public let method: Method
  /// The chi-square statistic; `nil` for the exact test.
  public let statistic: Double?
  /// The two-sided p-value, 0…1.
  public let pValue: Double

  /// Tests a 2 × 2 table of paired decisions.
  ///
  /// - Parameters:
  ///   - bothCorrect: traces both get right.
  ///   - onlyA: b, traces only A gets right.
  ///   - onlyB: c, traces only B gets right.
  ///   - neither: traces both get wrong.
  ///   - continuityCorrection: whether the chi-square statistic is continuity-corrected.
  /// - Precondition: every count is ≥ 0.
  /// - Throws: `GSLError` when a GSL distribution function fails.
  public init(bothCorrect: Int, onlyA: Int, onlyB: Int, neither: Int, continuityCorrection: Bool = true)
    throws(GSLError)
  {
    precondition(bothCorrect >= 0 && onlyA >= 0 && onlyB >= 0 && neither >= 0, "counts must not be negative")
    self.bothCorrect = bothCorrect
    self.onlyA = onlyA
    self.onlyB = onlyB
    self.neither = neither
    let discordant = onlyA + onlyB
    if discordant < Self.exactBelow {
      method = .exactBinomial
      statistic = nil
      if discordant == 0 {
        pValue = 1
      } else {
        let tail = try BinomialDistribution(trials: discordant, probability: 0.5).probability(
          atMost: Swift.min(onlyA, onlyB))
        pValue = Swift.min(1, 2 * tail)
      }
    } else {
      let difference = Double(abs(onlyA - onlyB))
      let numerator = continuityCorrection ? Swift.max(0, difference - 1) : difference
      let chi = numerator * numerator / Double(discordant)
      method = continuityCorrection ? .chiSquareCorrected : .chiSquare
      statistic = chi
      pValue = try ChiSquareDistribution(degreesOfFreedom: 1).probability(above: chi)
    }
  }

  /// Tests paired per-trace decisions (`true`: correct).
  ///
  /// - Precondition: both lists are equally long.
  /// - Throws: `GSLError` when a GSL distribution function fails.
  public init(a: [Bool], b: [Bool], continuityCorrection: Bool = true) throws(GSLError) {
    precondition(a.count == b.count, "paired decisions need equally long lists")
    var counts = (both: 0, a: 0, b: 0, neither: 0)
    for (x, y) in zip(a, b) {
      switch (x, y) {
      case (true, true): counts.both += 1
      case (true, false): counts.a += 1
      case (false, true): counts.b += 1
      case (false, false): counts.neither += 1
      }
    }
    try self.init(
      bothCorrect: counts.both, onlyA: counts.a, onlyB: counts.b, neither: counts.neither,
      continuityCorrection: continuityCorrection)
  }

  /// b + c.
  public var discordant: Int { onlyA + onlyB }

  /// All traces.
  public var total: Int { bothCorrect + onlyA + onlyB + neither }
}
