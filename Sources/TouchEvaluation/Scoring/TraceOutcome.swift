public import TouchRecognizers

/// An action matched to a reference time.
public struct MatchedEvent: Sendable, Hashable {
  /// The action's time, seconds on the trace's clock.
  public var action: Double
  /// The reference time it matched, seconds.
  public var reference: Double
  /// `action − reference`, seconds; negative for an early action.
  public var latency: Double
  /// `action − touch-down` (the trace's first sample), seconds.
  public var latencyFromDown: Double

  /// Creates a matched event; the latencies are computed from the times.
  public init(action: Double, reference: Double, touchDown: Double) {
    self.action = action
    self.reference = reference
    self.latency = action - reference
    self.latencyFromDown = action - touchDown
  }
}

/// How one trace scored for one stage (the action, or stage 2 of a two-stage variant).
///
/// A positive trace counts per event: each matched action is a true positive, each unmatched
/// reference a false negative, each unmatched action a false positive. A negative trace counts
/// once: a false positive if the stage fired at all, else a true negative.
public struct StageOutcome: Sendable, Hashable {
  /// Whether the trace is a positive for this stage.
  public var isPositive: Bool
  /// How many events of this stage the recognizer produced.
  public var actions: Int
  /// How many reference times the trace has for this stage (0 for negatives).
  public var references: Int
  /// The matched pairs, in time order.
  public var matches: [MatchedEvent]
  /// The stage's event times, seconds, ascending (`actions` of them) when any of them is
  /// unmatched (a false positive: what `rows(trace:stage:references:)` needs for its time);
  /// empty when every event is matched (their times are in ``matches``) and when the outcome
  /// was made from counts alone. Keeping them only then spares an allocation per trace where
  /// outcomes are kept.
  public var events: [Double]

  /// Creates an outcome from its parts.
  ///
  /// - Parameters:
  ///   - isPositive: whether the trace is a positive for this stage.
  ///   - actions: how many events the recognizer produced.
  ///   - references: how many reference times the trace has for the stage.
  ///   - matches: the matched pairs, in time order.
  ///   - events: the event times, seconds, ascending, when known.
  public init(isPositive: Bool, actions: Int, references: Int, matches: [MatchedEvent], events: [Double] = []) {
    self.isPositive = isPositive
    self.actions = actions
    self.references = references
    self.matches = matches
    self.events = events
  }

  /// Scores event times against references (see ``EventMatching``).
  ///
  /// - Parameters:
  ///   - events: the stage's event times, seconds, ascending.
  ///   - references: the trace's reference times for the stage (ignored for negatives).
  ///   - isPositive: whether the trace is a positive for the stage.
  ///   - touchDown: the trace's first sample time, seconds.
  ///   - tolerance: the matching window, seconds.
  public init(events: [Double], references: [Double], isPositive: Bool, touchDown: Double, tolerance: Double) {
    self.isPositive = isPositive
    actions = events.count
    guard isPositive else {
      self.references = 0
      matches = []
      // No events are kept as the empty array, not as the caller's (empty) buffer: scoring
      // refills one buffer from trace to trace, and a buffer still shared would be copied.
      self.events = events.isEmpty ? [] : events
      return
    }
    self.references = references.count
    if events.count == 1 {
      // One action, the usual case: its pair without the matching's array of index pairs.
      matches =
        EventMatching.nearest(to: events[0], among: references, tolerance: tolerance).map {
          [MatchedEvent(action: events[0], reference: references[$0], touchDown: touchDown)]
        } ?? []
    } else {
      matches = EventMatching.match(actions: events, references: references, tolerance: tolerance).map {
        MatchedEvent(action: events[$0.action], reference: references[$0.reference], touchDown: touchDown)
      }
    }
    self.events = matches.count < events.count ? events : []
  }

  /// The outcome's counts (the rules below).
  var counts: StageCounts<Int> {
    StageCounts(isPositive: isPositive, actions: actions, references: references, matched: matches.count)
  }
  /// Matched actions (positives only).
  public var truePositives: Int { counts.truePositives }
  /// Unmatched actions of a positive trace; 1 for a negative trace with any action.
  public var falsePositives: Int { counts.falsePositives }
  /// Unmatched references (positives only).
  public var falseNegatives: Int { counts.falseNegatives }
  /// 1 for a negative trace without any action, else 0.
  public var trueNegatives: Int { counts.trueNegatives }
  /// Whether the stage got this trace entirely right: no false positive and no false negative.
  public var isCorrect: Bool { falsePositives == 0 && falseNegatives == 0 }
}

/// The integer part of a ``StageOutcome`` and the one statement of its counting rules: a
/// positive trace counts per event, a negative trace once. `Count` is `Int` for the outcome
/// itself and `Int32` for the fixed-size tallies of the sums.
struct StageCounts<Count: FixedWidthInteger & Sendable>: Sendable, Hashable {
  var isPositive: Bool
  var actions: Count
  var references: Count
  /// The matched pairs.
  var matched: Count

  var truePositives: Count { isPositive ? matched : 0 }
  var falsePositives: Count { isPositive ? actions - matched : (actions > 0 ? 1 : 0) }
  var falseNegatives: Count { isPositive ? references - matched : 0 }
  var trueNegatives: Count { !isPositive && actions == 0 ? 1 : 0 }
}

/// What one configuration did on one trace, scored.
public struct TraceOutcome: Sendable, Hashable {
  /// The trace's index in ``Evaluation/traces``.
  public var trace: Int
  /// The action (stage 1).
  public var stage1: StageOutcome
  /// Stage 2, for two-stage variants; `nil` otherwise.
  public var stage2: StageOutcome?
  /// Releases while the finger still touched, for variants with a release; `nil` otherwise.
  public var flaps: Int?
  /// For a require-to-fail composition whose dependent acted: the latency the wait added,
  /// seconds (its first action − the moment it was first held; 0 when it was never held);
  /// `nil` otherwise.
  public var addedLatency: Double?
  /// For a require-to-fail composition: whether the dependent acted after being held (it had to
  /// wait for the other recognizer to fail, even if that took no time).
  public var waited: Bool

  /// Creates an outcome.
  public init(
    trace: Int, stage1: StageOutcome, stage2: StageOutcome? = nil, flaps: Int? = nil, addedLatency: Double? = nil,
    waited: Bool = false
  ) {
    self.trace = trace
    self.stage1 = stage1
    self.stage2 = stage2
    self.flaps = flaps
    self.addedLatency = addedLatency
    self.waited = waited
  }

  /// The predicted class of the two-stage confusion matrix: `pop` when stage 2 fired, `press`
  /// when only stage 1 did, `none` when neither.
  public var predictedClass: PressClass {
    if let stage2, stage2.actions > 0 { return .pop }
    return stage1.actions > 0 ? .press : .none
  }

  /// Whether the configuration got the trace entirely right (for paired comparisons): every
  /// stage it has is correct (``StageOutcome/isCorrect``).
  public var isCorrect: Bool { stage1.isCorrect && (stage2?.isCorrect ?? true) }
}

/// Which parts of a ``TraceOutcome`` a configuration fills in.
public struct OutcomeShape: Sendable, Hashable {
  /// Whether the variant has a stage 2 (scored against `pop`).
  public var twoStage: Bool
  /// Whether the variant can release a press mid-contact (flaps are counted).
  public var reportsFlaps: Bool
  /// Whether it is a require-to-fail composition (the added latency is reported).
  public var isComposition: Bool

  /// Creates a shape.
  public init(twoStage: Bool, reportsFlaps: Bool, isComposition: Bool) {
    self.twoStage = twoStage
    self.reportsFlaps = reportsFlaps
    self.isComposition = isComposition
  }

  /// The shape of `recognizer`'s outcomes.
  public init(recognizer: AnyForceRecognizer) {
    let variant = recognizer.variant
    self.init(
      twoStage: variant.stage2Event != nil, reportsFlaps: variant.reportsFlaps, isComposition: recognizer.isComposition)
  }
}
