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
        "Trace files or directories replayed into the conformance vectors (optional; - for standard input).",
        valueName: "path"))
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
        let (spool, data, digests) = try vectors(of: recognizer)
        let contacts = (data: data, random: random, seed: seed)
        var provenance = try ExportProvenance.lines(configurationFile: configuration, known: digests)
        provenance += ExportProvenance.vectorLines(files: digests, traces: data, random: random, seed: seed)
        let exported = try makeConfiguration(provenance: provenance)
        let chosen = languages.isEmpty ? ExportLanguage.allCases : languages.map(\.language)
        let inputs = paths + (configuration.map { [$0] } ?? [])
        if resolvedFormat == .json {
          // One document holds every file: the vectors too.
          let text = try spool.map { spool throws(FileWriteError) in
            let memory = MemorySink()
            try spool.copy(to: memory)
            return String(decoding: memory.bytes, as: UTF8.self)
          }
          let files = Exporter.files(exported, languages: chosen, vectors: text.map { .text($0) })
          let document = ExportProvenance.json(exported, languages: chosen, files: files, contacts: contacts)
          try Console.emit(StudyFile.recorded(document).encoded(), to: output, inputs: inputs)
          return
        }
        let files = Exporter.files(exported, languages: chosen, vectors: spool == nil ? nil : .apart)
        try ExportProvenance.write(files, into: output, inputs: inputs, vectors: spool)
        if !global.quiet {
          let directory = output.hasSuffix("/") ? output : output + "/"
          for file in Exporter.listing(files, vectorsApart: spool != nil) {
            print("wrote \(directory)\(file.path) (\(file.role.rawValue))")
          }
          if spool != nil {
            print("vectors: \(data + random) contacts (\(data) from data, \(random) random, seed \(seed))")
          }
        }
      }
    }

    /// The conformance vectors of the traces in `paths`, then of the `--random` contacts,
    /// replayed through `recognizer` and written to a temporary file batch by batch, so memory
    /// holds a batch of traces, not them all nor their vectors (about the size of their CSV); `nil`
    /// when there are no contacts. With it, how many traces came from the data and the data
    /// files' SHA-256.
    private func vectors(of recognizer: AnyForceRecognizer) throws -> (
      spool: ByteSpool?, data: Int, digests: [(file: String, sha256: SHA256.Digest)]
    ) {
      guard !paths.isEmpty || random > 0 else { return (nil, 0, []) }
      let spool = try VectorsPass.start(recognizer)
      func append(_ traces: [Trace]) throws {
        try VectorsPass.write(traces, recognizer, to: spool, command: "export")
      }
      var data = 0
      var digests: [(file: String, sha256: SHA256.Digest)] = []
      if !paths.isEmpty {
        let input = StudyInput(paths: paths, options: LoadOptions(maxForce: maxForce, skipInvalid: skipInvalid))
        var source = try InputBatches(input, batchTraces: ScoredStream.defaultBatch, digests: true)
        while let batch = try source.next() {
          data += batch.traces.count
          try append(batch.traces)
        }
        // What loading said, once, as one whole load says it.
        Console.report(source.dataset())
        // Hashed as they were read, not read again (standard input too, as `<stdin>`).
        digests = source.digests
      }
      guard data + random > 0 else {
        spool.discard()
        return (nil, 0, digests)
      }
      try append(RandomContacts.make(count: random, seed: seed))
      return (spool, data, digests)
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
