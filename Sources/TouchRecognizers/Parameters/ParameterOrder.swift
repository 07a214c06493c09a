/// How one number parameter must compare with another (a rule checked at construction).
enum ParameterOrder {
  /// `value >= other`: "must be at least".
  case atLeast
  /// `value <= other`: "must not exceed".
  case atMost
  /// `value > other`: "must be greater than".
  case greaterThan
}

extension ConfigurableRecognizer {
  /// Checks that `parameter`'s value in `values` stands in `order` to `other`'s, else throws an
  /// error naming `parameter`: "must be at least peekThreshold (0.2), got 0.1".
  ///
  /// - Throws: ``ParameterError`` (`.invalid`) when the rule is broken (NaN breaks every rule).
  static func require(
    _ parameter: Parameter<Double>, _ order: ParameterOrder, _ other: Parameter<Double>, in values: ParameterValues
  ) throws(ParameterError) {
    let value = values[parameter]
    let bound = values[other]
    let holds: Bool
    let rule: String
    switch order {
    case .atLeast: (holds, rule) = (value >= bound, "must be at least")
    case .atMost: (holds, rule) = (value <= bound, "must not exceed")
    case .greaterThan: (holds, rule) = (value > bound, "must be greater than")
    }
    guard holds else {
      throw ParameterError(
        variant: descriptor.name, parameter: parameter,
        .invalid("\(rule) \(other.name) (\(ParameterValue.text(bound))), got \(ParameterValue.text(value))"))
    }
  }
}
