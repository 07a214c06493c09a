/// Trace-level facts: identity, ground truth and provenance.
///
/// The identity of a trace is the pair (``id``, ``touch``): a recording with several
/// simultaneous contacts has one trace per contact, all with the recording's `id`.
public struct TraceMetadata: Hashable, Sendable {
  /// The trace (or recording) identifier from the input file.
  public var id: String
  /// The contact number inside the recording ``id``; 0 for single-contact traces.
  public var touch: Int
  /// The ground-truth intent, when the trace is labelled.
  public var intent: Intent?
  /// Reference times, in seconds on the same clock as the samples' `t`, at which the intended
  /// press(es) should be recognized; ascending. Empty when the label carries no times.
  public var pressAt: [Double]
  /// Who made the trace (for grouped cross-validation). Empty text is no value (`nil`): every trace format reads it back the same way.
  public var user: String? { didSet { if user?.isEmpty == true { user = nil } } }
  /// The recording session. Empty text is no value (`nil`): every trace format reads it back the same way.
  public var session: String? { didSet { if session?.isEmpty == true { session = nil } } }
  /// The device (model or profile name). Empty text is no value (`nil`): every trace format reads it back the same way.
  public var device: String? { didSet { if device?.isEmpty == true { device = nil } } }
  /// The device's maximum possible force, in the same units as the samples' force
  /// (`UITouch.maximumPossibleForce`: 20/3 on iPhone 6s). `nil` when unknown.
  public var maxForce: Double?
  /// Whether the sample times were synthesized (for example from a nominal rate because the
  /// source had no timestamps) rather than recorded.
  public var timeSynthesized: Bool
  /// Extra labels by column name (`hand` → `left`): values a labels file, `--label-from-path`
  /// or an extra trace-file column gives beyond the fields above. Names are never one of
  /// ``reservedLabelNames``; values are never empty.
  public var labels: [String: String]

  /// Creates trace metadata; only `id` is required.
  public init(
    id: String, touch: Int = 0, intent: Intent? = nil, pressAt: [Double] = [],
    user: String? = nil, session: String? = nil, device: String? = nil,
    maxForce: Double? = nil, timeSynthesized: Bool = false, labels: [String: String] = [:]
  ) {
    self.labels = labels.filter { !$0.value.isEmpty }
    self.id = id
    self.touch = touch
    self.intent = intent
    self.pressAt = pressAt
    self.user = user?.isEmpty == true ? nil : user
    self.session = session?.isEmpty == true ? nil : session
    self.device = device?.isEmpty == true ? nil : device
    self.maxForce = maxForce
    self.timeSynthesized = timeSynthesized
  }

  /// The name reports use for the trace: ``id`` for contact 0, `id#touch` otherwise.
  public var name: String { touch == 0 ? id : "\(id)#\(touch)" }

  /// The label names with a field of their own: `id`, `touch`, `intent`, `user`, `session`,
  /// `device`. ``label(_:)`` reads them from the fields; any other name is an extra label.
  public static let fieldLabelNames = ["id", "touch", "intent", "user", "session", "device"]

  /// Names that cannot be extra labels: the trace file columns (`t`, `force`, `phase`, `x`, `y`,
  /// `radius`, `press_at`, `max_force`, `time_synthesized`, `trace`) and ``fieldLabelNames``.
  public static let reservedLabelNames: Set<String> = Set(
    fieldLabelNames + ["trace", "t", "force", "phase", "x", "y", "radius", "press_at", "max_force", "time_synthesized"])

  /// Whether `name` can name an extra label: not reserved, not empty, and made of lowercase
  /// letters, digits, `_`, `-` and `.` only (so it fits a case-insensitive CSV header, a JSON key
  /// and `--only NAME=VALUE`).
  public static func isValidExtraLabelName(_ name: String) -> Bool {
    !name.isEmpty && !reservedLabelNames.contains(name)
      && name.unicodeScalars.allSatisfy {
        ($0.properties.isAlphabetic && !$0.properties.isUppercase) || ("0"..."9").contains($0)
          || "_-.".unicodeScalars.contains($0)
      }
  }

  /// The prefix of the trace-file CSV column that holds the extra label `name`: `label:hand`.
  public static let csvLabelPrefix = "label:"

  /// The value of the label `name`: ``id``, ``touch`` (as decimal text), ``intent``, ``user``,
  /// ``session``, ``device``, or the extra label of that name; `nil` when the trace has none.
  public func label(_ name: String) -> String? {
    let value: String? =
      switch name {
      case "id": id
      case "touch": String(touch)
      case "intent": intent?.rawValue
      case "user": user
      case "session": session
      case "device": device
      default: labels[name]
      }
    guard let value, !value.isEmpty else { return nil }
    return value
  }
}
