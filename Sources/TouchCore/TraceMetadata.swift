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

  /// Creates trace metadata; only `id` is required.
  public init(
    id: String, touch: Int = 0, intent: Intent? = nil, pressAt: [Double] = [],
    user: String? = nil, session: String? = nil, device: String? = nil,
    maxForce: Double? = nil, timeSynthesized: Bool = false
  ) {
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
}
