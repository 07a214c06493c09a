/// A Swift type a parameter value can be read as: `Double` (numbers), `Bool` (flags) and
/// `[Double]` (lists).
public protocol ParameterRepresentable: Sendable, Hashable {
  /// Reads the value; `nil` when it is of another kind.
  init?(parameterValue: ParameterValue)
  /// The value as a ``ParameterValue``.
  var parameterValue: ParameterValue { get }
}

extension Double: ParameterRepresentable {
  /// Reads a number.
  public init?(parameterValue: ParameterValue) {
    guard case .number(let x) = parameterValue else { return nil }
    self = x
  }
  /// `.number(self)`.
  public var parameterValue: ParameterValue { .number(self) }
}

extension Bool: ParameterRepresentable {
  /// Reads a flag.
  public init?(parameterValue: ParameterValue) {
    guard case .flag(let x) = parameterValue else { return nil }
    self = x
  }
  /// `.flag(self)`.
  public var parameterValue: ParameterValue { .flag(self) }
}

extension Array: ParameterRepresentable where Element == Double {
  /// Reads a list of numbers.
  public init?(parameterValue: ParameterValue) {
    guard case .list(let x) = parameterValue else { return nil }
    self = x
  }
  /// `.list(self)`.
  public var parameterValue: ParameterValue { .list(self) }
}

/// A parameter declared once, as a typed key: its declaration (``spec``: name, unit, default,
/// range, grid) and typed access to its value.
///
/// A recognizer declares each parameter as a static property and uses that key everywhere —
/// in its description, to read its values, to build settings and to name it in errors — so the
/// name is written once:
///
/// ```swift
/// static let threshold = Parameter<Double>.number(
///   "threshold", .normalizedForce, default: 0.75, minimum: 0, maximum: 1, "normalized force to reach")
/// …
/// threshold = parameters[Self.threshold]
/// ```
public struct Parameter<Value: ParameterRepresentable>: Sendable, Hashable {
  /// The declaration.
  public let spec: ParameterSpec

  /// Wraps a declaration whose kind matches `Value`.
  public init(spec: ParameterSpec) { self.spec = spec }

  /// The parameter's name.
  public var name: String { spec.name }

  /// The setting `name = value`, for ``ConfigurableRecognizer/checked(_:)`` and
  /// ``RecognizerDescription/resolve(settings:)``.
  public func callAsFunction(_ value: Value) -> ParameterSetting {
    ParameterSetting(name: spec.name, value: value.parameterValue)
  }
}

extension Parameter where Value == Double {
  /// Declares a number parameter (see ``ParameterSpec/number(_:_:default:minimum:inclusive:maximum:inclusive:nan:grid:_:)``).
  public static func number(
    _ name: String, _ unit: ParameterUnit, default value: Double,
    minimum: Double? = nil, inclusive minimumInclusive: Bool = true,
    maximum: Double? = nil, inclusive maximumInclusive: Bool = true,
    nan: String? = nil, grid: ParameterGrid? = nil, _ meaning: String
  ) -> Self {
    Self(
      spec: .number(
        name, unit, default: value, minimum: minimum, inclusive: minimumInclusive, maximum: maximum,
        inclusive: maximumInclusive, nan: nan, grid: grid, meaning))
  }
}

extension Parameter where Value == Bool {
  /// Declares a flag parameter.
  public static func flag(_ name: String, default value: Bool, _ meaning: String) -> Self {
    Self(spec: .flag(name, default: value, meaning))
  }
}

extension Parameter where Value == [Double] {
  /// Declares a list parameter; every element must lie in the range.
  public static func list(
    _ name: String, _ unit: ParameterUnit, default value: [Double],
    minimum: Double? = nil, maximum: Double? = nil, _ meaning: String
  ) -> Self {
    Self(spec: .list(name, unit, default: value, minimum: minimum, maximum: maximum, meaning))
  }
}

/// One parameter set to a value: `name = value`.
public struct ParameterSetting: Sendable, Hashable {
  /// The parameter's name.
  public var name: String
  /// The value.
  public var value: ParameterValue

  /// Creates a setting.
  public init(name: String, value: ParameterValue) {
    self.name = name
    self.value = value
  }
}

extension ParameterValues {
  /// The value of `parameter`. Asking for a parameter the values do not hold, or of another
  /// kind, is a programmer error.
  public subscript<Value>(parameter: Parameter<Value>) -> Value {
    guard let value = self[parameter.name], let typed = Value(parameterValue: value) else {
      preconditionFailure("no \(Value.self) parameter '\(parameter.name)'")
    }
    return typed
  }

  /// Returns a copy with `parameter` set to `value` (no validation).
  public func setting<Value>(_ parameter: Parameter<Value>, to value: Value) -> ParameterValues {
    setting(parameter.name, to: value.parameterValue)
  }
}

extension ParameterError {
  /// An error about `parameter` of recognizer `variant`.
  public init<Value>(variant: String, parameter: Parameter<Value>, _ reason: Reason) {
    self.init(variant: variant, parameter: parameter.name, reason)
  }
}
