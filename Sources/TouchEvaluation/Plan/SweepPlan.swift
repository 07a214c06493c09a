public import TouchRecognizers

/// A recognizer to sweep: a variant (`deep-press`) or a require-to-fail composition
/// (`tap+deep-press`: the tap waits for deep-press to fail).
public struct RecognizerSpec: Sendable, Hashable, CustomStringConvertible {
  /// The variant (the dependent one of a composition).
  public var variant: String
  /// The variant a composition waits for; `nil` for a plain variant.
  public var required: String?

  /// Reads `NAME` or `DEPENDENT+REQUIRED`.
  ///
  /// - Throws: ``SweepPlanError`` for an unknown variant or a composition
  ///   `AnyForceRecognizer.requiringFailure(of:)` refuses.
  public init(parsing text: String) throws(SweepPlanError) {
    let parts = text.trimmingSpaces.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
    guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty }) else {
      throw .malformedRecognizer(text)
    }
    variant = parts[0]
    required = parts.count == 2 ? parts[1] : nil
    do throws(ParameterError) {
      _ = try makeRecognizer([:])
    } catch {
      throw .unknownRecognizer(error)
    }
  }

  /// A plain variant or a composition, unchecked.
  public init(variant: String, required: String? = nil) {
    self.variant = variant
    self.required = required
  }

  /// Reads a comma-separated list; `all` stands for every variant (not compositions), in listing
  /// order. Repeated names are kept once.
  ///
  /// - Throws: ``SweepPlanError``.
  public static func list(_ text: String) throws(SweepPlanError) -> [RecognizerSpec] {
    var specs: [RecognizerSpec] = []
    for part in text.split(separator: ",", omittingEmptySubsequences: false) {
      let name = String(part).trimmingSpaces
      if name == "all" {
        specs += AnyForceRecognizer.names.map { RecognizerSpec(variant: $0) }
      } else {
        specs.append(try RecognizerSpec(parsing: name))
      }
    }
    var seen = Set<RecognizerSpec>()
    return specs.filter { seen.insert($0).inserted }
  }

  /// `variant` or `variant+required`: the name reports use (the recognizer's own name).
  public var name: String { required.map { "\(variant)+\($0)" } ?? variant }

  /// The same as ``name``.
  public var description: String { name }

  /// The parameters: the variant's, then the required variant's prefixed `required.`.
  public var parameters: [ParameterSpec] {
    var list = Self.descriptor(variant)?.parameters ?? []
    if let required, let descriptor = Self.descriptor(required) {
      list += descriptor.parameters.map { spec in
        var copy = spec
        copy.name = "required." + spec.name
        return copy
      }
    }
    return list
  }

  /// The declaration of parameter `name` (`required.NAME` for the required variant); `nil` when
  /// there is none.
  public func parameter(_ name: String) -> ParameterSpec? { parameters.first { $0.name == name } }

  /// Builds the recognizer with `values` set (keys as in ``parameters``) and the rest at defaults.
  ///
  /// - Throws: `ParameterError`.
  public func makeRecognizer(_ values: [String: ParameterValue]) throws(ParameterError) -> AnyForceRecognizer {
    var own: [String: ParameterValue] = [:]
    var other: [String: ParameterValue] = [:]
    for (key, value) in values {
      if key.hasPrefix("required.") { other[String(key.dropFirst("required.".count))] = value } else { own[key] = value }
    }
    if required == nil, let key = other.keys.sorted().first {
      throw ParameterError(variant: variant, parameter: "required." + key, .invalid("only a composition (NAME+REQUIRED) has required. parameters"))
    }
    let main = try AnyForceRecognizer(variant: variant, values: own)
    guard let required else { return main }
    return try main.requiringFailure(of: AnyForceRecognizer(variant: required, values: other))
  }

  /// Reads `text` as a value of parameter `name`: numbers as decimals or fractions (`1/60`,
  /// converted once) or `nan`/`inf`, flags and lists by the parameter's own rules.
  ///
  /// - Throws: `ParameterError`.
  public func value(_ text: String, of name: String) throws(ParameterError) -> ParameterValue {
    guard let spec = parameter(name) else {
      throw ParameterError(variant: self.name, parameter: name, .unknownParameter(known: parameters.map(\.name)))
    }
    if spec.kind == .number, let r = ExactRational(text.trimmingSpaces), let x = r.nearestDouble {
      return .number(x)
    }
    let owner = name.hasPrefix("required.") ? required! : variant
    let base = name.hasPrefix("required.") ? String(name.dropFirst("required.".count)) : name
    guard let descriptor = Self.descriptor(owner) else {
      throw ParameterError(variant: owner, parameter: nil, .unknownVariant(known: AnyForceRecognizer.names))
    }
    guard let value = try descriptor.resolve(text: [(base, text)])[base] else {
      throw ParameterError(variant: owner, parameter: base, .unknownParameter(known: descriptor.parameters.map(\.name)))
    }
    return value
  }

  static func descriptor(_ name: String) -> VariantDescriptor? {
    AnyForceRecognizer.variants.first { $0.name == name }
  }
}

/// One recognizer with all its parameter values: a point of a sweep.
public struct Configuration: Sendable {
  /// The recognizer it came from.
  public var spec: RecognizerSpec
  /// The recognizer, built.
  public var recognizer: AnyForceRecognizer
  /// The parameters set from sweep axes, in axis order.
  public var varied: [String]

  /// Creates a configuration.
  public init(spec: RecognizerSpec, recognizer: AnyForceRecognizer, varied: [String]) {
    self.spec = spec
    self.recognizer = recognizer
    self.varied = varied
  }

  /// The recognizer's name (`deep-press`, `tap+deep-press`).
  public var name: String { spec.name }

  /// Every parameter value, in declaration order (`required.` ones last).
  public var parameters: ParameterValues { recognizer.parameters }

  /// The shape of its outcomes.
  public var shape: OutcomeShape { OutcomeShape(recognizer: recognizer) }
}

/// A grid point left out of a sweep because its values break a rule of the recognizer (a value
/// out of range, or two parameters out of order such as peekThreshold above popThreshold).
public struct DroppedConfiguration: Sendable, Hashable, CustomStringConvertible {
  /// The recognizer.
  public var recognizer: String
  /// The grid values, `name=value`, in axis order.
  public var values: [String]
  /// Why.
  public var reason: String

  /// Creates a record.
  public init(recognizer: String, values: [String], reason: String) {
    self.recognizer = recognizer
    self.values = values
    self.reason = reason
  }

  /// `recognizer (a=1, b=2): reason`.
  public var description: String { "\(recognizer) (\(values.joined(separator: ", "))): \(reason)" }
}

/// The configurations of a sweep: for each recognizer, the Cartesian product of the axes it has
/// (the first axis varies slowest), with the fixed settings applied.
///
/// - An axis or a setting applies to every listed recognizer that has a parameter of that name;
///   naming a parameter none of them has is an error.
/// - A recognizer that has none of the axes is evaluated once, at its defaults and settings.
/// - Without any axis, each recognizer gets its default grid (``defaultAxis(for:)``).
/// - Grid points whose values the recognizer rejects are dropped and listed in ``dropped``; a
///   recognizer left without any configuration is an error.
public struct SweepPlan: Sendable {
  /// The recognizers, in order.
  public let recognizers: [RecognizerSpec]
  /// The axes as given (empty: default grids).
  public let axes: [SweepAxis]
  /// The fixed settings (`name`, `value` as text), in order.
  public let settings: [(name: String, value: String)]
  /// The configurations, recognizer by recognizer.
  public let configurations: [Configuration]
  /// The axes each recognizer was swept over (the default grid when no axis was given).
  public let axesByRecognizer: [(recognizer: RecognizerSpec, axes: [SweepAxis])]
  /// Grid points left out, with reasons.
  public let dropped: [DroppedConfiguration]

  /// The largest number of configurations a plan may have.
  public static let maximumConfigurations = 1_000_000

  /// Builds the configurations.
  ///
  /// - Throws: ``SweepPlanError`` for an axis or setting no recognizer has, a setting that is
  ///   also an axis, an unreadable setting, a list parameter on an axis, too many
  ///   configurations, or a recognizer left without configurations.
  public init(
    recognizers: [RecognizerSpec], axes: [SweepAxis] = [], settings: [(name: String, value: String)] = []
  ) throws(SweepPlanError) {
    guard !recognizers.isEmpty else { throw .noRecognizer }
    for axis in axes where !recognizers.contains(where: { $0.parameter(axis.parameter) != nil }) {
      throw .unknownAxis(parameter: axis.parameter, recognizers: recognizers.map(\.name))
    }
    for setting in settings where !recognizers.contains(where: { $0.parameter(setting.name) != nil }) {
      throw .unknownSetting(parameter: setting.name, recognizers: recognizers.map(\.name))
    }
    for axis in axes {
      if settings.contains(where: { $0.name == axis.parameter }) {
        throw .variedAndSet(parameter: axis.parameter)
      }
      if axes.filter({ $0.parameter == axis.parameter }).count > 1 {
        throw .repeatedAxis(parameter: axis.parameter)
      }
    }
    var configurations: [Configuration] = []
    var dropped: [DroppedConfiguration] = []
    var byRecognizer: [(recognizer: RecognizerSpec, axes: [SweepAxis])] = []
    var total = 0
    for spec in recognizers {
      var fixed: [String: ParameterValue] = [:]
      for setting in settings where spec.parameter(setting.name) != nil {
        do throws(ParameterError) {
          fixed[setting.name] = try spec.value(setting.value, of: setting.name)
        } catch {
          throw .invalidSetting(name: setting.name, value: setting.value, error)
        }
      }
      let own: [SweepAxis] =
        axes.isEmpty ? (Self.defaultAxis(for: spec).map { [$0] } ?? []) : axes.filter { spec.parameter($0.parameter) != nil }
      byRecognizer.append((spec, own))
      var columns: [[ParameterValue]] = []
      for axis in own {
        let parameter = spec.parameter(axis.parameter)!
        guard parameter.kind != .list else {
          throw .listAxis(parameter: axis.parameter)
        }
        var column: [ParameterValue] = []
        for value in axis.values {
          switch (value, parameter.kind) {
          case (.number(let x), .number): column.append(.number(x))
          case (.word(let w), .flag):
            do throws(ParameterError) {
              column.append(try spec.value(w, of: axis.parameter))
            } catch {
              throw .invalidAxisValue(parameter: axis.parameter, error)
            }
          case (_, .flag):
            throw .numberForFlag(parameter: axis.parameter, recognizer: spec.name)
          default:
            throw .wordForNumber(parameter: axis.parameter, recognizer: spec.name, value: value)
          }
        }
        columns.append(column)
      }
      let count = columns.reduce(1) { $0.multipliedReportingOverflow(by: $1.count).overflow ? Int.max : $0 * $1.count }
      total = total.addingReportingOverflow(count).overflow ? Int.max : total + count
      guard total <= Self.maximumConfigurations else {
        throw .tooManyConfigurations(maximum: Self.maximumConfigurations)
      }
      var made = 0
      var firstError: ParameterError?
      var index = [Int](repeating: 0, count: columns.count)
      for _ in 0..<count {
        var values = fixed
        var labels: [String] = []
        for (a, column) in columns.enumerated() {
          values[own[a].parameter] = column[index[a]]
          labels.append("\(own[a].parameter)=\(column[index[a]])")
        }
        do throws(ParameterError) {
          let recognizer = try spec.makeRecognizer(values)
          configurations.append(Configuration(spec: spec, recognizer: recognizer, varied: own.map(\.parameter)))
          made += 1
        } catch {
          dropped.append(DroppedConfiguration(recognizer: spec.name, values: labels, reason: error.description))
          firstError = firstError ?? error
        }
        // Advance the odometer: the last axis fastest.
        var a = columns.count - 1
        while a >= 0 {
          index[a] += 1
          if index[a] < columns[a].count { break }
          index[a] = 0
          a -= 1
        }
      }
      guard made > 0 else {
        throw .noValidConfiguration(recognizer: spec.name, firstError: firstError)
      }
    }
    self.recognizers = recognizers
    self.axes = axes
    self.settings = settings
    self.configurations = configurations
    self.axesByRecognizer = byRecognizer
    self.dropped = dropped
  }

  /// The default grid of a recognizer: its main parameter over a range by unit; `nil` for
  /// compositions and variants without a number parameter.
  ///
  /// The main parameter is the one its first threshold sweep varies (its first-crossing
  /// threshold), else its first number parameter with a finite default in a force unit, else
  /// its first number parameter with a finite non-zero default. Values: normalized force
  /// 0.05, 0.10, …, 1 (k/20) plus the default when it is not among them; any other unit the
  /// default × k/8 for k = 1…16 (computed as exact fractions of the default's decimal text). Values outside the parameter's range are dropped when the
  /// configurations are built.
  public static func defaultAxis(for spec: RecognizerSpec) -> SweepAxis? {
    guard spec.required == nil, let descriptor = RecognizerSpec.descriptor(spec.variant),
      let recognizer = try? spec.makeRecognizer([:])
    else { return nil }
    let numbers = descriptor.parameters.filter {
      guard $0.kind == .number, case .number(let x) = $0.defaultValue else { return false }
      return x.isFinite
    }
    let main =
      recognizer.thresholdSweeps.first.flatMap { sweep in numbers.first { $0.name == sweep.parameter } }
      ?? numbers.first { $0.unit == .force || $0.unit == .normalizedForce }
      ?? numbers.first { if case .number(let x) = $0.defaultValue { return x != 0 } else { return false } }
    guard let main, case .number(let standard) = main.defaultValue else { return nil }
    var values: [Double]
    if main.unit == .normalizedForce {
      values = (1...20).map { ExactRational(numerator: Int64($0), denominator: 20)!.nearestDouble! }
      if !values.contains(standard) { values = (values + [standard]).sorted() }
    } else {
      // default × k/8 as exact fractions of the default's shortest decimal text.
      guard standard != 0, let exact = ExactRational("\(standard)") else { return nil }
      values = (1...16).compactMap { exact.multiplied(by: Int64($0))?.dividing(by: ExactRational(8))?.nearestDouble }
    }
    let text = values.map(SweepAxis.text).joined(separator: ",")
    return SweepAxis(parameter: main.name, text: text, values: values.map { .number($0) })
  }
}
