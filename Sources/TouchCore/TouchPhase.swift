/// The phase of one touch sample, as UIKit reports it in `UITouch.phase`.
///
/// A trace runs from one ``began`` sample to one ``ended`` or ``cancelled`` sample. Samples in
/// between are ``moved`` (position or force changed) or ``stationary`` (nothing changed).
public enum TouchPhase: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible, BitwiseCopyable {
  /// Touch-down: the first sample of a trace.
  case began
  /// The position or the force changed since the previous sample.
  case moved
  /// Neither position nor force changed since the previous sample.
  case stationary
  /// Lift-off: the last sample of a trace.
  case ended
  /// The system cancelled the touch: the last sample of a trace.
  case cancelled

  /// The word used for this phase in trace files: `began`, `moved`, `stationary`, `ended`, `cancelled`.
  public var name: String {
    switch self {
    case .began: "began"
    case .moved: "moved"
    case .stationary: "stationary"
    case .ended: "ended"
    case .cancelled: "cancelled"
    }
  }

  public var description: String { name }

  /// Whether this phase closes a trace (``ended`` or ``cancelled``).
  @inlinable public var isTerminal: Bool { self == .ended || self == .cancelled }

  /// Reads a phase word as written in trace files; `nil` for anything else.
  public init?(name: some StringProtocol) {
    switch name {
    case "began": self = .began
    case "moved": self = .moved
    case "stationary": self = .stationary
    case "ended": self = .ended
    case "cancelled": self = .cancelled
    default: return nil
    }
  }

  /// The phases a trace of `count` samples gets when its file has no phase column:
  /// the first sample `began`, the last `ended`, the rest `moved`. A single sample is `began`.
  public static func defaultSequence(count: Int) -> [TouchPhase] {
    precondition(count >= 0, "count must not be negative")
    var phases = [TouchPhase](repeating: .moved, count: count)
    if count > 0 { phases[0] = .began }
    if count > 1 { phases[count - 1] = .ended }
    return phases
  }
}
