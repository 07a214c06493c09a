import ArgumentParser
import TouchCore
import TouchEvaluation
import TouchIO
import TouchRecognizers
import TouchReports
import TouchSignal
import TouchStudy

extension TouchTraceCommand {
  /// `touchtrace run`: replays traces through one recognizer variant and prints, per trace, the
  /// state transitions and the action event.
  struct Run: ParsableCommand, GlobalCommand {
    static let configuration = CommandConfiguration(
      abstract: "Replay traces through a recognizer and print its state transitions and action event.",
      discussion: """
        Traces are delivered as UIKit would: the first sample is touchesBegan, later samples whose \
        force or position changed are touchesMoved, unchanged samples are dropped, the last sample \
        is touchesEnded (touchesCancelled when its phase is cancelled). Times are seconds; an \
        event's index is the sample index in its trace (for a timer: the last sample before it).

        A recognizer that compares normalized force needs each trace's maximum force: traces \
        without one stop the command (exit 65) unless --skip-invalid skips them, or --max-force \
        supplies it; when no trace is left to replay (or, with --outcomes, to score) the \
        command stops with exit 65, saying why the traces were skipped. See `touchtrace recognizers` for the variants and their parameters.
        --outcomes FILE also scores the labelled traces as touchtrace sweep does (--positive, \
        --tolerance; unlabelled traces are left out of it) and writes one row per trace and \
        counted outcome (CSV, or JSON Lines for .jsonl); it replays each trace through a fresh \
        recognizer, so it does not combine with --carry-state.

        Examples (from the repository root):
          touchtrace run samples/synth-iphone6s.csv --recognizer deep-press \\
            --set threshold=0.5 --output actions.csv
          touchtrace run samples/ --recognizer tap --require-failure-of deep-press \\
            --outcomes outcomes.csv --output run.json
        """)

    @OptionGroup var input: InputOptions

    @Option(help: ArgumentHelp("The recognizer variant (see `touchtrace recognizers`).", valueName: "name"))
    var recognizer: String

    @Option(
      name: .customLong("set"),
      help: ArgumentHelp(
        "Set a parameter: NAME=VALUE (repeatable; `required.NAME=VALUE` for --require-failure-of).",
        valueName: "name=value"))
    var settings: [String] = []

    @Option(
      help: ArgumentHelp(
        "Make the recognizer (tap, long-press, long-press-android) wait for this one to fail.",
        valueName: "name"))
    var requireFailureOf: String?

    @Flag(
      help: """
        Replay consecutive traces through one recognizer instance (a new one whenever the \
        session changes), so state a library forgets to reset carries over.
        """)
    var carryState = false

    @OptionGroup var output: OutputOptions<Format>

    @OptionGroup var outcomes: OutcomeOptions

    @OptionGroup var scoring: ScoringOptions

    @OptionGroup var exec: ExecOptions

    /// JSON, CSV or Markdown.
    enum Format: FormatChoice {
      case json, csv, md

      var format: OutputFormat {
        switch self {
        case .json: .json
        case .csv: .csv
        case .md: .md
        }
      }
    }

    @OptionGroup var shards: ShardOptions

    @OptionGroup var global: GlobalOptions

    func validate() throws {
      try exec.withCatalog(tolerance: EvaluationOptions.defaultTolerance, closing: false) { _ = try makeRecognizer() }
      _ = try scoring.evaluationOptions()
      if shards.partial != nil && (carryState || outcomes.outcomes != nil) {
        throw ValidationError(
          "--partial: \(carryState ? "--carry-state runs each session's traces through one recognizer, and shards split sessions" : "a run's partial holds no outcome table"); run it unsharded"
        )
      }
      if outcomes.outcomes != nil && carryState {
        throw ValidationError(
          "--outcomes replays each trace through a fresh recognizer, as sweep scores it; it does not combine with --carry-state"
        )
      }
    }

    /// The recognizer the options describe.
    func makeRecognizer() throws(ValidationError) -> AnyForceRecognizer {
      var own: [(name: String, value: String)] = []
      var required: [(name: String, value: String)] = []
      for setting in settings {
        guard let (name, value) = PlanOptions.setting(setting) else {
          throw ValidationError("--set expects NAME=VALUE, got '\(setting)'")
        }
        if let base = Composition.unprefixed(name) {
          guard requireFailureOf != nil else {
            throw ValidationError("--set \(name): '\(Composition.requiredPrefix)' parameters need --require-failure-of")
          }
          required.append((base, value))
        } else {
          own.append((name, value))
        }
      }
      do throws(ParameterError) {
        let catalog = TouchTraceTool.catalog
        let main = try catalog.recognizer(recognizer, settings: own)
        guard let requireFailureOf else { return main }
        return try main.requiringFailure(of: catalog.recognizer(requireFailureOf, settings: required), catalog: catalog)
      } catch {
        throw ValidationError(error.description)
      }
    }

    func run() throws {
      try exec.withCatalog(tolerance: EvaluationOptions.defaultTolerance) { try replayAll() }
    }

    func replayAll() throws {
      let recognizer = try makeRecognizer()
      try Console.run {
        try Console.checkOutputs([output.file, outcomes.outcomes, shards.partial], inputs: input.inputPaths)
        let read: Replayed
        if let merged = ScoredData.merged {
          read = Replayed(dataset: merged.dataset, results: merged.replays, scored: nil)
        } else {
          guard let replayed = try replay(recognizer) else { return }  // a shard's partial written
          read = replayed
        }
        try ScoringRules.requireAnalyzed(read.dataset, command: "run")
        let bytes = render(read.results, recognizer: recognizer, dataset: read.dataset)
        let outcomeWriter = try writeOutcomes(read, recognizer: recognizer)
        try Console.emit([(output.target, bytes)], outcomes: outcomeWriter, inputs: input.inputPaths)
      }
    }

    /// What a run read and replayed: the traces' accounting, each trace's replay and, with
    /// `--outcomes`, the labelled traces scored as they were read (no samples kept).
    private struct Replayed {
      var dataset: Dataset
      var results: [ReplayResult]
      var scored: (evaluation: Evaluation, outcomes: OutcomeColumn)?
    }

    /// Replays the traces batch by batch as they are read (with `--carry-state`, each session
    /// through one recognizer, its traces waiting across batches for the rest of it); with
    /// `--outcomes`, the labelled ones scored as they pass. A shard writes its partial and
    /// returns `nil`.
    private func replay(_ recognizer: AnyForceRecognizer) throws -> Replayed? {
      var request = ScoredStream.Request(
        input: input.study, shard: shards.selected, recognizers: [recognizer],
        options: try scoring.evaluationOptions(),
        threads: 1, command: "run", outcomes: outcomes.outcomes != nil ? .replays([recognizer]) : .none,
        sweep: false, batchTraces: shards.batchTraces, truths: false, replay: recognizer,
        writesPartial: shards.partial != nil)
      request.carriesState = carryState
      let stream: ScoredStream
      do {
        stream = try ScoredStream.read(request, plan: { _ in nil }, planFollowsData: false)
      } catch let error as ReplayError {
        throw DataError.replay(error, command: "run")
      }
      stream.reportSkips(command: "run")
      if let partial = shards.partial {
        try stream.writePartial(
          partial, command: "run", shard: shards.selected, sweep: nil, groups: nil, inputs: input.inputPaths)
        return nil
      }
      let dataset = stream.dataset()
      try ScoringRules.requireAnalyzed(dataset, command: "run")
      guard outcomes.outcomes != nil else { return Replayed(dataset: dataset, results: stream.replays, scored: nil) }
      var labelled = Dataset(
        traces: stream.scoredTraces.map { dataset.traces[$0] },
        origins: stream.scoredTraces.map { dataset.origins[$0] },
        skipped: dataset.skipped + stream.unscored, files: dataset.files, diagnostics: dataset.diagnostics)
      labelled.labelOverrides = dataset.labelOverrides
      labelled.overriddenTraces = dataset.overriddenTraces
      let evaluation = Evaluation(dataset: labelled, truths: stream.truths, options: try scoring.evaluationOptions())
      return Replayed(dataset: dataset, results: stream.replays, scored: (evaluation, stream.outcomes[0]))
    }

    /// The report in the chosen format.
    private func render(_ results: [ReplayResult], recognizer: AnyForceRecognizer, dataset: Dataset) -> [UInt8] {
      switch output.resolvedFormat {
      case .json:
        return StudyFile.recorded(
          RunReport.json(results, recognizer: recognizer, carryState: carryState, dataset: dataset)
        ).encoded()
      case .md:
        return Array(
          (RunReport.markdown(results, recognizer: recognizer, carryState: carryState, dataset: dataset)
            + StudyFile.recordedMarkdown).utf8)
      case .csv:
        // The CSV table has no place for it: say it on standard error.
        if let sentence = SynthesizedTime(dataset.traces).sentence(dependents: "action times") {
          Console.diagnose("touchtrace run: warning: \(sentence)")
        }
        return RunReport.csv(results)
      }
    }

    /// `--outcomes`: the labelled traces' rows (scored as they were read, or, merging, from the
    /// merged traces); the writer is committed with the report.
    private func writeOutcomes(_ read: Replayed, recognizer: AnyForceRecognizer) throws -> OutcomeWriter? {
      guard outcomes.outcomes != nil else { return nil }
      let dataset = read.dataset
      let evaluation =
        try read.scored?.evaluation ?? Evaluation(dataset: dataset, options: scoring.evaluationOptions())
      Scoring.summarize(
        evaluation.dataset.skipped.filter { skip in !dataset.skipped.contains { $0 == skip } }, command: "run")
      try ScoringRules.requireAnalyzed(evaluation.dataset, command: "run")
      let outcomeWriter = try outcomes.open(inputs: input.inputPaths)
      let configuration = Configuration(
        spec: RecognizerSpec(variant: self.recognizer, required: requireFailureOf, catalog: TouchTraceTool.catalog),
        recognizer: recognizer, varied: settings.compactMap { PlanOptions.setting($0)?.name })
      try outcomeWriter?.write(
        [(0, configuration)], evaluation: evaluation, threads: 1, command: "run",
        columns: read.scored.map { s in { _ in s.outcomes } })
      return outcomeWriter
    }
  }
}
