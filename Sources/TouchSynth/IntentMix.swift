/// How many traces of each gesture a synthesized dataset holds, as relative weights.
public struct IntentMix: Hashable, Sendable, CustomStringConvertible {
  /// The weight of each gesture, indexed like `GestureKind.allCases`; ≥ 0, not all 0.
  public private(set) var weights: [Double]

  /// Equal weights for every gesture.
  public static let uniform = IntentMix(weights: [:], default: 1)

  /// A mix from weights; gestures not named get `default`.
  /// - Precondition: weights are finite and ≥ 0 and at least one is positive.
  public init(weights: [GestureKind: Double], default fallback: Double = 0) {
    let values = GestureKind.allCases.map { weights[$0] ?? fallback }
    precondition(values.allSatisfy { $0 >= 0 && $0.isFinite }, "weights must be finite and ≥ 0")
    precondition(values.contains { $0 > 0 }, "at least one weight must be positive")
    self.weights = values
  }

  /// Reads `intent=weight,...` (for example `tap=3,hard-tap=1,press=2`); gestures not named get
  /// weight 0.
  /// - Throws: ``IntentMixError`` naming the bad entry.
  public init(parsing text: String) throws(IntentMixError) {
    var weights: [GestureKind: Double] = [:]
    for entry in text.split(separator: ",", omittingEmptySubsequences: false) {
      let parts = entry.split(separator: "=", omittingEmptySubsequences: false)
      guard parts.count == 2 else { throw IntentMixError(entry: String(entry), problem: "expected intent=weight") }
      let name = parts[0].trimmingSpaces
      guard let kind = GestureKind(name: name) else {
        throw IntentMixError(
          entry: String(entry),
          problem:
            "unknown intent '\(name)' (expected one of \(GestureKind.allCases.map(\.rawValue).joined(separator: ", ")))"
        )
      }
      guard let weight = Double(parts[1].trimmingSpaces), weight.isFinite, weight >= 0 else {
        throw IntentMixError(entry: String(entry), problem: "weight must be a number ≥ 0")
      }
      guard weights[kind] == nil else {
        throw IntentMixError(entry: String(entry), problem: "'\(name)' is given twice")
      }
      weights[kind] = weight
    }
    guard weights.values.contains(where: { $0 > 0 }) else {
      throw IntentMixError(entry: text, problem: "at least one weight must be positive")
    }
    self.init(weights: weights)
  }

  /// The weight of `kind`.
  public func weight(of kind: GestureKind) -> Double {
    weights[GestureKind.allCases.firstIndex(of: kind)!]
  }

  /// Splits `total` traces over the gestures in proportion to the weights (largest remainder:
  /// each gets the whole part of its share, then the largest fractional parts get one more, ties
  /// in `GestureKind.allCases` order). The counts add up to `total`.
  public func counts(total: Int) -> [GestureKind: Int] {
    precondition(total >= 0, "the total must not be negative")
    let sum = weights.reduce(0, +)
    // Each share lies in 0...total.
    var counts = weights.map { Int(exactly: (Double(total) * $0 / sum).rounded(.down)) ?? 0 }
    let remainders = weights.enumerated().map {
      (offset: $0.offset, value: Double(total) * $0.element / sum - Double(counts[$0.offset]))
    }
    var missing = total - counts.reduce(0, +)
    for entry in remainders.sorted(by: { $0.value != $1.value ? $0.value > $1.value : $0.offset < $1.offset })
    where missing > 0 && weights[entry.offset] > 0 {
      counts[entry.offset] += 1
      missing -= 1
    }
    var result: [GestureKind: Int] = [:]
    for (k, kind) in GestureKind.allCases.enumerated() { result[kind] = counts[k] }
    return result
  }

  /// `tap=1,hard-tap=1,…` with the weights as given (in `GestureKind.allCases` order).
  public var description: String {
    zip(GestureKind.allCases, weights).map { "\($0.0.rawValue)=\(Self.format($0.1))" }.joined(separator: ",")
  }

  private static func format(_ value: Double) -> String {
    abs(value) < 1e15 ? Int(exactly: value).map(String.init) ?? "\(value)" : "\(value)"
  }
}

/// A `--mix` text that cannot be read.
public struct IntentMixError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The offending `intent=weight` entry.
  public var entry: String
  /// What is wrong with it.
  public var problem: String

  /// `invalid mix entry 'ENTRY': PROBLEM`.
  public var description: String { "invalid mix entry '\(entry)': \(problem)" }
}
