import TouchRecognizers

extension SweepUnit {
  /// Splits configurations into one-pass groups and replays, ordered by first configuration.
  ///
  /// A configuration can join a one-pass group when it is not a composition, its variant has no
  /// release (the sweep metadata describes first crossings only: releases, flaps and repeated
  /// actions need a replay), each of its events (action, and stage 2 if any) has a threshold
  /// sweep, and one of its varied parameters is such a sweep's parameter. The group is the
  /// configurations of the same recognizer with equal values of every other parameter; it is
  /// swept in one pass only when all members have identical sweep descriptions (operator,
  /// scale, eligible samples) for both events — otherwise its members are replayed.
  static func units(for configurations: [Configuration]) -> [SweepUnit] {
    struct Key: Hashable {
      var recognizer: String
      var parameter: String
      var others: [ParameterValues.Entry]
    }
    var groups: [Key: [Int]] = [:]
    var order: [(first: Int, key: Key?)] = []
    // The parameter to sweep per recognizer: the varied sweep parameter with most values.
    var chosen: [String: String?] = [:]
    for (c, configuration) in configurations.enumerated() {
      let name = configuration.name
      if chosen.index(forKey: name) == nil {
        chosen.updateValue(Self.sweepParameter(configurations.filter { $0.name == name }), forKey: name)
      }
      guard let parameter = chosen[name] ?? nil, Self.eligible(configuration, parameter: parameter) else {
        order.append((c, nil))
        continue
      }
      let key = Key(
        recognizer: name, parameter: parameter,
        others: configuration.parameters.entries.filter { $0.name != parameter })
      if groups[key] == nil { order.append((c, key)) }
      groups[key, default: []].append(c)
    }
    var units: [SweepUnit] = []
    for (first, key) in order {
      guard let key, let members = groups[key] else {
        units.append(.replay(first))
        continue
      }
      if let group = Self.group(members, parameter: key.parameter, configurations: configurations) {
        units.append(.onePass(group))
      } else {
        units += members.map { .replay($0) }
      }
    }
    return classGroups(units, configurations: configurations)
  }

  /// Gathers the replays that differ only in comparison thresholds (``ClassGroup``) into class
  /// groups, each at the place of its first member; the rest stay replays.
  static func classGroups(_ units: [SweepUnit], configurations: [Configuration]) -> [SweepUnit] {
    struct Key: Hashable {
      var recognizer: String
      var others: [ParameterValues.Entry]
    }
    var families: [Key: [Int]] = [:]
    var keyOf: [Int: Key] = [:]
    for unit in units {
      guard case .replay(let c) = unit else { continue }
      let configuration = configurations[c]
      let compared = Set(configuration.recognizer.variant.parameters.filter { $0.comparison != nil }.map(\.name))
      guard !compared.isEmpty, !configuration.recognizer.isComposition else { continue }
      let key = Key(
        recognizer: configuration.name, others: configuration.parameters.entries.filter { !compared.contains($0.name) })
      families[key, default: []].append(c)
      keyOf[c] = key
    }
    var result: [SweepUnit] = []
    var groups: [Key: ClassGroup?] = [:]
    for unit in units {
      guard case .replay(let c) = unit, let key = keyOf[c] else {
        result.append(unit)
        continue
      }
      if let known = groups[key] {
        if known == nil { result.append(unit) }  // (a placed group holds this member)
        continue
      }
      let group = ClassGroup.make(families[key]!, configurations: configurations)
      groups[key] = group
      result.append(group.map { .classes($0) } ?? unit)
    }
    return result
  }

  /// The varied parameter with a threshold sweep and the most distinct values, if any.
  static func sweepParameter(_ family: [Configuration]) -> String? {
    guard let first = family.first else { return nil }
    let swept = Set(first.recognizer.thresholdSweeps.map(\.parameter))
    var best: String?
    var bestCount = 0
    for parameter in first.varied where swept.contains(parameter) {
      let values = Set(family.compactMap { $0.parameters[parameter] })
      if values.count >= bestCount {
        best = parameter
        bestCount = values.count
      }
    }
    return best
  }

  /// Whether a configuration's events are all described by threshold sweeps, one of them on
  /// `parameter`.
  static func eligible(_ configuration: Configuration, parameter: String) -> Bool {
    if configuration.recognizer.isComposition { return false }
    let variant = configuration.recognizer.variant
    guard variant.releaseEvent == nil else { return false }
    let sweeps = configuration.recognizer.thresholdSweeps
    guard sweeps.contains(where: { $0.parameter == parameter }) else { return false }
    guard sweeps.contains(where: { $0.event == .action }) else { return false }
    if variant.stage2Event != nil && !sweeps.contains(where: { $0.event == .stage2 }) { return false }
    return true
  }

  /// The one-pass group of `members`, or `nil` when their sweep descriptions differ.
  static func group(_ members: [Int], parameter: String, configurations: [Configuration]) -> OnePassGroup? {
    let first = configurations[members[0]]
    guard let sweep = first.recognizer.thresholdSweeps.first(where: { $0.parameter == parameter }) else { return nil }
    let otherEvent: ThresholdSweep.Event = sweep.event == .action ? .stage2 : .action
    let shape = first.shape
    let other =
      shape.twoStage || sweep.event == .stage2
      ? first.recognizer.thresholdSweeps.first(where: { $0.event == otherEvent }) : nil
    if (shape.twoStage || sweep.event == .stage2) && other == nil { return nil }
    // Sweep descriptions are compared with `==` (every stored property, including the
    // eligibility rule; NaN settings such as "no limit" equal themselves).
    func same(_ a: ThresholdSweep?, _ b: ThresholdSweep?) -> Bool { a == b }
    var values: [Double] = []
    for c in members {
      let sweeps = configurations[c].recognizer.thresholdSweeps
      guard same(sweeps.first(where: { $0.parameter == parameter }), sweep),
        same(sweeps.first(where: { $0.event == otherEvent }), other),
        case .number(let x)? = configurations[c].parameters[parameter], !x.isNaN
      else { return nil }
      values.append(x)
    }
    let thresholds = Array(Set(values)).sorted()
    let levelIndex = values.map { x in thresholds.firstIndex(of: x)! }
    var otherThreshold = Double.nan
    if let other {
      guard case .number(let x)? = first.parameters[other.parameter] else { return nil }
      otherThreshold = x
    }
    return OnePassGroup(
      members: members, levelIndex: levelIndex, thresholds: thresholds, sweep: sweep, other: other,
      otherThreshold: otherThreshold, shape: shape)
  }
}
