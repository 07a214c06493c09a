import ArgumentParser
import TouchCapture
import TouchCore
import TouchIO

extension TouchTraceCommand {
  /// `touchtrace capture`: serves the capture page and adds each contact to a dataset.
  struct Capture: AsyncParsableCommand, GlobalCommand {
    static let configuration = CommandConfiguration(
      abstract: "Record labelled traces in a browser: serve a capture page, add each contact to a dataset.",
      discussion: """
        Prints the URL to open as the first line of standard output, then serves a page that \
        prompts for one intent at a time and records the Pointer Events of each contact \
        (pressure, or Touch.force where the browser has it, as force with maximum 1). Each \
        contact is validated like any input file and added to --dataset as a new trace file \
        (SESSION-NNN.json, named by the server, never replacing a file) with its intent, \
        participant, session and device, so every command reads it with its labels.

        The prompt order is shuffled with --seed (default: the 64-bit FNV-1a hash of \
        --participant, so each participant has an order of their own) and recorded in every \
        trace's session (PARTICIPANT-seedSEED) and in the session summary. When every prompt is \
        done the participant may still redo the last one, then presses Finish: the summary \
        (files, counts per intent, seed, prompt order, redone contacts) is written to --output \
        (default DATASET/.sessions/SESSION.FORMAT, which loaders skip; - for standard output, \
        after the URL line) and the command exits 0; Ctrl-C ends the run the same way.

        The page is written for participants: each prompt has a heading and instructions in \
        plain words (--intent-prompt INTENT=TEXT and --intent-instructions INTENT=TEXT, or in a \
        study file `[capture.intents.press]` with `prompt = "..."` and `instructions = "..."`), \
        an optional --welcome text and --consent text to agree to before the first prompt, \
        --practice N contacts that are never sent or saved, a force meter while the contact \
        lasts, "Recorded" after each contact, and Redo up to the end.

        Loopback only by default; requests naming another host (Host, Origin) are refused, and \
        every request that changes the session must carry the secret built into the page. To \
        record from a phone or tablet on the same network, bind --host 0.0.0.0 with a token \
        (--token-file F, or the TOUCHTRACE_CAPTURE_TOKEN environment variable) and open the \
        printed URL with this machine's LAN address; every request without the token is refused \
        (403). The token is never printed on standard error (only the URL line on standard \
        output carries it). SIGINT and SIGTERM end the run: the summary is written, marked \
        interrupted, and the command exits 0. Exit codes: 64 a bad option (a non-loopback \
        --host without a token, an unreadable --token-file); 65 the dataset holds a file that \
        cannot be read; 69 the address cannot be bound; 73 the dataset or an output cannot be \
        created.

        Examples (from the repository root):
          touchtrace capture --dataset recordings/ana --participant ana
          touchtrace capture --dataset recordings/ana --participant ana \\
            --host 0.0.0.0 --token-file capture.token
        """)

    /// The session summary's formats: JSON or Markdown.
    enum Format: FormatChoice {
      case json, md

      var format: OutputFormat {
        switch self {
        case .json: .json
        case .md: .md
        }
      }
    }

    @Option(
      help: ArgumentHelp("The dataset directory the traces are added to (created when missing).", valueName: "dir"))
    var dataset: String

    @OptionGroup(title: "Server") var server: ServerOptions

    @Option(help: ArgumentHelp("Intents to prompt for, comma-separated.", valueName: "intent,..."))
    var intents = "press,tap,hold,drag,pop"

    @Option(help: ArgumentHelp("Prompts per intent.", valueName: "n"))
    var count = 3

    @Option(help: ArgumentHelp("Who records (the user of every trace).", valueName: "name"))
    var participant = "anonymous"

    @Option(
      name: .customLong("intent-prompt"),
      help: ArgumentHelp("The heading shown for an intent: INTENT=TEXT (repeatable).", valueName: "intent=text"))
    var intentPrompts: [String] = []

    @Option(
      name: .customLong("intent-instructions"),
      help: ArgumentHelp(
        "What to do for an intent, in plain words: INTENT=TEXT (repeatable).", valueName: "intent=text"))
    var intentInstructions: [String] = []

    @Option(help: ArgumentHelp("A welcome text shown before the first prompt, left with Start.", valueName: "text"))
    var welcome: String?

    @Option(
      help: ArgumentHelp("A consent text the participant must agree to before the first prompt.", valueName: "text"))
    var consent: String?

    @Option(
      help: ArgumentHelp("Practice contacts before the first prompt (0 to 20; never sent or saved).", valueName: "n"))
    var practice = 0

    @Option(
      help: ArgumentHelp(
        "Seed of the prompt order (default: the 64-bit FNV-1a hash of --participant).", valueName: "s"))
    var seed: UInt64?

    @Option(
      help: ArgumentHelp(
        "The device of every trace (default: the browser's pointer type, screen and user agent; with a name they go to the label user_agent).",
        valueName: "name"))
    var device: String?

    @Option(
      help: ArgumentHelp(
        "Deprecated: the token as an argument is visible to every user in ps; use --token-file or TOUCHTRACE_CAPTURE_TOKEN.",
        valueName: "token", visibility: .hidden))
    var token: String?

    @Option(
      help: ArgumentHelp(
        "Session summary format: json, md (default: from the --output file's ending; on standard output md on a terminal, else json; json in the dataset).",
        valueName: "format"))
    var format: FormatOption<Format>?

    @Option(
      help: ArgumentHelp(
        "Write the session summary here; - is standard output, after the URL line (default: DATASET/.sessions/SESSION.FORMAT).",
        valueName: "file"))
    var output: String?

    @OptionGroup var global: GlobalOptions

    /// The summary's format, by the rule every command follows: `--format`, else the `--output`
    /// file's ending, else on standard output Markdown on a terminal and JSON otherwise; JSON for
    /// the default file in the dataset.
    var resolvedFormat: Format {
      if let format { return format.choice }
      guard let output else { return .json }
      if output == OutputFiles.standardOutput { return Console.stdoutIsTerminal ? .md : .json }
      if let named = OutputFormat(fileName: output), let choice = Format(named) { return choice }
      return .json
    }

    /// The run's configuration; with `readingToken` false a `--token-file` is not read (its
    /// token is taken as given, for checking the other options before the run).
    func captureConfiguration(readingToken: Bool = true) throws(ValidationError) -> CaptureConfiguration {
      var list: [Intent] = []
      for word in intents.split(separator: ",", omittingEmptySubsequences: false) {
        let name = word.trimmingSpaces
        guard let intent = Intent(name: name) else {
          throw ValidationError("--intents: unknown intent '\(name)' (use press, tap, hold, drag, pop)")
        }
        list.append(intent)
      }
      var configuration = CaptureConfiguration(
        dataset: dataset, host: server.host, port: server.port, intents: list, count: count, participant: participant,
        seed: seed, token: readingToken || server.tokenFile == nil ? try resolvedToken() : "token-file", device: device)
      configuration.welcome = welcome
      configuration.consent = consent
      configuration.practice = practice
      configuration.texts = try Self.texts(prompts: intentPrompts, instructions: intentInstructions)
      do {
        try configuration.validate()
      } catch {
        throw ValidationError(error.description)
      }
      return configuration
    }

    /// The page's texts from `--intent-prompt` and `--intent-instructions` (`INTENT=TEXT`, split
    /// at the first `=`); an intent given only one of them keeps its standard other half.
    static func texts(prompts: [String], instructions: [String]) throws(ValidationError) -> [Intent: IntentText] {
      var texts: [Intent: IntentText] = [:]
      for (option, values) in [("--intent-prompt", prompts), ("--intent-instructions", instructions)] {
        for value in values {
          guard let equals = value.firstIndex(of: "="), let intent = Intent(rawValue: String(value[..<equals])) else {
            throw ValidationError(
              "\(option) expects INTENT=TEXT with an intent (press, tap, hold, drag, pop), got '\(value)'")
          }
          let text = String(value[value.index(after: equals)...])
          var entry = texts[intent] ?? IntentText.standard(for: intent)
          if option == "--intent-prompt" { entry.prompt = text } else { entry.instructions = text }
          texts[intent] = entry
        }
      }
      return texts
    }

    /// The token: from `--token-file`, else the deprecated `--token`, else
    /// `TOUCHTRACE_CAPTURE_TOKEN` (``ServerOptions/token(deprecated:)``).
    func resolvedToken() throws(ValidationError) -> String? {
      if server.tokenFile != nil && token != nil { throw ValidationError("give --token-file or --token, not both") }
      return try server.token(deprecated: token)
    }

    func validate() throws {
      if server.tokenFile != nil && token != nil { throw ValidationError("give --token-file or --token, not both") }
      _ = try captureConfiguration(readingToken: false)
      if format == nil, let output, output != OutputFiles.standardOutput, let ending = OutputFormat.ending(of: output) {
        guard let named = OutputFormat(fileName: output), Format(named) != nil else {
          throw ValidationError(
            "--output \(output): the ending '.\(ending)' names no format this command writes (json, md); give --format")
        }
      }
    }

    func run() async throws {
      try await Console.run {
        let configuration = try captureConfiguration()
        try Console.checkOutputs([output], inputs: [dataset])
        let quiet = global.quiet
        let session: CaptureSession
        let server: CaptureServer
        do throws(CaptureError) {
          session = try CaptureSession(configuration: configuration, log: { line in if !quiet { Console.error(line) } })
          server = try CaptureServer(session: session)
        } catch {
          throw ServedPage.failure(error, command: "capture")
        }
        if token != nil {
          Console.error(
            "touchtrace capture: warning: --token is deprecated: its value is visible to every user of this machine (ps); use --token-file or \(ServerOptions.tokenVariable)"
          )
        }
        let prompts = session.prompts.count
        try await ServedPage.serve(server, command: "capture", quiet: quiet) {
          "capture: open \($0) — \(prompts) prompts; Ctrl-C ends the run"
        }
        let summary = await session.summary()
        let bytes: [UInt8] =
          switch resolvedFormat {
          case .json: summary.json()
          case .md: summary.markdown()
          }
        if let output {
          try Console.emit(bytes, to: output, inputs: [dataset])
        } else {
          let directory = dataset.hasSuffix("/") ? dataset + ".sessions" : dataset + "/.sessions"
          _ = try Console.makeDirectory(directory)
          let path = directory + "/" + summary.session + "." + resolvedFormat.name
          try OutputFiles().create(path, bytes: bytes)
          if !quiet { Console.error("capture: session summary -> \(path)") }
        }
        if !quiet {
          let state = summary.interrupted ? "interrupted after" : "done:"
          Console.error("capture: \(state) \(summary.written.count) of \(summary.prompts.count) traces in \(dataset)")
        }
      }
    }
  }
}
