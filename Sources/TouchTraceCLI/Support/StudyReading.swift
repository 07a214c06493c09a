// How the command line reads through TouchStudy: the input its flags stand for, the callbacks
// (`--verbose` lines, progress, the loader's warnings as they arrive) and the reports of what
// loading said, for the scoring commands (`ScoredStream.read`) and the transforming ones
// (`InputBatches`).

import TouchCore
import TouchEvaluation
import TouchIO
import TouchPartials
import TouchStudy

extension InputOptions {
  /// The study library's input these flags stand for.
  var study: StudyInput {
    StudyInput(paths: paths, options: loadOptions, filters: filters.compactMap(TraceFilter.init(parsing:)))
  }
}

extension Console {
  /// Says on standard error what `--only` kept (`note: --only F kept N traces, left out M`);
  /// nothing without filters.
  ///
  /// - Throws: a `DataError` (exit 65) when the filters kept no trace, naming the filter that
  ///   emptied the selection and the values its field has.
  static func report(_ selection: FilterSelection?) throws {
    guard let selection else { return }
    if let empty = selection.empty { throw InputOptions.emptyFilterError(empty) }
    diagnose(
      "note: --only \(selection.filters.map(\.description).joined(separator: " --only ")) kept \(selection.kept) traces, left out \(selection.leftOut)"
    )
  }
}

extension InputBatches {
  /// The input of a transforming command: `--verbose` says what each batch holds, and the
  /// loader's warnings and skipped traces are reported on standard error as they arrive.
  init(_ input: InputOptions, batchTraces: Int) throws {
    try self.init(
      input.study, batchTraces: batchTraces,
      onBatch: Console.verbose && !Console.quiet ? { Console.detail($0) } : nil,
      onRead: { Console.report($0) })
  }

  /// Reports what `InputOptions.load()` reports after loading (label overrides, what `--only`
  /// kept).
  ///
  /// - Parameter selected: the traces that passed the filters.
  /// - Throws: a `DataError` (exit 65) when the filters kept no trace.
  func finish(selected: Int) throws {
    var overrides = Dataset()
    overrides.labelOverrides = labelOverrides
    overrides.overriddenTraces = overriddenTraces
    Console.reportOverrides(overrides)
    try Console.report(selection(kept: selected))
  }
}

extension ScoredStream {
  /// Runs the stream as a command does: `--verbose` says what each batch holds, `progress`
  /// counts the traces, and what loading said is reported once it is done (``reportLoading()``).
  static func read(
    _ request: Request, plan makePlan: ([Double]) throws -> SweepPlan?, planFollowsData: Bool,
    progress: Progress? = nil
  ) throws -> ScoredStream {
    var request = request
    if Console.verbose && !Console.quiet { request.onBatch = { Console.detail($0) } }
    if let progress { request.progress = { progress.traces($0) } }
    let stream = try run(request, plan: makePlan, planFollowsData: planFollowsData)
    try stream.reportLoading()
    return stream
  }

  /// Says on standard error what loading said, once, in the order one load says it: warnings and
  /// skipped traces, label overrides, then what `--only` kept.
  ///
  /// - Throws: a `DataError` (exit 65) when the `--only` filters kept no trace.
  func reportLoading() throws {
    Console.report(diagnostics: diagnostics, skipped: loadSkipped)
    var overrides = Dataset()
    overrides.labelOverrides = labelOverrides
    overrides.overriddenTraces = overriddenTraces
    Console.reportOverrides(overrides)
    try Console.report(selection)
  }

  /// Says on standard error why traces were skipped after loading: those no recognizer can
  /// replay with their first positions, then one line per other reason.
  func reportSkips(command: String) {
    Console.report(skipped: skipped.filter { $0.stage == Step.maximumForce.rawValue }.map(\.skipped))
    Scoring.summarize(skipped.filter { $0.stage > Step.maximumForce.rawValue }.map(\.skipped), command: command)
  }

  /// Writes this shard's partial (with the command's scoring state) to `path`, through the
  /// outputs' checks (never over an input), and says what it holds on standard error.
  func writePartial(
    _ path: String, command: String, shard: Shard, sweep: SpilledSweep?, groups: GroupPartials?,
    outcomes: OutcomeColumns? = nil, inputs: [String]
  ) throws {
    var partial = StudyPartial(
      tool: "touchtrace \(TouchTraceVersion.current)", command: command, arguments: StudyFile.replayArguments(),
      shard: shard, maximumForces: maximumForces, files: files, inputs: self.inputs, diagnostics: diagnostics,
      labelOverrides: labelOverrides,
      overriddenTraces: overriddenTraces, traces: encoded == nil ? kept : [], skipped: skipped,
      sweep: try sweep?.materialized(),
      groups: groups,
      outcomes: [],
      replays: replays)
    partial.encodedTraces = encoded
    partial.outcomeColumns = outcomes
    var size = 0
    if path == OutputFiles.standardOutput {
      // Standard output is written in one piece (a failed run writes nothing there).
      var bytes: [UInt8] = []
      try partial.write { bytes += $0 }
      size = bytes.count
      try Console.emit([(path, bytes)], inputs: inputs)
    } else {
      // Written a run at a time (the encoded traces come from their temporary file), committed
      // whole or not at all.
      let guarded = Console.guarded(inputs)
      let stream = try StreamedOutput(path: path, inputs: guarded)
      try partial.write {
        size += $0.count
        try stream.append($0)
      }
      try OutputFiles(inputs: guarded).write([], committing: [stream])
    }
    Console.diagnose(
      "touchtrace \(command): note: shard \(shard): \(encoded?.count ?? traces.count) analyzed traces, \(skipped.count) skipped; partial \(path): \(size) bytes"
    )
  }
}
