/// On which side of its level a comparison threshold takes its samples, for exact sweeps: where,
/// as the threshold rises, a trace's comparisons can change.
///
/// Every comparison a recognizer makes between the declared quantity q of a sample and the
/// threshold's level L is either `q ≥ L` or its negation `q < L` (``atLeast``), or `q > L` or its
/// negation `q ≤ L` (``above``). With ``atLeast`` the set of samples at or over the level changes
/// only where L passes a distinct quantity (the next double above it): a trace's outcome is the
/// same for every level in (uᵢ, uᵢ₊₁]. With ``above`` it changes only where L reaches one: the same
/// for every level in [uᵢ, uᵢ₊₁). A recognizer that mixes both, or does not say, gets both kinds of
/// breakpoint (`nil`), which is always exact, with about twice the classes.
public enum ThresholdSide: String, Sendable, Hashable {
  /// Only `q ≥ L` and `q < L`.
  case atLeast
  /// Only `q > L` and `q ≤ L`.
  case above
}
