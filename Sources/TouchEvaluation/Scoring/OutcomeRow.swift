/// One counted outcome of one trace at one stage: the long table behind every count.
///
/// A trace's rows add up to its counts exactly: a positive trace gives a `TP` row per matched
/// action (with the action, the reference and the latency), an `FP` row per unmatched action and
/// an `FN` row per unmatched reference — so an action outside the matching window gives an `FP`
/// row and an `FN` row; a negative trace gives one `FP` row (its first action) when the stage
/// acted at all, else one `TN` row.
public struct OutcomeRow: Sendable, Hashable {
  /// The kind of count a row is.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// A matched action (true positive).
    case truePositive = "TP"
    /// An unmatched action, or a negative trace with any action (false positive).
    case falsePositive = "FP"
    /// An unmatched reference (false negative).
    case falseNegative = "FN"
    /// A negative trace without any action (true negative).
    case trueNegative = "TN"
  }

  /// The trace's index in the evaluation's traces.
  public var trace: Int
  /// The stage: 1 (the action) or 2 (stage 2 of a two-stage variant).
  public var stage: Int
  /// What was counted.
  public var kind: Kind
  /// The action's time, seconds; `nil` for `FN` and `TN` rows (and for an `FP` row of an
  /// outcome made from counts alone).
  public var action: Double?
  /// The reference time, seconds; `nil` for `FP` and `TN` rows.
  public var reference: Double?
  /// `action − reference`, seconds, for `TP` rows; `nil` otherwise.
  public var latency: Double?

  /// Creates a row.
  ///
  /// - Parameters:
  ///   - trace: the trace's index.
  ///   - stage: 1 or 2.
  ///   - kind: what was counted.
  ///   - action: the action's time, seconds.
  ///   - reference: the reference time, seconds.
  ///   - latency: `action − reference`, seconds.
  public init(
    trace: Int, stage: Int, kind: Kind, action: Double? = nil, reference: Double? = nil, latency: Double? = nil
  ) {
    self.trace = trace
    self.stage = stage
    self.kind = kind
    self.action = action
    self.reference = reference
    self.latency = latency
  }
}

extension StageOutcome {
  /// The rows of this stage (see ``OutcomeRow``), in time order within each kind: matched pairs,
  /// then unmatched actions, then unmatched references.
  ///
  /// - Parameters:
  ///   - trace: the trace's index.
  ///   - stage: 1 or 2.
  ///   - references: the trace's reference times for this stage, seconds (ignored for negatives).
  public func rows(trace: Int, stage: Int, references: [Double]) -> [OutcomeRow] {
    guard isPositive else {
      if actions == 0 { return [OutcomeRow(trace: trace, stage: stage, kind: .trueNegative)] }
      return [OutcomeRow(trace: trace, stage: stage, kind: .falsePositive, action: events.first)]
    }
    var rows = matches.map {
      OutcomeRow(
        trace: trace, stage: stage, kind: .truePositive, action: $0.action, reference: $0.reference, latency: $0.latency
      )
    }
    var unmatchedActions = events
    var unmatchedReferences = references
    for match in matches {
      if let k = unmatchedActions.firstIndex(of: match.action) { unmatchedActions.remove(at: k) }
      if let k = unmatchedReferences.firstIndex(of: match.reference) { unmatchedReferences.remove(at: k) }
    }
    if events.isEmpty {
      // Every action matched, or made from counts: no unmatched action time is known.
      rows += (0..<(actions - matches.count)).map { _ in OutcomeRow(trace: trace, stage: stage, kind: .falsePositive) }
    } else {
      rows += unmatchedActions.map { OutcomeRow(trace: trace, stage: stage, kind: .falsePositive, action: $0) }
    }
    rows += unmatchedReferences.map { OutcomeRow(trace: trace, stage: stage, kind: .falseNegative, reference: $0) }
    return rows
  }
}

extension TraceOutcome {
  /// Every row of this outcome: stage 1's, then stage 2's (see ``OutcomeRow``).
  ///
  /// - Parameter truth: the trace's truth (its reference times).
  public func rows(truth: TraceTruth) -> [OutcomeRow] {
    var rows = stage1.rows(trace: trace, stage: 1, references: truth.references)
    if let stage2 { rows += stage2.rows(trace: trace, stage: 2, references: truth.stage2References) }
    return rows
  }
}
