internal import CGSL

/// The binomial distribution: the number of successes in `trials` independent trials that each
/// succeed with `probability`.
///
/// Tail probabilities come from GSL's `gsl_cdf_binomial_P` and `gsl_cdf_binomial_Q` (computed
/// through the incomplete beta function, accurate in the far tails where summing terms is not).
///
/// ```swift
/// let fair = try BinomialDistribution(trials: 12, probability: 0.5)
/// let p = try fair.probability(atMost: 3)    // (1 + 12 + 66 + 220) / 4096 = 0.072998046875
/// ```
public struct BinomialDistribution: Sendable, Hashable {
  /// The number of trials, 0…2³² − 1.
  public let trials: Int
  /// The probability of success in one trial, 0…1.
  public let probability: Double

  /// Creates the distribution.
  ///
  /// - Throws: ``GSLError`` with status `GSL_EDOM` (1) when `trials` is negative or above
  ///   2³² − 1 or `probability` is not in 0…1.
  public init(trials: Int, probability: Double) throws(GSLError) {
    guard trials >= 0 && trials <= Int(UInt32.max) else {
      throw GSL.error(Int32(GSL_EDOM), "gsl_cdf_binomial_P", reason: "trials must be 0...4294967295, got \(trials)")
    }
    guard probability >= 0 && probability <= 1 else {
      throw GSL.error(Int32(GSL_EDOM), "gsl_cdf_binomial_P", reason: "probability must be in 0...1, got \(probability)")
    }
    GSL.prepare()
    self.trials = trials
    self.probability = probability
  }

  /// P(X ≤ `k`) (`gsl_cdf_binomial_P`): 0 for negative `k`, 1 for `k ≥ trials`.
  ///
  /// - Throws: ``GSLError`` when GSL reports a failure (a NaN result).
  public func probability(atMost k: Int) throws(GSLError) -> Double {
    if k < 0 { return 0 }
    if k >= trials { return 1 }
    let value = gsl_cdf_binomial_P(UInt32(k), probability, UInt32(trials))
    guard !value.isNaN else { throw GSL.error(Int32(GSL_EDOM), "gsl_cdf_binomial_P") }
    return value
  }

  /// P(X > `k`) (`gsl_cdf_binomial_Q`): 1 for negative `k`, 0 for `k ≥ trials`.
  ///
  /// - Throws: ``GSLError`` when GSL reports a failure (a NaN result).
  public func probability(above k: Int) throws(GSLError) -> Double {
    if k < 0 { return 1 }
    if k >= trials { return 0 }
    let value = gsl_cdf_binomial_Q(UInt32(k), probability, UInt32(trials))
    guard !value.isNaN else { throw GSL.error(Int32(GSL_EDOM), "gsl_cdf_binomial_Q") }
    return value
  }
}

/// The chi-square distribution with `degreesOfFreedom` degrees of freedom.
///
/// Tail probabilities come from GSL's `gsl_cdf_chisq_P` and `gsl_cdf_chisq_Q` (the incomplete
/// gamma function).
///
/// ```swift
/// let oneDegree = try ChiSquareDistribution(degreesOfFreedom: 1)
/// let p = try oneDegree.probability(above: 3.841458820694124)   // 0.05
/// ```
public struct ChiSquareDistribution: Sendable, Hashable {
  /// The degrees of freedom, > 0.
  public let degreesOfFreedom: Double

  /// Creates the distribution.
  ///
  /// - Throws: ``GSLError`` with status `GSL_EDOM` (1) unless `degreesOfFreedom` is finite and > 0.
  public init(degreesOfFreedom: Double) throws(GSLError) {
    guard degreesOfFreedom > 0 && degreesOfFreedom.isFinite else {
      throw GSL.error(
        Int32(GSL_EDOM), "gsl_cdf_chisq_Q",
        reason: "degrees of freedom must be a finite number > 0, got \(degreesOfFreedom)")
    }
    GSL.prepare()
    self.degreesOfFreedom = degreesOfFreedom
  }

  /// P(X ≤ `x`) (`gsl_cdf_chisq_P`); 0 for `x ≤ 0`.
  ///
  /// - Throws: ``GSLError`` for a NaN `x` or when GSL reports a failure (a NaN result).
  public func probability(atMost x: Double) throws(GSLError) -> Double {
    guard !x.isNaN else { throw GSL.error(Int32(GSL_EDOM), "gsl_cdf_chisq_P", reason: "x is NaN") }
    if x <= 0 { return 0 }
    let value = gsl_cdf_chisq_P(x, degreesOfFreedom)
    guard !value.isNaN else { throw GSL.error(Int32(GSL_EDOM), "gsl_cdf_chisq_P") }
    return value
  }

  /// The `p`-quantile: the x with P(X ≤ x) = `p` (`gsl_cdf_chisq_Pinv`); 0 for `p` = 0.
  ///
  /// - Throws: ``GSLError`` unless 0 ≤ `p` < 1, or when GSL reports a failure (a NaN result).
  public func quantile(_ p: Double) throws(GSLError) -> Double {
    guard p >= 0, p < 1 else {
      throw GSL.error(Int32(GSL_EDOM), "gsl_cdf_chisq_Pinv", reason: "p must lie in [0, 1), got \(p)")
    }
    if p == 0 { return 0 }
    let value = gsl_cdf_chisq_Pinv(p, degreesOfFreedom)
    guard !value.isNaN else { throw GSL.error(Int32(GSL_EDOM), "gsl_cdf_chisq_Pinv") }
    return value
  }

  /// P(X > `x`) (`gsl_cdf_chisq_Q`): the p-value of a chi-square statistic `x`; 1 for `x ≤ 0`.
  ///
  /// - Throws: ``GSLError`` for a NaN `x` or when GSL reports a failure (a NaN result).
  public func probability(above x: Double) throws(GSLError) -> Double {
    guard !x.isNaN else { throw GSL.error(Int32(GSL_EDOM), "gsl_cdf_chisq_Q", reason: "x is NaN") }
    if x <= 0 { return 1 }
    let value = gsl_cdf_chisq_Q(x, degreesOfFreedom)
    guard !value.isNaN else { throw GSL.error(Int32(GSL_EDOM), "gsl_cdf_chisq_Q") }
    return value
  }
}
