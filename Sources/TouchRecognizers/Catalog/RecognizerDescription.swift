/// What a recognizer variant is: its name, where it comes from, its parameters and what its
/// events mean.
public struct RecognizerDescription: Sendable, Hashable {
  /// The name used on the command line (`shunkit`, `deep-press`, …).
  public var name: String
  /// The variant number in the reference table (`V1` …), or `ours` / empty.
  public var code: String
  /// A short title.
  public var title: String
  /// Where the original lives: repository, path and commit (or the platform document).
  public var source: String
  /// Continuous or discrete.
  public var style: RecognizerStyle
  /// What the action event is (the moment an app acts).
  public var actionEvent: String
  /// What the stage-2 event is, for two-stage variants.
  public var stage2Event: String?
  /// What a release is, for variants that can release a press while the finger still touches
  /// (these report flaps).
  public var releaseEvent: String?
  /// The rules in a few sentences, including the quirks reproduced.
  public var rules: String
  /// The parameters, in order.
  public var parameters: [ParameterSpec]

  /// Creates a descriptor.
  public init(
    name: String, code: String, title: String, source: String, style: RecognizerStyle,
    actionEvent: String, stage2Event: String? = nil, releaseEvent: String? = nil, rules: String,
    parameters: [ParameterSpec]
  ) {
    self.name = name
    self.code = code
    self.title = title
    self.source = source
    self.style = style
    self.actionEvent = actionEvent
    self.stage2Event = stage2Event
    self.releaseEvent = releaseEvent
    self.rules = rules
    self.parameters = parameters
  }

  /// Whether the variant can release a press mid-contact (and so reports flaps).
  public var reportsFlaps: Bool { releaseEvent != nil }

  /// The declaration of `name`, or `nil`.
  public func parameter(_ name: String) -> ParameterSpec? {
    parameters.first { $0.name == name }
  }

  /// The default values of every parameter.
  public var defaults: ParameterValues {
    ParameterValues(parameters.map { ParameterValues.Entry(name: $0.name, value: $0.defaultValue) })
  }

  /// Every parameter at its default except those in `values`, each checked for name, kind and
  /// range.
  ///
  /// - Throws: ``ParameterError``.
  public func resolve(_ values: [String: ParameterValue]) throws(ParameterError) -> ParameterValues {
    var resolved = defaults
    for name in values.keys.sorted() {
      guard let spec = parameter(name), let value = values[name] else {
        throw ParameterError(variant: self.name, parameter: name, .unknownParameter(known: parameters.map(\.name)))
      }
      try spec.check(value, variant: self.name)
      resolved = resolved.setting(name, to: value)
    }
    return resolved
  }

  /// Every parameter at its default except those set in `settings` (values written as text;
  /// a later setting of the same name wins).
  ///
  /// - Throws: ``ParameterError``.
  public func resolve(text settings: [(name: String, value: String)]) throws(ParameterError)
    -> ParameterValues
  {
    var values: [String: ParameterValue] = [:]
    for (name, text) in settings {
      guard let spec = parameter(name) else {
        throw ParameterError(variant: self.name, parameter: name, .unknownParameter(known: parameters.map(\.name)))
      }
      values[name] = try spec.parse(text, variant: self.name)
    }
    return try resolve(values)
  }
}
