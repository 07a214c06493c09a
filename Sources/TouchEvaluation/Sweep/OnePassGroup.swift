import TouchRecognizers

/// Configurations evaluated together in one pass: they differ only in the swept threshold.
struct OnePassGroup: Sendable {
  /// Configuration indices.
  var members: [Int]
  /// Per member: the index of its threshold in ``thresholds``.
  var levelIndex: [Int]
  /// The distinct thresholds, ascending.
  var thresholds: [Double]
  /// The sweep of the varied threshold.
  var sweep: ThresholdSweep
  /// The other stage's sweep (two-stage variants), at ``otherThreshold``.
  var other: ThresholdSweep?
  /// The other stage's threshold.
  var otherThreshold: Double
  /// The members' outcome shape.
  var shape: OutcomeShape
}
