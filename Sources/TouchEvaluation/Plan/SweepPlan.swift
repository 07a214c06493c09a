public import TouchCore
public import TouchRecognizers

/// A recognizer to sweep: a catalog variant (`deep-press`) or a require-to-fail composition
/// (`tap+deep-press`: the tap waits for deep-press to fail; see `Composition`), with the
/// catalog it is built from.
public struct RecognizerSpec: Sendable, Hashable, CustomStringConvertible {
  /// The variant (the dependent one of a composition).
  public var variant: String
  /// The variant a composition waits for; `nil` for a plain variant.
  public var required: String?
  /// The catalog the names refer to (not part of equality).
  public var catalog: RecognizerCatalog

  /// Reads `NAME` or `DEPENDENT+REQUIRED`.
  ///
  /// - Throws: ``SweepPlanError`` for an unknown variant or a composition
  ///   `AnyForceRecognizer.requiringFailure(of:)` refuses.
  public init(parsing text: String, catalog: RecognizerCatalog = .builtIn) throws(SweepPlanError) {
    guard let (dependent, required) = Composition.split(text.trimmingSpaces) else {
      throw .malformedRecognizer(text)
    }
    self.init(variant: dependent, required: required, catalog: catalog)
    do throws(ParameterError) {
      _ = try makeRecognizer([:])
    } catch {
      throw .unknownRecognizer(error)
    }
  }

  /// A plain variant or a composition, unchecked.
  public init(variant: String, required: String? = nil, catalog: RecognizerCatalog = .builtIn) {
    self.variant = variant
    self.required = required
    self.catalog = catalog
  }

  /// Equal names.
  public static func == (a: RecognizerSpec, b: RecognizerSpec) -> Bool {
    a.variant == b.variant && a.required == b.required
  }

  /// Hashes the names.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(variant)
    hasher.combine(required)
  }

  /// Reads a comma-separated list (commas inside quotes, in an `exec:` command, do not
  /// separate); `all` stands for every variant of the catalog (not compositions), in listing
  /// order. Repeated names are kept once.
  ///
  /// - Throws: ``SweepPlanError``.
  public static func list(_ text: String, catalog: RecognizerCatalog = .builtIn) throws(SweepPlanError)
    -> [RecognizerSpec]
  {
    var specs: [RecognizerSpec] = []
    for name in Composition.items(text) {
      if name == "all" {
        specs += catalog.names.map { RecognizerSpec(variant: $0, catalog: catalog) }
      } else {
        specs.append(try RecognizerSpec(parsing: name, catalog: catalog))
      }
    }
    var seen = Set<RecognizerSpec>()
    return specs.filter { seen.insert($0).inserted }
  }

  /// `variant` or `variant+required`: the name reports use (the recognizer's own name).
  public var name: String { required.map { Composition.name(dependent: variant, required: $0) } ?? variant }

  /// The same as ``name``.
  public var description: String { name }

  /// The parameters: the variant's, then the required variant's prefixed `required.`.
  public var parameters: [ParameterSpec] {
    let own = descriptor(variant)?.parameters ?? []
    guard let required, let other = descriptor(required) else { return own }
    return Composition.parameters(dependent: own, required: other.parameters)
  }

  /// The declaration of parameter `name` (`required.NAME` for the required variant); `nil` when
  /// there is none.
  public func parameter(_ name: String) -> ParameterSpec? {
    if let declared = parameters.first(where: { $0.name == name }) { return declared }
    // Recognizers that accept any parameter (`exec:`): the required one's prefixed, else the variant's.
    if let base = Composition.unprefixed(name) {
      guard let required, var spec = descriptor(required)?.parameter(base) else { return nil }
      spec.name = name
      return spec
    }
    return descriptor(variant)?.parameter(name)
  }

  /// Builds the recognizer with `values` set (keys as in ``parameters``) and the rest at defaults.
  ///
  /// - Throws: `ParameterError`.
  public func makeRecognizer(_ values: [String: ParameterValue]) throws(ParameterError) -> AnyForceRecognizer {
    var own: [String: ParameterValue] = [:]
    var other: [String: ParameterValue] = [:]
    for (key, value) in values {
      if let base = Composition.unprefixed(key) { other[base] = value } else { own[key] = value }
    }
    if required == nil, let key = other.keys.sorted().first {
      throw ParameterError(
        variant: variant, parameter: Composition.prefixed(key),
        .invalid("only a composition (NAME+REQUIRED) has required. parameters"))
    }
    let main = try catalog.recognizer(variant, values: own)
    guard let required else { return main }
    return try main.requiringFailure(of: catalog.recognizer(required, values: other), catalog: catalog)
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
    let base = Composition.unprefixed(name)
    let owner = base == nil ? variant : required!
    let descriptor = try catalog.requireEntry(owner).descriptor
    let key = base ?? name
    guard let value = try descriptor.resolve(text: [(key, text)])[key] else {
      throw ParameterError(variant: owner, parameter: key, .unknownParameter(known: descriptor.parameters.map(\.name)))
    }
    return value
  }

  /// The description of variant `name` in the catalog.
  func descriptor(_ name: String) -> RecognizerDescription? {
    catalog.entry(name)?.descriptor
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

  /// The dropped grid points said in one line, grouped by recognizer and rule, each rule with
  /// the valid range its parameter has: `deep-press threshold=1.25, threshold=1.5 (parameter
  /// 'threshold' must be in [0, 1])`, or the parameter it must agree with; at most `limit`
  /// points per group, then `and N more`.
  public static func summary(_ dropped: [DroppedConfiguration], limit: Int = 4) -> String {
    var groups: [(key: String, recognizer: String, rule: String, points: [String])] = []
    for d in dropped {
      // The reason ends with the value given (`…, got 1.25`); the rule is what comes before.
      var rule = d.reason
      let marker = Array(", got ".utf8)
      let bytes = Array(rule.utf8)
      if bytes.count >= marker.count,
        let start = (0...(bytes.count - marker.count)).reversed().first(where: {
          Array(bytes[$0..<$0 + marker.count]) == marker
        })
      {
        rule = String(decoding: bytes[..<start], as: UTF8.self)
      }
      let prefix = "recognizer '\(d.recognizer)': "
      if rule.hasPrefix(prefix) { rule.removeFirst(prefix.count) }
      // A rule relative to another parameter ends with that parameter's value: `(0.85)`.
      if rule.hasSuffix(")"), let open = rule.lastIndex(of: "("), open > rule.startIndex,
        rule[rule.index(before: open)] == " ",
        Double(rule[rule.index(after: open)..<rule.index(before: rule.endIndex)]) != nil
      {
        rule = String(rule[..<rule.index(before: open)])
      }
      let key = d.recognizer + "\u{0}" + rule
      let point = d.values.joined(separator: " ")
      if let k = groups.firstIndex(where: { $0.key == key }) {
        groups[k].points.append(point)
      } else {
        groups.append((key, d.recognizer, rule, [point]))
      }
    }
    return groups.map { g in
      let shown = g.points.prefix(limit).joined(separator: ", ")
      let more = g.points.count > limit ? " and \(g.points.count - limit) more" : ""
      return "\(g.recognizer) \(shown)\(more) (\(g.rule))"
    }.joined(separator: "; ")
  }
}

/// The configurations of a sweep: for each recognizer, the Cartesian product of the axes it has
/// (the first axis varies slowest), with the fixed settings applied.
///
/// - An axis or a setting applies to every listed recognizer that has a parameter of that name;
///   naming a parameter none of them has is an error.
/// - A recognizer that has none of the axes is evaluated once, at its defaults and settings.
/// - Without any axis, each recognizer gets its default grid (``defaultAxis(for:maximumForces:)``),
///   unless a setting fixes that parameter.
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
  ///
  /// - Parameters:
  ///   - recognizers: the recognizers, in order.
  ///   - axes: the swept parameters (empty: each recognizer's default grid).
  ///   - settings: the fixed parameter values (`name`, `value` as text).
  ///   - maximumForces: the data's maximum possible forces (one per device kind), force units, for
  ///     default grids that follow them (`ParameterGrid.fractionsOfMaximumForce(steps:)`).
  public init(
    recognizers: [RecognizerSpec], axes: [SweepAxis] = [], settings: [(name: String, value: String)] = [],
    maximumForces: [Double] = []
  ) throws(SweepPlanError) {
    try Self.check(recognizers: recognizers, axes: axes, settings: settings)
    var configurations: [Configuration] = []
    var dropped: [DroppedConfiguration] = []
    var byRecognizer: [(recognizer: RecognizerSpec, axes: [SweepAxis])] = []
    var total = 0
    for spec in recognizers {
      let fixed = try Self.fixedValues(of: spec, settings: settings)
      let own = Self.sweptAxes(of: spec, axes: axes, settings: settings, maximumForces: maximumForces)
      byRecognizer.append((spec, own))
      let columns = try Self.columns(of: spec, own)
      let count = columns.reduce(1) { $0.multipliedReportingOverflow(by: $1.count).overflow ? Int.max : $0 * $1.count }
      total = total.addingReportingOverflow(count).overflow ? Int.max : total + count
      guard total <= Self.maximumConfigurations else {
        throw .tooManyConfigurations(maximum: Self.maximumConfigurations)
      }
      try Self.makeConfigurations(
        spec, own, columns: columns, count: count, fixed: fixed, into: &configurations, dropped: &dropped)
    }
    self.recognizers = recognizers
    self.axes = axes
    self.settings = settings
    self.configurations = configurations
    self.axesByRecognizer = byRecognizer
    self.dropped = dropped
  }

  /// Refuses no recognizer, an axis or a setting none of `recognizers` has, a parameter both
  /// varied and set, and an axis given twice.
  private static func check(
    recognizers: [RecognizerSpec], axes: [SweepAxis], settings: [(name: String, value: String)]
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
  }

  /// The values of the `settings` that `spec` has, read as its parameters take them.
  private static func fixedValues(
    of spec: RecognizerSpec, settings: [(name: String, value: String)]
  ) throws(SweepPlanError) -> [String: ParameterValue] {
    var fixed: [String: ParameterValue] = [:]
    for setting in settings where spec.parameter(setting.name) != nil {
      do throws(ParameterError) {
        fixed[setting.name] = try spec.value(setting.value, of: setting.name)
      } catch {
        throw .invalidSetting(name: setting.name, value: setting.value, error)
      }
    }
    return fixed
  }

  /// The axes `spec` is swept over: those of `axes` it has or, without axes, its default grid
  /// (unless a setting fixes that parameter).
  private static func sweptAxes(
    of spec: RecognizerSpec, axes: [SweepAxis], settings: [(name: String, value: String)], maximumForces: [Double]
  ) -> [SweepAxis] {
    // Without axes, the default grid, unless that parameter is set.
    let standard = Self.defaultAxis(for: spec, maximumForces: maximumForces).flatMap { axis in
      settings.contains { $0.name == axis.parameter } ? nil : axis
    }
    return axes.isEmpty ? (standard.map { [$0] } ?? []) : axes.filter { spec.parameter($0.parameter) != nil }
  }

  /// Each of `own`'s values as `spec`'s parameter takes them, axis by axis.
  private static func columns(of spec: RecognizerSpec, _ own: [SweepAxis]) throws(SweepPlanError) -> [[ParameterValue]]
  {
    var columns: [[ParameterValue]] = []
    for axis in own {
      columns.append(try column(of: spec, axis))
    }
    return columns
  }

  /// `axis`'s values as `spec`'s parameter takes them: numbers for a number, words read as a flag.
  ///
  /// - Throws: for a list parameter, a number for a flag, a word for a number, an unreadable flag.
  private static func column(of spec: RecognizerSpec, _ axis: SweepAxis) throws(SweepPlanError) -> [ParameterValue] {
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
    return column
  }

  /// `spec`'s `count` configurations: `fixed` with each point of the product of `columns` (the
  /// values of the axes `own`, the last varying fastest), appended to `configurations`; the points
  /// `spec` rejects go to `dropped`.
  ///
  /// - Throws: ``SweepPlanError/noValidConfiguration(recognizer:firstError:)`` when it rejects all.
  private static func makeConfigurations(
    _ spec: RecognizerSpec, _ own: [SweepAxis], columns: [[ParameterValue]], count: Int,
    fixed: [String: ParameterValue], into configurations: inout [Configuration],
    dropped: inout [DroppedConfiguration]
  ) throws(SweepPlanError) {
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
      advance(&index, over: columns)
    }
    guard made > 0 else {
      throw .noValidConfiguration(recognizer: spec.name, firstError: firstError)
    }
  }

  /// Advances the odometer `index` over `columns`: the last axis fastest, every digit back to 0
  /// after the last point.
  private static func advance(_ index: inout [Int], over columns: [[ParameterValue]]) {
    var a = columns.count - 1
    while a >= 0 {
      index[a] += 1
      if index[a] < columns[a].count { break }
      index[a] = 0
      a -= 1
    }
  }

  /// Whether `spec`'s default grid follows the data's maximum possible force.
  public static func defaultGridFollowsMaximumForce(_ spec: RecognizerSpec) -> Bool {
    guard spec.required == nil, let descriptor = spec.descriptor(spec.variant),
      let name = descriptor.sweptByDefault, let main = descriptor.parameter(name)
    else { return false }
    return main.grid.followsMaximumForce
  }

  /// The maximum possible forces default grids follow on `traces`: every distinct one a trace
  /// declares, in increasing order, force units (empty when none declares one).
  public static func maximumForces(of traces: [Trace]) -> [Double] {
    Array(Set(traces.compactMap(\.metadata.maxForce))).sorted()
  }

  /// The default grid of a recognizer: the parameter its description sweeps by default
  /// (`RecognizerDescription/sweptByDefault`) over that parameter's declared grid
  /// (`ParameterSpec/grid`); `nil` for compositions, recognizers without a default sweep, and
  /// grids relative to the maximum force when none is known.
  ///
  /// A grid relative to the maximum force is the union of its points for each of
  /// `maximumForces` (data from several kinds of device gets each device's grid: k/20 of 1.0
  /// for Android pressure, of 20/3 for 3D Touch, of 255 for a touchpad).
  ///
  /// - Parameters:
  ///   - spec: the recognizer.
  ///   - maximumForces: the data's maximum possible forces, force units.
  public static func defaultAxis(for spec: RecognizerSpec, maximumForces: [Double] = []) -> SweepAxis? {
    guard spec.required == nil, let descriptor = spec.descriptor(spec.variant),
      let name = descriptor.sweptByDefault, let main = descriptor.parameter(name)
    else { return nil }
    let standard: Double = if case .number(let x) = main.defaultValue { x } else { .nan }
    let values: [Double]
    if main.grid.followsMaximumForce {
      values = Array(Set(maximumForces.flatMap { main.grid.values(default: standard, maximumForce: $0) })).sorted()
    } else {
      values = main.grid.values(default: standard, maximumForce: nil)
    }
    guard !values.isEmpty else { return nil }
    let text = values.map(SweepAxis.text).joined(separator: ",")
    return SweepAxis(parameter: main.name, text: text, values: values.map { .number($0) })
  }
}
