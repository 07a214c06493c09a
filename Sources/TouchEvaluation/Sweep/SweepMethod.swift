/// How a configuration was evaluated.
public enum SweepMethod: Sendable, Hashable, CustomStringConvertible {
  /// With the configurations that differ from it only in `parameter`, in one pass per trace
  /// (running maximum, ``RunningMaxSweep``).
  case onePass(parameter: String)
  /// With the configurations that differ from it only in `parameters` (comparison thresholds,
  /// `ParameterSpec.comparison`): one replay per trace and equivalence class of those parameters
  /// that the grid touches.
  case classes(parameters: [String])
  /// By replaying every trace through it.
  case replay

  /// `one-pass`, `classes` or `replay`.
  public var description: String {
    switch self {
    case .onePass: "one-pass"
    case .classes: "classes"
    case .replay: "replay"
    }
  }
}
