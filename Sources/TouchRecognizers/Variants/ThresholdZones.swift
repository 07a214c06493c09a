/// V11 `zones`: Alexis Gallagher's ALG3DTouchThreshholdGestureRecognizer — reports every time the
/// normalized force reaches (lands exactly on) or crosses one of several thresholds, up or down.
///
/// The force range 0…1 is cut into zones: each threshold is a zone of its own, and the open
/// intervals around them are the others. An update whose force differs from the previous one
/// and moves to another zone reports: the threshold it landed on, or — if it landed between
/// thresholds — the last threshold crossed in the direction of travel (one report per update,
/// `faithfulSingleReport`; off: one report per threshold crossed). Each report is an action
/// event with `detail` = +(k+1) when threshold k was reached by an increase, −(k+1) by a
/// decrease. The touch-down sample is compared with an imputed 0 (a touch-down at exactly 0 on a
/// threshold at 0 reports it, as a decrease). Forces outside 0…1 are ignored.
///
/// States: began at touch-down, changed on moves, ended at lift (the lift sample is evaluated
/// too), cancelled on cancel.
public struct ThresholdZones: ConfigurableRecognizer {
  /// Sorted, distinct normalized thresholds in 0…1.
  public let thresholds: [Double]
  /// One report per update (the last threshold crossed), as the original.
  public let faithfulSingleReport: Bool
  @usableFromInline var last: Double = 0

  /// The `normalizedForceThreshholds` parameter.
  public static let normalizedForceThreshholds = Parameter<[Double]>.list(
    "normalizedForceThreshholds", .normalizedForce, default: [0.4, 0.85], minimum: 0, maximum: 1,
    "sorted, distinct thresholds (the original's spelling; default: Flutter's start/peak)")
  /// The `faithfulSingleReport` parameter.
  public static let faithfulSingleReport = Parameter<Bool>.flag(
    "faithfulSingleReport", default: true,
    "one report per update even when several thresholds are crossed")

  /// The variant's description.
  public static let descriptor = RecognizerDescription(
    name: "zones", code: "V11", title: "ALG3DTouchThreshholdGestureRecognizer (Gallagher)",
    summary: "Reports every crossing of a sorted list of normalized force levels, up and down.",
    source: .github(
      "algal/TouchVisualizer", files: "TouchVisualizer/ALG3DTouchThreshholdGestureRecognizer.swift", version: "6774a44"),
    style: .continuous,
    actionEvent: "each report: the force reached or crossed a threshold (detail +k+1 up, −(k+1) down)",
    rules:
      "Began at touch-down (compared with an imputed 0), changed on moves, ended at lift. Every update that changes zone reports the threshold landed on, or the last one crossed in the direction of travel (one report per update).",
    parameters: [Self.normalizedForceThreshholds.spec, Self.faithfulSingleReport.spec])

  /// Builds from resolved parameter values.
  ///
  /// - Throws: ``ParameterError`` when the thresholds are not sorted and distinct.
  public init(parameters: ParameterValues) throws(ParameterError) {
    thresholds = parameters[Self.normalizedForceThreshholds]
    faithfulSingleReport = parameters[Self.faithfulSingleReport]
    for k in thresholds.indices.dropFirst() where !(thresholds[k - 1] < thresholds[k]) {
      throw ParameterError(
        variant: Self.descriptor.name, parameter: Self.normalizedForceThreshholds,
        .invalid("thresholds must be sorted and distinct"))
    }
  }

  /// Creates the recognizer; invalid values trap.
  public init(thresholds: [Double] = [0.4, 0.85], faithfulSingleReport: Bool = true) {
    self = .checked(Self.normalizedForceThreshholds(thresholds), Self.faithfulSingleReport(faithfulSingleReport))
  }

  /// The configured values.
  public var parameters: ParameterValues {
    Self.descriptor.defaults.setting(Self.normalizedForceThreshholds, to: thresholds)
      .setting(Self.faithfulSingleReport, to: faithfulSingleReport)
  }

  /// The zone of `n`: 2k+1 on threshold k, 2k between thresholds k−1 and k; `nil` outside 0…1.
  @inlinable
  func zone(_ n: Double) -> Int? {
    guard n >= 0 && n <= 1 else { return nil }
    var z = 0
    for threshold in thresholds {
      if n == threshold { return z + 1 }
      if n < threshold { return z }
      z += 2
    }
    return z
  }

  @inlinable @inline(__always)
  func report(from previous: Double, to current: Double, at sample: TouchSample, _ context: inout GestureContext) {
    guard current != previous, let a = zone(previous), let b = zone(current), a != b else { return }
    let up = b > a
    if b % 2 == 1 {
      let k = (b - 1) / 2
      context.act(at: sample, detail: up ? k + 1 : -(k + 1))
      return
    }
    // Threshold zones strictly between a and b: zones 2k+1 in low...high.
    let low = Swift.min(a, b) + 1
    let high = Swift.max(a, b) - 1
    guard high >= 1 else { return }
    let first = low / 2
    let lastCrossed = (high - 1) / 2
    guard first <= lastCrossed else { return }
    if faithfulSingleReport {
      let k = up ? lastCrossed : first
      context.act(at: sample, detail: up ? k + 1 : -(k + 1))
    } else if up {
      for k in first...lastCrossed { context.act(at: sample, detail: k + 1) }
    } else {
      for k in (first...lastCrossed).reversed() { context.act(at: sample, detail: -(k + 1)) }
    }
  }

  @inlinable
  public mutating func touchesBegan(_ sample: TouchSample, _ context: inout GestureContext) {
    let n = sample.normalizedForce
    if n == 0 {
      if thresholds.first == 0 { context.act(at: sample, detail: -1) }
    } else {
      report(from: 0, to: n, at: sample, &context)
    }
    last = n
    context.setState(.began, at: sample)
  }

  /// Reports the move from the last force to `sample`'s, remembers it and sets `state`.
  @inlinable @inline(__always)
  mutating func update(_ sample: TouchSample, _ state: GestureState, _ context: inout GestureContext) {
    let n = sample.normalizedForce
    report(from: last, to: n, at: sample, &context)
    last = n
    context.setState(state, at: sample)
  }

  @inlinable
  public mutating func touchesMoved(_ sample: TouchSample, _ context: inout GestureContext) {
    update(sample, .changed, &context)
  }

  @inlinable
  public mutating func touchesEnded(_ sample: TouchSample, _ context: inout GestureContext) {
    update(sample, .ended, &context)
  }

  @inlinable
  public mutating func touchesCancelled(_ sample: TouchSample, _ context: inout GestureContext) {
    if context.state == .began {
      // The original evaluates the crossing before cancelling only from the began state.
      report(from: last, to: sample.normalizedForce, at: sample, &context)
    }
    context.setState(.cancelled, at: sample)
  }

  @inlinable
  public mutating func reset() { last = 0 }
}
