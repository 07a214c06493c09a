/// A configuration on a Pareto front of accuracy (F1, higher is better) against p90 timing
/// error `|action − reference|` (lower is better): acting before the intended press moves a
/// configuration away from the front, never onto it.
public struct ParetoPoint: Sendable, Hashable {
  /// The configuration's index in the sweep plan (the earliest of those at this point).
  public var configuration: Int
  /// Its stage-1 F1.
  public var f1: Double
  /// Its stage-1 p90 timing error (`|action − reference|`), seconds.
  public var absoluteLatencyP90: Double
  /// How many later configurations sit at exactly the same (F1, p90) point.
  public var ties: Int

  /// Creates a point.
  public init(configuration: Int, f1: Double, absoluteLatencyP90: Double, ties: Int = 0) {
    self.configuration = configuration
    self.f1 = f1
    self.absoluteLatencyP90 = absoluteLatencyP90
    self.ties = ties
  }
}

/// The configurations no other configuration beats on both F1 and p90 timing error.
///
/// A configuration is on the front when no other has an F1 at least as high **and** a p90
/// timing error `|action − reference|` at least as low with one of the two strictly better. Configurations whose F1 or p90
/// latency is undefined (no true positive, nothing to score) are left out. Configurations at
/// exactly the same point are represented by the earliest one, with the others counted in
/// ``ParetoPoint/ties``.
public enum ParetoFront {
  /// The front of `candidates`, ordered by p90 timing error ascending (so F1 ascends too).
  ///
  /// - Parameter candidates: each configuration's stage-1 F1 and p90 of `|action − reference|`
  ///   (TouchEvaluation's `LatencySummary.absoluteP90`), seconds.
  /// - Complexity: O(n log n).
  public static func front(of candidates: [(configuration: Int, f1: Double?, absoluteLatencyP90: Double?)])
    -> [ParetoPoint]
  {
    let defined = candidates.compactMap { c -> ParetoPoint? in
      guard let f1 = c.f1, let p90 = c.absoluteLatencyP90, !f1.isNaN, !p90.isNaN else { return nil }
      return ParetoPoint(configuration: c.configuration, f1: f1, absoluteLatencyP90: p90)
    }
    let sorted = defined.sorted { a, b in
      if a.absoluteLatencyP90 != b.absoluteLatencyP90 { return a.absoluteLatencyP90 < b.absoluteLatencyP90 }
      if a.f1 != b.f1 { return a.f1 > b.f1 }
      return a.configuration < b.configuration
    }
    var front: [ParetoPoint] = []
    for point in sorted {
      if let last = front.last, last.f1 == point.f1 && last.absoluteLatencyP90 == point.absoluteLatencyP90 {
        front[front.count - 1].ties += 1
      } else if front.last.map({ point.f1 > $0.f1 }) ?? true {
        front.append(point)
      }
    }
    return front
  }
}
