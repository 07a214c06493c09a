import ArgumentParser
import TouchEvaluation
import TouchRecognizers

/// `--recognizer`, `--vary` and `--set`: the configurations of a sweep (shared by `sweep` and
/// `tune`).
struct PlanOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Recognizers: comma-separated names, `all`, DEPENDENT+REQUIRED compositions, FILTER/NAME (a causal filter in front: ema, movmean, one-euro), exec:COMMAND (a recognizer in another process).",
      valueName: "name,..."))
  var recognizer: String

  @Option(
    name: .customLong("vary"),
    help: ArgumentHelp(
      "Sweep a parameter: NAME=START:STOP:STEP or NAME=V1,V2,... (repeatable).", valueName: "name=grid"))
  var axes: [String] = []

  @Option(
    name: .customLong("set"),
    help: ArgumentHelp(
      "Fix a parameter: NAME=VALUE (repeatable; required.NAME for compositions).", valueName: "name=value"))
  var settings: [String] = []

  /// The configurations the options describe (default grids relative to the maximum force need
  /// `maximumForces`, force units; without them such recognizers run at their defaults).
  func makePlan(maximumForces: [Double] = []) throws(ValidationError) -> SweepPlan {
    do throws(SweepPlanError) {
      let specs = try RecognizerSpec.list(recognizer, catalog: TouchTraceTool.catalog)
      let axes = try self.axes.map { (text: String) throws(SweepPlanError) -> SweepAxis in try SweepAxis(parsing: text)
      }
      var fixed: [(name: String, value: String)] = []
      for text in settings {
        guard let setting = Self.setting(text) else { throw .malformedSetting(text) }
        fixed.append(setting)
      }
      return try SweepPlan(recognizers: specs, axes: axes, settings: fixed, maximumForces: maximumForces)
    } catch {
      throw ValidationError(error.description)
    }
  }

  /// The configuration `name` (`NAME` or `NAME:PARAM=VALUE,…`) with `settings` (`--set
  /// NAME=VALUE`) appended, as `Configuration(parsing:catalog:)` reads it.
  ///
  /// - Throws: `ValidationError` for a setting that is not `NAME=VALUE`.
  static func configurationText(_ name: String, settings: [String]) throws(ValidationError) -> String {
    guard !settings.isEmpty else { return name }
    for setting in settings where self.setting(setting) == nil {
      throw ValidationError("--set expects NAME=VALUE, got '\(setting)'")
    }
    let separator = name.contains(":") ? "," : Configuration.parameterSeparator(for: name)
    return name + separator + settings.joined(separator: ",")
  }

  /// `NAME=VALUE` split at the first `=`; `nil` without an `=` or without a name.
  static func setting(_ text: String) -> (name: String, value: String)? {
    guard let equals = text.firstIndex(of: "="), equals != text.startIndex else { return nil }
    return (String(text[..<equals]), String(text[text.index(after: equals)...]))
  }
}
