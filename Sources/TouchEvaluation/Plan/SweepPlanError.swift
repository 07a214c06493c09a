public import TouchRecognizers

/// A sweep request that cannot be carried out: an unknown recognizer or parameter, a value
/// out of range, an unreadable grid. The command reports it as a usage error (exit 64).
///
/// Each case carries what its message names; ``description`` is the message.
public enum SweepPlanError: Error, Sendable, Hashable, CustomStringConvertible {
  // MARK: --vary (SweepAxis)

  /// A `--vary` argument without `NAME=`.
  case malformedAxis(argument: String)
  /// A `--vary NAME=` without values.
  case noValues(parameter: String)
  /// An empty value in the list `list` of a `--vary` argument.
  case emptyValue(parameter: String, list: String)
  /// A range that is not `START:STOP:STEP`.
  case malformedRange(parameter: String, range: String)
  /// A range bound (`text`) that is not a decimal number or a fraction.
  case unreadableBound(parameter: String, text: String)
  /// A range whose step (`step`, as written) is zero or negative.
  case nonPositiveStep(parameter: String, step: String)
  /// A range whose STOP lies below its START (both as written).
  case stopBelowStart(parameter: String, start: String, stop: String)
  /// A range whose fractions overflow 64-bit integers.
  case rangeOverflow(parameter: String, range: String)
  /// A range with more than `maximum` points (``SweepAxis/maximumPoints``).
  case tooManyPoints(parameter: String, range: String, maximum: Int)
  /// Grid point `point` (0-based) of a range needs more than 53 significant bits.
  case imprecisePoint(parameter: String, range: String, point: Int)
  /// A list value needs more than 53 significant bits.
  case impreciseValue(parameter: String, value: String)
  /// A list value that is not a number, a fraction or a word.
  case unreadableValue(parameter: String, value: String)

  // MARK: --recognizer (RecognizerSpec)

  /// A `--recognizer` name that is not `NAME` or `DEPENDENT+REQUIRED`.
  case malformedRecognizer(String)
  /// A recognizer the catalog refuses (an unknown variant, a refused composition).
  case unknownRecognizer(ParameterError)
  /// An empty recognizer list.
  case noRecognizer

  // MARK: The plan (SweepPlan)

  /// A `--vary` parameter none of `recognizers` (their names) has.
  case unknownAxis(parameter: String, recognizers: [String])
  /// A `--set` parameter none of `recognizers` (their names) has.
  case unknownSetting(parameter: String, recognizers: [String])
  /// A parameter both varied and set.
  case variedAndSet(parameter: String)
  /// A parameter varied more than once.
  case repeatedAxis(parameter: String)
  /// A `--set NAME=VALUE` whose value the parameter rejects.
  case invalidSetting(name: String, value: String, ParameterError)
  /// A `--set` argument that is not `NAME=VALUE` (the argument as given).
  case malformedSetting(String)
  /// A list parameter on a `--vary` axis.
  case listAxis(parameter: String)
  /// A `--vary` word value the flag parameter rejects.
  case invalidAxisValue(parameter: String, ParameterError)
  /// A number on the `--vary` axis of `recognizer`'s flag parameter.
  case numberForFlag(parameter: String, recognizer: String)
  /// A word `value` on the `--vary` axis of `recognizer`'s number parameter.
  case wordForNumber(parameter: String, recognizer: String, value: SweepAxis.Value)
  /// More than `maximum` configurations (``SweepPlan/maximumConfigurations``).
  case tooManyConfigurations(maximum: Int)
  /// A recognizer whose every grid point is invalid; `firstError` is the first point's reason
  /// (`nil`: an empty grid).
  case noValidConfiguration(recognizer: String, firstError: ParameterError?)

  // MARK: One configuration (`touchtrace compare --a/--b`)

  /// A configuration text with a part `=VALUE` that names no parameter.
  case missingParameterName(configuration: String)
  /// A configuration text whose first part after `:` has no `=`.
  case malformedConfiguration(String)
  /// A configuration text giving `parameter` twice.
  case repeatedParameter(configuration: String, parameter: String)
  /// A configuration text whose values the recognizer rejects.
  case invalidConfiguration(configuration: String, ParameterError)

  // MARK: Exact sweeps (`--exact`)

  /// `--exact` for a parameter that is not compared with a per-sample quantity; `known` lists
  /// the recognizer's parameters that are.
  case notExact(parameter: String, recognizer: String, known: [String])
  /// `--exact` for a require-to-fail composition.
  case exactComposition(recognizer: String)

  /// The message, naming the flag, the parameter and what is valid.
  public var description: String {
    switch self {
    case .malformedAxis(let argument):
      "--vary expects NAME=START:STOP:STEP or NAME=V1,V2,..., got '\(argument)'"
    case .noValues(let parameter):
      "--vary \(parameter): no values given"
    case .emptyValue(let parameter, let list):
      "--vary \(parameter): empty value in '\(list)'"
    case .malformedRange(let parameter, let range):
      "--vary \(parameter): a range is START:STOP:STEP, got '\(range)'"
    case .unreadableBound(let parameter, let text):
      "--vary \(parameter): '\(text)' is not a decimal number or fraction (such as 0.05 or 1/60)"
    case .nonPositiveStep(let parameter, let step):
      "--vary \(parameter): the step must be positive, got \(step)"
    case .stopBelowStart(let parameter, let start, let stop):
      "--vary \(parameter): STOP (\(stop)) is below START (\(start))"
    case .rangeOverflow(let parameter, let range):
      "--vary \(parameter): '\(range)' needs fractions too large for 64-bit integers"
    case .tooManyPoints(let parameter, let range, let maximum):
      "--vary \(parameter): '\(range)' has more than \(maximum) points"
    case .imprecisePoint(let parameter, let range, let point):
      "--vary \(parameter): grid point \(point) of '\(range)' needs more than 53 significant bits"
    case .impreciseValue(let parameter, let value):
      "--vary \(parameter): '\(value)' needs more than 53 significant bits"
    case .unreadableValue(let parameter, let value):
      "--vary \(parameter): '\(value)' is not a number, a fraction or a word such as true"
    case .malformedRecognizer(let text):
      "--recognizer: '\(text)' is not NAME or DEPENDENT+REQUIRED"
    case .unknownRecognizer(let error):
      "--recognizer: \(error.description)"
    case .noRecognizer:
      "--recognizer: no recognizer given"
    case .unknownAxis(let parameter, let recognizers):
      "--vary \(parameter): none of \(recognizers.joined(separator: ", ")) has this parameter"
    case .unknownSetting(let parameter, let recognizers):
      "--set \(parameter): none of \(recognizers.joined(separator: ", ")) has this parameter"
    case .variedAndSet(let parameter):
      "\(parameter) is both varied (--vary) and set (--set)"
    case .repeatedAxis(let parameter):
      "--vary \(parameter) is given more than once"
    case .invalidSetting(let name, let value, let error):
      "--set \(name)=\(value): \(error.description)"
    case .malformedSetting(let text):
      "--set expects NAME=VALUE, got '\(text)'"
    case .listAxis(let parameter):
      "--vary \(parameter): a list parameter cannot be varied; use --set"
    case .invalidAxisValue(let parameter, let error):
      "--vary \(parameter): \(error.description)"
    case .numberForFlag(let parameter, let recognizer):
      "--vary \(parameter): \(recognizer)'s \(parameter) is a flag; give true,false"
    case .wordForNumber(let parameter, let recognizer, let value):
      "--vary \(parameter): \(recognizer)'s \(parameter) is a number, got '\(value)'"
    case .tooManyConfigurations(let maximum):
      "the sweep has more than \(maximum) configurations"
    case .noValidConfiguration(let recognizer, let firstError):
      "\(recognizer): no valid configuration (\(firstError?.description ?? "empty grid"))"
    case .missingParameterName(let configuration):
      "'\(configuration)': a parameter name is missing before '='"
    case .malformedConfiguration(let text):
      "'\(text)': expected NAME:PARAM=VALUE,PARAM=VALUE,..."
    case .repeatedParameter(let configuration, let parameter):
      "'\(configuration)': \(parameter) is given twice"
    case .invalidConfiguration(let configuration, let error):
      "'\(configuration)': \(error.description)"
    case .notExact(let parameter, let recognizer, let known):
      "--exact: \(recognizer)'s parameter '\(parameter)' is not a threshold compared with the force, so its exact intervals are unknown; "
        + (known.isEmpty
          ? "\(recognizer) has no such parameter (use --vary)"
          : "its threshold parameters are \(known.joined(separator: ", "))")
    case .exactComposition(let recognizer):
      "--exact: \(recognizer) is a composition; sweep its recognizers' thresholds exactly one at a time, or use --vary"
    }
  }
}
