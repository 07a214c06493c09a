public import TouchSignal

/// A 95 % confidence interval for a binomial proportion k / n by the Wilson score method.
///
/// The Wilson interval is centred on (k + z²/2) / (n + z²) rather than on k / n, so it keeps a
/// non-zero width at k = 0 and k = n (precision 6/6 gives [0.610, 1.000], not [1, 1]) and stays
/// inside [0, 1]. With z = Φ⁻¹(0.975):
///
///     centre    = (k + z²/2) / (n + z²)
///     half-width = z / (n + z²) · √(k (n − k) / n + z²/4)
///
/// This is the interval SciPy returns from `binomtest(k, n).proportion_ci(method="wilson")`.
public struct ProportionInterval: Sendable, Hashable {
  /// The lower bound, a proportion in [0, 1].
  public var low: Double
  /// The upper bound, a proportion in [0, 1].
  public var high: Double

  /// Φ⁻¹(0.975), the standard normal quantile of a two-sided 95 % interval.
  public static let z95 = 1.959963984540054

  /// The Wilson score interval of `successes` out of `trials`; `nil` when `trials` is 0 (the
  /// proportion is undefined).
  /// - Precondition: 0 ≤ successes ≤ trials.
  public static func wilson(_ successes: Int, of trials: Int) -> ProportionInterval? {
    precondition(successes >= 0 && successes <= trials, "successes must lie in 0…trials")
    guard trials > 0 else { return nil }
    let k = Double(successes)
    let n = Double(trials)
    let z = z95
    let z2 = z * z
    let denominator = n + z2
    let centre = (k + z2 / 2) / denominator
    let half = z / denominator * (k * (n - k) / n + z2 / 4).squareRoot()
    // Exact ends at k = 0 and k = n (the formula gives them up to rounding).
    let low = successes == 0 ? 0 : max(0, centre - half)
    let high = successes == trials ? 1 : min(1, centre + half)
    return ProportionInterval(low: low, high: high)
  }
}

/// A 95 % confidence interval for a Poisson rate: `events` counted over `exposure` (any unit of
/// time), by the exact (Garwood) method from the chi-square distribution:
///
///     low  = χ²(0.025; 2k) / 2 / exposure    (0 when k = 0)
///     high = χ²(0.975; 2k + 2) / 2 / exposure
///
/// This is what `scipy.stats.chi2.ppf` gives in the same formula (and R's `poisson.test`).
public struct RateInterval: Sendable, Hashable {
  /// The lower bound, events per unit of exposure.
  public var low: Double
  /// The upper bound, events per unit of exposure.
  public var high: Double

  /// The exact interval of `events` over `exposure`; `nil` when `exposure` is not > 0.
  ///
  /// - Throws: `GSLError` when GSL's chi-square quantile fails.
  public static func poisson(_ events: Int, exposure: Double) throws(GSLError) -> RateInterval? {
    precondition(events >= 0, "a count of events is ≥ 0")
    guard exposure > 0, exposure.isFinite else { return nil }
    let k = Double(events)
    let low = events == 0 ? 0 : try ChiSquareDistribution(degreesOfFreedom: 2 * k).quantile(0.025) / 2
    let high = try ChiSquareDistribution(degreesOfFreedom: 2 * k + 2).quantile(0.975) / 2
    return RateInterval(low: low / exposure, high: high / exposure)
  }
}
