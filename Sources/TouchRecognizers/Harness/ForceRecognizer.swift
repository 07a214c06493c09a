public import TouchCore

/// A recognizer the replay harness can drive: a value type whose methods mirror
/// `UIGestureRecognizer`'s `touchesBegan/Moved/Ended/Cancelled` and `reset()`, plus a virtual-clock
/// timer.
///
/// Rules for conformers (the hot path): a struct whose state is enums and numbers; `@inlinable`
/// mutating methods; no allocation, existential, class or closure per sample. Parameters are
/// validated once, at construction. See the AddingARecognizer article.
///
/// The harness calls ``touchesBegan(_:_:)`` for the first sample, ``touchesMoved(_:_:)`` for a
/// later sample whose force or position changed, ``touchesStationary(_:_:)`` for an unchanged
/// sample only when ``receivesStationary`` is `true`, and ``touchesEnded(_:_:)`` or
/// ``touchesCancelled(_:_:)`` for the last sample. Before each sample it fires the timer while
/// ``timerDeadline`` is at or before the sample's time. Once the context's state is terminal
/// (``isFinished(in:)``) nothing more of the contact is delivered. ``reset()`` runs after every
/// contact.
public protocol ForceRecognizer: Sendable {
  /// The variant's name, parameters and rules.
  var variant: RecognizerDescription { get }
  /// The parameter values this instance was built with.
  var parameters: ParameterValues { get }

  /// Whether unchanged samples are delivered to ``touchesStationary(_:_:)``. UIKit does not
  /// deliver them; the default is `false`.
  static var receivesStationary: Bool { get }
  /// Whether the recognizer uses the timer; when `false` the harness never reads
  /// ``timerDeadline``. The default is `false`.
  static var usesTimers: Bool { get }

  /// Whether ``skipInertSamples(force:from:to:maxForce:)`` can skip samples (a fast path for
  /// force-only threshold recognizers). Only used when the recognizer has no timers and takes no
  /// stationary samples. The default is `false`.
  static var skipsInertSamples: Bool { get }

  /// The fast path: the first index in `from..<to` whose sample could change anything in the
  /// recognizer's current state, whether it would be delivered as moved or dropped as
  /// stationary; returns `to` when none can. Before returning, the recognizer applies whatever
  /// the skipped samples would have changed (for example the last force seen). The harness then
  /// delivers the returned sample by the usual rules. Used only after `touchesBegan` and while
  /// the recognizer is not finished.
  mutating func skipInertSamples(
    force: UnsafeBufferPointer<Double>, from: Int, to: Int, maxForce: Double
  ) -> Int

  /// Whether replaying needs the trace's maximum possible force (normalized comparisons,
  /// clamping to the maximum). Traces without one are rejected with
  /// ``ReplayError/missingMaximumForce(trace:variant:)``. The default: whether any of the
  /// variant's parameters is a normalized force (``ParameterUnit/normalizedForce``, a fraction of
  /// the maximum); a recognizer that reads the maximum otherwise, or only in some configurations,
  /// says so.
  var requiresMaximumForce: Bool { get }

  /// The time, seconds, at which the pending timer fires; `.infinity` when none is pending.
  var timerDeadline: Double { get }

  /// The first sample of a contact.
  mutating func touchesBegan(_ sample: TouchSample, _ context: inout GestureContext)
  /// A later sample whose force or position changed.
  mutating func touchesMoved(_ sample: TouchSample, _ context: inout GestureContext)
  /// A later sample with the same force and position as the previous one (only when
  /// ``receivesStationary``).
  mutating func touchesStationary(_ sample: TouchSample, _ context: inout GestureContext)
  /// The last sample, when the finger lifted.
  mutating func touchesEnded(_ sample: TouchSample, _ context: inout GestureContext)
  /// The last sample, when the system cancelled the touch. The default does nothing (the
  /// harness then applies the end-of-sequence rule), as a `UIGestureRecognizer` subclass that
  /// does not override `touchesCancelled`.
  mutating func touchesCancelled(_ sample: TouchSample, _ context: inout GestureContext)
  /// The timer fired: `sample.t` is the exact deadline. The recognizer must clear or move the
  /// deadline that fired.
  mutating func timerFired(_ sample: TouchSample, _ context: inout GestureContext)
  /// Whether the recognizer is done with the contact. The default: the state is terminal.
  func isFinished(in context: GestureContext) -> Bool
  /// Called when the contact is over (after the last delivered event), before ``reset()``.
  /// The default applies the end-of-sequence rule (``GestureContext/closeSequence(at:)``).
  mutating func contactEnded(_ sample: TouchSample, _ context: inout GestureContext)
  /// Returns to the state for a new contact, as `UIGestureRecognizer.reset()`: only what the
  /// original library resets (state it forgets carries into the next contact when a replay
  /// reuses one instance). The default resets nothing, as a subclass that does not override
  /// `reset()` (or whose override clears nothing the recognizer's model keeps): every stored
  /// property carries into the next contact.
  mutating func reset()

  /// The threshold sweeps this instance supports: for each parameter in which the action (or
  /// stage-2) time is the first crossing of a force threshold. Empty by default.
  var thresholdSweeps: [ThresholdSweep] { get }

  // MARK: Replay entry points
  //
  // The replay loops are requirements with default implementations so that a call through
  // `any ForceRecognizer` (the open catalog, ``AnyForceRecognizer``) lands in the conformance's
  // witness, where the loop is specialized for the concrete type: one dynamic call per replay,
  // static dispatch per sample. Conformers never implement them.

  /// Replays traces in order into a flat log (``Replay/replay(traces:using:carryingState:into:)``).
  ///
  /// - Throws: ``ReplayError`` (before any trace is replayed).
  func replay(traces: [Trace], carryingState: Bool, into log: inout ReplayLog) throws(ReplayError)

  /// The replay of `dependent` waiting for this recognizer to fail (``RequireToFail``), compiled
  /// for both concrete types: the composition's loop specialized where this type conforms, for
  /// each built-in dependent (tap, the long presses); generic for any other.
  func compositionReplay(waiting dependent: any ForceRecognizer) -> CompositionReplay

  /// Replays the one trace `traces[index]` through a fresh copy into a flat log (one span),
  /// without checking the maximum force (the caller has): what a sweep calls once per
  /// equivalence class of a threshold. `comparedForce`, when given, is this recognizer's
  /// ``comparedForce(of:)`` of that trace, already computed (a filter need not run again).
  func replay(_ traces: [Trace], at index: Int, comparedForce: [Double]?, into log: inout ReplayLog)

  /// The force, device units, this recognizer compares with its comparison thresholds
  /// (``ParameterSpec/comparison``) on `trace`: `nil` for the trace's own force column (the
  /// default); a recognizer behind a filter returns the filtered column.
  func comparedForce(of trace: Trace) -> [Double]?

  /// The side of its level on which `parameter` (a comparison threshold,
  /// ``ParameterSpec/comparison``, or a one-pass ``ThresholdSweep``'s parameter) takes samples in
  /// **every** comparison this instance makes (``ThresholdSide``); `nil` when it mixes both or does
  /// not say. The default answers for a one-pass parameter of a variant without a release event
  /// (its sweep's operator describes every use) and `nil` otherwise; a recognizer declaring
  /// comparison thresholds answers for them, from its own code.
  func thresholdSide(of parameter: String) -> ThresholdSide?

  /// Replays contacts stored as columns into a flat log
  /// (``Replay/replay(t:force:offsets:maxForce:using:into:)``).
  func replay(
    t: UnsafeBufferPointer<Double>, force: UnsafeBufferPointer<Double>, offsets: UnsafeBufferPointer<Int>,
    maxForce: Double, into log: inout ReplayLog)
}

extension ForceRecognizer {
  /// UIKit delivers no stationary samples.
  @inlinable public static var receivesStationary: Bool { false }
  /// No timers.
  @inlinable public static var usesTimers: Bool { false }
  /// No fast path.
  @inlinable public static var skipsInertSamples: Bool { false }
  /// Skips nothing.
  @inlinable
  public mutating func skipInertSamples(
    force: UnsafeBufferPointer<Double>, from: Int, to: Int, maxForce: Double
  ) -> Int { from }
  /// Whether any parameter is a normalized force.
  public var requiresMaximumForce: Bool { variant.parameters.contains { $0.unit == .normalizedForce } }
  /// No pending timer.
  @inlinable public var timerDeadline: Double { .infinity }
  /// Ignores stationary samples.
  @inlinable
  public mutating func touchesStationary(_ sample: TouchSample, _ context: inout GestureContext) {}
  /// Not overridden: the end-of-sequence rule decides.
  @inlinable
  public mutating func touchesCancelled(_ sample: TouchSample, _ context: inout GestureContext) {}
  /// No timers.
  @inlinable
  public mutating func timerFired(_ sample: TouchSample, _ context: inout GestureContext) {}
  /// Finished when the state is terminal.
  @inlinable public func isFinished(in context: GestureContext) -> Bool { context.state.isTerminal }
  /// Applies the end-of-sequence rule.
  @inlinable
  public mutating func contactEnded(_ sample: TouchSample, _ context: inout GestureContext) {
    context.closeSequence(at: sample)
  }
  /// Not overridden: nothing of the recognizer's own is reset.
  @inlinable
  public mutating func reset() {}
  /// No sweeps.
  public var thresholdSweeps: [ThresholdSweep] { [] }
  /// Replays traces through copies of `self` (or one instance, `carryingState`).
  @inlinable
  public func replay(traces: [Trace], carryingState: Bool, into log: inout ReplayLog) throws(ReplayError) {
    try Replay.replay(traces: traces, using: self, carryingState: carryingState, into: &log)
  }
  /// The composition's replay, specialized for the built-in dependents.
  @inlinable
  public func compositionReplay(waiting dependent: any ForceRecognizer) -> CompositionReplay {
    switch dependent {
    case let d as TapRecognizer: CompositionReplay(RequireToFail(d, requiringFailureOf: self))
    case let d as IOSLongPress: CompositionReplay(RequireToFail(d, requiringFailureOf: self))
    case let d as AndroidLongPress: CompositionReplay(RequireToFail(d, requiringFailureOf: self))
    default: CompositionReplay.generic(dependent, self)
    }
  }
  /// Replays `traces[index]` through a copy of `self` (the compared force is the trace's own).
  @inlinable
  public func replay(_ traces: [Trace], at index: Int, comparedForce: [Double]?, into log: inout ReplayLog) {
    var r = self
    traces.withUnsafeBufferPointer { traces in
      Replay.replayContact(&r, at: traces.baseAddress! + index, into: &log.context)
    }
    log.closeTrace()
  }
  /// The trace's own force.
  public func comparedForce(of trace: Trace) -> [Double]? { nil }
  /// A one-pass parameter's operator when the variant has no release event (its sweep describes
  /// every comparison); otherwise `nil`.
  public func thresholdSide(of parameter: String) -> ThresholdSide? {
    guard variant.releaseEvent == nil, variant.parameter(parameter)?.comparison == nil,
      let sweep = thresholdSweeps.first(where: { $0.parameter == parameter })
    else { return nil }
    return sweep.comparison == .greaterThanOrEqual ? .atLeast : .above
  }
  /// Replays column-stored contacts through copies of `self`.
  @inlinable
  public func replay(
    t: UnsafeBufferPointer<Double>, force: UnsafeBufferPointer<Double>, offsets: UnsafeBufferPointer<Int>,
    maxForce: Double, into log: inout ReplayLog
  ) {
    Replay.replay(t: t, force: force, offsets: offsets, maxForce: maxForce, using: self, into: &log)
  }
  /// The variant's name.
  public var name: String { variant.name }
}

/// A recognizer that can be built from parameter values by name: what the catalog
/// (``RecognizerCatalog``) lists. Every built-in variant is one; a package that depends on
/// TouchRecognizers can write its own and add it to a catalog. Compositions are built from their
/// parts instead.
public protocol ConfigurableRecognizer: ForceRecognizer {
  /// The recognizer's description: name, summary, source, stages, parameters and sweep.
  static var descriptor: RecognizerDescription { get }
  /// Builds the recognizer from values resolved against ``descriptor`` (every parameter
  /// present and in range).
  ///
  /// - Throws: ``ParameterError`` when values break a rule between parameters.
  init(parameters: ParameterValues) throws(ParameterError)
}

extension ConfigurableRecognizer {
  /// The variant's name, parameters and rules.
  public var variant: RecognizerDescription { Self.descriptor }

  /// Builds the recognizer with the given parameters set and the rest at their defaults.
  ///
  /// - Throws: ``ParameterError`` for an unknown name, a value of the wrong kind, a value out of
  ///   range or a broken rule between parameters.
  public init(setting values: [String: ParameterValue]) throws(ParameterError) {
    try self.init(parameters: Self.descriptor.resolve(values))
  }

  /// Builds the recognizer from parameter settings written as text (`name`, `value`), as given on
  /// the command line; the rest stay at their defaults.
  ///
  /// - Throws: ``ParameterError``.
  public init(settings: [(name: String, value: String)]) throws(ParameterError) {
    try self.init(parameters: Self.descriptor.resolve(text: settings))
  }

  /// Builds the recognizer from typed settings, the rest at their defaults (for memberwise-style
  /// initializers: `Self.checked(Self.threshold(0.75))`). Invalid values are a programmer error
  /// and trap with the validation message.
  public static func checked(_ settings: ParameterSetting...) -> Self {
    do {
      return try Self(parameters: descriptor.resolve(settings: settings))
    } catch {
      preconditionFailure(error.description)
    }
  }
}

/// How a require-to-fail composition replays traces: a function made where both recognizer types
/// are concrete, so the loop inside is specialized for the pair (one call per replay, none per
/// sample).
public struct CompositionReplay: Sendable {
  /// The composed recognizer.
  public let recognizer: any ForceRecognizer
  /// Replays traces (each through a fresh copy, or one instance carrying state) into a log.
  public let replay: @Sendable ([Trace], Bool, inout ReplayLog) throws(ReplayError) -> Void

  /// The replay of `composition`, specialized for its type where this is called with it concrete.
  @inlinable
  public init<C: ForceRecognizer>(_ composition: C) {
    recognizer = composition
    replay = { traces, carryingState, log throws(ReplayError) in
      try Replay.replay(traces: traces, using: composition, carryingState: carryingState, into: &log)
    }
  }

  /// `dependent` waiting for `required`, generic over both (for dependents outside the built-ins).
  @usableFromInline
  static func generic<R: ForceRecognizer>(_ dependent: any ForceRecognizer, _ required: R) -> CompositionReplay {
    func make<D: ForceRecognizer>(_ d: D) -> CompositionReplay {
      CompositionReplay(RequireToFail(d, requiringFailureOf: required))
    }
    return make(dependent)
  }
}
