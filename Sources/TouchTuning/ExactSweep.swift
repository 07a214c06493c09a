public import TouchEvaluation
public import TouchRecognizers

/// A sweep over exact axes (`ExactAxis`) read as what it is: metrics that are constant on
/// intervals of the thresholds, and the exact optimum.
///
/// Each configuration of the sweep evaluated one exact class (the first double of one interval
/// of each exact parameter); every value inside that class gives every trace the same replay,
/// so the configuration's metrics hold on the whole class. Adjacent classes with equal metrics
/// (every count, rate and latency figure) are merged into one region. With one exact parameter
/// a region is an interval; with two or three it is a box, merged along the last parameter.
///
/// The optimum is the set of regions whose objective equals the best feasible value (the
/// ``OperatingPointRule``'s bounds met); the recommended point is the middle of the widest of
/// them (for boxes: the one whose narrowest side is widest), a choice a grid cannot make. The
/// plateau is how far, around the recommended region, adjacent regions stay within
/// `tolerance` of the optimum.
public struct ExactSweep: Sendable {
  /// One region of the exact parameters on which every metric is constant.
  public struct Region: Sendable {
    /// The region's interval of each exact parameter, in ``ExactSweep/axes`` order.
    public var bounds: [ExactBounds]
    /// The exact classes merged into it.
    public var classes: Int
    /// The configuration evaluated (its first class).
    public var configuration: Int
    /// The metrics that hold on the whole region.
    public var metrics: ConfigurationMetrics
    /// The first and last class index of the last exact parameter (adjacency when merging).
    var cells: (first: [Int], last: Int)
  }

  /// The exact optimum of one group.
  public struct Optimum: Sendable {
    /// The best objective value (nil when no region is feasible with a defined value).
    public var value: Double?
    /// The optimal regions (indices into the group's ``Group/regions``).
    public var regions: [Int]
    /// The region the recommendation is the middle of.
    public var recommendedRegion: Int
    /// The recommended value of each exact parameter.
    public var recommended: [Double]
    /// The tolerance of the plateau, in the objective's unit.
    public var tolerance: Double
    /// One exact parameter: the widest run of adjacent regions around the recommended one whose
    /// objective is within ``tolerance`` of the optimum (feasible ones only). Several: the
    /// bounding box of every region within the tolerance.
    public var plateau: [ExactBounds]
    /// The regions within the tolerance (indices, ascending).
    public var withinTolerance: [Int]
  }

  /// The regions of one setting of the parameters that are not exact (swept on a grid or fixed).
  public struct Group: Sendable {
    /// The recognizer.
    public var recognizer: String
    /// The grid parameters' values, `name=value`, in axis order (empty when none is swept).
    public var fixed: [String]
    /// The regions, ascending (lexicographically by the exact parameters' intervals).
    public var regions: [Region]
    /// The exact optimum; `nil` when no region meets the rule's bounds with a defined objective.
    public var optimum: Optimum?
  }

  /// The exact axes.
  public let axes: [ExactAxis]
  /// The groups, in plan order.
  public let groups: [Group]
  /// The rule the optimum follows.
  public let rule: OperatingPointRule
  /// The sweep.
  public let sweep: SweepResult

  /// Reads `sweep` (whose plan swept `axes`' values) as regions and optimum.
  ///
  /// - Parameters:
  ///   - sweep: the sweep over the axes' values (`ExactAxis.sweepAxis`).
  ///   - axes: the exact axes.
  ///   - rule: the objective and bounds (`tune`'s; `sweep` maximizes F1).
  ///   - tolerance: the plateau's tolerance, in the objective's unit (0.01 F1, 0.005 s).
  public init(_ sweep: SweepResult, axes: [ExactAxis], rule: OperatingPointRule, tolerance: Double) {
    self.axes = axes
    self.rule = rule
    self.sweep = sweep
    let exactNames = Set(axes.map(\.parameter))
    // Group by the other varied parameters' values, keeping plan order.
    var order: [String] = []
    var members: [String: [(cells: [Int], configuration: Int)]] = [:]
    var labels: [String: (String, [String])] = [:]
    for (c, configuration) in sweep.configurations.enumerated() {
      let fixed = configuration.varied.filter { !exactNames.contains($0) }.compactMap { name in
        configuration.parameters[name].map { "\(name)=\($0)" }
      }
      var cells: [Int] = []
      for axis in axes {
        guard let value = configuration.parameters[axis.parameter], case .number(let x) = value,
          let cell = axis.interval(of: x)
        else { break }
        cells.append(cell)
      }
      guard cells.count == axes.count else { continue }
      let key = configuration.name + "\u{0}" + fixed.joined(separator: "\u{0}")
      if members[key] == nil {
        order.append(key)
        labels[key] = (configuration.name, fixed)
      }
      members[key, default: []].append((cells, c))
    }
    groups = order.map { key in
      let list = members[key]!.sorted { $0.cells.lexicographicallyPrecedes($1.cells) }
      var regions: [Region] = []
      for member in list {
        let metrics = sweep.metrics[member.configuration]
        let bounds = zip(axes, member.cells).map { $0.bounds($1) }
        if var last = regions.last, last.metrics == metrics, last.cells.first.dropLast() == member.cells.dropLast(),
          last.cells.last + 1 == member.cells.last!
        {
          last.bounds[axes.count - 1] = last.bounds[axes.count - 1].joined(to: bounds[axes.count - 1])
          last.classes += 1
          last.cells.last = member.cells.last!
          regions[regions.count - 1] = last
        } else {
          regions.append(
            Region(
              bounds: bounds, classes: 1, configuration: member.configuration, metrics: metrics,
              cells: (member.cells, member.cells.last!)))
        }
      }
      let (recognizer, fixed) = labels[key]!
      var optimum = Self.optimum(regions, rule: rule, tolerance: tolerance)
      if let o = optimum {
        // A box cut by a rule between its parameters (releaseThreshold ≤ pressThreshold on the
        // diagonal) may have an invalid middle: then its evaluated corner, valid and in the class.
        let configuration = sweep.configurations[regions[o.recommendedRegion].configuration]
        let names = axes.map(\.parameter)
        if Self.recognizer(configuration, parameters: names, values: o.recommended) == nil {
          optimum?.recommended = names.map { configuration.parameters.number($0) }
        }
      }
      return Group(recognizer: recognizer, fixed: fixed, regions: regions, optimum: optimum)
    }
  }

  /// `configuration` with `parameters` set to `values`; `nil` when the recognizer rejects them.
  public static func recognizer(_ configuration: Configuration, parameters: [String], values: [Double])
    -> AnyForceRecognizer?
  {
    var set: [String: ParameterValue] = [:]
    for entry in configuration.parameters { set[entry.name] = entry.value }
    for (name, x) in zip(parameters, values) { set[name] = .number(x) }
    return try? configuration.spec.makeRecognizer(set)
  }

  /// The objective of `region` when it meets the rule's bounds and the objective is defined.
  public static func feasibleValue(_ region: Region, rule: OperatingPointRule) -> Double? {
    let score = rule.score(region.metrics, configuration: region.configuration)
    guard score.violations.isEmpty else { return nil }
    return score.value
  }

  static func optimum(_ regions: [Region], rule: OperatingPointRule, tolerance: Double) -> Optimum? {
    let values = regions.map { feasibleValue($0, rule: rule) }
    let maximizes = rule.objective.maximizes
    var best: Double?
    for case let v? in values where best == nil || (maximizes ? v > best! : v < best!) { best = v }
    guard let best else { return nil }
    let optimal = regions.indices.filter { values[$0] == best }
    // The widest optimal region: by its narrowest side (bounded before unbounded: an unbounded
    // region's middle is not defined, so a bounded one of any width is recommended first).
    func width(_ r: Int) -> Double { regions[r].bounds.map(\.width).min() ?? 0 }
    var chosen = optimal[0]
    for r in optimal.dropFirst() {
      let (a, b) = (width(r), width(chosen))
      if (a.isFinite && !b.isFinite) || (a.isFinite == b.isFinite && a > b) { chosen = r }
    }
    let within = regions.indices.filter { values[$0].map { abs($0 - best) <= tolerance } ?? false }
    var plateau = regions[chosen].bounds
    if plateau.count == 1 {
      // Adjacent regions (no gap of dropped values between them) within the tolerance.
      var low = chosen
      while low > 0, values[low - 1].map({ abs($0 - best) <= tolerance }) ?? false,
        regions[low - 1].cells.last + 1 == regions[low].cells.first[0]
      {
        low -= 1
      }
      var high = chosen
      while high + 1 < regions.count, values[high + 1].map({ abs($0 - best) <= tolerance }) ?? false,
        regions[high].cells.last + 1 == regions[high + 1].cells.first[0]
      {
        high += 1
      }
      plateau = [regions[low].bounds[0].joined(to: regions[high].bounds[0])]
    } else {
      for r in within {
        for p in plateau.indices {
          let b = regions[r].bounds[p]
          if b.low < plateau[p].low || (b.low == plateau[p].low && !b.lowOpen) {
            plateau[p].low = b.low
            plateau[p].lowOpen = b.lowOpen
          }
          if b.high > plateau[p].high || (b.high == plateau[p].high && !b.highOpen) {
            plateau[p].high = b.high
            plateau[p].highOpen = b.highOpen
          }
        }
      }
    }
    return Optimum(
      value: best, regions: optimal, recommendedRegion: chosen, recommended: regions[chosen].bounds.map(\.middle),
      tolerance: tolerance, plateau: plateau, withinTolerance: within)
  }

  /// The group whose optimum is best: the one to ship (ties: the wider recommended region, by its
  /// narrowest side, then the first); `nil` when no group has an optimum.
  public var bestGroup: Int? {
    var best: Int?
    let maximizes = rule.objective.maximizes
    func width(_ g: Int) -> Double {
      let o = groups[g].optimum!
      return groups[g].regions[o.recommendedRegion].bounds.map(\.width).min() ?? 0
    }
    for (g, group) in groups.enumerated() {
      guard let value = group.optimum?.value else { continue }
      guard let b = best, let current = groups[b].optimum?.value else {
        best = g
        continue
      }
      if maximizes ? value > current : value < current {
        best = g
      } else if value == current && width(g) > width(b) {
        best = g
      }
    }
    return best
  }

  /// What to ship: the best group's recognizer, grid values and recommended exact values, as
  /// `name=value` texts (`deep-press threshold=0.348`); `nil` without an optimum.
  public var shipped: (recognizer: String, values: [String])? {
    guard let g = bestGroup, let optimum = groups[g].optimum else { return nil }
    return (
      groups[g].recognizer,
      groups[g].fixed + zip(axes, optimum.recommended).map { "\($0.parameter)=\(ParameterValue.text($1))" }
    )
  }

  /// The group and region holding `values` (one per exact parameter) in the group whose grid
  /// parameters are `fixed`; `nil` outside every region.
  public func region(holding values: [Double], in group: Int) -> Int? {
    groups[group].regions.firstIndex { region in zip(region.bounds, values).allSatisfy { $0.contains($1) } }
  }
}
