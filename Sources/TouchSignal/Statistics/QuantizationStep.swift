/// The step of the grid a sensor's values lie on (1/60 force units on an iPhone 6s at the
/// default 3D Touch sensitivity, 1 level for evdev pressure), estimated from the values.
public struct QuantizationStep: Hashable, Sendable {
  /// The step, in the values' units.
  public var step: Double
  /// `n` when the step is 1/n for a whole n from 2 to 1000, else `nil`.
  public var reciprocal: Int?
  /// The share of values within 1 % of a step from a multiple of it (0…1).
  public var fit: Double

  /// `1/60`, `1` (whole steps), or the step's decimal form.
  public var text: String {
    if let reciprocal { return "1/\(reciprocal)" }
    if step < 1e15, let whole = Int(exactly: step) { return String(whole) }
    return "\(step)"
  }

  /// Estimates the grid step of `values`, or returns `nil` when they do not lie on a grid
  /// (continuous data, or fewer than two distinct values).
  ///
  /// Method: collect the distinct positive values among the first 100 000 (all values if that
  /// candidate does not fit; giving up beyond 200 000 distinct values: no grid), sort them, merge
  /// those closer than 1e-9 of the largest
  /// (print rounding), take the smallest gap between neighbours as the candidate step, snap it to
  /// 1/n (n = 2…1000) or a whole number when it is within 1e-4 relative of one, and accept it when at least 99 % of the values
  /// are within 1 % of a step from a multiple of it and the grid has at most 100 000 levels
  /// below the largest value.
  ///
  /// - Complexity: O(n log n).
  public static func estimate<Values: Sequence<Double>>(_ values: Values) -> QuantizationStep? {
    // The candidate step from the first 100 000 values is usually right. Only when that prefix
    // is too small or too uniform to show every level (few distinct values) look at all values.
    let (prefixCandidate, prefixDistinct) = candidate(values.prefix(100_000))
    if let step = prefixCandidate, let estimate = verify(step, values) { return estimate }
    guard prefixDistinct < 1000, let step = candidate(values).step else { return nil }
    return verify(step, values)
  }

  /// The grid step the distinct values suggest, and how many distinct values there were.
  private static func candidate<Values: Sequence<Double>>(_ values: Values)
    -> (step: (step: Double, reciprocal: Int?)?, distinct: Int)
  {
    var distinct = Set<Double>()
    for value in values where value > 0 && value.isFinite {
      if distinct.insert(value).inserted, distinct.count > 200_000 { return (nil, distinct.count) }
    }
    return (step(distinct.sorted()), distinct.count)
  }

  private static func step(_ positive: [Double]) -> (step: Double, reciprocal: Int?)? {
    guard let largest = positive.last, positive.count >= 2 else { return nil }
    let merge = largest * 1e-9
    var smallestGap = Double.infinity
    var previous = positive[0]
    for value in positive.dropFirst() where value - previous > merge {
      smallestGap = Swift.min(smallestGap, value - previous)
      previous = value
    }
    guard smallestGap.isFinite, smallestGap > 0, largest / smallestGap <= 100_000 else { return nil }
    var step = smallestGap
    var reciprocal: Int?
    let n = (1 / step).rounded()
    let whole = step.rounded()
    if n >= 2, n <= 1000, abs(1 / n - step) <= 1e-4 * step {
      reciprocal = Int(exactly: n)  // n is whole, 2…1000
      step = 1 / n
    } else if whole >= 1, abs(whole - step) <= 1e-4 * step {
      step = whole
    }
    return (step, reciprocal)
  }

  private static func verify<Values: Sequence<Double>>(_ candidate: (step: Double, reciprocal: Int?), _ values: Values)
    -> QuantizationStep?
  {
    let (onGrid, finite) = gridCount(candidate, values)
    let fit = Double(onGrid) / Double(Swift.max(finite, 1))
    guard fit >= 0.99 else { return nil }
    return QuantizationStep(step: candidate.step, reciprocal: candidate.reciprocal, fit: fit)
  }
}

extension QuantizationStep {
  /// ``estimate(_:)`` fed value by value, for values read in batches: the same estimate,
  /// keeping the first 100 000 values and each distinct value with its count (up to 200 000
  /// distinct positive values, beyond which ``estimate(_:)`` finds no grid either), not every
  /// value.
  struct Estimator {
    private static let prefixLength = 100_000
    private static let distinctLimit = 200_000
    /// The first ``prefixLength`` values.
    private var prefix: [Double] = []
    /// The candidate from the prefix and its distinct count, once the prefix is full.
    private var prefixCandidate: (step: (step: Double, reciprocal: Int?)?, distinct: Int)?
    /// The prefix candidate's grid check over the values after the prefix.
    private var onGrid = 0
    private var finite = 0
    /// Every finite value with its count; `nil` once the positive ones exceed the limit.
    private var counts: DistinctCounts? = DistinctCounts()
    private var positiveDistinct = 0

    init() {}

    /// The last finite value added and how many times in a row (counted once the run ends:
    /// quantized forces repeat, and a run costs one table update).
    private var runValue = Double.nan
    private var runLength = 0

    mutating func add(_ value: Double) {
      if prefix.count < Self.prefixLength {
        prefix.append(value)
        if prefix.count == Self.prefixLength {
          prefixCandidate = candidate(prefix)
          // The whole-input candidate is only tried after a prefix with few distinct values.
          if prefixCandidate!.distinct >= 1000 { counts = nil }
        }
      } else if let step = prefixCandidate?.step, value.isFinite {
        finite += 1
        let k = (value * (1 / step.step)).rounded()
        if abs(value - k * step.step) <= 0.01 * step.step { onGrid += 1 }
      }
      guard value.isFinite, counts != nil else { return }
      if value == runValue {
        runLength += 1
      } else {
        endRun()
        runValue = value
        runLength = 1
      }
    }

    /// Adds the current run to the table.
    private mutating func endRun() {
      guard runLength > 0, counts != nil else { return }
      let isNew = counts!.add(runValue, count: runLength)
      runLength = 0
      if isNew, runValue > 0 {
        positiveDistinct += 1
        if positiveDistinct > Self.distinctLimit { counts = nil }
      }
    }

    mutating func add(_ values: [Double]) { for value in values { add(value) } }

    /// The estimate ``estimate(_:)`` gives for every value added, in order.
    func estimate() -> QuantizationStep? {
      let (prefixStep, prefixDistinct) = prefixCandidate ?? candidate(prefix)
      if let step = prefixStep {
        // The prefix's own check plus the values after it.
        let (prefixOnGrid, prefixFinite) = QuantizationStep.gridCount(step, prefix)
        if let estimate = QuantizationStep.accept(step, onGrid: prefixOnGrid + onGrid, finite: prefixFinite + finite) {
          return estimate
        }
      }
      var finished = self
      finished.endRun()
      guard prefixDistinct < 1000, let counts = finished.counts else { return nil }
      let positive = counts.values.filter { $0 > 0 }.sorted()
      guard let step = QuantizationStep.step(positive) else { return nil }
      var grid = 0
      var all = 0
      let inverse = 1 / step.step
      counts.forEach { value, count in
        all += count
        let k = (value * inverse).rounded()
        if abs(value - k * step.step) <= 0.01 * step.step { grid += count }
      }
      return QuantizationStep.accept(step, onGrid: grid, finite: all)
    }

    private func candidate(_ values: [Double]) -> (step: (step: Double, reciprocal: Int?)?, distinct: Int) {
      QuantizationStep.candidate(values)
    }
  }

  /// How many of `values` are finite, and how many of those lie on the grid of `candidate`
  /// (``verify(_:_:)``'s count).
  private static func gridCount<Values: Sequence<Double>>(
    _ candidate: (step: Double, reciprocal: Int?), _ values: Values
  ) -> (onGrid: Int, finite: Int) {
    let step = candidate.step
    let inverse = 1 / step
    var onGrid = 0
    var finite = 0
    for value in values where value.isFinite {
      finite += 1
      let k = (value * inverse).rounded()
      if abs(value - k * step) <= 0.01 * step { onGrid += 1 }
    }
    return (onGrid, finite)
  }

  /// ``verify(_:_:)``'s decision from its counts.
  private static func accept(_ candidate: (step: Double, reciprocal: Int?), onGrid: Int, finite: Int)
    -> QuantizationStep?
  {
    let fit = Double(onGrid) / Double(Swift.max(finite, 1))
    guard fit >= 0.99 else { return nil }
    return QuantizationStep(step: candidate.step, reciprocal: candidate.reciprocal, fit: fit)
  }
}
