import ArgumentParser
import TouchCore
import TouchEvaluation
import TouchExport
import TouchIO
import TouchRecognizers
import TouchReports
import TouchStudy

extension TouchTraceCommand {
  /// `touchtrace export`: writes a configuration as a portable recognizer core in Swift, Kotlin
  /// and TypeScript, with platform adapters and conformance vectors from the replay.
  struct Export: ParsableCommand, GlobalCommand {
    static let configuration = CommandConfiguration(
      abstract: "Write a configuration as recognizer code for iOS, Android and the web, proven equal to the replay.",
      discussion: """
        Writes DIR/swift, DIR/kotlin and DIR/typescript: in each a self-contained recognizer \
        core (a state machine fed one sample at a time that returns its actions; standard \
        library only; the parameter values as constants, the provenance in its header), a \
        platform adapter (a UIGestureRecognizer subclass, an Android View.OnTouchListener, a \
        Pointer Events binding) and a conformance check. Traces given as PATH (and --random N \
        seeded random contacts) are replayed here and written to DIR/vectors.txt with the \
        replay's actions and state transitions: each language's check runs its core on them \
        and must find no difference (make check-export does, for every language).

        Supported: \(ExportConfiguration.supported.joined(separator: ", ")), each also behind a \
        causal filter (ema/, movmean/, one-euro/); other recognizers are refused (exit 64). \
        The configuration is --recognizer NAME with --set, or --configuration FILE from \
        `tune --export-json`. Nothing is replaced: DIR's files must not exist (exit 73).

        Examples (from the repository root):
          touchtrace export --recognizer stable-press --set pressThreshold=0.3 \\
            --output exported/ samples/
          touchtrace tune samples/ --recognizer hysteresis --export-json tuned.json
          touchtrace export --configuration tuned.json --output tuned/ \\
            --random 1000 samples/
        """)

    @Argument(
      help: ArgumentHelp(
        "Trace files or directories replayed into the conformance vectors (optional).", valueName: "path"))
    var paths: [String] = []

    @Option(
      help: ArgumentHelp("The recognizer (see `touchtrace recognizers`), or NAME:PARAM=VALUE,...", valueName: "name"))
    var recognizer: String?

    @Option(
      name: .customLong("set"),
      help: ArgumentHelp("Set a parameter: NAME=VALUE (repeatable).", valueName: "name=value"))
    var settings: [String] = []

    @Option(help: ArgumentHelp("A configuration `touchtrace tune --export-json` wrote.", valueName: "file"))
    var configuration: String?

    @Option(
      help: ArgumentHelp(
        "The directory to write (created; its files must be new); with --format json a file, or - for standard output.",
        valueName: "dir"))
    var output: String

    @Option(
      help: ArgumentHelp(
        "files: the files under --output DIR; json: one document holding every file (default: json for - or a .json name, else files).",
        valueName: "format"))
    var format: ExportFormat?

    @Option(
      name: .customLong("language"),
      help: ArgumentHelp("Languages to write: swift, kotlin, typescript (repeatable; default: all).", valueName: "name")
    )
    var languages: [ExportLanguageOption] = []

    @Option(help: ArgumentHelp("The core's type name (adapters are named after it).", valueName: "name"))
    var typeName = "ForcePressCore"

    @Option(help: ArgumentHelp("Seeded random contacts added to the conformance vectors.", valueName: "n"))
    var random = 0

    @Option(help: ArgumentHelp("Seed of the random contacts, 0 … 2^64 − 1.", valueName: "s"))
    var seed: UInt64 = 1

    @Option(
      help: ArgumentHelp(
        "Maximum possible force (device units) for traces whose file gives none.", valueName: "force"))
    var maxForce: Double?

    @Flag(help: "Skip invalid traces, reporting each with its reason, instead of stopping at the first.")
    var skipInvalid = false

    @OptionGroup var global: GlobalOptions

    /// What `--format` and `--output` ask for.
    var resolvedFormat: ExportFormat {
      format ?? (output == OutputFiles.standardOutput || output.hasSuffix(".json") ? .json : .files)
    }

    func validate() throws {
      _ = try makeConfiguration(provenance: [])
      if resolvedFormat == .files && output == OutputFiles.standardOutput {
        throw ValidationError("--output - writes one document: give --format json, or a directory")
      }
      // The vectors are written whole: about 4 KB per random contact.
      guard random >= 0, random <= 100_000 else {
        throw ValidationError("--random takes 0 … 100000 contacts, got \(random)")
      }
      if let maxForce, !(maxForce > 0) || !maxForce.isFinite {
        throw ValidationError("--max-force must be a positive number, got \(maxForce)")
      }
    }

    /// The recognizer the options name.
    func makeRecognizer() throws(ValidationError) -> AnyForceRecognizer {
      let text: String
      switch (recognizer, configuration) {
      case (let name?, nil):
        text = try PlanOptions.configurationText(name, settings: settings)
      case (nil, let file?):
        guard settings.isEmpty else {
          throw ValidationError("--set changes a --recognizer; a --configuration file is exported as tuned")
        }
        text = try Try.configurationText(file)
      case (.some, .some): throw ValidationError("give --recognizer or --configuration, not both")
      case (nil, nil):
        throw ValidationError("give the configuration to export: --recognizer NAME or --configuration FILE")
      }
      do throws(SweepPlanError) {
        return try Configuration(parsing: text, catalog: TouchTraceTool.catalog).recognizer
      } catch {
        throw ValidationError(error.description)
      }
    }

    func makeConfiguration(provenance: [String]) throws(ValidationError) -> ExportConfiguration {
      let recognizer = try makeRecognizer()
      do throws(ExportError) {
        return try ExportConfiguration(recognizer, typeName: typeName, provenance: provenance)
      } catch {
        throw ValidationError(error.description)
      }
    }

    func run() throws {
      try Console.run {
        let recognizer = try makeRecognizer()
        var traces: [Trace] = []
        var digests: [(file: String, sha256: SHA256.Digest)] = []
        if !paths.isEmpty {
          let options = LoadOptions(maxForce: maxForce, skipInvalid: skipInvalid)
          let dataset = TimeScaleCheck.checked(try TraceLoader.load(paths, options: options))
          Console.report(dataset)
          traces = dataset.traces
          digests = try ExportProvenance.digests(dataset.files)
        }
        traces += RandomContacts.make(count: random, seed: seed)
        var provenance = try ExportProvenance.lines(configurationFile: configuration, known: digests)
        provenance += ExportProvenance.vectorLines(
          files: digests, traces: traces.count - random, random: random, seed: seed)
        let exported = try makeConfiguration(provenance: provenance)
        let vectors: String?
        do throws(ReplayError) {
          vectors = traces.isEmpty ? nil : try ConformanceVectors.text(traces, recognizer: recognizer)
        } catch {
          throw DataError.replay(error, command: "export")
        }
        let chosen = languages.isEmpty ? ExportLanguage.allCases : languages.map(\.language)
        let files = Exporter.files(exported, languages: chosen, vectors: vectors.map { .text($0) })
        let inputs = paths + (configuration.map { [$0] } ?? [])
        if resolvedFormat == .json {
          let document = ExportProvenance.json(
            exported, languages: chosen, files: files,
            contacts: (data: traces.count - random, random: random, seed: seed))
          try Console.emit(StudyFile.recorded(document).encoded(), to: output, inputs: inputs)
          return
        }
        try ExportProvenance.write(files, into: output, inputs: inputs)
        if !global.quiet {
          for file in files {
            print("wrote \(output.hasSuffix("/") ? output : output + "/")\(file.path) (\(file.role.rawValue))")
          }
          if vectors != nil {
            print(
              "vectors: \(traces.count) contacts (\(traces.count - random) from data, \(random) random, seed \(seed))")
          }
        }
      }
    }
  }
}

/// `--format` values of `export`.
enum ExportFormat: String, ExpressibleByArgument, CaseIterable {
  case files, json
}

/// `--language` values.
enum ExportLanguageOption: String, ExpressibleByArgument, CaseIterable {
  case swift, kotlin, typescript

  var language: ExportLanguage {
    switch self {
    case .swift: .swift
    case .kotlin: .kotlin
    case .typescript: .typescript
    }
  }
}
