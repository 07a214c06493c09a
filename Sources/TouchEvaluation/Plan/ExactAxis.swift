public import TouchCore
public import TouchRecognizers

/// The exact axis of one threshold parameter over a data set: every value at which some trace's
/// replay can change, so that the half-open intervals between consecutive points cover the
/// parameter's range and every value inside one interval gives every trace the same replay.
///
/// A threshold compared with a per-sample quantity (`ParameterSpec.comparison`, or the
/// parameter of a one-pass `ThresholdSweep`) changes a trace's comparisons only where its
/// level reaches or passes one of the trace's distinct quantities u: at the smallest value whose
/// level is ≥ u (the comparison `q ≥ level` turns false there: a *closed* breakpoint, written
/// `[u`) and at the smallest value whose level is > u (`q > level` turns false: an *open*
/// breakpoint, written `(u`). For the scales whose level is the value itself this is u and the
/// next double above u; for `scaledThreshold` (level = maxForce × value)
/// both are found exactly by stepping over doubles from u / maxForce; for
/// `clampedRaw` (level = min(value, maxForce)) nothing changes above the
/// maximum. The values of the recognizer's other parameters of the same unit, and the
/// parameter's own range bounds, are breakpoints too, so that a rule between two parameters
/// (peekThreshold ≤ popThreshold) holds or fails on a whole interval.
///
/// A recognizer that says on which side of the level it takes samples (`ThresholdSide`: only
/// `q ≥ L`/`q < L`, or only `q > L`/`q ≤ L`) needs only one kind of breakpoint: its intervals are
/// `(uᵢ, uᵢ₊₁]` or `[uᵢ, uᵢ₊₁)`, about half as many classes.
///
/// Every statement is about IEEE doubles: an interval `[a, b)` is every double from a up to the
/// last double below b, and `(a, b]` every double above a up to b.
public struct ExactAxis: Sendable, Hashable {
  /// The parameter.
  public var parameter: String
  /// The scale its level is computed on.
  public var scale: ThresholdSweep.Scale
  /// The interval starts, ascending: the first is the range's lowest valid value, each other a
  /// breakpoint inside the range.
  public var points: [Double]
  /// Whether interval `i` is written open at its low end: then its low end is the double just
  /// below `points[i]` (an open breakpoint), else `points[i]` itself.
  public var opensAt: [Bool]
  /// The parameter's highest valid value (+∞ without a bound).
  public var upper: Double
  /// Whether ``upper`` is a valid value.
  public var upperInclusive: Bool

  /// The number of intervals.
  public var count: Int { points.count }

  /// The interval holding `value` (nil outside the range).
  public func interval(of value: Double) -> Int? {
    guard !value.isNaN, let first = points.first, value >= first else { return nil }
    if value > upper || (value == upper && !upperInclusive) { return nil }
    var low = 0
    var high = points.count
    while high - low > 1 {
      let middle = (low + high) / 2
      if points[middle] <= value { low = middle } else { high = middle }
    }
    return low
  }

  /// Interval `i` as written: its ends, and whether each is open.
  public func bounds(_ i: Int) -> ExactBounds {
    let lowOpen = opensAt[i]
    let low = lowOpen ? points[i].nextDown : points[i]
    if i + 1 < points.count {
      let next = points[i + 1]
      return opensAt[i + 1]
        ? ExactBounds(low: low, lowOpen: lowOpen, high: next.nextDown, highOpen: false)
        : ExactBounds(low: low, lowOpen: lowOpen, high: next, highOpen: true)
    }
    return ExactBounds(low: low, lowOpen: lowOpen, high: upper, highOpen: !upperInclusive)
  }

  /// The values of the axis to evaluate: one per interval, its first double.
  public var sweepAxis: SweepAxis {
    SweepAxis(parameter: parameter, text: Self.textPrefix + "\(points.count)", values: points.map { .number($0) })
  }

  /// The start of an exact axis's ``SweepAxis/text``.
  static let textPrefix = "exact:"
}

extension SweepAxis {
  /// Whether this axis is an exact one (``ExactAxis/sweepAxis``): its points dropped by a rule
  /// between parameters are parts of the range, not grid points the user wrote.
  public var isExact: Bool { text.hasPrefix(ExactAxis.textPrefix) }
}

/// The ends of an interval of a parameter, in its unit: `low_open`/`high_open` say whether each
/// end is left out.
public struct ExactBounds: Sendable, Hashable, CustomStringConvertible {
  /// The low end.
  public var low: Double
  /// Whether the low end is left out.
  public var lowOpen: Bool
  /// The high end (+∞ for an unbounded interval, always open).
  public var high: Double
  /// Whether the high end is left out.
  public var highOpen: Bool

  /// Creates bounds.
  public init(low: Double, lowOpen: Bool, high: Double, highOpen: Bool) {
    self.low = low
    self.lowOpen = lowOpen
    self.high = high
    self.highOpen = highOpen
  }

  /// The union of two adjacent intervals, `self` first.
  public func joined(to next: ExactBounds) -> ExactBounds {
    ExactBounds(low: low, lowOpen: lowOpen, high: next.high, highOpen: next.highOpen)
  }

  /// `high − low` (+∞ when unbounded).
  public var width: Double { high - low }

  /// Whether `x` lies in the interval.
  public func contains(_ x: Double) -> Bool {
    (lowOpen ? x > low : x >= low) && (highOpen ? x < high : x <= high)
  }

  /// The recommended point of the interval: its middle, written with as few significant digits as
  /// keep it within the middle half (a number a person can type back); the closed end of an
  /// unbounded or one-value interval.
  public var middle: Double {
    guard high.isFinite else { return lowOpen ? low.nextUp : low }
    let mid = low / 2 + high / 2
    guard contains(mid) else { return lowOpen ? (highOpen ? low.nextUp : high) : low }
    let quarter = (high - low) / 4
    // Coarsest decimal step first: 10⁶, 10⁵, …, 1, 0.1, … 10⁻¹⁷ (powers of ten exact in both
    // directions, so each candidate is one correctly rounded operation).
    for j in -6...17 {
      var power = 1.0
      for _ in 0..<abs(j) { power *= 10 }
      let x = j < 0 ? (mid / power).rounded() * power : (mid * power).rounded() / power
      if x >= low + quarter, x <= high - quarter, contains(x) { return x }
    }
    return mid
  }

  /// `(0.25, 0.4]`, `[0, 0.1)`, `[0.9, inf)`.
  public var description: String {
    "\(lowOpen ? "(" : "[")\(ParameterValue.text(low)), \(ParameterValue.text(high))\(highOpen ? ")" : "]")"
  }
}

/// Collects the exact axes of a recognizer's threshold parameters over traces read in batches
/// (``add(_:)``), then gives them (``axes()``); memory holds the distinct breakpoints only.
public struct ExactAxisBuilder: Sendable {
  /// The recognizer.
  public let spec: RecognizerSpec
  /// The exact parameters and their scales.
  public let parameters: [(name: String, scale: ThresholdSweep.Scale)]
  /// The side each parameter takes samples on (`nil`: both kinds of breakpoint).
  public let sides: [ThresholdSide?]
  /// The recognizer at the fixed settings, whose filter (if any) gives the compared force.
  private let probe: AnyForceRecognizer
  /// Breakpoints per parameter: value → whether it is open (true wins only alone).
  private var breakpoints: [[Double: Bool]]
  private var specs: [ParameterSpec]

  /// Checks that every parameter can be made exact and prepares the collection.
  ///
  /// - Parameters:
  ///   - spec: a plain recognizer (no composition).
  ///   - names: the parameters to make exact (each compared with a per-sample quantity).
  ///   - fixed: the other parameters' values (`--set`); they add breakpoints where the unit agrees.
  ///   - others: every value each other varied parameter takes (`--vary`); breakpoints too.
  ///   - sides: the side each parameter takes samples on, for every configuration the sweep will
  ///     run (`ThresholdSide`: only the breakpoints where its comparisons can change); `nil`:
  ///     asked of the recognizer at `fixed`, right when no other parameter varies.
  /// - Throws: ``SweepPlanError/notExact(parameter:recognizer:known:)`` for a parameter that is
  ///   not a comparison threshold, ``SweepPlanError/exactComposition(recognizer:)``.
  public init(
    spec: RecognizerSpec, parameters names: [String], fixed: [String: ParameterValue] = [:],
    others: [String: [Double]] = [:], sides: [ThresholdSide?]? = nil
  ) throws(SweepPlanError) {
    guard spec.required == nil else { throw .exactComposition(recognizer: spec.name) }
    let probe: AnyForceRecognizer
    do throws(ParameterError) {
      probe = try spec.makeRecognizer(fixed)
    } catch {
      throw .unknownRecognizer(error)
    }
    let known = Self.exactParameters(of: spec)
    var list: [(name: String, scale: ThresholdSweep.Scale)] = []
    var specs: [ParameterSpec] = []
    for name in names {
      guard let declared = spec.parameter(name), let scale = known.first(where: { $0.name == name })?.scale else {
        throw .notExact(parameter: name, recognizer: spec.name, known: known.map(\.name))
      }
      list.append((name, scale))
      specs.append(declared)
    }
    self.spec = spec
    self.parameters = list
    self.sides = sides ?? names.map { probe.thresholdSide(of: $0) }
    self.probe = probe
    self.specs = specs
    breakpoints = Array(repeating: [:], count: list.count)
    // Range bounds and the other parameters' values (same unit): rules between parameters and
    // the range hold or fail on whole intervals.
    for (p, declared) in specs.enumerated() {
      var values: [Double] = []
      for other in spec.parameters
      where other.name != declared.name && other.unit == declared.unit && other.kind == .number {
        if let set = fixed[other.name], case .number(let x) = set {
          values.append(x)
        } else if let grid = others[other.name] {
          values += grid
        } else if case .number(let x) = other.defaultValue {
          values.append(x)
        }
      }
      for x in values where x.isFinite {
        breakpoints[p][x] = false
        if breakpoints[p][x.nextUp] == nil { breakpoints[p][x.nextUp] = true }
      }
    }
  }

  /// The parameters of `spec` that ``ExactAxisBuilder`` can make exact, with their scales: the
  /// declared comparison thresholds and the one-pass parameters, in declaration order.
  public static func exactParameters(of spec: RecognizerSpec) -> [(name: String, scale: ThresholdSweep.Scale)] {
    guard spec.required == nil else { return [] }
    let sweeps = (try? spec.makeRecognizer([:]))?.thresholdSweeps ?? []
    return spec.parameters.compactMap { p in
      guard p.kind == .number else { return nil }
      if let scale = p.comparison { return (p.name, scale) }
      return sweeps.first(where: { $0.parameter == p.name }).map { (p.name, $0.scale) }
    }
  }

  /// Adds the breakpoints of `traces`.
  public mutating func add(_ traces: [Trace]) {
    var quantities: [Double] = []
    for trace in traces {
      let maxForce = trace.metadata.maxForce ?? .nan
      let force = probe.base.comparedForce(of: trace) ?? trace.force
      var lastScale: ThresholdSweep.Scale?
      for p in parameters.indices {
        let scale = parameters[p].scale
        if scale != lastScale {
          quantities = Evaluation.distinctQuantities(force, scale: scale, maxForce: maxForce)
          lastScale = scale
        }
        for u in quantities { add(u, scale: scale, maxForce: maxForce, to: p) }
      }
    }
  }

  private mutating func add(_ u: Double, scale: ThresholdSweep.Scale, maxForce m: Double, to p: Int) {
    func put(_ x: Double, open: Bool) {
      guard !x.isNaN else { return }
      if let known = breakpoints[p][x] {
        if known && !open { breakpoints[p][x] = false }
      } else {
        breakpoints[p][x] = open
      }
    }
    // `q ≥ L` (and `q < L`) change only where L passes u; `q > L` (and `q ≤ L`) where it reaches u.
    let reaches = sides[p] != .atLeast
    let passes = sides[p] != .above
    switch scale {
    case .raw, .normalized, .clampedNormalized:
      if reaches { put(u, open: false) }
      if passes { put(u.nextUp, open: true) }
    case .clampedRaw:
      // level = min(value, max): values above the maximum all give the level max.
      guard !(u > m) else { return }
      if reaches { put(u, open: false) }
      if passes && (u < m || m.isNaN) { put(u.nextUp, open: true) }
    case .scaledThreshold:
      guard m > 0, m.isFinite else { return }
      if reaches { put(Self.smallest(from: u / m) { m * $0 >= u }, open: false) }
      if passes { put(Self.smallest(from: u / m) { m * $0 > u }, open: true) }
    }
  }

  /// The smallest double for which `test` (monotone: false, then true) holds, searched from a
  /// guess close to it.
  static func smallest(from guess: Double, _ test: (Double) -> Bool) -> Double {
    var x = guess
    if test(x) {
      while test(x.nextDown) { x = x.nextDown }
      return x
    }
    while !test(x) && x.isFinite { x = x.nextUp }
    return x
  }

  /// The exact axes: the parameter's valid range cut at every breakpoint inside it.
  public func axes() -> [ExactAxis] {
    parameters.indices.map { p in
      let declared = specs[p]
      let minimum = declared.minimum ?? -Double.infinity
      let lower = declared.minimumInclusive ? minimum : minimum.nextUp
      let upper = declared.maximum ?? .infinity
      let inclusive = declared.maximum == nil ? false : declared.maximumInclusive
      var points: [Double] = [lower.isFinite ? lower : -Double.greatestFiniteMagnitude]
      var opens: [Bool] = [!declared.minimumInclusive && minimum.isFinite]
      for (x, open) in breakpoints[p].sorted(by: { $0.key < $1.key }) where x > points[0] {
        guard x < upper || (x == upper && inclusive) else { break }
        points.append(x)
        opens.append(open)
      }
      return ExactAxis(
        parameter: parameters[p].name, scale: parameters[p].scale, points: points, opensAt: opens, upper: upper,
        upperInclusive: inclusive)
    }
  }
}
