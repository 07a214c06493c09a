public import TouchCore

/// Labels read from file paths (`--label-from-path '{device}/{user}/{intent}-*.csv'`).
///
/// A pattern is a `/`-separated list of components matched against the same number of trailing
/// components of a file's path (so `{user}/*.csv` looks at the file name and its directory only).
/// In a component, `*` matches any text and `{name}` matches a non-empty text that becomes the
/// value of the label `name`: `intent`, `user`, `session`, `device`, or an extra label (`hand`,
/// `gesture`). Both match as little as possible, leftmost first, so in `{device}.{gesture}.events`
/// the device ends at the first `.` that lets the rest match. A name used twice must match the
/// same text both times. Everything else matches itself (case-sensitively).
///
/// The values merge into the traces of the file as a labels file's do: they fill blanks; a
/// value different from the data's is an error unless overriding (``LoadOptions/labelsOverride``).
public struct PathLabels: Hashable, Sendable, CustomStringConvertible {
  /// A piece of a pattern component.
  enum Piece: Hashable, Sendable {
    case literal([Character])
    case wildcard
    case label(String)
  }

  /// The pattern as given.
  public let pattern: String
  /// The pieces of each component.
  let components: [[Piece]]

  /// The label names the pattern fills, in order of first appearance.
  public var names: [String] {
    var names: [String] = []
    for case .label(let name) in components.joined() where !names.contains(name) { names.append(name) }
    return names
  }

  /// Reads a pattern.
  /// - Throws: a ``PathLabelsError`` naming the problem.
  public init(_ pattern: String) throws(PathLabelsError) {
    self.pattern = pattern
    var components: [[Piece]] = []
    for text in pattern.split(separator: "/", omittingEmptySubsequences: false) {
      guard !text.isEmpty else { throw .emptyComponent }
      var pieces: [Piece] = []
      var literal: [Character] = []
      var rest = Substring(text)
      func flush() {
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        literal = []
      }
      while let c = rest.first {
        rest = rest.dropFirst()
        switch c {
        case "*":
          flush()
          if pieces.last != .wildcard { pieces.append(.wildcard) }
        case "{":
          guard let close = rest.firstIndex(of: "}") else { throw .unclosedPlaceholder }
          let name = String(rest[..<close])
          rest = rest[rest.index(after: close)...]
          guard ["intent", "user", "session", "device"].contains(name) || TraceMetadata.isValidExtraLabelName(name)
          else {
            throw .badName(name)
          }
          if case .label = pieces.last, literal.isEmpty { throw .adjacentPlaceholders }
          flush()
          pieces.append(.label(name))
        case "}": throw .strayBrace
        default: literal.append(c)
        }
      }
      flush()
      components.append(pieces)
    }
    guard components.joined().contains(where: { if case .label = $0 { true } else { false } }) else {
      throw .noPlaceholder
    }
    self.components = components
  }

  /// The pattern as given.
  public var description: String { pattern }

  /// The labels `path` gives (name → value); `nil` when the path does not match.
  public func match(_ path: String) -> [String: String]? {
    let parts = path.split(separator: "/", omittingEmptySubsequences: true)
    guard parts.count >= components.count else { return nil }
    var values: [String: String] = [:]
    for (pieces, part) in zip(components, parts.suffix(components.count)) {
      guard Self.match(pieces[...], Array(part)[...], &values) else { return nil }
    }
    return values
  }

  /// Matches `pieces` against all of `text`, binding labels in `values` (restored on failure).
  private static func match(
    _ pieces: ArraySlice<Piece>, _ text: ArraySlice<Character>, _ values: inout [String: String]
  )
    -> Bool
  {
    guard let piece = pieces.first else { return text.isEmpty }
    let rest = pieces.dropFirst()
    switch piece {
    case .literal(let literal):
      guard text.starts(with: literal) else { return false }
      return match(rest, text.dropFirst(literal.count), &values)
    case .wildcard:
      for n in 0...text.count where match(rest, text.dropFirst(n), &values) { return true }
      return false
    case .label(let name):
      if let bound = values[name] {
        let chars = Array(bound)
        return text.starts(with: chars) && match(rest, text.dropFirst(chars.count), &values)
      }
      guard !text.isEmpty else { return false }
      for n in 1...text.count {
        values[name] = String(text.prefix(n))
        if match(rest, text.dropFirst(n), &values) { return true }
      }
      values[name] = nil
      return false
    }
  }

  /// Applies the labels of each file's path to its traces (see the type's description) and adds
  /// one warning listing the files the pattern does not match (a count and the first five).
  ///
  /// - Throws: `TraceLoadError` for a value that conflicts with the data without `override`, or an
  ///   `{intent}` that is not an intent name; with `skipInvalid` the trace is skipped instead.
  public func apply(to dataset: inout Dataset, override: Bool, skipInvalid: Bool) throws(TraceLoadError) {
    try Self.apply([self], to: &dataset, override: override, skipInvalid: skipInvalid)
  }

  /// Applies several patterns (`--label-from-path` given more than once): each file takes the
  /// labels of the first pattern that matches its path; one warning lists the files none matches.
  ///
  /// - Parameters:
  ///   - patterns: the patterns, in the order given.
  ///   - dataset: the traces to label.
  ///   - override: whether path labels replace different values in the data (each counted).
  ///   - skipInvalid: whether a conflict skips the trace instead of throwing.
  /// - Throws: as ``apply(to:override:skipInvalid:)``.
  public static func apply(_ patterns: [PathLabels], to dataset: inout Dataset, override: Bool, skipInvalid: Bool)
    throws(TraceLoadError)
  {
    guard !patterns.isEmpty else { return }
    let plan = Plan(patterns, files: dataset.files)
    if let warning = plan.warning { dataset.diagnostics.append(warning) }
    try plan.apply(to: &dataset, override: override, skipInvalid: skipInvalid)
  }

  /// ``apply(_:to:override:skipInvalid:)`` for part of the files (a command converting one
  /// file at a time): the files no pattern matches are added to `unmatched` instead of a
  /// warning, which ``unmatchedWarning(_:files:)`` makes once every file is done.
  ///
  /// - Parameters:
  ///   - patterns: the patterns, in the order given.
  ///   - dataset: the traces to label.
  ///   - override: whether path labels replace different values in the data (each counted).
  ///   - skipInvalid: whether a conflict skips the trace instead of throwing.
  ///   - unmatched: the files no pattern matched so far; this dataset's are appended.
  /// - Throws: as ``apply(to:override:skipInvalid:)``.
  public static func apply(
    _ patterns: [PathLabels], to dataset: inout Dataset, override: Bool, skipInvalid: Bool, unmatched: inout [String]
  ) throws(TraceLoadError) {
    guard !patterns.isEmpty else { return }
    let plan = Plan(patterns, files: dataset.files)
    unmatched += plan.unmatched
    try plan.apply(to: &dataset, override: override, skipInvalid: skipInvalid)
  }

  /// The warning listing the files none of `patterns` matches (a count and the first five);
  /// `nil` when there are none.
  ///
  /// - Parameters:
  ///   - patterns: the patterns, in the order given.
  ///   - files: the files no pattern matched.
  public static func unmatchedWarning(_ patterns: [PathLabels], files: [String]) -> Diagnostic? {
    guard !files.isEmpty else { return nil }
    let shown = files.prefix(5).map { "'\(Diagnostic.escaped($0))'" }.joined(separator: ", ")
    return Diagnostic(
      .warning,
      "--label-from-path \(patterns.map { "'\($0.pattern)'" }.joined(separator: " or ")) matched no path of \(files.count) file\(files.count == 1 ? "" : "s"): \(shown)\(files.count > 5 ? ", …" : "")",
      file: nil)
  }

  /// The labels of each file's path, decided once for a list of files, then applied part by
  /// part (the batches of a stream).
  struct Plan {
    let patterns: [PathLabels]
    /// The labels of each file (`nil` inside: no pattern matches).
    private var byFile: [String: LabelValues?] = [:]
    /// The files no pattern matches, in order.
    private(set) var unmatched: [String] = []
    /// The `{intent}` text of files whose intent is not an intent name.
    private var badIntent: [String: String] = [:]

    init(_ patterns: [PathLabels], files: [String]) {
      self.patterns = patterns
      for file in files where byFile[file] == nil {
        guard let found = patterns.lazy.compactMap({ $0.match(file) }).first else {
          byFile[file] = .some(nil)
          unmatched.append(file)
          continue
        }
        var values = LabelValues()
        for (name, text) in found.sorted(by: { $0.key < $1.key }) where !values.set(name, text) {
          badIntent[file] = text
        }
        byFile[file] = values
      }
    }

    /// The warning listing the files no pattern matches (a count and the first five).
    var warning: Diagnostic? { PathLabels.unmatchedWarning(patterns, files: unmatched) }

    /// Applies the path labels to the traces of `dataset` (whose files the plan was made for).
    func apply(to dataset: inout Dataset, override: Bool, skipInvalid: Bool) throws(TraceLoadError) {
      var failed: [Int: String] = [:]
      var overridden = 0
      for k in dataset.traces.indices {
        let file = dataset.origins[k].file
        guard let entry = byFile[file], let values = entry else { continue }
        let name = dataset.traces[k].name
        func report(_ error: TraceLoadError) throws(TraceLoadError) {
          guard skipInvalid else { throw error }
          if failed[k] == nil { failed[k] = error.message }
        }
        if let text = badIntent[file] {
          try report(TraceLoadError(.trace(.unknownIntent(text)), file: file, field: "intent", trace: name))
          continue
        }
        var metadata = dataset.traces[k].metadata
        let replaced = try values.merge(into: &metadata, override: override) {
          field, data, label throws(TraceLoadError) in
          try report(
            TraceLoadError(
              .invalidRecording(
                "\(Diagnostic.quoted(field)) is \(Diagnostic.quoted(data)) in the data but \(Diagnostic.quoted(label)) in the path (--labels-override replaces the data's value)"
              ), file: file, trace: name))
        }
        guard failed[k] == nil else { continue }
        if replaced > 0 {
          dataset.labelOverrides += replaced
          overridden += 1
        }
        dataset.traces[k].metadata = metadata
      }
      dataset.overriddenTraces += overridden
      dataset.skipTraces(at: failed)
    }
  }
}

/// A `--label-from-path` pattern that cannot be read.
public enum PathLabelsError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A `{` without its `}`.
  case unclosedPlaceholder
  /// A `}` without its `{`.
  case strayBrace
  /// A placeholder name that cannot be a label.
  case badName(String)
  /// Two placeholders with nothing between them (where one ends would be a guess).
  case adjacentPlaceholders
  /// An empty component (`//`, or a leading or trailing `/`).
  case emptyComponent
  /// No `{name}` at all.
  case noPlaceholder

  /// What is wrong, in one line.
  public var description: String {
    switch self {
    case .unclosedPlaceholder: "a '{' has no closing '}'"
    case .strayBrace: "a '}' has no opening '{'"
    case .badName(let name):
      "'{\(name)}' cannot be filled from a path: use intent, user, session, device or an extra label name (lowercase letters, digits, '_', '-', '.'; not a trace-file column such as id, touch, t or x)"
    case .adjacentPlaceholders: "two placeholders need text between them"
    case .emptyComponent: "empty path component (a leading, trailing or doubled '/')"
    case .noPlaceholder: "the pattern has no {name} placeholder"
    }
  }
}
