/// A selection of traces by a metadata value: `device=iphone6s`, `intent=press,pop`.
///
/// Analyses of raw force thresholds only make sense on one device at a time; a filter keeps the
/// traces a question is about while the others stay accounted for (as skipped, with the filter
/// as their reason).
public struct TraceFilter: Hashable, Sendable, CustomStringConvertible {
  /// The label compared: a field of the metadata (`id`, `touch`, `user`, `session`, `device`,
  /// `intent`) or the name of an extra label (`hand`), as ``TraceMetadata/label(_:)`` reads it.
  public struct Field: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The label name.
    public let rawValue: String

    /// A field for the label `rawValue`; `nil` unless it is one of ``builtIn`` or a valid extra
    /// label name (``TraceMetadata/isValidExtraLabelName(_:)``).
    public init?(rawValue: String) {
      guard Self.builtIn.contains(where: { $0.rawValue == rawValue }) || TraceMetadata.isValidExtraLabelName(rawValue)
      else { return nil }
      self.rawValue = rawValue
    }

    private init(known: String) { rawValue = known }

    /// The trace id; a value `id#n` (as reports name contacts) selects contact `n` only.
    public static let id = Field(known: "id")
    /// The contact number inside a recording.
    public static let touch = Field(known: "touch")
    /// The user.
    public static let user = Field(known: "user")
    /// The session.
    public static let session = Field(known: "session")
    /// The device.
    public static let device = Field(known: "device")
    /// The ground-truth intent.
    public static let intent = Field(known: "intent")
    /// The fields every trace format has, in the order help texts list them.
    public static let builtIn: [Field] = [.id, .touch, .user, .session, .device, .intent]

    /// The label name.
    public var description: String { rawValue }
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

  /// Reads `FIELD=VALUE[,VALUE…]`; `nil` for an invalid field name, a missing `=` or no value.
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
  /// value never matches). For ``Field/id`` a value also matches a contact as reports name it
  /// (`rec#2`, see ``TraceMetadata/name``) or as `id#touch` (`rec#0`).
  public func matches(_ trace: Trace) -> Bool {
    let metadata = trace.metadata
    if field == .id {
      return values.contains { $0 == metadata.id || $0 == metadata.name || $0 == "\(metadata.id)#\(metadata.touch)" }
    }
    return metadata.label(field.rawValue).map(values.contains) ?? false
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

  /// The filter that leaves no trace, applying `filters` in order to ``traces``, with the values
  /// its field has on the traces still selected before it (sorted; at most `limit`) and how many
  /// of those traces have no value; `nil` when the filters keep at least one trace or there is no
  /// trace to select from.
  public func emptyingFilter(_ filters: [TraceFilter], limit: Int = 10)
    -> (filter: TraceFilter, values: [String], moreValues: Int, unlabelled: Int)?
  {
    var remaining = traces
    for filter in filters {
      guard !remaining.isEmpty else { return nil }
      let kept = remaining.filter(filter.matches)
      if kept.isEmpty {
        let present = remaining.map {
          filter.field == .id ? $0.metadata.name : $0.metadata.label(filter.field.rawValue)
        }
        let values = Set(present.compactMap { $0 }).sorted()
        return (filter, Array(values.prefix(limit)), max(0, values.count - limit), present.filter { $0 == nil }.count)
      }
      remaining = kept
    }
    return nil
  }
}
