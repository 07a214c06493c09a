public import TouchCore

/// Any recognizer — a catalog variant at some parameter values, a recognizer of your own, or a
/// require-to-fail composition — behind one type.
///
/// Replays go through the recognizer's own replay entry points
/// (``ForceRecognizer/replay(traces:carryingState:into:)`` and its siblings), which are compiled
/// for the concrete type where it conforms: one dynamic call per replay, static dispatch per
/// sample.
///
/// ```swift
/// let recognizer = try RecognizerCatalog.builtIn.recognizer("deep-press", settings: [("threshold", "0.6")])
/// let result = try recognizer.replay(trace: trace)
/// ```
public struct AnyForceRecognizer: Sendable {
  /// The recognizer.
  public let base: any ForceRecognizer
  /// For a composition: its replay specialized for the pair (see ``CompositionReplay``).
  private let composition: CompositionReplay?

  /// Wraps a recognizer.
  public init(_ base: some ForceRecognizer) {
    self.base = base
    composition = nil
  }

  private init(_ composition: CompositionReplay) {
    base = composition.recognizer
    self.composition = composition
  }

  /// Builds the built-in variant `name` from parameter values (the rest at their defaults).
  ///
  /// - Throws: ``ParameterError`` for an unknown variant or parameter, or an invalid value.
  public init(variant name: String, values: [String: ParameterValue]) throws(ParameterError) {
    self = try RecognizerCatalog.builtIn.recognizer(name, values: values)
  }

  /// Builds the built-in variant `name` from settings written as text (`name`, `value`), as on
  /// the command line.
  ///
  /// - Throws: ``ParameterError``.
  public init(variant name: String, settings: [(name: String, value: String)] = []) throws(ParameterError) {
    self = try RecognizerCatalog.builtIn.recognizer(name, settings: settings)
  }

  /// This recognizer (one that ``RecognizerDescription/canWaitForFailure``: a tap or long press)
  /// waiting for `required` to fail (see ``RequireToFail`` and ``Composition``).
  ///
  /// The composition's replay is specialized for the pair when the dependent is a built-in tap
  /// or long press (``ForceRecognizer/compositionReplay(waiting:)``); with a dependent of your
  /// own it is generic over it.
  ///
  /// - Parameters:
  ///   - required: the recognizer that must fail first.
  ///   - catalog: the catalog whose recognizers that can wait are named in the error.
  /// - Throws: ``ParameterError`` when this recognizer cannot wait for another, or either side is
  ///   already a composition.
  public func requiringFailure(
    of required: AnyForceRecognizer, catalog: RecognizerCatalog = .builtIn
  ) throws(ParameterError) -> AnyForceRecognizer {
    try Composition.check(dependent: variant, required: required.variant, catalog: catalog)
    return AnyForceRecognizer(required.base.compositionReplay(waiting: base))
  }

  /// The variant's description.
  public var variant: RecognizerDescription { base.variant }

  /// The variant's name.
  public var name: String { variant.name }

  /// Whether this is a require-to-fail composition (``requiringFailure(of:catalog:)``).
  public var isComposition: Bool { variant.code == Composition.code }

  /// The parameter values.
  public var parameters: ParameterValues { base.parameters }

  /// Whether replaying needs the trace's maximum possible force.
  public var requiresMaximumForce: Bool { base.requiresMaximumForce }

  /// The threshold sweeps this instance supports (see ``ThresholdSweep``).
  public var thresholdSweeps: [ThresholdSweep] { base.thresholdSweeps }

  /// The side of its level `parameter` takes samples on (see ``ThresholdSide``); `nil` for a
  /// composition or when the recognizer does not say.
  public func thresholdSide(of parameter: String) -> ThresholdSide? {
    isComposition ? nil : base.thresholdSide(of: parameter)
  }

  /// Why `trace` cannot be replayed through this recognizer, or `nil` when it can (for
  /// `Dataset.skipTraces(where:)`).
  public func unsupportedReason(for trace: Trace) -> String? {
    requiresMaximumForce && trace.metadata.maxForce == nil
      ? ReplayError.missingMaximumForce(trace: trace.name, variant: name).reason : nil
  }

  /// Replays one trace through a fresh copy of this recognizer.
  ///
  /// - Throws: ``ReplayError``.
  public func replay(trace: Trace) throws(ReplayError) -> ReplayResult {
    // The batch path, so a composition runs its specialized loop here too.
    try replay(traces: [trace])[0]
  }

  /// Replays traces in order, each through a fresh copy or, with `carryingState`, all through one
  /// instance (see ``Replay/replay(traces:using:carryingState:)``).
  ///
  /// - Throws: ``ReplayError`` (before any trace is replayed).
  public func replay(traces: [Trace], carryingState: Bool = false) throws(ReplayError) -> [ReplayResult] {
    var log = ReplayLog()
    try replay(traces: traces, carryingState: carryingState, into: &log)
    let variant = self.variant
    return traces.indices.map { log.result($0, trace: traces[$0].name, variant: variant) }
  }

  /// Replays traces in order into a flat log (see ``Replay/replay(traces:using:carryingState:into:)``).
  ///
  /// - Throws: ``ReplayError`` (before any trace is replayed).
  public func replay(traces: [Trace], carryingState: Bool = false, into log: inout ReplayLog) throws(ReplayError) {
    if let composition {
      try composition.replay(traces, carryingState, &log)
    } else {
      try base.replay(traces: traces, carryingState: carryingState, into: &log)
    }
  }

  /// Replays contacts stored as columns into a flat log (see
  /// ``Replay/replay(t:force:offsets:maxForce:using:into:)``).
  public func replay(
    t: UnsafeBufferPointer<Double>, force: UnsafeBufferPointer<Double>, offsets: UnsafeBufferPointer<Int>,
    maxForce: Double, into log: inout ReplayLog
  ) {
    base.replay(t: t, force: force, offsets: offsets, maxForce: maxForce, into: &log)
  }
}
