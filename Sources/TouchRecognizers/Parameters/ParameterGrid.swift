/// The values a sweep tries for a parameter when the user gives none (`touchtrace sweep` without
/// `--vary`), declared with the parameter in the catalog.
///
/// Every grid is exact: each point is a fraction of integers (or of the default's shortest decimal
/// text) converted to `Double` once, so points on the 1/60 grid of 3D Touch compare with quantized
/// forces the way the device's own comparison does.
public enum ParameterGrid: Sendable, Hashable {
  /// `k / steps` for k = 1…steps, in the parameter's own unit, plus the default when it is not a
  /// point (normalized force: 0.05, 0.10, …, 1 for 20 steps).
  case fractions(steps: Int)
  /// `k / steps` of the trace's maximum possible force for k = 1…steps, in force units, plus the
  /// default when it is not a point and lies below the maximum. For raw-force parameters whose
  /// library means "a share of what the sensor can report", so that a tablet with maximum 1023
  /// gets a grid over 0…1023 rather than iPhone units.
  case fractionsOfMaximumForce(steps: Int)
  /// `default × k / denominator` for k = 1…count (computed from the default's shortest decimal
  /// text): times, distances and counts around the library's default.
  case multiplesOfDefault(count: Int, denominator: Int)
  /// `false` then `true` (flag parameters).
  case bothFlags
  /// No default grid: the parameter is swept only when named with `--vary`.
  case none

  /// The grid a parameter of `unit` and `kind` gets unless it declares one: normalized force
  /// `k/20`, force units `k/20` of the maximum force, flags both values, other numbers the default
  /// × k/8 for k = 1…16, lists none.
  public static func standard(kind: ParameterKind, unit: ParameterUnit) -> ParameterGrid {
    switch (kind, unit) {
    case (.flag, _): .bothFlags
    case (.list, _): .none
    case (.number, .normalizedForce): .fractions(steps: 20)
    case (.number, .force): .fractionsOfMaximumForce(steps: 20)
    case (.number, _): .multiplesOfDefault(count: 16, denominator: 8)
    }
  }

  /// Whether the points depend on the data's maximum possible force.
  public var followsMaximumForce: Bool {
    if case .fractionsOfMaximumForce = self { return true }
    return false
  }

  /// The grid's numbers for a parameter whose default is `standard`, on data whose maximum
  /// possible force is `maximumForce` (force units; `nil` when unknown). Empty for
  /// ``bothFlags`` and ``none``, and for a grid relative to the maximum force when it is unknown.
  /// Values outside the parameter's range are not removed here.
  public func values(default standard: Double, maximumForce: Double?) -> [Double] {
    switch self {
    case .fractions(let steps):
      guard steps > 0 else { return [] }
      var values = (1...steps).map { Double($0) / Double(steps) }
      if standard.isFinite, !values.contains(standard) { values = (values + [standard]).sorted() }
      return values
    case .fractionsOfMaximumForce(let steps):
      guard steps > 0, let maximumForce, maximumForce.isFinite, maximumForce > 0 else { return [] }
      var values = (1...steps).map { Self.fraction($0, of: maximumForce, steps: steps) }
      if standard.isFinite, standard <= maximumForce, !values.contains(standard) {
        values = (values + [standard]).sorted()
      }
      return values
    case .multiplesOfDefault(let count, let denominator):
      guard count > 0, denominator > 0, standard.isFinite, standard != 0,
        let exact = ExactRational("\(standard)")
      else { return [] }
      return (1...count).compactMap {
        exact.multiplied(by: Int64($0))?.dividing(by: ExactRational(Int64(denominator)))?.nearestDouble
      }
    case .bothFlags, .none:
      return []
    }
  }

  /// `k/steps` of `maximum`, exactly: when `maximum` is the double nearest to a fraction `p/q`
  /// with a small denominator (20/3 on 3D Touch, 1023 on a tablet), the point is the double
  /// nearest to `k·p / (steps·q)`, so it equals a quantized force of the same value (`20/60`
  /// read from a file) to the last bit; otherwise `k·maximum/steps` rounded once.
  static func fraction(_ k: Int, of maximum: Double, steps: Int) -> Double {
    if maximum < 1e12 {
      for q in 1...1000 {
        guard let p = Int64(exactly: (maximum * Double(q) + 0.5).rounded(.towardZero)) else { break }
        guard Double(p) / Double(q) == maximum else { continue }
        if let exact = ExactRational(numerator: p, denominator: Int64(q))?.multiplied(by: Int64(k))?
          .dividing(by: ExactRational(Int64(steps)))?.nearestDouble
        {
          return exact
        }
        break
      }
    }
    return Double(k) * maximum / Double(steps)
  }

  /// The rule in words, for the catalog (`k/20, k = 1…20`, `k/20 of the maximum force`, …).
  public var summary: String {
    switch self {
    case .fractions(let steps): "k/\(steps), k = 1…\(steps), plus the default"
    case .fractionsOfMaximumForce(let steps):
      "k/\(steps) of the trace's maximum possible force, k = 1…\(steps), plus the default"
    case .multiplesOfDefault(let count, let denominator): "default × k/\(denominator), k = 1…\(count)"
    case .bothFlags: "false, true"
    case .none: "none (name it with --vary)"
    }
  }
}
