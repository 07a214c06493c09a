/// Why a trace, or one of its samples, is invalid. File readers attach the position.
public enum TraceProblem: Hashable, Sendable, CustomStringConvertible {
  /// A field that must have a value is empty.
  case emptyField(String)
  /// A numeric field holds text that is not a number.
  case notANumber(field: String, text: String)
  /// A numeric field holds NaN.
  case notANumberValue(field: String, text: String)
  /// A numeric field holds an infinity (or a number too large for a Double).
  case infinite(field: String, text: String)
  /// A sample's force is below zero.
  case negativeForce(Double)
  /// A sample's force exceeds the trace's maximum possible force by more than 1e-9 relative.
  case forceAboveMaximum(force: Double, maximum: Double)
  /// The maximum possible force is zero or negative.
  case invalidMaximumForce(Double)
  /// Sample time goes backwards (equal times are allowed).
  case timeDecreasing(previous: Double, current: Double)
  /// A sample time beyond ±``SampleValidator/maximumTimeMagnitude`` seconds, where times lose
  /// the 1 µs resolution the analysis needs.
  case timeOutOfRange(Double)
  /// A sample more than ``SampleValidator/maximumTimeSpan`` seconds after the first sample of
  /// its trace (`first` and `current` in seconds).
  case timeSpanTooLong(first: Double, current: Double)
  /// A `began` sample that is not the first sample of its trace.
  case beganNotFirst(sample: Int)
  /// The first sample of a trace is not `began`.
  case firstNotBegan(TouchPhase)
  /// A sample follows the `ended` or `cancelled` sample that closed the trace.
  case sampleAfterEnd(closedBy: TouchPhase)
  /// A trace-level value (intent, user, …) differs between samples of one trace.
  case metadataDiffers(field: String, first: String, now: String)
  /// An intent word that is not one of ``Intent``'s.
  case unknownIntent(String)
  /// A phase word that is not one of ``TouchPhase``'s.
  case unknownPhase(String)
  /// A contact number that is not a non-negative integer.
  case invalidTouch(String)
  /// A boolean field that is not `true`, `false`, `1` or `0`.
  case invalidBoolean(field: String, text: String)
  /// A negative touch radius.
  case negativeRadius(Double)
  /// An optional per-sample column (x, y, radius) with values on some samples of a trace but
  /// not on others.
  case partialColumn(String)
  /// `press_at` times that are not strictly increasing.
  case pressAtNotIncreasing
  /// A `press_at` time outside the trace's time span.
  case pressAtOutsideTrace(time: Double, start: Double, end: Double)
  /// The trace has no samples.
  case emptyTrace

  /// The column (file field) the problem is about, when there is one: `t`, `force`, `phase`,
  /// `press_at`, … Readers use it to point at the right field.
  public var field: String? {
    switch self {
    case .emptyField(let field), .notANumber(let field, _), .notANumberValue(let field, _),
      .infinite(let field, _), .metadataDiffers(let field, _, _), .invalidBoolean(let field, _),
      .partialColumn(let field):
      field
    case .negativeForce, .forceAboveMaximum: "force"
    case .invalidMaximumForce: "max_force"
    case .timeDecreasing, .timeOutOfRange, .timeSpanTooLong: "t"
    case .beganNotFirst, .firstNotBegan, .sampleAfterEnd, .unknownPhase: "phase"
    case .unknownIntent: "intent"
    case .invalidTouch: "touch"
    case .negativeRadius: "radius"
    case .pressAtNotIncreasing, .pressAtOutsideTrace: "press_at"
    case .emptyTrace: nil
    }
  }

  /// The message, as printed after `path:line:col: error: `.
  public var description: String {
    switch self {
    case .emptyField(let field): "missing value for \(Diagnostic.quoted(field))"
    case .notANumber(let field, let text): "\(Diagnostic.quoted(field)) is not a number: \(Diagnostic.quoted(text))"
    case .notANumberValue(let field, let text): "\(Diagnostic.quoted(field)) is NaN: \(Diagnostic.quoted(text))"
    case .infinite(let field, let text): "\(Diagnostic.quoted(field)) is infinite: \(Diagnostic.quoted(text))"
    case .negativeForce(let force): "negative force \(force)"
    case .forceAboveMaximum(let force, let maximum):
      "force \(force) is above max_force \(maximum)"
    case .invalidMaximumForce(let value): "max_force must be positive, got \(value)"
    case .timeDecreasing(let previous, let current):
      "t decreases from \(previous) s to \(current) s"
    case .timeOutOfRange(let t):
      "t \(t) s is beyond ±\(Self.whole(SampleValidator.maximumTimeMagnitude)) s, where times lose 1 µs resolution; rebase times (subtract the first time) or convert them to seconds"
    case .timeSpanTooLong(let first, let current):
      "t \(current) s is \(current - first) s after the trace's first sample (at most \(Self.whole(SampleValidator.maximumTimeSpan)) s); are the times in seconds? Convert or rebase them"
    case .beganNotFirst(let sample):
      "phase 'began' at sample \(sample + 1); only the first sample of a trace may be 'began'"
    case .firstNotBegan(let phase):
      "first sample has phase '\(phase)'; a trace starts with 'began'"
    case .sampleAfterEnd(let phase): "sample after the '\(phase)' sample that closed the trace"
    case .metadataDiffers(let field, let first, let now):
      "\(Diagnostic.quoted(field)) differs inside one trace: \(Diagnostic.quoted(first)) earlier, \(Diagnostic.quoted(now)) here"
    case .unknownIntent(let text):
      "unknown intent \(Diagnostic.quoted(text)) (expected one of \(Intent.allCases.map(\.rawValue).joined(separator: ", ")))"
    case .unknownPhase(let text):
      "unknown phase \(Diagnostic.quoted(text)) (expected one of \(TouchPhase.allCases.map(\.name).joined(separator: ", ")))"
    case .invalidTouch(let text): "'touch' must be a non-negative integer, got \(Diagnostic.quoted(text))"
    case .invalidBoolean(let field, let text):
      "\(Diagnostic.quoted(field)) must be true, false, 1 or 0, got \(Diagnostic.quoted(text))"
    case .negativeRadius(let radius): "negative radius \(radius)"
    case .partialColumn(let field):
      "\(Diagnostic.quoted(field)) has values on some samples of the trace but not on others"
    case .pressAtNotIncreasing: "press_at times must be strictly increasing"
    case .pressAtOutsideTrace(let time, let start, let end):
      "press_at \(time) s lies outside the trace (\(start) s to \(end) s)"
    case .emptyTrace: "trace has no samples"
    }
  }

  /// A limit written without a fractional part when it has none (`4294967296`, not `4.294967296e9`).
  static func whole(_ value: Double) -> String {
    Int(exactly: value).map(String.init) ?? "\(value)"
  }
}
