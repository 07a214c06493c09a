import TouchCore

/// Label values from outside the data (a labels-file row or a file path) and how they merge into
/// a trace's metadata: they fill blanks; a different value already in the data is a conflict, or
/// is replaced (and counted) when overriding.
struct LabelValues: Hashable, Sendable {
  var intent: Intent?
  var pressAt: [Double]?
  var user: String?
  var session: String?
  var device: String?
  /// Extra labels by name.
  var extra: [String: String] = [:]

  /// Sets the label `name` (a field name or an extra label) from text; `false` for a bad intent
  /// or an unknown field name.
  mutating func set(_ name: String, _ text: String) -> Bool {
    switch name {
    case "intent":
      guard let intent = Intent(name: text) else { return false }
      self.intent = intent
    case "user": user = text
    case "session": session = text
    case "device": device = text
    default:
      guard TraceMetadata.isValidExtraLabelName(name) else { return false }
      extra[name] = text
    }
    return true
  }

  /// Merges the values into `metadata`. A value equal to the data's, or filling a blank, is
  /// taken; a different one calls `conflict(field, data, label)` unless `override` is set, in
  /// which case it replaces the data's value. Returns how many values were replaced.
  func merge(
    into metadata: inout TraceMetadata, override: Bool,
    conflict: (_ field: String, _ data: String, _ label: String) throws(TraceLoadError) -> Void
  ) throws(TraceLoadError) -> Int {
    var replaced = 0
    func one<T: Equatable>(_ field: String, _ current: inout T?, _ label: T?, _ show: (T) -> String)
      throws(TraceLoadError)
    {
      guard let label else { return }
      if let value = current, value != label {
        guard override else { return try conflict(field, show(value), show(label)) }
        replaced += 1
      }
      current = label
    }
    try one("intent", &metadata.intent, intent) { $0.rawValue }
    try one("user", &metadata.user, user) { $0 }
    try one("session", &metadata.session, session) { $0 }
    try one("device", &metadata.device, device) { $0 }
    var times: [Double]? = metadata.pressAt.isEmpty ? nil : metadata.pressAt
    try one(TraceSchema.Field.pressAt.csvName, &times, pressAt) { $0.map { "\($0)" }.joined(separator: ";") }
    metadata.pressAt = times ?? []
    for name in extra.keys.sorted() {
      var current = metadata.labels[name]
      try one(name, &current, extra[name]) { $0 }
      metadata.labels[name] = current
    }
    return replaced
  }
}
