import TouchCore

/// A parameter value: a number, a flag or a list of numbers.
public enum ParameterValue: Sendable, Hashable, CustomStringConvertible {
  /// A number in the parameter's unit; NaN where the parameter documents a meaning for it.
  case number(Double)
  /// A Boolean switch (the `faithful…` flags and other options).
  case flag(Bool)
  /// A list of numbers (for example the thresholds of ``ThresholdZones``).
  case list([Double])

  /// The kind of the value.
  public var kind: ParameterKind {
    switch self {
    case .number: .number
    case .flag: .flag
    case .list: .list
    }
  }

  /// The value as written on the command line: `3`, `0.75`, `nan`, `true`, `0.2,0.75`.
  public var description: String {
    switch self {
    case .number(let value): ParameterValue.text(value)
    case .flag(let value): value ? "true" : "false"
    case .list(let values): values.map(ParameterValue.text).joined(separator: ",")
    }
  }

  /// Equal values; NaN equals NaN here (it means "off" or "no limit", one setting).
  public static func == (a: ParameterValue, b: ParameterValue) -> Bool {
    func same(_ x: Double, _ y: Double) -> Bool { x == y || (x.isNaN && y.isNaN) }
    switch (a, b) {
    case (.number(let x), .number(let y)): return same(x, y)
    case (.flag(let x), .flag(let y)): return x == y
    case (.list(let x), .list(let y)): return x.count == y.count && zip(x, y).allSatisfy(same)
    default: return false
    }
  }

  /// Hashes consistently with `==` (all NaNs alike, 0 and −0 alike).
  public func hash(into hasher: inout Hasher) {
    func add(_ x: Double) { hasher.combine(x.isNaN ? Double.nan.bitPattern : x.bitPattern) }
    switch self {
    case .number(let x):
      hasher.combine(0)
      add(x == 0 ? 0 : x)
    case .flag(let x):
      hasher.combine(1)
      hasher.combine(x)
    case .list(let xs):
      hasher.combine(2)
      hasher.combine(xs.count)
      for x in xs { add(x == 0 ? 0 : x) }
    }
  }

  /// The shortest text that reads back to `value` (`nan`, `inf` for the special values).
  package static func text(_ value: Double) -> String {
    if value.isNaN { return "nan" }
    if value.isInfinite { return value < 0 ? "-inf" : "inf" }
    // (No `rounded()`: it calls libm, which clients of this module need not link.)
    if abs(value) < 1e15, value == Double(Int64(value)) { return String(Int64(value)) }
    return "\(value)"
  }
}

/// The kind of value a parameter takes.
public enum ParameterKind: String, Sendable, Hashable {
  /// A number.
  case number
  /// `true` or `false`.
  case flag
  /// Comma-separated numbers.
  case list
}

/// The unit of a parameter.
public enum ParameterUnit: String, Sendable, Hashable {
  /// Raw device force (`UITouch.force`; 20/3 is the iPhone 6s maximum).
  case force = "force units"
  /// Force divided by the trace's maximum possible force (0…1).
  case normalizedForce = "normalized force"
  /// Seconds.
  case seconds = "s"
  /// Milliseconds.
  case milliseconds = "ms"
  /// Hertz (a filter's cutoff frequency).
  case hertz = "Hz"
  /// Points (UIKit) or density-independent pixels (Android) or logical pixels (Flutter); the
  /// harness treats all three as the trace's x/y unit.
  case points = "pt"
  /// A count or a ratio without unit.
  case none = "-"
}

/// The declaration of one parameter of a variant: name, unit, default, valid range, meaning.
public struct ParameterSpec: Sendable, Hashable {
  /// The name: the original library's property name where it has one, camelCase otherwise.
  public var name: String
  /// What kind of value it takes.
  public var kind: ParameterKind
  /// The unit of numbers (and list elements).
  public var unit: ParameterUnit
  /// The default value (the original library's default).
  public var defaultValue: ParameterValue
  /// Lowest valid number (list element); `nil` for no lower bound.
  public var minimum: Double?
  /// Whether ``minimum`` itself is valid.
  public var minimumInclusive: Bool
  /// Highest valid number (list element); `nil` for no upper bound.
  public var maximum: Double?
  /// Whether ``maximum`` itself is valid.
  public var maximumInclusive: Bool
  /// When non-nil, NaN is a valid number and means this (for example "no limit").
  public var notANumberMeaning: String?
  /// One line saying what the parameter does.
  public var meaning: String
  /// The values a sweep tries when the user names none (see ``ParameterGrid``).
  public var grid: ParameterGrid
  /// When non-nil, the recognizer uses this parameter **only** in order comparisons (`<`, `≤`,
  /// `>`, `≥`) between a per-sample quantity and a level derived from the value, with the
  /// quantity and level computed as this scale says (``ThresholdSweep/Scale/quantity(force:maxForce:)``,
  /// ``ThresholdSweep/Scale/level(threshold:maxForce:)``). Then every value whose level falls
  /// between the same two consecutive distinct quantities of a trace (or equals the same one)
  /// gives that trace the same replay, which lets a sweep replay once per such class instead of
  /// once per value (the Sweeps article of TouchEvaluation). `nil`: no such promise.
  ///
  /// A recognizer that declares it must not use the value any other way: not in arithmetic on
  /// times or forces, not in a comparison with a quantity other than the declared one.
  public var comparison: ThresholdSweep.Scale? = nil

  /// Declares a number parameter.
  public static func number(
    _ name: String, _ unit: ParameterUnit, default value: Double,
    minimum: Double? = nil, inclusive minimumInclusive: Bool = true,
    maximum: Double? = nil, inclusive maximumInclusive: Bool = true,
    nan: String? = nil, grid: ParameterGrid? = nil, _ meaning: String
  ) -> ParameterSpec {
    ParameterSpec(
      name: name, kind: .number, unit: unit, defaultValue: .number(value), minimum: minimum,
      minimumInclusive: minimumInclusive, maximum: maximum, maximumInclusive: maximumInclusive,
      notANumberMeaning: nan, meaning: meaning, grid: grid ?? .standard(kind: .number, unit: unit))
  }

  /// Declares a flag parameter.
  public static func flag(_ name: String, default value: Bool, _ meaning: String) -> ParameterSpec {
    ParameterSpec(
      name: name, kind: .flag, unit: .none, defaultValue: .flag(value), minimum: nil,
      minimumInclusive: true, maximum: nil, maximumInclusive: true, notANumberMeaning: nil,
      meaning: meaning, grid: .bothFlags)
  }

  /// Declares a list parameter; every element must lie in the range.
  public static func list(
    _ name: String, _ unit: ParameterUnit, default value: [Double],
    minimum: Double? = nil, maximum: Double? = nil, _ meaning: String
  ) -> ParameterSpec {
    ParameterSpec(
      name: name, kind: .list, unit: unit, defaultValue: .list(value), minimum: minimum,
      minimumInclusive: true, maximum: maximum, maximumInclusive: true, notANumberMeaning: nil,
      meaning: meaning, grid: .none)
  }

  /// This parameter, declared as used only in order comparisons of `scale`'s quantity with its
  /// level (see ``comparison``).
  public func compared(as scale: ThresholdSweep.Scale) -> ParameterSpec {
    var spec = self
    spec.comparison = scale
    return spec
  }

  /// The default grid's numbers for data whose maximum possible force is `maximumForce`, with
  /// the values outside the valid range left out (empty for flags, lists and grids that need
  /// an unknown maximum).
  public func gridValues(maximumForce: Double?) -> [Double] {
    guard case .number(let standard) = defaultValue else { return [] }
    return grid.values(default: standard, maximumForce: maximumForce).filter(contains)
  }

  /// The valid range in interval notation, e.g. `[0, 1]`, `(0, inf)`; `true|false` for flags.
  public var rangeText: String {
    if kind == .flag { return "true|false" }
    let low = minimum.map(ParameterValue.text) ?? "-inf"
    let high = maximum.map(ParameterValue.text) ?? "inf"
    let open = minimum != nil && minimumInclusive ? "[" : "("
    let close = maximum != nil && maximumInclusive ? "]" : ")"
    var text = "\(open)\(low), \(high)\(close)"
    if let nan = notANumberMeaning { text += " or nan (\(nan))" }
    return text
  }

  /// Whether `x` lies in the valid range.
  func contains(_ x: Double) -> Bool {
    if x.isNaN { return notANumberMeaning != nil }
    if let minimum, minimumInclusive ? x < minimum : x <= minimum { return false }
    if let maximum, maximumInclusive ? x > maximum : x >= maximum { return false }
    return !x.isInfinite || (x > 0 ? maximum == nil : minimum == nil)
  }

  /// Checks a value against the kind and range.
  func check(_ value: ParameterValue, variant: String) throws(ParameterError) {
    guard value.kind == kind else {
      throw ParameterError(
        variant: variant, parameter: name,
        .wrongKind(expected: kind, got: value.description))
    }
    switch value {
    case .flag: return
    case .number(let x):
      guard contains(x) else {
        throw ParameterError(variant: variant, parameter: name, .outOfRange(value: value.description, range: rangeText))
      }
    case .list(let xs):
      guard !xs.isEmpty else {
        throw ParameterError(variant: variant, parameter: name, .invalid("the list must not be empty"))
      }
      for x in xs where !contains(x) || x.isNaN {
        throw ParameterError(
          variant: variant, parameter: name,
          .outOfRange(value: ParameterValue.text(x), range: rangeText))
      }
    }
  }

  /// Reads a value written as text: a number (`3`, `0.75`, `nan`), a flag (`true`, `false`,
  /// `1`, `0`, `yes`, `no`) or a comma-separated list.
  func parse(_ text: String, variant: String) throws(ParameterError) -> ParameterValue {
    let trimmed = text.trimmingSpaces
    switch kind {
    case .flag:
      switch trimmed.lowercased() {
      case "true", "1", "yes", "on": return .flag(true)
      case "false", "0", "no", "off": return .flag(false)
      default:
        throw ParameterError(variant: variant, parameter: name, .wrongKind(expected: .flag, got: text))
      }
    case .number:
      guard let x = ParameterSpec.number(trimmed) else {
        throw ParameterError(variant: variant, parameter: name, .wrongKind(expected: .number, got: text))
      }
      return .number(x)
    case .list:
      var values: [Double] = []
      for part in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
        guard let x = ParameterSpec.number(String(part).trimmingSpaces) else {
          throw ParameterError(variant: variant, parameter: name, .wrongKind(expected: .list, got: text))
        }
        values.append(x)
      }
      return .list(values)
    }
  }

  /// A decimal number, `nan` or `inf`; `nil` for anything else.
  static func number(_ text: String) -> Double? {
    switch text.lowercased() {
    case "nan": return .nan
    case "inf", "+inf", "infinity": return .infinity
    case "-inf", "-infinity": return -.infinity
    default:
      guard !text.isEmpty, text.allSatisfy({ "0123456789+-.eE".contains($0) }) else { return nil }
      return Double(text)
    }
  }
}

/// Validated parameter values of one variant, in declaration order, every parameter present.
public struct ParameterValues: Sendable, Hashable, Sequence {
  /// One named value.
  public struct Entry: Sendable, Hashable {
    /// The parameter's name.
    public var name: String
    /// Its value.
    public var value: ParameterValue
  }

  /// The values in the variant's declaration order.
  public private(set) var entries: [Entry]

  /// Creates values from entries (no validation; see ``RecognizerDescription/resolve(_:)``).
  public init(_ entries: [Entry]) { self.entries = entries }

  /// The value of `name`, or `nil` when the variant has no such parameter.
  public subscript(name: String) -> ParameterValue? {
    entries.first { $0.name == name }?.value
  }

  /// The number `name`. Asking for a parameter that is not a number is a programmer error.
  public func number(_ name: String) -> Double {
    guard case .number(let x)? = self[name] else { preconditionFailure("no number parameter '\(name)'") }
    return x
  }

  /// The flag `name`. Asking for a parameter that is not a flag is a programmer error.
  public func flag(_ name: String) -> Bool {
    guard case .flag(let x)? = self[name] else { preconditionFailure("no flag parameter '\(name)'") }
    return x
  }

  /// The list `name`. Asking for a parameter that is not a list is a programmer error.
  public func list(_ name: String) -> [Double] {
    guard case .list(let x)? = self[name] else { preconditionFailure("no list parameter '\(name)'") }
    return x
  }

  /// Returns a copy with `name` set to `value` (no validation).
  public func setting(_ name: String, to value: ParameterValue) -> ParameterValues {
    var copy = self
    if let k = copy.entries.firstIndex(where: { $0.name == name }) {
      copy.entries[k].value = value
    } else {
      copy.entries.append(Entry(name: name, value: value))
    }
    return copy
  }

  /// Iterates over the entries in declaration order.
  public func makeIterator() -> IndexingIterator<[Entry]> { entries.makeIterator() }
}

/// Why parameter values were rejected.
public struct ParameterError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The specific problem.
  public enum Reason: Sendable, Hashable {
    /// The variant has no parameter of that name.
    case unknownParameter(known: [String])
    /// The text or value is not of the parameter's kind.
    case wrongKind(expected: ParameterKind, got: String)
    /// The value lies outside the valid range.
    case outOfRange(value: String, range: String)
    /// The value breaks a rule (alone or together with another parameter).
    case invalid(String)
    /// A setting is not written `name=value`.
    case malformedSetting(String)
    /// The variant name is not known.
    case unknownVariant(known: [String])
  }

  /// The variant whose parameters were rejected.
  public var variant: String
  /// The parameter concerned (`nil` for rules between parameters and unknown variants).
  public var parameter: String?
  /// The problem.
  public var reason: Reason

  /// Creates an error.
  public init(variant: String, parameter: String?, _ reason: Reason) {
    self.variant = variant
    self.parameter = parameter
    self.reason = reason
  }

  /// A one-line message naming the recognizer, the parameter and the valid values.
  public var description: String {
    let subject = parameter.map { "recognizer '\(variant)': parameter '\($0)'" } ?? "recognizer '\(variant)'"
    switch reason {
    case .unknownParameter(let known):
      return
        "recognizer '\(variant)' has no parameter '\(parameter ?? "")' (parameters: \(known.joined(separator: ", ")))"
    case .wrongKind(let expected, let got):
      let what =
        switch expected {
        case .number: "a number"
        case .flag: "true or false"
        case .list: "comma-separated numbers"
        }
      return "\(subject) must be \(what), got '\(got)'"
    case .outOfRange(let value, let range):
      return "\(subject) must be in \(range), got \(value)"
    case .invalid(let message):
      return "\(subject): \(message)"
    case .malformedSetting(let text):
      return "recognizer '\(variant)': setting '\(text)' is not written name=value"
    case .unknownVariant(let known):
      return
        "unknown recognizer '\(variant)'\(NameSuggestion.clause(for: variant, in: known)) (recognizers: \(known.joined(separator: ", ")))"
    }
  }
}
