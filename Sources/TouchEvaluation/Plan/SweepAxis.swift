import TouchRecognizers

/// One swept parameter: its name and the values it takes, from `NAME=START:STOP:STEP` or
/// `NAME=V1,V2,...` (`touchtrace sweep --vary`).
///
/// A range `START:STOP:STEP` gives the points `START + k·STEP` for k = 0, 1, … while they do not
/// exceed STOP; STOP itself is included exactly when it lies on the grid. START, STOP and STEP
/// are decimals (`0.05`, `2.5e-3`) or fractions (`1/60`); every point is computed as an exact
/// fraction and converted to `Double` once (the double nearest to it), never by repeated
/// addition. So `0:1:1/60` has 61 points, point 45 is exactly `45.0 / 60`, and `0:3:1/60`
/// ends at exactly 3.0.
///
/// A list `V1,V2,...` takes each value as written: numbers (decimals or fractions, each
/// converted once), `nan`, `inf`, or `true`/`false` for flag parameters. Repeated values are kept
/// once, in the order first given.
public struct SweepAxis: Sendable, Hashable, CustomStringConvertible {
  /// One value of the axis.
  public enum Value: Sendable, Hashable, CustomStringConvertible {
    /// A number, in the parameter's unit (NaN and ±infinity allowed where the parameter is).
    case number(Double)
    /// A word for a flag parameter (`true`, `false`, `yes`, …), read by the parameter's own parser.
    case word(String)

    /// The value as written back: shortest round-trip decimal, `nan`, `inf`, or the word.
    public var description: String {
      switch self {
      case .number(let x): SweepAxis.text(x)
      case .word(let w): w
      }
    }
  }

  /// The parameter's name (`required.NAME` for the recognizer a composition waits for).
  public var parameter: String
  /// The values as the user wrote them (`0:1:1/60`, `0.5,0.75`).
  public var text: String
  /// The values, in order.
  public var values: [Value]

  /// The most points one axis may have.
  public static let maximumPoints = 100_000

  /// Creates an axis from values.
  public init(parameter: String, text: String, values: [Value]) {
    self.parameter = parameter
    self.text = text
    self.values = values
  }

  /// Reads `NAME=START:STOP:STEP` or `NAME=V1,V2,...`.
  ///
  /// - Throws: ``SweepPlanError`` for a missing `=`, an unreadable number, a step that is not
  ///   positive, STOP below START, a grid point that needs more than 53 significant bits, or more
  ///   than ``maximumPoints`` points.
  public init(parsing argument: String) throws(SweepPlanError) {
    guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else {
      throw .malformedAxis(argument: argument)
    }
    let name = String(argument[..<equals]).trimmingSpaces
    let spec = String(argument[argument.index(after: equals)...]).trimmingSpaces
    guard !spec.isEmpty else { throw .noValues(parameter: name) }
    let values: [Value]
    if spec.contains(":") {
      values = try Self.range(spec, parameter: name).map { .number($0) }
    } else {
      var seen = Set<String>()  // by text, so nan repeats are caught too
      var list: [Value] = []
      for part in spec.split(separator: ",", omittingEmptySubsequences: false) {
        let word = String(part).trimmingSpaces
        guard !word.isEmpty else { throw .emptyValue(parameter: name, list: spec) }
        let value = try Self.value(word, parameter: name)
        if seen.insert(value.description).inserted { list.append(value) }
      }
      values = list
    }
    self.init(parameter: name, text: spec, values: values)
  }

  /// The points of `START:STOP:STEP` (see the type's description).
  ///
  /// - Throws: ``SweepPlanError``.
  public static func range(_ spec: String, parameter: String = "value") throws(SweepPlanError) -> [Double] {
    let parts = spec.split(separator: ":", omittingEmptySubsequences: false).map { String($0).trimmingSpaces }
    guard parts.count == 3 else {
      throw .malformedRange(parameter: parameter, range: spec)
    }
    var bounds: [ExactRational] = []
    for part in parts {
      guard let r = ExactRational(part) else {
        throw .unreadableBound(parameter: parameter, text: part)
      }
      bounds.append(r)
    }
    let (start, stop, step) = (bounds[0], bounds[1], bounds[2])
    guard step.numerator > 0 else { throw .nonPositiveStep(parameter: parameter, step: parts[2]) }
    guard start <= stop else {
      throw .stopBelowStart(parameter: parameter, start: parts[0], stop: parts[1])
    }
    guard let span = stop.subtracting(start), let steps = span.dividing(by: step) else {
      throw .rangeOverflow(parameter: parameter, range: spec)
    }
    guard steps.floor < Int64(maximumPoints) else {
      throw .tooManyPoints(parameter: parameter, range: spec, maximum: maximumPoints)
    }
    let count = Int(steps.floor) + 1
    var points: [Double] = []
    points.reserveCapacity(count)
    for k in 0..<count {
      // start + k·step as one fraction, converted once.
      guard let offset = step.multiplied(by: Int64(k)), let point = start.adding(offset), let x = point.nearestDouble
      else {
        throw .imprecisePoint(parameter: parameter, range: spec, point: k)
      }
      points.append(x)
    }
    return points
  }

  /// One list value: a number (decimal or fraction), `nan`, `inf`, `-inf`, or a word.
  static func value(_ word: String, parameter: String) throws(SweepPlanError) -> Value {
    switch word.lowercased() {
    case "nan": return .number(.nan)
    case "inf", "+inf", "infinity": return .number(.infinity)
    case "-inf", "-infinity": return .number(-.infinity)
    default: break
    }
    if let r = ExactRational(word) {
      if let x = r.nearestDouble { return .number(x) }
      // More digits than the exact fraction can carry (17 significant digits, as the shortest
      // text of a double such as 1/60 is, and as reports write values): the standard library's
      // correctly rounded reading gives the same double `--set` and the files read.
      guard let x = Double(word), x.isFinite else {
        throw .impreciseValue(parameter: parameter, value: word)
      }
      return .number(x)
    }
    guard word.allSatisfy({ $0.isLetter }) else {
      throw .unreadableValue(parameter: parameter, value: word)
    }
    return .word(word)
  }

  /// `NAME=TEXT`.
  public var description: String { "\(parameter)=\(text)" }

  /// The shortest text that reads back to `x`: `3`, `0.75`, `nan`, `inf`.
  static func text(_ x: Double) -> String { ParameterValue.text(x) }
}
