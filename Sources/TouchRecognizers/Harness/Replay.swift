public import TouchCore

/// Why a trace cannot be replayed through a recognizer.
public enum ReplayError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The recognizer compares normalized force (or clamps to the maximum) and the trace has no
  /// maximum possible force.
  case missingMaximumForce(trace: String, variant: String)
  /// A recognizer that runs outside the process (an `exec:` recognizer) failed while deciding
  /// on `trace`: it exited, wrote something the protocol does not allow, or fell silent.
  /// `message` says what happened, with what the recognizer wrote to its standard error.
  case external(trace: String, variant: String, message: String)

  /// `trace 'id': recognizer 'deep-press' needs the maximum possible force …`.
  public var description: String {
    switch self {
    case .missingMaximumForce(let trace, let variant):
      "trace '\(trace)': recognizer '\(variant)' needs the trace's maximum possible force "
        + "(give a max_force column or --max-force)"
    case .external(let trace, let variant, let message):
      "recognizer '\(variant)' on trace '\(trace)': \(message)"
    }
  }

  /// The reason alone, without the trace name (for skip records).
  public var reason: String {
    switch self {
    case .missingMaximumForce(_, let variant):
      "recognizer '\(variant)' needs the trace's maximum possible force and the trace has none"
    case .external(_, let variant, let message):
      "recognizer '\(variant)': \(message)"
    }
  }
}

/// The UIKit-faithful replay harness.
///
/// Delivery rules, per trace (one contact):
/// - sample 0 → `touchesBegan`;
/// - a later sample whose force **or** x/y differs from the previous sample → `touchesMoved`
///   (force-only changes count, as on 3D-Touch hardware);
/// - an unchanged sample is stationary: dropped, unless the recognizer asks for stationary
///   samples (``ForceRecognizer/receivesStationary``);
/// - the last sample → `touchesCancelled` when its phase is `cancelled`, else `touchesEnded`. A
///   trace whose last sample is neither `ended` nor `cancelled` (a truncated recording) is
///   closed as ended at its last sample. A one-sample trace gets `touchesBegan` then
///   `touchesEnded` for the same sample.
/// - Virtual clock: before each sample (delivered or dropped), every timer whose deadline is at
///   or before the sample's time fires, at its exact deadline; its event carries the index of
///   the last sample before the deadline. Timers pending at the last sample's time fire before
///   the lift is delivered; nothing fires after the lift.
/// - Once the recognizer is finished (terminal state), nothing more of the contact is delivered.
///   Then the end-of-sequence rule closes a recognizer left open (possible → failed,
///   began/changed → cancelled, recorded as implicit) and `reset()` runs.
///
/// Traces with no samples produce no events.
public enum Replay {
  /// Replays one contact given as raw columns through `recognizer` (no reset before or after),
  /// appending to `context`.
  ///
  /// The columns must have equal lengths, except `x` and `y`, which are either empty (no
  /// positions) or as long as `t`, and `radius`, empty (no radius) or as long as `t`. This is the inner loop every other replay function uses; a
  /// benchmark can call it directly.
  ///
  /// - Parameters:
  ///   - recognizer: the recognizer, used as is (its state carries over from earlier calls).
  ///   - t: sample times, seconds, non-decreasing.
  ///   - force: forces, device units.
  ///   - x: horizontal positions, points, or empty.
  ///   - y: vertical positions, points, or empty.
  ///   - radius: touch radii (`majorRadius`), points, or empty. A change of radius alone is not a
  ///     move (the delivery rule compares force and position); recognizers that read the radius
  ///     take stationary samples to see it.
  ///   - cancelled: whether the last sample is a cancellation rather than a lift.
  ///   - maxForce: the trace's maximum possible force; NaN when unknown.
  ///   - context: where the transitions and actions are appended.
  /// - Complexity: O(n) plus the recognizer's timer firings.
  @inlinable
  public static func replayContact<R: ForceRecognizer>(
    _ recognizer: inout R, t: UnsafeBufferPointer<Double>, force: UnsafeBufferPointer<Double>,
    x: UnsafeBufferPointer<Double>, y: UnsafeBufferPointer<Double>,
    radius: UnsafeBufferPointer<Double> = UnsafeBufferPointer(start: nil, count: 0), cancelled: Bool,
    maxForce: Double, into context: inout GestureContext
  ) {
    let n = t.count
    guard n > 0 else { return }
    precondition(force.count == n, "force and t differ in length")
    let hasPosition = x.count == n && y.count == n
    let hasRadius = radius.count == n
    context.stored = .possible

    @inline(__always) func sample(_ i: Int) -> TouchSample {
      TouchSample(
        index: i, t: t[i], force: force[i], maxForce: maxForce,
        x: hasPosition ? x[i] : 0, y: hasPosition ? y[i] : 0, radius: hasRadius ? radius[i] : .nan)
    }
    /// Fires every timer due at or before `limit`; `true` when the recognizer finished.
    @inline(__always) func fireTimers(upTo limit: Double, last: Int) -> Bool {
      while recognizer.timerDeadline <= limit {
        var s = sample(last)
        s.t = recognizer.timerDeadline
        recognizer.timerFired(s, &context)
        if recognizer.isFinished(in: context) { return true }
      }
      return false
    }

    delivery: do {
      recognizer.touchesBegan(sample(0), &context)
      if recognizer.isFinished(in: context) { break delivery }
      if n > 1 {
        let last = n - 1
        var previous = force[0]
        var i = 1
        while i < last {
          if R.skipsInertSamples && !R.usesTimers && !R.receivesStationary {
            let j = recognizer.skipInertSamples(force: force, from: i, to: last, maxForce: maxForce)
            if j > i {
              i = j
              previous = force[j - 1]
              if i >= last { break }
            }
          }
          if R.usesTimers, fireTimers(upTo: t[i], last: i - 1) { break delivery }
          let f = force[i]
          if f != previous || (hasPosition && (x[i] != x[i - 1] || y[i] != y[i - 1])) {
            recognizer.touchesMoved(sample(i), &context)
            if recognizer.isFinished(in: context) { break delivery }
          } else if R.receivesStationary {
            recognizer.touchesStationary(sample(i), &context)
            if recognizer.isFinished(in: context) { break delivery }
          }
          previous = f
          i &+= 1
        }
        if R.usesTimers, fireTimers(upTo: t[last], last: last - 1) { break delivery }
      }
      if cancelled {
        recognizer.touchesCancelled(sample(n - 1), &context)
      } else {
        recognizer.touchesEnded(sample(n - 1), &context)
      }
    }
    recognizer.contactEnded(sample(n - 1), &context)
  }

  /// Replays one trace through `recognizer` (no reset before or after), appending to
  /// `context`. The caller checks the maximum force (see ``check(_:using:)``). The trace is
  /// borrowed: its columns are read in place, nothing is copied or retained per trace.
  @inlinable
  public static func replayContact<R: ForceRecognizer>(
    _ recognizer: inout R, trace: borrowing Trace, into context: inout GestureContext
  ) {
    withUnsafePointer(to: trace) { replayContact(&recognizer, at: $0, into: &context) }
  }

  /// Replays the trace at `trace` through `recognizer`, as `replayContact(_:trace:into:)`.
  ///
  /// The columns are reached through the pointer: neither the trace nor its metadata is copied
  /// (copying a `Trace` retains and releases every column and label, which cost a sixth of a
  /// sweep's time when the traces were borrowed by subscript).
  @inlinable
  static func replayContact<R: ForceRecognizer>(
    _ recognizer: inout R, at trace: UnsafePointer<Trace>, into context: inout GestureContext
  ) {
    let cancelled = trace.pointee.phase.last == .cancelled
    let maxForce = trace.pointee.metadata.maxForce ?? .nan
    trace.pointee.t.withUnsafeBufferPointer { t in
      trace.pointee.force.withUnsafeBufferPointer { f in
        // A missing column is an empty buffer; positions count only when both x and y are there.
        withOptional(trace.pointee.x) { x in
          withOptional(trace.pointee.y) { y in
            withOptional(trace.pointee.radius) { r in
              replayContact(
                &recognizer, t: t, force: f, x: x, y: y, radius: r, cancelled: cancelled, maxForce: maxForce,
                into: &context)
            }
          }
        }
      }
    }
  }

  /// Runs `body` with an optional column borrowed, or with an empty buffer when it is missing.
  @inlinable @inline(__always)
  static func withOptional(_ column: borrowing [Double]?, _ body: (UnsafeBufferPointer<Double>) -> Void) {
    var done = false
    column?.withUnsafeBufferPointer { c in
      body(c)
      done = true
    }
    if !done { body(UnsafeBufferPointer(start: nil, count: 0)) }
  }

  /// Checks that `trace` can be replayed through `recognizer`.
  ///
  /// - Throws: ``ReplayError/missingMaximumForce(trace:variant:)`` when the recognizer needs the
  ///   maximum possible force and the trace has none.
  public static func check<R: ForceRecognizer>(_ trace: Trace, using recognizer: R) throws(ReplayError) {
    if recognizer.requiresMaximumForce && trace.metadata.maxForce == nil {
      throw .missingMaximumForce(trace: trace.name, variant: recognizer.variant.name)
    }
  }

  /// Replays one trace through a fresh copy of `recognizer`.
  ///
  /// ```swift
  /// let result = try Replay.replay(trace: trace, using: ShunkitForceTouch())
  /// print(result.action?.t as Any)      // the app-action time, seconds
  /// ```
  ///
  /// - Throws: ``ReplayError``.
  /// - Complexity: O(n) in the trace's samples (plus timer firings).
  @inlinable
  public static func replay<R: ForceRecognizer>(trace: Trace, using recognizer: R) throws(ReplayError)
    -> ReplayResult
  {
    try check(trace, using: recognizer)
    var r = recognizer
    var context = GestureContext()
    replayContact(&r, trace: trace, into: &context)
    return ReplayResult(trace: trace.name, variant: recognizer.variant, context: context)
  }

  /// Replays traces in order: each through a fresh copy of `recognizer`, or, with
  /// `carryingState`, all through one instance (reset between contacts, so state the original
  /// library forgets to reset carries into the next contact).
  ///
  /// Every trace is checked before any is replayed.
  ///
  /// - Throws: ``ReplayError`` for the first trace that cannot be replayed.
  /// - Complexity: O(total samples).
  @inlinable
  public static func replay<R: ForceRecognizer>(
    traces: [Trace], using recognizer: R, carryingState: Bool = false
  ) throws(ReplayError) -> [ReplayResult] {
    var log = ReplayLog()
    try replay(traces: traces, using: recognizer, carryingState: carryingState, into: &log)
    var results: [ReplayResult] = []
    results.reserveCapacity(traces.count)
    for k in traces.indices {
      results.append(log.result(k, trace: traces[k].name, variant: recognizer.variant))
    }
    return results
  }

  /// Replays traces into a flat log (no per-trace allocation): each through a fresh copy of
  /// `recognizer`, or, with `carryingState`, all through one instance.
  ///
  /// - Throws: ``ReplayError`` for the first trace that cannot be replayed (before any is).
  @inlinable
  public static func replay<R: ForceRecognizer>(
    traces: [Trace], using recognizer: R, carryingState: Bool = false, into log: inout ReplayLog
  ) throws(ReplayError) {
    if recognizer.requiresMaximumForce {
      for k in traces.indices where traces[k].metadata.maxForce == nil {
        throw .missingMaximumForce(trace: traces[k].name, variant: recognizer.variant.name)
      }
    }
    log.reserve(traces: traces.count)
    var shared = recognizer
    // The traces are borrowed in place (an array subscript would copy each trace, retaining and
    // releasing every column).
    traces.withUnsafeBufferPointer { traces in
      guard let first = traces.baseAddress else { return }
      for k in traces.indices {
        if carryingState {
          replayContact(&shared, at: first + k, into: &log.context)
          shared.reset()
        } else {
          var r = recognizer
          replayContact(&r, at: first + k, into: &log.context)
        }
        log.closeTrace()
      }
    }
  }
}

extension Replay {
  /// Replays many contacts stored as structure-of-arrays columns into a flat log: the samples of
  /// contact `k` are `offsets[k] ..< offsets[k + 1]`; every contact ends by a lift, has no
  /// positions and shares `maxForce`. Each contact goes through a fresh copy of `recognizer`.
  /// Event indices are relative to the contact's first sample.
  ///
  /// This is the replay loop without any per-trace object: what a benchmark compares with a C
  /// implementation of the same delivery rules.
  ///
  /// - Parameters:
  ///   - t: sample times, seconds.
  ///   - force: forces, device units.
  ///   - offsets: contact boundaries (contacts + 1 elements, non-decreasing).
  ///   - maxForce: the maximum possible force of every contact; NaN when unknown (then only
  ///     recognizers that do not need it give meaningful results).
  ///   - recognizer: the prototype, copied for each contact.
  ///   - log: where the events are appended, one span per contact.
  /// - Complexity: O(samples).
  @inlinable
  public static func replay<R: ForceRecognizer>(
    t: UnsafeBufferPointer<Double>, force: UnsafeBufferPointer<Double>,
    offsets: UnsafeBufferPointer<Int>, maxForce: Double, using recognizer: R,
    into log: inout ReplayLog
  ) {
    guard offsets.count > 1 else { return }
    log.reserve(traces: offsets.count - 1)
    let none = UnsafeBufferPointer<Double>(start: nil, count: 0)
    for k in 0..<(offsets.count - 1) {
      let range = offsets[k]..<offsets[k + 1]
      var r = recognizer
      replayContact(
        &r, t: UnsafeBufferPointer(rebasing: t[range]), force: UnsafeBufferPointer(rebasing: force[range]),
        x: none, y: none, cancelled: false, maxForce: maxForce, into: &log.context)
      log.closeTrace()
    }
  }
}

/// The events of many replayed traces, stored flat (two arrays for all traces) with per-trace
/// spans.
public struct ReplayLog: Sendable {
  /// Where one trace's events lie in the flat arrays.
  public struct Span: Sendable, Hashable {
    /// The trace's transitions: `transitions[transitions]`.
    public var transitions: Range<Int>
    /// The trace's actions: `actions[actions]`.
    public var actions: Range<Int>
  }

  /// The recording context (transitions and actions of all traces so far).
  @usableFromInline var context = GestureContext()
  /// One span per replayed trace.
  public private(set) var spans: [Span] = []

  /// Creates an empty log.
  public init() {}

  /// The number of traces replayed into the log.
  public var count: Int { spans.count }

  /// Every transition, all traces, in order.
  public var transitions: [StateTransition] { context.transitions }

  /// Every action, all traces, in order.
  public var actions: [ActionEvent] { context.actions }

  /// Reserves room for `traces` more traces (about two transitions and one action each).
  @usableFromInline
  mutating func reserve(traces: Int) {
    spans.reserveCapacity(spans.count + traces)
    context.transitions.reserveCapacity(context.transitions.count + 2 * traces)
    context.actions.reserveCapacity(context.actions.count + traces)
  }

  /// Ends the current trace: records its span.
  @usableFromInline
  mutating func closeTrace() {
    let t0 = spans.last?.transitions.upperBound ?? 0
    let a0 = spans.last?.actions.upperBound ?? 0
    spans.append(Span(transitions: t0..<context.transitions.count, actions: a0..<context.actions.count))
  }

  /// The result of trace `k` (0-based, in replay order).
  public func result(_ k: Int, trace: String, variant: RecognizerDescription) -> ReplayResult {
    let span = spans[k]
    return ReplayResult(
      trace: trace, variant: variant,
      transitions: Array(context.transitions[span.transitions]),
      actions: Array(context.actions[span.actions]))
  }

  /// Forgets everything, keeping the storage.
  public mutating func removeAll() {
    context.clear()
    spans.removeAll(keepingCapacity: true)
  }
}
