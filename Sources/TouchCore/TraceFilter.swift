/// A selection of traces by a metadata value: `device=iphone6s`, `intent=press,pop`.
///
/// Analyses of raw force thresholds only make sense on one device at a time; a filter keeps the
/// traces a question is about while the others stay accounted for (as skipped, with the filter
/// as their reason).
public struct TraceFilter: Hashable, Sendable, CustomStringConvertible {
  /// The metadata field compared.
  public enum Field: String, Hashable, Sendable, CaseIterable {
    case id, user, session, device, intent
  }

  /// The field compared.
  public var field: Field
  /// The accepted values (a trace matches when its value is any of them).
  public var values: [String]

  /// Creates a filter.
  /// - Precondition: `values` is not empty.
  public init(field: Field, values: [String]) {
    precondition(!values.isEmpty, "a filter needs at least one value")
    self.field = field
    self.values = values
  }

  /// Reads `FIELD=VALUE[,VALUE…]`; `nil` for an unknown field, a missing `=` or no value.
  public init?(parsing text: String) {
    guard let equals = text.firstIndex(of: "="), let field = Field(rawValue: String(text[..<equals])) else {
      return nil
    }
    let values = text[text.index(after: equals)...].split(separator: ",").map(String.init)
    guard !values.isEmpty else { return nil }
    self.init(field: field, values: values)
  }

  /// `device=iphone6s`.
  public var description: String { "\(field.rawValue)=\(values.joined(separator: ","))" }

  /// Whether `trace` matches: its value for ``field`` is one of ``values`` (a trace without a
  /// value never matches).
  public func matches(_ trace: Trace) -> Bool {
    let value: String? =
      switch field {
      case .id: trace.metadata.id
      case .user: trace.metadata.user
      case .session: trace.metadata.session
      case .device: trace.metadata.device
      case .intent: trace.metadata.intent?.rawValue
      }
    return value.map(values.contains) ?? false
  }
}

extension Dataset {
  /// Keeps the traces that match every filter; the others move to ``skipped`` with the reason
  /// `not selected (device=iphone6s)`. Returns how many were left out.
  @discardableResult
  public mutating func keep(matching filters: [TraceFilter]) -> Int {
    guard !filters.isEmpty else { return 0 }
    let before = traces.count
    skipTraces { trace in
      filters.first { !$0.matches(trace) }.map { "not selected (\($0))" }
    }
    return before - traces.count
  }
}
