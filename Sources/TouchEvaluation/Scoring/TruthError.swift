public import TouchCore
public import TouchSignal

/// Why a trace cannot be scored (it is skipped with this reason; see
/// ``TraceTruth/resolve(_:options:)``).
public enum TruthError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The trace has no intent label.
  case noIntent
  /// The trace has no samples.
  case noSamples
  /// The options' reference rule failed on the trace.
  case referenceRuleFailed(SignalError)
  /// A trace of intent `pop` whose `press_at` is not (peek, pop) pairs: `count` times, an odd
  /// number.
  case unpairedPopReferences(count: Int)
  /// A positive trace without `press_at` for which the reference rule finds no press.
  case noReference
  /// Misfire mode (`--negatives-only`) scores negatives only; this trace is labelled with a
  /// positive intent (or `pop`).
  case positiveInNegativesOnly(Intent)

  /// The reason, for the skipped-trace list.
  public var description: String {
    switch self {
    case .noIntent: "no intent label"
    case .noSamples: "no samples"
    case .referenceRuleFailed(let error): "reference rule failed: \(error)"
    case .unpairedPopReferences(let count):
      "intent pop needs press_at as (peek, pop) pairs; found \(count) time\(count == 1 ? "" : "s")"
    case .noReference: "no reference time: no press_at and the reference rule finds no press"
    case .positiveInNegativesOnly(let intent): "labelled \(intent.rawValue): --negatives-only scores negatives only"
    }
  }
}
