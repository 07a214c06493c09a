import ArgumentParser
import TouchCapture
import TouchCore
import TouchEvaluation
import TouchIO
import TouchRecognizers
import TouchReports

extension TouchTraceCommand {
  /// `touchtrace try`: serves a page where a person presses and sees, live, when each chosen
  /// configuration acts.
  struct Try: AsyncParsableCommand, GlobalCommand {
    static let configuration = CommandConfiguration(
      commandName: "try",
      abstract: "Feel a configuration: press on a page and see, live, when each recognizer acts.",
      discussion: """
        Prints the URL to open as the first line of standard output, then serves a page with a \
        pressing area and a live plot of the contact's force. While the finger or pen is down the \
        page sends the contact's events so far; the server replays that prefix through every \
        configuration, exactly as `touchtrace run` replays a trace (the same conversion as \
        capture's: force from Pointer Events pressure as the shortest decimal of its float32, \
        maximum force 1, times in seconds from pointerdown), and the page marks the actions \
        before the newest sample (dashed): the replay is causal, so they are the whole \
        contact's actions at those times. On lift the whole contact is replayed and its marks \
        drawn solid: `touchtrace run` on the saved trace gives the same times, to the bit.

        Configurations: --recognizer NAME or NAME:PARAM=VALUE,... (repeatable, at most 8 in \
        all; --set applies to a single --recognizer), and --configuration FILE, the \
        configuration `tune --export-json` wrote (repeatable). With --dataset DIR each contact \
        tried can be saved, labeled with an intent chosen on the page, as a new trace file \
        (try-PARTICIPANT-NNN.json, never replacing a file).

        Loopback only by default, with capture's rules: Host and Origin must name this server, \
        every request that changes something carries the secret built into the page, and a \
        non-loopback --host needs a token (--token-file, or TOUCHTRACE_CAPTURE_TOKEN). SIGINT \
        and SIGTERM end the run (exit 0). Exit codes: 64 a bad option or a --configuration \
        file that cannot be read or used; 65 the dataset holds a file that cannot be read; 69 \
        the address cannot be bound; 73 the dataset cannot be created.

        Examples (from the repository root):
          touchtrace try --recognizer deep-press:threshold=0.35 \\
            --recognizer stable-press
          touchtrace tune samples/ --recognizer hysteresis --export-json tuned.json
          touchtrace try --configuration tuned.json --recognizer deep-press \\
            --dataset tried/
        """)

    @Option(
      help: ArgumentHelp(
        "A configuration to try: NAME or NAME:PARAM=VALUE,... (repeatable; see `touchtrace recognizers`).",
        valueName: "config"))
    var recognizer: [String] = []

    @Option(
      name: .customLong("set"),
      help: ArgumentHelp(
        "Set a parameter of the single --recognizer: NAME=VALUE (repeatable).", valueName: "name=value"))
    var settings: [String] = []

    @Option(
      help: ArgumentHelp(
        "A configuration `touchtrace tune --export-json` wrote (repeatable).", valueName: "file"))
    var configuration: [String] = []

    @Option(
      help: ArgumentHelp("Save tried contacts here, as labeled trace files (created when missing).", valueName: "dir"))
    var dataset: String?

    @OptionGroup(title: "Server") var server: ServerOptions

    @Option(help: ArgumentHelp("Who presses (the user of every saved trace).", valueName: "name"))
    var participant = "anonymous"

    @Option(
      help: ArgumentHelp("The device of every saved trace (default: the browser's description).", valueName: "name"))
    var device: String?

    @OptionGroup var global: GlobalOptions

    /// The configurations tried, with the names the page shows: the `--configuration` files
    /// first, then the `--recognizer` options, in the order given.
    func configurations() throws(ValidationError) -> [(name: String, recognizer: AnyForceRecognizer)] {
      if !settings.isEmpty && recognizer.count != 1 {
        throw ValidationError(
          "--set applies to a single --recognizer; with several, give each its parameters: NAME:PARAM=VALUE,...")
      }
      var texts: [String] = []
      for file in configuration { texts.append(try Self.configurationText(file)) }
      for text in recognizer { texts.append(try PlanOptions.configurationText(text, settings: settings)) }
      guard !texts.isEmpty else {
        throw ValidationError("give a configuration to try: --recognizer NAME or --configuration FILE")
      }
      guard texts.count <= 8 else { throw ValidationError("at most 8 configurations at once, not \(texts.count)") }
      var list: [(String, AnyForceRecognizer)] = []
      for text in texts {
        do throws(SweepPlanError) {
          let parsed = try Configuration(parsing: text, catalog: TouchTraceTool.catalog)
          list.append((Self.label(text), parsed.recognizer))
        } catch {
          throw ValidationError(error.description)
        }
      }
      return list
    }

    /// `NAME PARAM=VALUE, …` for `NAME:PARAM=VALUE,…`.
    static func label(_ text: String) -> String {
      guard let colon = text.range(of: Configuration.parameterSeparator(for: String(text.prefix { $0 != ":" })))
      else { return text }
      let parameters = text[colon.upperBound...].split(separator: ",").joined(separator: ", ")
      return String(text[..<colon.lowerBound]) + " " + parameters
    }

    /// `NAME:PARAM=VALUE,…` of a `touchtrace-configuration` document (`tune --export-json`).
    static func configurationText(_ file: String) throws(ValidationError) -> String {
      let bytes: [UInt8]
      do {
        bytes = try TraceFiles.read(file)
      } catch {
        throw ValidationError("--configuration \(file): \(error.description)")
      }
      let root: JSONNode
      do {
        root = try JSONNode.parse(bytes, file: file)
      } catch {
        throw ValidationError("--configuration: \(error.description)")
      }
      guard case .object(let members) = root.kind,
        let format = members.first(where: { $0.key == "format" }), case .string(TuneExport.format) = format.value.kind,
        let name = members.first(where: { $0.key == "recognizer" }), case .string(let recognizerName) = name.value.kind
      else {
        throw ValidationError(
          "--configuration \(file): not a configuration `touchtrace tune --export-json` wrote (format \"\(TuneExport.format)\" with a recognizer)"
        )
      }
      var settings: [String] = []
      if let params = members.first(where: { $0.key == "params" }) {
        guard case .object(let values) = params.value.kind else {
          throw ValidationError("\(file):\(params.value.position): error: \"params\" must be an object")
        }
        for value in values {
          switch value.value.kind {
          case .number(let number): settings.append("\(value.key)=\(NumberText.shortest(number))")
          case .string(let text): settings.append("\(value.key)=\(text)")
          case .bool(let flag): settings.append("\(value.key)=\(flag)")
          case .null: settings.append("\(value.key)=inf")
          default:
            throw ValidationError(
              "\(file):\(value.value.position): error: parameter \"\(value.key)\" must be a number, a string or a flag")
          }
        }
      }
      return settings.isEmpty
        ? recognizerName
        : recognizerName + Configuration.parameterSeparator(for: recognizerName) + settings.joined(separator: ",")
    }

    /// The token: from `--token-file` (its content, one trailing line break dropped), else
    /// `TOUCHTRACE_CAPTURE_TOKEN` when set and not empty.
    func resolvedToken() throws(ValidationError) -> String? {
      try server.token()
    }

    func tryConfiguration(names: [String], readingToken: Bool = true) throws(ValidationError) -> TryConfiguration {
      let configuration = TryConfiguration(
        configurations: names, host: server.host, port: server.port,
        token: readingToken || server.tokenFile == nil ? try resolvedToken() : "token-file", dataset: dataset,
        participant: participant, device: device)
      do {
        try configuration.validate()
      } catch {
        throw ValidationError(error.description)
      }
      return configuration
    }

    func validate() throws {
      let names = try configurations().map(\.name)
      _ = try tryConfiguration(names: names, readingToken: false)
    }

    func run() async throws {
      try await Console.run {
        let chosen = try configurations()
        let configuration = try tryConfiguration(names: chosen.map(\.name))
        if let dataset { try Console.checkOutputs([], inputs: [dataset]) }
        let quiet = global.quiet
        let recognizers = chosen.map(\.recognizer)
        let session: TrySession
        let server: TryServer
        do throws(CaptureError) {
          session = try TrySession(
            configuration: configuration,
            replay: { trace, complete in TryReport.results(recognizers, trace: trace, complete: complete) },
            log: { line in if !quiet { Console.error(line) } })
          server = try TryServer(session: session)
        } catch {
          throw ServedPage.failure(error, command: "try")
        }
        try await ServedPage.serve(server, command: "try", quiet: quiet) {
          "try: open \($0) — \(chosen.count) configuration\(chosen.count == 1 ? "" : "s"); Ctrl-C ends the run"
        }
        if !quiet {
          let contacts = await session.contacts
          let saved = await session.saved
          Console.error(
            "try: \(contacts) contact\(contacts == 1 ? "" : "s") replayed, \(saved.count) saved\(dataset.map { " in \($0)" } ?? "")"
          )
        }
      }
    }
  }
}
