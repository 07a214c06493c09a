public import TouchCore

/// What an input's filters (`--only`) did over the whole input.
public struct FilterSelection: Sendable {
  /// The filters, in order.
  public var filters: [TraceFilter]
  /// Traces kept by every filter.
  public var kept: Int
  /// Traces left out.
  public var leftOut: Int
  /// When no trace passed: the filter that emptied the selection and the values its field has
  /// (`Dataset.emptyingFilter(_:limit:)`); `nil` when some did.
  public var empty: (filter: TraceFilter, values: [String], moreValues: Int, unlabelled: Int)?
}
