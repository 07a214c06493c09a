public import TouchCore

/// The decisions a recognizer made elsewhere (an `exec:` recognizer in another process) for one
/// contact: its actions, each a time and a stage, and optionally when it gave up.
///
/// ``ScriptPlayback`` turns a script into the state transitions and action events a recognizer
/// in the harness would have recorded, by these rules:
/// - the recognizer is `possible` from touch-down;
/// - its first action (either stage) makes it `began`, each later one `changed`, and each is
///   recorded as an action (stage 1) or stage-2 event at its own time;
/// - at the lift it is `ended` if it acted (at the later of the lift and its last action) and
///   `failed` if it did not; a cancelled contact ends as `cancelled`, or `failed` without an
///   action;
/// - with ``failedAt`` (only without actions) it is `failed` at that time, so a recognizer that
///   waits for it to fail (`tap+exec:…`) may go on from then.
///
/// An event at exactly a sample's time is recorded at that sample; one between samples, as a
/// timer would, at its own time with the index of the last sample before it.
public struct ActionScript: Sendable, Hashable {
  /// One action: a time and a stage.
  public struct Action: Sendable, Hashable {
    /// Time, seconds (the trace's clock).
    public var t: Double
    /// 1 for the action, 2 for stage 2.
    public var stage: Int

    /// Creates an action.
    public init(t: Double, stage: Int = 1) {
      self.t = t
      self.stage = stage
    }
  }

  /// The actions, in time order.
  public var actions: [Action]
  /// When the recognizer gave up (seconds), when it says so; `nil` otherwise.
  public var failedAt: Double?

  /// A script. Actions are put in time order (stable: equal times keep their order).
  public init(actions: [Action], failedAt: Double? = nil) {
    self.actions = actions.enumerated().sorted { ($0.element.t, $0.offset) < ($1.element.t, $1.offset) }.map(\.element)
    self.failedAt = failedAt
  }

  /// Why this script cannot describe a contact from `touchDown` to `lift` (seconds), or `nil`
  /// when it can: a time that is not finite, before touch-down or later than `lift + slack`; a
  /// stage other than 1 or 2; a failure together with actions.
  public func problem(touchDown: Double, lift: Double, slack: Double) -> String? {
    for action in actions {
      guard action.t.isFinite else { return "an action time is not a finite number" }
      guard action.stage == 1 || action.stage == 2 else { return "an action has stage \(action.stage) (1 or 2)" }
      if action.t < touchDown {
        return "an action at t = \(action.t) s is before the touch-down (\(touchDown) s)"
      }
      if action.t > lift + slack {
        return
          "an action at t = \(action.t) s is after the lift-off (\(lift) s) plus the matching tolerance (\(slack) s)"
      }
    }
    if let failedAt {
      guard actions.isEmpty else { return "'failed' is given together with actions" }
      guard failedAt.isFinite, failedAt >= touchDown, failedAt <= lift + slack else {
        return "the failure time \(failedAt) s lies outside the contact (\(touchDown)–\(lift) s)"
      }
    }
    return nil
  }
}

/// Plays an ``ActionScript`` back through the harness: the recognizer whose decisions were made
/// elsewhere, as the harness would have recorded them (see the rules on ``ActionScript``).
///
/// It takes every sample (stationary ones too) so that an event at a sample's time lands on that
/// sample, and a timer for the events between samples.
public struct ScriptPlayback: ForceRecognizer {
  /// The recognizer whose decisions these are.
  public let variant: RecognizerDescription
  /// Its parameter values.
  public let parameters: ParameterValues
  /// The events still to come: (time, stage; 0 for the failure, whether at a sample's time).
  var events: [(t: Double, stage: Int, onSample: Bool)]
  var next = 0

  /// The playback of `script` for a contact whose sample times are `t`.
  public init(_ script: ActionScript, times t: [Double], variant: RecognizerDescription, parameters: ParameterValues) {
    self.variant = variant
    self.parameters = parameters
    var events = script.actions.map { (t: $0.t, stage: $0.stage, onSample: false) }
    if let failed = script.failedAt { events.append((failed, 0, false)) }
    for k in events.indices {
      // Binary search: is the time one of the samples'?
      var lo = 0
      var hi = t.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if t[mid] < events[k].t { lo = mid + 1 } else { hi = mid }
      }
      events[k].onSample = lo < t.count && t[lo] == events[k].t
    }
    self.events = events
  }

  /// Decisions need no maximum force.
  public var requiresMaximumForce: Bool { false }
  /// Every sample is seen.
  public static var receivesStationary: Bool { true }
  /// Events between samples come by timer.
  public static var usesTimers: Bool { true }

  /// The next event's time when it falls between samples; `.infinity` otherwise.
  public var timerDeadline: Double { next < events.count && !events[next].onSample ? events[next].t : .infinity }

  /// Records the events due at `sample.t` (all remaining ones when `all`).
  mutating func play(upTo sample: TouchSample, all: Bool = false, _ context: inout GestureContext) {
    while next < events.count, all || events[next].t <= sample.t {
      var at = sample
      at.t = events[next].t
      switch events[next].stage {
      case 0: context.setState(.failed, at: at)
      case let stage:
        context.setState(context.state == .possible ? .began : .changed, acting: stage == 2 ? .stage2 : .action, at: at)
      }
      next += 1
    }
  }

  /// The touch-down.
  public mutating func touchesBegan(_ sample: TouchSample, _ context: inout GestureContext) {
    next = 0
    play(upTo: sample, &context)
  }
  /// A changed sample.
  public mutating func touchesMoved(_ sample: TouchSample, _ context: inout GestureContext) {
    play(upTo: sample, &context)
  }
  /// An unchanged sample.
  public mutating func touchesStationary(_ sample: TouchSample, _ context: inout GestureContext) {
    play(upTo: sample, &context)
  }
  /// An event between samples.
  public mutating func timerFired(_ sample: TouchSample, _ context: inout GestureContext) {
    play(upTo: sample, &context)
  }

  /// The lift: the remaining events (those after the lift too), then ended or failed.
  public mutating func touchesEnded(_ sample: TouchSample, _ context: inout GestureContext) {
    let last = next < events.count ? max(sample.t, events[events.count - 1].t) : sample.t
    play(upTo: sample, all: true, &context)
    var end = sample
    end.t = last
    context.finish(.ended, at: end)
  }

  /// The cancellation: the events due, then cancelled or failed.
  public mutating func touchesCancelled(_ sample: TouchSample, _ context: inout GestureContext) {
    play(upTo: sample, all: true, &context)
    context.finish(.cancelled, at: sample)
  }

  /// Nothing carries over.
  public mutating func reset() { next = 0 }
}

extension ScriptPlayback {
  /// Replays each trace through the playback of its script (`scripts[k]` for `traces[k]`) into a
  /// log, as ``Replay/replay(traces:using:carryingState:into:)`` does for a recognizer.
  ///
  /// - Precondition: as many scripts as traces.
  public static func replay(
    traces: [Trace], scripts: [ActionScript], variant: RecognizerDescription, parameters: ParameterValues,
    into log: inout ReplayLog
  ) {
    precondition(scripts.count == traces.count, "one script per trace")
    log.reserve(traces: traces.count)
    for k in traces.indices {
      var playback = ScriptPlayback(scripts[k], times: traces[k].t, variant: variant, parameters: parameters)
      Replay.replayContact(&playback, trace: traces[k], into: &log.context)
      log.closeTrace()
    }
  }

  /// Replays each trace through `dependent` waiting for the playback of the trace's script to
  /// fail (a require-to-fail composition whose required recognizer decided elsewhere).
  ///
  /// - Precondition: as many scripts as traces.
  public static func replay(
    traces: [Trace], scripts: [ActionScript], variant: RecognizerDescription, parameters: ParameterValues,
    waiting dependent: any ForceRecognizer, carryingState: Bool, into log: inout ReplayLog
  ) {
    precondition(scripts.count == traces.count, "one script per trace")
    func run<D: ForceRecognizer>(_ dependent: D) {
      log.reserve(traces: traces.count)
      var shared = dependent
      for k in traces.indices {
        let playback = ScriptPlayback(scripts[k], times: traces[k].t, variant: variant, parameters: parameters)
        var composition = RequireToFail(carryingState ? shared : dependent, requiringFailureOf: playback)
        Replay.replayContact(&composition, trace: traces[k], into: &log.context)
        if carryingState {
          composition.reset()
          shared = composition.dependent
        }
        log.closeTrace()
      }
    }
    run(dependent)
  }
}

extension CompositionReplay {
  /// A composition whose replay is `replay` (for a required recognizer that replays by other
  /// means than the per-sample harness, such as an `exec:` recognizer).
  public init(
    recognizer: any ForceRecognizer,
    replay: @escaping @Sendable ([Trace], Bool, inout ReplayLog) throws(ReplayError) -> Void
  ) {
    self.recognizer = recognizer
    self.replay = replay
  }
}
