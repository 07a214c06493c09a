public import TouchCore

/// Generic code to run on the concrete recognizer inside an ``AnyForceRecognizer``: the enum is
/// switched once, then `visit` runs specialized for that type (no per-sample dispatch).
public protocol ForceRecognizerVisitor {
  /// What the visit returns.
  associatedtype Output
  /// Runs on the concrete recognizer.
  func visit<R: ForceRecognizer>(_ recognizer: R) -> Output
}

/// Every variant, as one closed enum: build any variant by name, list them, and replay through
/// whichever is chosen with static dispatch (one `switch` per replay call, not per sample).
///
/// ```swift
/// let recognizer = try AnyForceRecognizer(variant: "deep-press", settings: [("threshold", "0.6")])
/// let result = try recognizer.replay(trace: trace)
/// ```
public enum AnyForceRecognizer: Sendable {
  /// V1.
  case shunkit(ShunkitForceTouch)
  /// V2.
  case deepPress(FlexMonkeyDeepPress)
  /// V2 preset: yusuga.
  case yusuga(YusugaForceTouch)
  /// V2 preset: ALGSqueeze.
  case algSqueeze(ALGSqueeze)
  /// V2 preset: frosty.
  case frosty(FrostyForceTouch)
  /// V2 preset: PS.
  case ps(PSForceTouch)
  /// V3.
  case gtDeepPress(GTForceTouch)
  /// V4.
  case flutterForcePress(FlutterForcePress)
  /// V5.
  case rnghForce(RNGHForceTouch)
  /// V6.
  case dfContinuous(DFContinuousForceTouch)
  /// V7.
  case hysteresis(HysteresisLatch)
  /// V8.
  case pressureJS(PressureJSDeepPress)
  /// V9, iOS.
  case longPress(IOSLongPress)
  /// V9, Android.
  case longPressAndroid(AndroidLongPress)
  /// V10.
  case peakRelease(PeakRelease)
  /// V11.
  case zones(ThresholdZones)
  /// Two-stage peek and pop.
  case peekPop(PeekPop)
  /// Single tap.
  case tap(TapRecognizer)
  /// Ours.
  case stablePress(StablePress)
  /// A tap or long press that waits for another recognizer to fail (see ``RequireToFail``).
  /// Build it with ``requiringFailure(of:)``.
  indirect case requiringFailure(dependent: AnyForceRecognizer, required: AnyForceRecognizer)

  /// The descriptors of every variant, in listing order.
  public static let variants: [RecognizerDescription] = [
    ShunkitForceTouch.descriptor, FlexMonkeyDeepPress.descriptor, YusugaForceTouch.descriptor,
    ALGSqueeze.descriptor, FrostyForceTouch.descriptor, PSForceTouch.descriptor,
    GTForceTouch.descriptor, FlutterForcePress.descriptor, RNGHForceTouch.descriptor,
    DFContinuousForceTouch.descriptor, HysteresisLatch.descriptor, PressureJSDeepPress.descriptor,
    IOSLongPress.descriptor, AndroidLongPress.descriptor, PeakRelease.descriptor,
    ThresholdZones.descriptor, PeekPop.descriptor, TapRecognizer.descriptor, StablePress.descriptor,
  ]

  /// The names of every variant, in listing order.
  public static var names: [String] { variants.map(\.name) }

  /// The variants that can wait for another to fail (the dependent side of a composition).
  public static let dependentNames = ["tap", "long-press", "long-press-android"]

  /// Builds the variant `name` from parameter values (the rest at their defaults).
  ///
  /// - Throws: ``ParameterError`` for an unknown variant or parameter, or an invalid value.
  public init(variant name: String, values: [String: ParameterValue]) throws(ParameterError) {
    switch name {
    case ShunkitForceTouch.descriptor.name: self = .shunkit(try ShunkitForceTouch(setting: values))
    case FlexMonkeyDeepPress.descriptor.name: self = .deepPress(try FlexMonkeyDeepPress(setting: values))
    case YusugaForceTouch.descriptor.name: self = .yusuga(try YusugaForceTouch(setting: values))
    case ALGSqueeze.descriptor.name: self = .algSqueeze(try ALGSqueeze(setting: values))
    case FrostyForceTouch.descriptor.name: self = .frosty(try FrostyForceTouch(setting: values))
    case PSForceTouch.descriptor.name: self = .ps(try PSForceTouch(setting: values))
    case GTForceTouch.descriptor.name: self = .gtDeepPress(try GTForceTouch(setting: values))
    case FlutterForcePress.descriptor.name: self = .flutterForcePress(try FlutterForcePress(setting: values))
    case RNGHForceTouch.descriptor.name: self = .rnghForce(try RNGHForceTouch(setting: values))
    case DFContinuousForceTouch.descriptor.name:
      self = .dfContinuous(try DFContinuousForceTouch(setting: values))
    case HysteresisLatch.descriptor.name: self = .hysteresis(try HysteresisLatch(setting: values))
    case PressureJSDeepPress.descriptor.name: self = .pressureJS(try PressureJSDeepPress(setting: values))
    case IOSLongPress.descriptor.name: self = .longPress(try IOSLongPress(setting: values))
    case AndroidLongPress.descriptor.name: self = .longPressAndroid(try AndroidLongPress(setting: values))
    case PeakRelease.descriptor.name: self = .peakRelease(try PeakRelease(setting: values))
    case ThresholdZones.descriptor.name: self = .zones(try ThresholdZones(setting: values))
    case PeekPop.descriptor.name: self = .peekPop(try PeekPop(setting: values))
    case TapRecognizer.descriptor.name: self = .tap(try TapRecognizer(setting: values))
    case StablePress.descriptor.name: self = .stablePress(try StablePress(setting: values))
    default:
      throw ParameterError(variant: name, parameter: nil, .unknownVariant(known: Self.names))
    }
  }

  /// Builds the variant `name` from settings written as text (`name`, `value`), as on the
  /// command line.
  ///
  /// - Throws: ``ParameterError``.
  public init(variant name: String, settings: [(name: String, value: String)] = []) throws(ParameterError) {
    guard let descriptor = Self.variants.first(where: { $0.name == name }) else {
      throw ParameterError(variant: name, parameter: nil, .unknownVariant(known: Self.names))
    }
    var values: [String: ParameterValue] = [:]
    for (key, text) in settings {
      guard let spec = descriptor.parameter(key) else {
        throw ParameterError(
          variant: name, parameter: key, .unknownParameter(known: descriptor.parameters.map(\.name)))
      }
      values[key] = try spec.parse(text, variant: name)
    }
    try self.init(variant: name, values: values)
  }

  /// This recognizer (a tap or long press) waiting for `required` to fail.
  ///
  /// - Throws: ``ParameterError`` when this recognizer cannot be a dependent (only `tap`,
  ///   `long-press`, `long-press-android`) or either side is already a composition.
  public func requiringFailure(of required: AnyForceRecognizer) throws(ParameterError) -> AnyForceRecognizer {
    switch self {
    case .tap, .longPress, .longPressAndroid: break
    default:
      throw ParameterError(
        variant: name, parameter: nil,
        .invalid("only \(Self.dependentNames.joined(separator: ", ")) can wait for another recognizer to fail"))
    }
    if case .requiringFailure = required {
      throw ParameterError(variant: required.name, parameter: nil, .invalid("compositions cannot be nested"))
    }
    return .requiringFailure(dependent: self, required: required)
  }

  /// Runs `visitor` on the concrete recognizer (a ``RequireToFail`` for compositions).
  ///
  /// Inlinable: compiled in the caller's module, so `visitor.visit` — and whatever replay loop
  /// it runs — is specialized for each concrete recognizer type (static dispatch per sample).
  @inlinable
  public func open<V: ForceRecognizerVisitor>(_ visitor: V) -> V.Output {
    switch self {
    case .shunkit(let r): visitor.visit(r)
    case .deepPress(let r): visitor.visit(r)
    case .yusuga(let r): visitor.visit(r)
    case .algSqueeze(let r): visitor.visit(r)
    case .frosty(let r): visitor.visit(r)
    case .ps(let r): visitor.visit(r)
    case .gtDeepPress(let r): visitor.visit(r)
    case .flutterForcePress(let r): visitor.visit(r)
    case .rnghForce(let r): visitor.visit(r)
    case .dfContinuous(let r): visitor.visit(r)
    case .hysteresis(let r): visitor.visit(r)
    case .pressureJS(let r): visitor.visit(r)
    case .longPress(let r): visitor.visit(r)
    case .longPressAndroid(let r): visitor.visit(r)
    case .peakRelease(let r): visitor.visit(r)
    case .zones(let r): visitor.visit(r)
    case .peekPop(let r): visitor.visit(r)
    case .tap(let r): visitor.visit(r)
    case .stablePress(let r): visitor.visit(r)
    case .requiringFailure(let dependent, let required):
      switch dependent {
      case .tap(let d): required.open(Composer(dependent: d, inner: visitor))
      case .longPress(let d): required.open(Composer(dependent: d, inner: visitor))
      case .longPressAndroid(let d): required.open(Composer(dependent: d, inner: visitor))
      default: preconditionFailure("requiringFailure(of:) admits only tap and long-press dependents")
      }
    }
  }

  /// Wraps the visited recognizer in a composition with a fixed dependent.
  @usableFromInline
  struct Composer<D: ForceRecognizer, V: ForceRecognizerVisitor>: ForceRecognizerVisitor {
    @usableFromInline let dependent: D
    @usableFromInline let inner: V

    @inlinable
    init(dependent: D, inner: V) {
      self.dependent = dependent
      self.inner = inner
    }

    @inlinable
    func visit<R: ForceRecognizer>(_ recognizer: R) -> V.Output {
      inner.visit(RequireToFail(dependent, requiringFailureOf: recognizer))
    }
  }

  private struct Property<T>: ForceRecognizerVisitor {
    let get: @Sendable (any ForceRecognizer) -> T
    func visit<R: ForceRecognizer>(_ recognizer: R) -> T { get(recognizer) }
  }

  /// The variant's description.
  public var variant: RecognizerDescription { open(Property { $0.variant }) }

  /// The variant's name.
  public var name: String { variant.name }

  /// The parameter values.
  public var parameters: ParameterValues { open(Property { $0.parameters }) }

  /// Whether replaying needs the trace's maximum possible force.
  public var requiresMaximumForce: Bool { open(Property { $0.requiresMaximumForce }) }

  /// The threshold sweeps this instance supports (see ``ThresholdSweep``).
  public var thresholdSweeps: [ThresholdSweep] { open(Property { $0.thresholdSweeps }) }

  /// Why `trace` cannot be replayed through this recognizer, or `nil` when it can (for
  /// `Dataset.skipTraces(where:)`).
  public func unsupportedReason(for trace: Trace) -> String? {
    requiresMaximumForce && trace.metadata.maxForce == nil
      ? ReplayError.missingMaximumForce(trace: trace.name, variant: name).reason : nil
  }

  private struct ReplayOne: ForceRecognizerVisitor {
    let trace: Trace
    func visit<R: ForceRecognizer>(_ recognizer: R) -> Result<ReplayResult, ReplayError> {
      do throws(ReplayError) {
        return .success(try Replay.replay(trace: trace, using: recognizer))
      } catch {
        return .failure(error)
      }
    }
  }

  private struct ReplayMany: ForceRecognizerVisitor {
    let traces: [Trace]
    let carryingState: Bool
    func visit<R: ForceRecognizer>(_ recognizer: R) -> Result<[ReplayResult], ReplayError> {
      do throws(ReplayError) {
        return .success(try Replay.replay(traces: traces, using: recognizer, carryingState: carryingState))
      } catch {
        return .failure(error)
      }
    }
  }

  /// Replays one trace through a fresh copy of this recognizer.
  ///
  /// - Throws: ``ReplayError``.
  public func replay(trace: Trace) throws(ReplayError) -> ReplayResult {
    try open(ReplayOne(trace: trace)).get()
  }

  /// Replays traces in order, each through a fresh copy or, with `carryingState`, all through one
  /// instance (see ``Replay/replay(traces:using:carryingState:)``).
  ///
  /// - Throws: ``ReplayError`` (before any trace is replayed).
  public func replay(traces: [Trace], carryingState: Bool = false) throws(ReplayError) -> [ReplayResult] {
    try open(ReplayMany(traces: traces, carryingState: carryingState)).get()
  }
}
