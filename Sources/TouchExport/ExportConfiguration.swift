package import TouchRecognizers

/// A recognizer configuration that `touchtrace export` can write as portable code: one of the
/// supported recognizers with its parameter values, and the causal filter in front of it, if any.
///
/// The exported cores reimplement the replay's delivery (touch-down, moved samples whose force or
/// position changed, timers on a virtual clock, lift or cancel) and the recognizer's rules, in
/// Swift, Kotlin and TypeScript, with these values as constants.
package struct ExportConfiguration: Sendable {
  /// The recognizer rules an exported core implements, with their parameter values.
  package enum Core: Sendable, Hashable {
    /// `deep-press` (FlexMonkey): began at the first non-zero sample with force/max ≥
    /// `threshold`, ended below it. `threshold` in normalized force.
    case deepPress(threshold: Double)
    /// `hysteresis` (libinput-style latch). Thresholds in normalized force; `palmThreshold` NaN
    /// is off.
    case hysteresis(
      pressThreshold: Double, releaseThreshold: Double, palmThreshold: Double, strictPress: Bool,
      inclusiveRelease: Bool)
    /// `stable-press`: dwell, tap guard, drag gate, hysteresis. Thresholds in normalized force,
    /// times in seconds, `movementLimit` in points (NaN is off).
    case stablePress(
      pressThreshold: Double, releaseThreshold: Double, dwellTime: Double, tapTimeout: Double,
      movementLimit: Double, rearm: Bool)
    /// `peek-pop`: two stages. Thresholds in normalized force.
    case peekPop(peekThreshold: Double, popThreshold: Double)

    /// The recognizer's catalog name.
    package var name: String {
      switch self {
      case .deepPress: "deep-press"
      case .hysteresis: "hysteresis"
      case .stablePress: "stable-press"
      case .peekPop: "peek-pop"
      }
    }

    /// Whether the core schedules timers (its clock must be told time passes: `tick`).
    package var usesTimers: Bool {
      if case .stablePress = self { return true }
      return false
    }
  }

  /// The recognizer rules and values.
  package var core: Core
  /// The causal filter applied to force before the recognizer sees it (nil: none).
  package var filter: CausalFilter?
  /// The recognizer's name as the catalog spells it, filter prefix included
  /// (`one-euro/stable-press`).
  package var recognizerName: String
  /// Every parameter with its value as text, filter parameters first, as `touchtrace
  /// recognizers` names them.
  package var parameters: [(name: String, value: String)]
  /// The type name of the generated core (default `ForcePressCore`); adapters are named from it.
  package var typeName: String
  /// Lines for the generated files' header comments (without comment markers): tool, data,
  /// metrics.
  package var provenance: [String]

  /// The recognizers `export` supports, by catalog name (any of them may follow a causal filter,
  /// `ema/`, `movmean/`, `one-euro/`).
  package static let supported = ["deep-press", "hysteresis", "stable-press", "peek-pop"]

  /// Reads the configuration of `recognizer`.
  ///
  /// - Throws: ``ExportError/unsupported(_:supported:)`` for recognizers without an exported
  ///   core, ``ExportError/invalidTypeName(_:)`` for a `typeName` that is not an identifier in
  ///   all three languages.
  package init(
    _ recognizer: AnyForceRecognizer, typeName: String = "ForcePressCore", provenance: [String] = []
  ) throws(ExportError) {
    guard let (core, filter) = Self.read(recognizer.base) else {
      throw .unsupported(recognizer.name, supported: Self.supported)
    }
    guard Self.isIdentifier(typeName) else { throw .invalidTypeName(typeName) }
    self.core = core
    self.filter = filter
    self.recognizerName = recognizer.name
    self.parameters = recognizer.parameters.entries.map { ($0.name, $0.value.description) }
    self.typeName = typeName
    self.provenance = provenance
  }

  static func read(_ recognizer: any ForceRecognizer) -> (Core, CausalFilter?)? {
    switch recognizer {
    case let r as FlexMonkeyDeepPress: return (core(r), nil)
    case let r as HysteresisLatch: return (core(r), nil)
    case let r as StablePress: return (core(r), nil)
    case let r as PeekPop: return (core(r), nil)
    case let r as FilteredRecognizer<FlexMonkeyDeepPress>: return (core(r.base), r.filter)
    case let r as FilteredRecognizer<HysteresisLatch>: return (core(r.base), r.filter)
    case let r as FilteredRecognizer<StablePress>: return (core(r.base), r.filter)
    case let r as FilteredRecognizer<PeekPop>: return (core(r.base), r.filter)
    default: return nil
    }
  }

  static func core(_ r: FlexMonkeyDeepPress) -> Core { .deepPress(threshold: r.threshold) }
  static func core(_ r: HysteresisLatch) -> Core {
    .hysteresis(
      pressThreshold: r.pressThreshold, releaseThreshold: r.releaseThreshold, palmThreshold: r.palmThreshold,
      strictPress: r.strictPress, inclusiveRelease: r.inclusiveRelease)
  }
  static func core(_ r: StablePress) -> Core {
    .stablePress(
      pressThreshold: r.pressThreshold, releaseThreshold: r.releaseThreshold, dwellTime: r.dwellTime,
      tapTimeout: r.tapTimeout, movementLimit: r.movementLimit, rearm: r.rearm)
  }
  static func core(_ r: PeekPop) -> Core { .peekPop(peekThreshold: r.peekThreshold, popThreshold: r.popThreshold) }

  /// Whether `name` is an identifier in Swift, Kotlin and TypeScript alike: an ASCII letter,
  /// then letters and digits.
  package static func isIdentifier(_ name: String) -> Bool {
    guard let first = name.utf8.first, name.utf8.count <= 64 else { return false }
    func letter(_ c: UInt8) -> Bool { (c >= 65 && c <= 90) || (c >= 97 && c <= 122) }
    return letter(first) && name.utf8.allSatisfy { letter($0) || ($0 >= 48 && $0 <= 57) }
  }
}

/// Why a configuration cannot be exported.
package enum ExportError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The recognizer has no exported core.
  case unsupported(String, supported: [String])
  /// The type name is not an identifier in every target language.
  case invalidTypeName(String)

  package var description: String {
    switch self {
    case .unsupported(let name, let supported):
      "recognizer '\(name)' has no exported core; export supports \(supported.joined(separator: ", ")), "
        + "each also behind a causal filter (ema/, movmean/, one-euro/)"
    case .invalidTypeName(let name):
      "type name '\(name)' is not an identifier in Swift, Kotlin and TypeScript (an ASCII letter, then letters and digits)"
    }
  }
}
