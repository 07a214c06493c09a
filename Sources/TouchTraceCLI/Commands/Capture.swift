import ArgumentParser
import Dispatch
import TouchCapture
import TouchCore
import TouchIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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

    /// The environment variable a token may come from.
    static let tokenVariable = "TOUCHTRACE_CAPTURE_TOKEN"

    /// The token: from `--token-file` (its content, one trailing line break dropped), else the
    /// deprecated `--token`, else `TOUCHTRACE_CAPTURE_TOKEN` when set and not empty.
    func resolvedToken() throws(ValidationError) -> String? {
      if server.tokenFile != nil && token != nil { throw ValidationError("give --token-file or --token, not both") }
      return try Self.resolveToken(file: server.tokenFile, deprecated: token)
    }

    /// The token of `capture` or `try`: from `file` (its content, one trailing line break
    /// dropped), else `deprecated` (capture's `--token`), else `TOUCHTRACE_CAPTURE_TOKEN` when set
    /// and not empty.
    static func resolveToken(file tokenFile: String?, deprecated token: String?) throws(ValidationError) -> String? {
      if let tokenFile {
        guard let bytes = Self.readSmallFile(tokenFile) else {
          throw ValidationError("--token-file \(tokenFile): cannot be read (or is over 4 KiB)")
        }
        var text = bytes
        if text.last == UInt8(ascii: "\n") { text.removeLast() }
        if text.last == UInt8(ascii: "\r") { text.removeLast() }
        guard !text.isEmpty else { throw ValidationError("--token-file \(tokenFile) is empty") }
        return String(decoding: text, as: UTF8.self)
      }
      if let token { return token }
      if let value = getenv(tokenVariable).map({ String(cString: $0) }), !value.isEmpty { return value }
      return nil
    }

    /// The bytes of `path`, at most 4 KiB, or `nil` when it cannot be read or is longer.
    static func readSmallFile(_ path: String) -> [UInt8]? {
      let fd = open(path, O_RDONLY | O_CLOEXEC)
      guard fd >= 0 else { return nil }
      defer { close(fd) }
      var bytes: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 4097)
      while bytes.count <= 4096 {
        let n = read(fd, &buffer, buffer.count)
        if n < 0 { return nil }
        if n == 0 { break }
        bytes += buffer[0..<n]
      }
      return bytes.count <= 4096 ? bytes : nil
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
          throw Self.failure(error)
        }
        if token != nil {
          Console.error(
            "touchtrace capture: warning: --token is deprecated: its value is visible to every user of this machine (ps); use --token-file or \(Self.tokenVariable)"
          )
        }
        // Signals end the run from here on (also one that arrives before the URL is printed).
        // The handler stays installed until the deferred cancel, at the end of this scope.
        let interrupts = try SignalSources.interrupts { Task { await session.interrupt() } }
        defer { interrupts.cancel() }
        let url: String
        do throws(CaptureError) {
          url = try await server.start()
        } catch {
          throw Self.failure(error)
        }
        try Console.emit(Array((url + "\n").utf8), to: OutputFiles.standardOutput, inputs: [])
        if !quiet {
          // The token stays off standard error (logs, terminals shared on screen).
          let shown = configuration.token == nil ? url : Self.redacted(url)
          Console.error("capture: open \(shown) — \(session.prompts.count) prompts; Ctrl-C ends the run")
        }
        let summary = await server.run()
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

    /// Prints an error of `command` (`capture` or `try`) and gives its exit code: 64 usage, 65
    /// unreadable dataset, 69 cannot listen, 73 the dataset cannot be created.
    static func failure(_ error: CaptureError, command: String = "capture") -> any Error {
      Console.error("touchtrace \(command): error: \(error.description)")
      switch error {
      case .usage: return ExitCode.validationFailure
      case .unreadableDataset: return Exit.dataError
      case .cannotListen: return Exit.unavailable
      case .dataset: return Exit.cannotCreate
      }
    }

    /// `url` with the token's value replaced by `…` (the full URL is on standard output).
    static func redacted(_ url: String) -> String {
      guard let range = url.range(of: "?token=") else { return url }
      return String(url[..<range.upperBound]) + "… (the full URL, token included, is on standard output)"
    }
  }
}

/// The write end of the interrupt pipe, the only state the signal handler reads; set before the
/// handler is installed (a constant initializer: no lazy initialization inside the handler).
nonisolated(unsafe) private var interruptWriteEnd: Int32 = -1

/// SIGINT and SIGTERM turned into a call of an action, for as long as the command needs it;
/// ``cancel()`` gives both signals their default action back.
///
/// A handler installed with `sigaction` writes one byte to a pipe (async-signal-safe), and a
/// Dispatch read source on the other end calls the action. Unlike a Dispatch signal source (a
/// `signalfd` on Linux, which only sees a signal every thread blocks), this works whichever
/// thread the kernel picks, including the concurrency threads an async command starts with.
final class SignalSources: @unchecked Sendable {
  private let source: any DispatchSourceRead

  private init(source: any DispatchSourceRead) { self.source = source }

  /// Calls `action` on each SIGINT or SIGTERM (which no longer end the process) until ``cancel()``.
  static func interrupts(_ action: @escaping @Sendable () -> Void) throws -> SignalSources {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else {
      Console.error("touchtrace capture: error: cannot create the interrupt pipe: \(SystemError.current)")
      throw Exit.failure
    }
    let readEnd = ends[0]
    let writeEnd = ends[1]
    for end in ends {
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
    }
    let source = DispatchSource.makeReadSource(fileDescriptor: readEnd, queue: .global())
    source.setEventHandler {
      var bytes = [UInt8](repeating: 0, count: 64)
      var received = false
      while read(readEnd, &bytes, bytes.count) > 0 { received = true }
      if received { action() }
    }
    source.setCancelHandler {
      close(readEnd)
      close(writeEnd)
    }
    source.resume()
    interruptWriteEnd = writeEnd
    for number in [SIGINT, SIGTERM] {
      var handler = sigaction()
      let onSignal: @convention(c) (Int32) -> Void = { _ in
        let saved = errno
        var byte: UInt8 = 1
        _ = write(interruptWriteEnd, &byte, 1)
        errno = saved
      }
      #if canImport(Darwin)
        handler.__sigaction_u.__sa_handler = onSignal
      #else
        handler.__sigaction_handler.sa_handler = onSignal
      #endif
      handler.sa_flags = SA_RESTART
      sigemptyset(&handler.sa_mask)
      sigaction(number, &handler, nil)
    }
    return SignalSources(source: source)
  }

  /// Restores the default action of SIGINT and SIGTERM and closes the pipe.
  func cancel() {
    signal(SIGINT, SIG_DFL)
    signal(SIGTERM, SIG_DFL)
    interruptWriteEnd = -1
    source.cancel()
  }
}
