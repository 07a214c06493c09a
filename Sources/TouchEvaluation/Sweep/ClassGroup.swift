import TouchRecognizers

/// Configurations of one recognizer that differ only in parameters it declares as comparison
/// thresholds (``ParameterSpec/comparison``), evaluated together: per trace, one replay per
/// equivalence class of those parameters that the grid touches, not one per configuration.
///
/// The group's *levels* are its distinct tuples of the varied comparison parameters, ordered
/// lexicographically (parameters in declaration order, numbers ascending, NaN last); each member
/// is one level (duplicated configurations share one).
struct ClassGroup: Sendable {
  /// A varied comparison parameter.
  struct Compared: Sendable {
    /// The parameter's name.
    var name: String
    /// How the recognizer compares it.
    var scale: ThresholdSweep.Scale
    /// Its distinct values among the members, ascending, NaN last.
    var values: [Double]
    /// Per level: the index of its value in ``values``.
    var valueOfLevel: [Int32]
  }

  /// Configuration indices.
  var members: [Int]
  /// Per member: its level.
  var levelIndex: [Int]
  /// The number of levels.
  var levelCount: Int
  /// The varied comparison parameters (at least one, unless all members are the same setting).
  var compared: [Compared]
  /// Per level: the recognizer of a configuration at that level, the one replayed for a class
  /// the level starts.
  var recognizers: [AnyForceRecognizer]
  /// The members' outcome shape.
  var shape: OutcomeShape

  /// The class group of `members` (configurations of the same recognizer with equal values of
  /// every parameter not declared as a comparison threshold), or `nil` when they cannot form one:
  /// a composition, a parameter value that is not a number, or fewer than two members.
  static func make(_ members: [Int], configurations: [Configuration]) -> ClassGroup? {
    guard members.count >= 2 else { return nil }
    let first = configurations[members[0]]
    guard !first.recognizer.isComposition else { return nil }
    let declared = first.recognizer.variant.parameters.filter { $0.comparison != nil }
    var compared: [Compared] = []
    var numbers: [[Double]] = []  // [parameter][member]
    // (A recognizer's values are rebuilt on each read: read them once.)
    let values = members.map { configurations[$0].parameters }
    for spec in declared {
      var column: [Double] = []
      for m in members.indices {
        guard case .number(let x)? = values[m][spec.name] else { return nil }
        column.append(x)
      }
      let values = Self.distinctSorted(column)
      guard values.count > 1 else { continue }
      compared.append(Compared(name: spec.name, scale: spec.comparison!, values: values, valueOfLevel: []))
      numbers.append(column)
    }
    // Levels: the distinct tuples of value indices, in lexicographic order (the mixed-radix
    // code of a tuple, first parameter most significant, orders them so).
    let codes = members.indices.map { m in
      compared.indices.reduce(0) { code, p in
        code * compared[p].values.count + Self.index(of: numbers[p][m], in: compared[p].values)
      }
    }
    let levelCodes = Array(Set(codes)).sorted()
    var levelOf: [Int: Int] = [:]
    for (level, code) in levelCodes.enumerated() { levelOf[code] = level }
    for p in compared.indices {
      let radix = compared[p].values.count
      let below = compared[(p + 1)...].reduce(1) { $0 * $1.values.count }
      compared[p].valueOfLevel = levelCodes.map { Int32(($0 / below) % radix) }
    }
    let levelIndex = codes.map { levelOf[$0]! }
    let levelCount = levelCodes.count
    var representative = [Int](repeating: -1, count: levelCount)
    for (m, level) in levelIndex.enumerated() where representative[level] < 0 { representative[level] = members[m] }
    return ClassGroup(
      members: members, levelIndex: levelIndex, levelCount: levelCount, compared: compared,
      recognizers: representative.map { configurations[$0].recognizer },
      shape: first.shape)
  }

  /// The distinct values, ascending, NaN (at most one) last.
  static func distinctSorted(_ values: [Double]) -> [Double] {
    var numbers = Array(Set(values.filter { !$0.isNaN })).sorted()
    // `Set` keeps one of 0.0 and -0.0; they compare equal, as in every recognizer's comparison.
    if values.contains(where: \.isNaN) { numbers.append(.nan) }
    return numbers
  }

  /// The index of `x` in `values` (from ``distinctSorted(_:)``), by bisection.
  static func index(of x: Double, in values: [Double]) -> Int {
    if x.isNaN { return values.count - 1 }
    var low = 0
    var high = values.count
    while low < high {
      let middle = (low + high) >> 1
      if values[middle] < x { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
