public import TouchCore

/// A recognizer behind a causal filter on force (`ema/deep-press`): the recognizer sees the
/// filtered force, by the usual delivery rules, and nothing else changes (times, positions,
/// phases).
///
/// Two paths compute the same events:
/// - the batch entry points (what `run`, `sweep`, `tune` and `compare` call) filter each
///   contact's force column once (``CausalFilter/apply(t:force:maxForce:into:)``) and replay the
///   filtered traces through the recognizer's own specialized loop;
/// - the per-sample methods (what a require-to-fail composition drives) take every sample,
///   stationary ones included, step the filter, and deliver a sample to the recognizer as moved
///   when its filtered force or its position changed — the rule the harness applies to the
///   filtered trace.
///
/// Parameters are the filter's, prefixed with its name (`ema.alpha`), then the recognizer's.
public struct FilteredRecognizer<Base: ForceRecognizer>: ForceRecognizer {
  /// The recognizer behind the filter.
  public private(set) var base: Base
  /// The filter.
  public let filter: CausalFilter
  /// The description: the recognizer's, renamed `FILTER/NAME`, with the filter's parameters.
  public let variant: RecognizerDescription
  /// The filter's values, prefixed (reports print them before the recognizer's).
  let filterValues: ParameterValues

  // Per-sample path: the filter's state and the last sample seen.
  var state: FilterState
  var lastIndex = -1
  var lastFiltered = Double.nan
  var lastX = 0.0
  var lastY = 0.0

  /// `base` behind `filter`, described by `variant` with the filter's values `filterValues`
  /// (prefixed).
  init(base: Base, filter: CausalFilter, variant: RecognizerDescription, filterValues: ParameterValues) {
    self.base = base
    self.filter = filter
    self.variant = variant
    self.filterValues = filterValues
    state = FilterState(filter)
  }

  /// The filter's values (prefixed), then the recognizer's.
  public var parameters: ParameterValues { ParameterValues(filterValues.entries + base.parameters.entries) }

  /// The recognizer's need.
  public var requiresMaximumForce: Bool { base.requiresMaximumForce }

  /// Every sample reaches the filter.
  public static var receivesStationary: Bool { true }
  /// The recognizer's timers.
  public static var usesTimers: Bool { Base.usesTimers }
  /// The recognizer's deadline.
  public var timerDeadline: Double { base.timerDeadline }

  // MARK: Batch path

  /// Filters every trace's force, then replays the filtered traces through the recognizer's own loop.
  public func replay(traces: [Trace], carryingState: Bool, into log: inout ReplayLog) throws(ReplayError) {
    if requiresMaximumForce, let trace = traces.first(where: { $0.metadata.maxForce == nil }) {
      throw .missingMaximumForce(trace: trace.name, variant: variant.name)
    }
    let filtered = traces.map { trace in
      var copy = trace
      copy.force = filter.apply(t: trace.t, force: trace.force, maxForce: trace.metadata.maxForce ?? .nan)
      return copy
    }
    try base.replay(traces: filtered, carryingState: carryingState, into: &log)
  }

  /// Replays the trace with its force filtered (`comparedForce`, or filtered here) through the
  /// recognizer's own loop.
  public func replay(_ traces: [Trace], at index: Int, comparedForce: [Double]?, into log: inout ReplayLog) {
    var copy = traces[index]
    copy.force = comparedForce ?? filter.apply(t: copy.t, force: copy.force, maxForce: copy.metadata.maxForce ?? .nan)
    base.replay([copy], at: 0, comparedForce: nil, into: &log)
  }

  /// The base recognizer's side: the filter changes the force compared, not the comparisons.
  public func thresholdSide(of parameter: String) -> ThresholdSide? { base.thresholdSide(of: parameter) }

  /// The filtered force: what the recognizer's comparisons see.
  public func comparedForce(of trace: Trace) -> [Double]? {
    filter.apply(t: trace.t, force: trace.force, maxForce: trace.metadata.maxForce ?? .nan)
  }

  /// Filters each contact's force, then replays the columns through the recognizer's own loop.
  public func replay(
    t: UnsafeBufferPointer<Double>, force: UnsafeBufferPointer<Double>, offsets: UnsafeBufferPointer<Int>,
    maxForce: Double, into log: inout ReplayLog
  ) {
    var filtered = [Double](repeating: 0, count: force.count)
    filtered.withUnsafeMutableBufferPointer { out in
      for k in 0..<max(0, offsets.count - 1) {
        let range = offsets[k]..<offsets[k + 1]
        filter.apply(
          t: UnsafeBufferPointer(rebasing: t[range]), force: UnsafeBufferPointer(rebasing: force[range]),
          maxForce: maxForce, into: UnsafeMutableBufferPointer(rebasing: out[range]))
      }
    }
    filtered.withUnsafeBufferPointer { f in
      base.replay(t: t, force: f, offsets: offsets, maxForce: maxForce, into: &log)
    }
  }

  // MARK: Per-sample path

  /// `sample` with its force filtered (each sample index is filtered once: the harness hands a
  /// one-sample contact's only sample to both touchesBegan and touchesEnded, and a timer the last
  /// sample before its deadline).
  @inline(__always)
  mutating func filtered(_ sample: TouchSample) -> TouchSample {
    var s = sample
    if sample.index != lastIndex {
      lastFiltered = state.step(sample.force, at: sample.t, maxForce: sample.maxForce)
      lastIndex = sample.index
    }
    s.force = lastFiltered
    return s
  }

  /// Restarts the filter and delivers the touch-down.
  public mutating func touchesBegan(_ sample: TouchSample, _ context: inout GestureContext) {
    state.reset()
    lastIndex = -1
    let s = filtered(sample)
    lastX = s.x
    lastY = s.y
    base.touchesBegan(s, &context)
  }

  /// Any later sample: moved when the filtered force or the position changed, else stationary.
  @inline(__always)
  mutating func deliver(_ sample: TouchSample, _ context: inout GestureContext) {
    let previous = lastFiltered
    let s = filtered(sample)
    let moved = s.force != previous || s.x != lastX || s.y != lastY
    lastX = s.x
    lastY = s.y
    if moved {
      base.touchesMoved(s, &context)
    } else if Base.receivesStationary {
      base.touchesStationary(s, &context)
    }
  }

  /// A sample whose raw force or position changed.
  public mutating func touchesMoved(_ sample: TouchSample, _ context: inout GestureContext) {
    deliver(sample, &context)
  }

  /// A sample with the raw force and position of the previous one (its filtered force may differ).
  public mutating func touchesStationary(_ sample: TouchSample, _ context: inout GestureContext) {
    deliver(sample, &context)
  }

  /// The lift.
  public mutating func touchesEnded(_ sample: TouchSample, _ context: inout GestureContext) {
    base.touchesEnded(filtered(sample), &context)
  }

  /// The cancellation.
  public mutating func touchesCancelled(_ sample: TouchSample, _ context: inout GestureContext) {
    base.touchesCancelled(filtered(sample), &context)
  }

  /// The recognizer's timer, with the filtered force of the last sample before the deadline.
  public mutating func timerFired(_ sample: TouchSample, _ context: inout GestureContext) {
    var s = sample
    s.force = lastFiltered
    base.timerFired(s, &context)
  }

  /// The recognizer's rule.
  public func isFinished(in context: GestureContext) -> Bool { base.isFinished(in: context) }

  /// The recognizer's end of contact.
  public mutating func contactEnded(_ sample: TouchSample, _ context: inout GestureContext) {
    base.contactEnded(filtered(sample), &context)
  }

  /// The recognizer's reset.
  public mutating func reset() { base.reset() }
}
