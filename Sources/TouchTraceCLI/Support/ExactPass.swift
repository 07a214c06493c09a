import ArgumentParser
import TouchCore
import TouchEvaluation
import TouchIO
import TouchRecognizers
import TouchReports
import TouchStudy
import TouchTuning

/// The plan of an exact sweep (`--exact`): a first pass over the inputs collects every
/// breakpoint of the exact parameters (``ExactAxisBuilder``: memory holds the distinct
/// breakpoints and one batch), then the sweep plan evaluates one configuration per exact class,
/// crossed with the `--vary` grids of the other parameters.
struct ExactPass {
  /// The exact axes, in `--exact-parameter` order.
  let axes: [ExactAxis]
  /// The plan: the `--vary` axes, then the exact ones.
  let plan: SweepPlan
  /// The default grid of the main threshold, for the report's comparison (one exact parameter,
  /// the recognizer's main threshold); `nil` otherwise.
  let grid: ExactReport.GridComparison?

  /// Why `--exact` cannot run with these options, or `nil`.
  static func refusal(
    input: InputOptions, shards: ShardOptions, outcomes: OutcomeOptions, by: ByOptions, bootstrap: Int
  ) -> String? {
    if input.paths.contains(TraceFiles.standardInput) {
      return "--exact reads the data twice (its breakpoints, then the sweep): give files, not - (standard input)"
    }
    if shards.partial != nil || shards.shard != nil {
      return "--exact needs every trace's breakpoints in one run: it does not shard (--shard, --partial)"
    }
    if outcomes.outcomes != nil {
      return "--outcomes is not written by --exact sweeps (replay the recommended value with --set)"
    }
    if by.by != nil { return "--by is not reported by --exact sweeps (use --only to sweep one group exactly)" }
    if bootstrap > 0 {
      return "--bootstrap is not computed by --exact sweeps (the exact optimum has no grid to resample)"
    }
    return nil
  }

  /// Reads the breakpoints and builds the plan.
  ///
  /// - Throws: `ValidationError` for options an exact sweep refuses; load errors as the sweep
  ///   itself gives them.
  static func make(
    exact: ExactOptions, plan options: PlanOptions, input: InputOptions, batchTraces: Int, command: String
  ) throws -> ExactPass {
    let (spec, userAxes) = try recognizer(options)
    let main = TouchTraceTool.catalog.entry(spec.variant)?.descriptor.sweptByDefault
    let names = exact.parameters.isEmpty ? main.map { [$0] } ?? [] : exact.parameters
    guard !names.isEmpty else {
      throw ValidationError("--exact: \(spec.name) has no main threshold; name one with --exact-parameter")
    }
    let (settings, fixed) = try fixedSettings(options.settings, of: spec, exact: names)
    var others: [String: [Double]] = [:]
    for axis in userAxes {
      if names.contains(axis.parameter) {
        throw ValidationError("--exact: \(axis.parameter) is swept exactly; it cannot also be on a --vary grid")
      }
      others[axis.parameter] = axis.numbers
    }
    var builder: ExactAxisBuilder
    do throws(SweepPlanError) {
      builder = try ExactAxisBuilder(
        spec: spec, parameters: names, fixed: fixed, others: others,
        sides: sides(of: names, spec: spec, axes: userAxes, settings: settings))
    } catch {
      throw ValidationError(error.description)
    }
    // The first pass: breakpoints of the traces the sweep will read (after --only).
    let maximumForces = try builder.add(reading: input.study, batchTraces: batchTraces)
    let axes = builder.axes()
    try requireClasses(axes, atMost: exact.exactMaxClasses, command: command)
    let plan: SweepPlan
    do throws(SweepPlanError) {
      plan = try SweepPlan(recognizers: [spec], axes: userAxes + axes.map(\.sweepAxis), settings: settings)
    } catch {
      throw ValidationError(error.description)
    }
    var grid: ExactReport.GridComparison?
    if names.count == 1, names[0] == main,
      let axis = SweepPlan.defaultAxis(for: spec, maximumForces: maximumForces),
      let declared = spec.parameter(names[0])
    {
      grid = ExactReport.GridComparison(rule: declared.grid.summary, values: axis.numbers)
    }
    return ExactPass(axes: axes, plan: plan, grid: grid)
  }

  /// The one recognizer an exact sweep takes, and the `--vary` grids of its other parameters.
  private static func recognizer(_ options: PlanOptions) throws -> (RecognizerSpec, [SweepAxis]) {
    let specs: [RecognizerSpec]
    let userAxes: [SweepAxis]
    do throws(SweepPlanError) {
      specs = try RecognizerSpec.list(options.recognizer, catalog: TouchTraceTool.catalog)
      userAxes = try options.axes.map { (text: String) throws(SweepPlanError) -> SweepAxis in
        try SweepAxis(parsing: text)
      }
    } catch {
      throw ValidationError(error.description)
    }
    guard specs.count == 1, let spec = specs.first else {
      throw ValidationError(
        "--exact sweeps one recognizer at a time (\(specs.count) given: \(specs.map(\.name).joined(separator: ", "))); run it once per recognizer"
      )
    }
    return (spec, userAxes)
  }

  /// The `--set` values, none of them an exact parameter: as settings for the plan and as
  /// values for the breakpoints.
  private static func fixedSettings(
    _ texts: [String], of spec: RecognizerSpec, exact names: [String]
  ) throws -> ([(name: String, value: String)], [String: ParameterValue]) {
    var settings: [(name: String, value: String)] = []
    var fixed: [String: ParameterValue] = [:]
    for text in texts {
      guard let setting = PlanOptions.setting(text) else {
        throw ValidationError(SweepPlanError.malformedSetting(text).description)
      }
      if names.contains(setting.name) {
        throw ValidationError("--exact: \(setting.name) is swept exactly; it cannot also be fixed with --set")
      }
      do throws(ParameterError) {
        fixed[setting.name] = try spec.value(setting.value, of: setting.name)
      } catch {
        throw ValidationError(
          SweepPlanError.invalidSetting(name: setting.name, value: setting.value, error).description)
      }
      settings.append(setting)
    }
    return (settings, fixed)
  }

  /// The sides the comparisons take, agreed by every configuration of the other parameters'
  /// grids (a flag such as strictPress may change them); `nil` (both kinds of breakpoint) where
  /// they disagree or without grids.
  private static func sides(
    of names: [String], spec: RecognizerSpec, axes: [SweepAxis], settings: [(name: String, value: String)]
  ) -> [ThresholdSide?]? {
    guard !axes.isEmpty else { return nil }
    let configurations = (try? SweepPlan(recognizers: [spec], axes: axes, settings: settings))?.configurations ?? []
    return names.map { name in
      let found = Set(configurations.map { $0.recognizer.thresholdSide(of: name) })
      return found.count == 1 ? found.first! : nil
    }
  }

  /// Stops (exit 65) when the data cuts the exact parameters into more classes than `limit`.
  private static func requireClasses(_ axes: [ExactAxis], atMost limit: Int, command: String) throws {
    let classes = axes.reduce(1.0) { $0 * Double($1.count) }
    guard classes > Double(limit) else { return }
    let counts = axes.map { "\($0.parameter): \($0.count)" }.joined(separator: ", ")
    throw DataError(
      description:
        "touchtrace \(command): error: --exact: the data cuts the exact parameters into \(Int(classes)) classes (\(counts)), above --exact-max-classes \(limit): "
        + "the cost grows as classes × contacts (dense force, nearly every sample a distinct value, gives about two classes per sample); raise --exact-max-classes, select fewer traces with --only, or sweep a grid with --vary"
    )
  }
}

extension SweepAxis {
  /// The axis's number values, in order (flags and choices left out).
  fileprivate var numbers: [Double] { values.compactMap { if case .number(let x) = $0 { x } else { nil } } }
}

/// Writes an exact sweep's report in the chosen format, and `--json-output`/`--csv-output`,
/// all or none.
enum ExactOutputs {
  static func emit(
    _ sweep: ExactSweep, command: String, grid: ExactReport.GridComparison?, tuning: ExactTuning? = nil,
    format: ReportFormat, target: String, jsonOutput: String?, csvOutput: String?, inputs: [String]
  ) throws {
    func json() -> [UInt8] {
      StudyFile.recorded(ExactReport.json(sweep, command: command, grid: grid, tuning: tuning)).encoded()
    }
    let bytes: [UInt8]
    switch format {
    case .json: bytes = json()
    case .csv: bytes = ExactReport.csv(sweep)
    case .html:
      bytes = ExactReport.html(
        sweep, command: command, grid: grid, tuning: tuning, appendix: StudyFile.recordedMarkdown)
    case .md:
      bytes = Array(
        (ExactReport.markdown(sweep, command: command, grid: grid, tuning: tuning) + StudyFile.recordedMarkdown).utf8)
    }
    var outputs: [(path: String, bytes: [UInt8])] = []
    if let jsonOutput { outputs.append((jsonOutput, json())) }
    if let csvOutput { outputs.append((csvOutput, ExactReport.csv(sweep))) }
    outputs.append((target, bytes))
    try Console.emit(outputs, inputs: inputs)
  }
}
