public import TouchRecognizers
public import TouchSignal

/// Why tuning or a comparison cannot be carried out on the data at hand.
///
/// The command reports each as bad input data (exit 65): the options are valid, the data does not
/// allow them.
public enum TuningError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Cross-validation asked for more folds than the data has groups.
  case tooFewGroups(by: String, groups: Int, folds: Int)
  /// A trace has no label for the grouping (the command skips such traces first).
  case missingGroupLabel(trace: String, key: GroupKey)
  /// There is no analyzed trace to tune or compare on.
  case noTraces
  /// A configuration cannot replay a trace (its maximum possible force is unknown).
  case replay(ReplayError)
  /// A GSL routine (random numbers, distributions) failed.
  case gsl(GSLError)

  /// The message.
  public var description: String {
    switch self {
    case .tooFewGroups(let by, let groups, let folds):
      let unit = by == "trace" ? "trace" : "\(by) group"
      return
        "cross-validation needs at least as many \(unit)s as folds: \(groups) \(unit)\(groups == 1 ? "" : "s"), --folds \(folds)"
        + (groups >= 2
          ? " (use --folds \(groups) for leave-one-group-out, or --folds 0 to skip cross-validation)"
          : " (use --folds 0 to skip cross-validation)")
    case .missingGroupLabel(let trace, let key):
      return "trace '\(trace)' has no \(key.rawValue) label, needed by --group-by \(key.rawValue)"
    case .noTraces:
      return "no analyzed trace to evaluate"
    case .replay(let error):
      return error.description
    case .gsl(let error):
      return error.description
    }
  }
}

extension TuningError {
  /// GSL's generator seeded with `seed`, its failure as a ``TuningError/gsl(_:)``.
  static func randomSource(seed: UInt64) throws(TuningError) -> RandomSource {
    do throws(GSLError) {
      return try RandomSource(seed: seed)
    } catch {
      throw .gsl(error)
    }
  }
}
