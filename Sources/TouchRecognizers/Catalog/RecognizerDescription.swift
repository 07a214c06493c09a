/// Where a recognizer comes from: the library (or platform), its version and a link, and the
/// exact reference the replay reproduces (files and commit, or the platform document).
public struct RecognizerSource: Sendable, Hashable {
  /// The library or platform (`shunkit/ForceTouchGesture`, `Apple UIKit`, `AOSP`).
  public var library: String
  /// The version reproduced: a commit, a tag or a platform release; `nil` when the source has none.
  public var version: String?
  /// Where to read the original; `nil` when there is no public page.
  public var link: String?
  /// The full reference as reports print it: repository, files and commit, or the document.
  public var reference: String

  /// Creates a source.
  public init(library: String, version: String?, link: String?, reference: String) {
    self.library = library
    self.version = version
    self.link = link
    self.reference = reference
  }

  /// A GitHub repository `owner/name` at `version`, reproducing `files`: the reference reads
  /// `owner/name files @ version`, the link is the repository's page.
  public static func github(_ repository: String, files: String, version: String) -> RecognizerSource {
    RecognizerSource(
      library: repository, version: version, link: "https://github.com/\(repository)",
      reference: "\(repository) \(files) @ \(version)")
  }
}

/// One stage of what a recognizer reports: the moment an app acts (stage 1), a second stage
/// (pop), or a release while the finger still touches.
public struct RecognizerStage: Sendable, Hashable {
  /// Which event.
  public enum Kind: String, Sendable, Hashable {
    /// The action event (stage 1).
    case action
    /// The stage-2 event of two-stage recognizers.
    case stage2 = "stage2"
    /// A release of the press mid-contact (such recognizers report flaps).
    case release
  }
  /// Which event.
  public var kind: Kind
  /// What it is, in words.
  public var meaning: String
}

/// Everything the tool needs to know of a recognizer, written once in the recognizer's own file:
/// its name, a one-line summary, where it comes from, its stages, its parameters (each typed,
/// with unit, default, range and default sweep grid) and how a sweep treats it.
///
/// The catalog (``RecognizerCatalog``) lists recognizers by their description; `touchtrace
/// recognizers` prints it, `run`/`sweep`/`tune`/`compare` build recognizers from it.
public struct RecognizerDescription: Sendable, Hashable {
  /// The name used on the command line (`shunkit`, `deep-press`, …).
  public var name: String
  /// The variant number in the reference table (`V1` …), or `ours` / empty.
  public var code: String
  /// A short title.
  public var title: String
  /// One line saying what the recognizer does.
  public var summary: String
  /// Where the original lives.
  public var sourceInfo: RecognizerSource
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
  /// The parameter a sweep varies when the user names none (`touchtrace sweep` without
  /// `--vary`); `nil` when the recognizer has no default sweep.
  public var sweptByDefault: String?
  /// Whether the recognizer can wait for another to fail (the dependent side of a
  /// require-to-fail composition `A+B`: a tap or a long press).
  public var canWaitForFailure: Bool
  /// Whether any parameter name is accepted (as a number, sent to the recognizer as given):
  /// recognizers that live outside the tool (`exec:`), whose parameters it cannot know.
  /// Undeclared parameters have no default and are absent unless set.
  public var acceptsAnyParameter = false

  /// Creates a description.
  public init(
    name: String, code: String, title: String, summary: String, source: RecognizerSource,
    style: RecognizerStyle, actionEvent: String, stage2Event: String? = nil, releaseEvent: String? = nil,
    rules: String, parameters: [ParameterSpec], sweptByDefault: String? = nil, canWaitForFailure: Bool = false
  ) {
    self.name = name
    self.code = code
    self.title = title
    self.summary = summary
    self.sourceInfo = source
    self.style = style
    self.actionEvent = actionEvent
    self.stage2Event = stage2Event
    self.releaseEvent = releaseEvent
    self.rules = rules
    self.parameters = parameters
    self.sweptByDefault = sweptByDefault
    self.canWaitForFailure = canWaitForFailure
  }

  /// The full source reference (repository, files and commit, or the platform document).
  public var source: String { sourceInfo.reference }

  /// The stages, in order: the action, then stage 2 and release where the recognizer has them.
  public var stages: [RecognizerStage] {
    [RecognizerStage(kind: .action, meaning: actionEvent)]
      + (stage2Event.map { [RecognizerStage(kind: .stage2, meaning: $0)] } ?? [])
      + (releaseEvent.map { [RecognizerStage(kind: .release, meaning: $0)] } ?? [])
  }

  /// Whether the variant can release a press mid-contact (and so reports flaps).
  public var reportsFlaps: Bool { releaseEvent != nil }

  /// The declaration of `name`, or `nil`. With ``acceptsAnyParameter``, an undeclared name is a
  /// number parameter without unit, range or default.
  public func parameter(_ name: String) -> ParameterSpec? {
    if let declared = parameters.first(where: { $0.name == name }) { return declared }
    guard acceptsAnyParameter, !name.isEmpty else { return nil }
    return .number(
      name, .none, default: .nan, nan: "not set", grid: ParameterGrid.none,
      "a parameter of the recognizer, sent as given")
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

  /// Every parameter at its default except those in `settings` (a later setting of the same name
  /// wins), each checked.
  ///
  /// - Throws: ``ParameterError``.
  public func resolve(settings: [ParameterSetting]) throws(ParameterError) -> ParameterValues {
    var values: [String: ParameterValue] = [:]
    for setting in settings { values[setting.name] = setting.value }
    return try resolve(values)
  }

  /// Every parameter at its default except those set in `settings` (values written as text;
  /// a later setting of the same name wins).
  ///
  /// - Throws: ``ParameterError``.
  public func resolve(text settings: [(name: String, value: String)]) throws(ParameterError)
    -> ParameterValues
  {
    try resolve(parse(text: settings))
  }

  /// Reads settings written as text (`name`, `value`), each by its parameter's own rules.
  ///
  /// - Throws: ``ParameterError`` for an unknown name or a value of the wrong kind.
  public func parse(text settings: [(name: String, value: String)]) throws(ParameterError) -> [String: ParameterValue] {
    var values: [String: ParameterValue] = [:]
    for (name, text) in settings {
      guard let spec = parameter(name) else {
        throw ParameterError(variant: self.name, parameter: name, .unknownParameter(known: parameters.map(\.name)))
      }
      values[name] = try spec.parse(text, variant: self.name)
    }
    return values
  }
}
