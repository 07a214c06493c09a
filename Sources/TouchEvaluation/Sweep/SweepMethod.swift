/// How a configuration was evaluated.
public enum SweepMethod: Sendable, Hashable, CustomStringConvertible {
  /// With the configurations that differ from it only in `parameter`, in one pass per trace
  /// (running maximum, ``RunningMaxSweep``).
  case onePass(parameter: String)
  /// By replaying every trace through it.
  case replay

  /// `one-pass` or `replay`.
  public var description: String {
    switch self {
    case .onePass: "one-pass"
    case .replay: "replay"
    }
  }
}
