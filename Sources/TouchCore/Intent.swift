/// What the person meant with a touch: the ground-truth label of a trace.
public enum Intent: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// A short touch without deliberate force (hard taps are taps too).
  case tap
  /// A deliberate force press (one stage: "peek").
  case press
  /// A two-stage force press: peek, then harder to "pop".
  case pop
  /// A long press without deliberate force.
  case hold
  /// A moving touch (scroll, drag) with only incidental force.
  case drag
  /// No gesture meant (palm, accidental contact).
  case none

  public var description: String { rawValue }

  /// Reads an intent word as written in trace files; `nil` for anything else.
  public init?(name: some StringProtocol) {
    switch name {
    case "tap": self = .tap
    case "press": self = .press
    case "pop": self = .pop
    case "hold": self = .hold
    case "drag": self = .drag
    case "none": self = .none
    default: return nil
    }
  }
}
