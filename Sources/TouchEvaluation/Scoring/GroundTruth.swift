public import TouchCore
public import TouchSignal

/// What counts as an intended press and how closely an action must meet it.
public struct EvaluationOptions: Sendable, Hashable {
  /// The default positive intents: `press` and `pop`.
  public static let defaultPositives: [Intent] = [.press, .pop]
  /// The default matching tolerance, seconds.
  public static let defaultTolerance = 0.25

  /// The intents whose traces a force-press recognizer should act on (stage 1 of two-stage
  /// variants), in `Intent.allCases` order, each once.
  public let positives: [Intent]
  /// The largest |action − reference| that still matches, seconds (inclusive; see
  /// ``EventMatching/isWithin(_:_:tolerance:)``).
  public let tolerance: Double
  /// The offline rule that gives reference times to positive traces without `press_at`.
  public let referenceRule: ReferenceTimeRule
  /// Whether every trace is scored as a negative (misfire mode, `--negatives-only`): a trace
  /// without an intent counts as `none`; one labelled with a positive intent (or `pop`) cannot
  /// be scored (``TruthError/positiveInNegativesOnly(_:)``).
  public let negativesOnly: Bool

  /// Creates options.
  /// - Precondition: at least one positive intent; a finite tolerance ≥ 0.
  public init(
    positives: some Sequence<Intent> = EvaluationOptions.defaultPositives,
    tolerance: Double = EvaluationOptions.defaultTolerance,
    referenceRule: ReferenceTimeRule = .standard,
    negativesOnly: Bool = false
  ) {
    let set = Set(positives)
    precondition(!set.isEmpty, "at least one positive intent")
    precondition(tolerance >= 0 && tolerance.isFinite, "the tolerance must be a finite number ≥ 0")
    self.positives = Intent.allCases.filter(set.contains)
    self.tolerance = tolerance
    self.referenceRule = referenceRule
    self.negativesOnly = negativesOnly
  }

  /// Whether traces of `intent` are positives for stage 1.
  public func isPositive(_ intent: Intent) -> Bool { positives.contains(intent) }
}

/// The three classes of the two-stage confusion matrix.
public enum PressClass: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// No force press: actual — a trace whose intent is neither positive nor `pop`; predicted —
  /// neither stage fired.
  case none
  /// A one-stage press: actual — a positive trace whose intent is not `pop`; predicted — stage 1
  /// fired and stage 2 did not.
  case press
  /// A two-stage press: actual — intent `pop`; predicted — stage 2 fired.
  case pop

  /// `none`, `press`, `pop`.
  public var description: String {
    switch self {
    case .none: "none"
    case .press: "press"
    case .pop: "pop"
    }
  }
}

/// The ground truth of one analyzed trace, as scoring uses it.
public struct TraceTruth: Sendable, Hashable {
  /// The labelled intent.
  public var intent: Intent
  /// Whether the trace is a positive for stage 1 (its intent is one of the options' positives).
  public var isPositive: Bool
  /// Stage-1 reference times, seconds on the trace's clock, ascending; empty for negatives.
  public var references: [Double]
  /// Stage-2 reference times (traces of intent `pop` only), ascending; empty otherwise.
  public var stage2References: [Double]
  /// Where the reference times came from; `nil` when the trace needs none (a negative that is not
  /// a `pop`).
  public var referenceSource: ReferenceTimes.Source?
  /// The touch-down time: the first sample's `t`, seconds.
  public var touchDown: Double
  /// The last sample's `t`, seconds (the lift, or the cancellation).
  public var liftOff: Double

  /// Creates a truth.
  ///
  /// - Parameters:
  ///   - intent: the labelled intent.
  ///   - isPositive: whether the trace is a stage-1 positive.
  ///   - references: stage-1 reference times, seconds, ascending.
  ///   - stage2References: stage-2 reference times, seconds, ascending.
  ///   - referenceSource: where the reference times came from.
  ///   - touchDown: the first sample's time, seconds.
  ///   - liftOff: the last sample's time, seconds; the touch-down time when omitted.
  public init(
    intent: Intent, isPositive: Bool, references: [Double], stage2References: [Double] = [],
    referenceSource: ReferenceTimes.Source?, touchDown: Double, liftOff: Double? = nil
  ) {
    self.intent = intent
    self.isPositive = isPositive
    self.references = references
    self.stage2References = stage2References
    self.referenceSource = referenceSource
    self.touchDown = touchDown
    self.liftOff = liftOff ?? touchDown
  }

  /// How long the contact lasted, seconds: lift-off − touch-down.
  public var duration: Double { liftOff - touchDown }

  /// Whether the trace is a positive for stage 2 (intent `pop`).
  public var isStage2Positive: Bool { intent == .pop }

  /// The trace's actual class in the two-stage confusion matrix.
  public var actualClass: PressClass { intent == .pop ? .pop : (isPositive ? .press : .none) }

  /// The ground truth of `trace` under `options`, or why it cannot be scored.
  ///
  /// - Stage-1 references (positives): `press_at` when the trace has it, else the options'
  ///   reference rule. For intent `pop`, `press_at` lists (peek, pop) pairs: the 1st, 3rd, …
  ///   times are stage-1 references and the 2nd, 4th, … stage-2 references. A `pop` without
  ///   `press_at` uses the rule's times for both stages (the rule does not tell a peek from a pop).
  /// - Returns: the truth, or `.failure(reason)` for a trace without intent, without samples, a
  ///   `pop` with an odd number of `press_at` times, a positive whose references are empty, or a
  ///   failing reference rule.
  public static func resolve(_ trace: Trace, options: EvaluationOptions) -> Result<TraceTruth, TruthError> {
    guard let touchDown = trace.t.first, let liftOff = trace.t.last else {
      return trace.metadata.intent == nil && !options.negativesOnly ? .failure(.noIntent) : .failure(.noSamples)
    }
    if options.negativesOnly {
      let intent = trace.metadata.intent ?? .none
      guard !options.isPositive(intent), intent != .pop else { return .failure(.positiveInNegativesOnly(intent)) }
      return .success(
        TraceTruth(
          intent: intent, isPositive: false, references: [], referenceSource: nil, touchDown: touchDown,
          liftOff: liftOff))
    }
    guard let intent = trace.metadata.intent else { return .failure(.noIntent) }
    let positive = options.isPositive(intent)
    let pop = intent == .pop
    guard positive || pop else {
      return .success(
        TraceTruth(
          intent: intent, isPositive: false, references: [], referenceSource: nil, touchDown: touchDown,
          liftOff: liftOff))
    }
    let resolved: ReferenceTimes
    do throws(SignalError) {
      resolved = try options.referenceRule.resolvedReferenceTimes(for: trace)
    } catch {
      return .failure(.referenceRuleFailed(error))
    }
    var stage1 = resolved.times
    var stage2: [Double] = []
    if pop {
      if resolved.source == .pressAt {
        guard stage1.count % 2 == 0 else {
          return .failure(.unpairedPopReferences(count: stage1.count))
        }
        stage2 = stride(from: 1, to: stage1.count, by: 2).map { stage1[$0] }
        stage1 = stride(from: 0, to: stage1.count, by: 2).map { stage1[$0] }
      } else {
        stage2 = stage1
      }
    }
    guard !stage1.isEmpty else {
      return .failure(.noReference)
    }
    return .success(
      TraceTruth(
        intent: intent, isPositive: positive, references: positive ? stage1 : [], stage2References: stage2,
        referenceSource: resolved.source, touchDown: touchDown, liftOff: liftOff))
  }
}
