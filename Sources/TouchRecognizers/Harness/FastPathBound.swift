/// Raw-force bounds for the fast path of normalized-threshold recognizers
/// (``ForceRecognizer/skipInertSamples(force:from:to:maxForce:)``).
///
/// Comparing `force / maxForce` with a threshold needs a division per sample; comparing the raw
/// force with `maxForce * threshold` does not, but can differ from the division in the last bit.
/// The bounds here are widened by a relative 1e-12 — far more than the two roundings involved —
/// so the fast path never skips a sample that crosses: it may stop at a sample that does not,
/// and the harness then decides that sample with the recognizer's exact comparison.
public enum FastPathBound {
  /// A force below which `force / maxForce >= threshold` (or `>`) cannot hold, for
  /// `maxForce > 0`. NaN when `threshold` is NaN (then `force >= bound` is never true).
  @inlinable
  public static func atLeast(_ threshold: Double, maxForce: Double) -> Double {
    let level = maxForce * threshold
    return level - abs(level) * 1e-12
  }

  /// A force above which `force / maxForce < threshold` (or `<=`) cannot hold, for
  /// `maxForce > 0`.
  @inlinable
  public static func atMost(_ threshold: Double, maxForce: Double) -> Double {
    let level = maxForce * threshold
    return level + abs(level) * 1e-12
  }
}
