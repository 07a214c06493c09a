package import TouchCore
import TouchIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The state of one capture run: the prompts, the files written, the contacts redone. Every
/// change goes through this actor, one request at a time.
package actor CaptureSession {
  /// A trace file this run wrote.
  package struct WrittenFile: Sendable, Hashable {
    /// The file's path (the dataset directory joined with a name the server chose).
    package var path: String
    /// The trace id inside it.
    package var id: String
    /// The prompt (index from 0) it answers.
    package var prompt: Int
    /// The prompted intent.
    package var intent: Intent
    /// Samples in the trace.
    package var samples: Int
    /// Device, inode and content of the file as written, so redo removes only that file.
    var device: UInt64
    var inode: UInt64
    var bytes: [UInt8]
  }

  /// The answer to a request that changes or reads the state.
  package enum Outcome: Sendable, Hashable {
    /// Done; the state after it.
    case ok
    /// The request is malformed or invalid (HTTP 400), with the reason.
    case invalid(String)
    /// The request does not fit the current state (HTTP 409), with the reason.
    case conflict(String)
    /// The trace could not be written (HTTP 500), with the reason.
    case failed(String)
  }

  /// The run's configuration.
  package nonisolated let configuration: CaptureConfiguration
  /// The prompts in order (``CaptureConfiguration/prompts``).
  package nonisolated let prompts: [Intent]
  /// The recording session's name: `PARTICIPANT-seedSEED`, with `-runK` when the dataset already
  /// has that session.
  package nonisolated let session: String
  /// Files written and still in the dataset, in prompt order.
  package private(set) var written: [WrittenFile] = []
  /// Files written and then removed by redo, in the order they were removed.
  package private(set) var redone: [WrittenFile] = []
  /// Whether the run was interrupted before every prompt was done.
  package private(set) var interrupted = false
  /// Whether the participant left the welcome or consent screen with Start (true from the
  /// outset without one).
  package private(set) var started: Bool
  /// Whether the participant agreed to the consent text (false without one).
  package private(set) var consented = false
  /// Whether the participant ended the run with Finish after the last prompt.
  package private(set) var finishedByParticipant = false

  /// The directory the traces go to, and the ids and names already taken there.
  private var dataset: CaptureDataset
  private var finishWaiters: [CheckedContinuation<Void, Never>] = []
  private var isFinished = false
  private let log: @Sendable (String) -> Void

  /// The index of the prompt shown now (from 0); equal to the prompt count when done.
  package var current: Int { written.count }
  /// Whether every prompt has its trace.
  package var isComplete: Bool { written.count == prompts.count }

  /// Opens the dataset directory (creating it and its parents when missing) and reads the traces already in it,
  /// so the session name and trace ids do not repeat any of theirs.
  ///
  /// - Parameters:
  ///   - configuration: the run (it should have passed `validate()`).
  ///   - log: receives one line per contact written, redone or refused.
  /// - Throws: ``CaptureError/dataset(path:reason:)`` when the directory cannot be made, or
  ///   ``CaptureError/unreadableDataset(path:reason:)`` when it holds a file the loader cannot read.
  package init(configuration: CaptureConfiguration, log: @escaping @Sendable (String) -> Void = { _ in })
    throws(CaptureError)
  {
    self.configuration = configuration
    self.prompts = configuration.prompts
    self.started = !configuration.needsStart
    self.log = log
    let dataset = try CaptureDataset(
      directory: configuration.dataset,
      base: "\(CaptureNames.slug(configuration.participant))-seed\(configuration.seed)")
    self.dataset = dataset
    self.session = dataset.session
  }

  /// The state the page shows, as JSON: `index`, `total`, `recorded` (contacts kept),
  /// `complete` (every prompt has its contact), `done` (the run is over), `intent`, `words` and
  /// `instructions` of the current prompt (`null` once complete), `participant`, `session`,
  /// `canRedo`, `canFinish`, `started`, `welcome` and `consent` (texts or `null`), and
  /// `practice` (the practice contacts, each `intent`, `words`, `instructions`).
  package func stateJSON() -> [UInt8] {
    var out: [UInt8] = Array(
      "{\"index\":\(current),\"total\":\(prompts.count),\"recorded\":\(written.count),\"complete\":\(isComplete),\"done\":\(isFinished)"
        .utf8)
    func append(_ text: String?) {
      if let text { JSONTraceWriter.appendString(text, to: &out) } else { out += Array("null".utf8) }
    }
    let shown = isComplete ? nil : configuration.text(for: prompts[current])
    out += Array(",\"intent\":".utf8)
    append(isComplete ? nil : prompts[current].rawValue)
    out += Array(",\"words\":".utf8)
    append(shown?.prompt)
    out += Array(",\"instructions\":".utf8)
    append(shown?.instructions)
    out += Array(",\"participant\":".utf8)
    append(configuration.participant)
    out += Array(",\"session\":".utf8)
    append(session)
    out += Array(",\"canRedo\":\(!written.isEmpty && !isFinished),\"canFinish\":\(isComplete && !isFinished)".utf8)
    out += Array(",\"started\":\(started),\"welcome\":".utf8)
    append(configuration.welcome)
    out += Array(",\"consent\":".utf8)
    append(configuration.consent)
    out += Array(",\"practice\":[".utf8)
    for (k, intent) in configuration.practiceIntents.enumerated() {
      let text = configuration.text(for: intent)
      out += Array((k > 0 ? ",{\"intent\":" : "{\"intent\":").utf8)
      append(intent.rawValue)
      out += Array(",\"words\":".utf8)
      append(text.prompt)
      out += Array(",\"instructions\":".utf8)
      append(text.instructions)
      out.append(UInt8(ascii: "}"))
    }
    out += Array("]}".utf8)
    return out
  }

  /// Leaves the welcome or consent screen (`POST /start`). With a consent text the body must be
  /// `{"agree": true}`.
  ///
  /// - Returns: `.ok`; `.invalid` when consent is asked and not given; `.conflict` when the run
  ///   is over.
  package func start(_ body: [UInt8]) -> Outcome {
    guard !isFinished else { return refuse(.conflict("the run is over")) }
    if configuration.consent != nil {
      let agreed: Bool
      if let root = try? JSONNode.parse(body, file: "start"), case .object(let members) = root.kind,
        let agree = members.first(where: { $0.key == "agree" }), case .bool(true) = agree.value.kind
      {
        agreed = true
      } else {
        agreed = false
      }
      guard agreed else {
        return refuse(.invalid("start: error: the consent text must be agreed to: {\"agree\": true}"))
      }
      consented = true
    }
    if !started { log("capture: started\(consented ? " (consent given)" : "")") }
    started = true
    return .ok
  }

  /// Ends the run after the last prompt (`POST /finish`): ``waitUntilFinished()`` returns and
  /// the run is not interrupted.
  ///
  /// - Returns: `.ok`, or `.conflict` while prompts are left or when the run is over.
  package func end() -> Outcome {
    guard !isFinished else { return refuse(.conflict("the run is over")) }
    guard isComplete else {
      return refuse(
        .conflict("\(prompts.count - written.count) of \(prompts.count) prompts are left: finish after the last one"))
    }
    finishedByParticipant = true
    log("capture: finished by the participant")
    finish()
    return .ok
  }

  /// The page's state: its JSON, the current prompt (`nil` when done) and its index.
  func snapshot() -> (json: [UInt8], intent: Intent?, words: String, index: Int) {
    (
      stateJSON(), isComplete ? nil : prompts[current],
      isComplete ? "" : configuration.text(for: prompts[current]).prompt, current
    )
  }

  /// Validates one contact and adds it to the dataset as a new trace file.
  ///
  /// - Parameter body: the request body (see ``CaptureUpload``).
  /// - Returns: `.ok` when written; `.invalid` for a malformed or invalid contact, or one whose
  ///   intent or participant differs from the prompt's; `.conflict` when it answers another prompt
  ///   than the current one, or the run is over; `.failed` when the file cannot be written.
  ///   Nothing is written unless it returns `.ok`.
  package func submit(_ body: [UInt8]) -> Outcome {
    let upload: CaptureUpload
    do {
      upload = try CaptureUpload.parse(body)
    } catch {
      return refuse(.invalid(error.description))
    }
    guard !isFinished else { return refuse(.conflict("the run is over")) }
    guard started else { return refuse(.conflict("the run has not started: the welcome screen's Start comes first")) }
    guard !isComplete else { return refuse(.conflict("every prompt is done: redo the last one or finish")) }
    guard upload.prompt == current else {
      return refuse(.conflict("the contact answers prompt \(upload.prompt + 1), but prompt \(current + 1) is shown"))
    }
    guard upload.intent == prompts[current] else {
      return refuse(
        .invalid("upload: error: intent \"\(upload.intent)\" differs from the prompt's \"\(prompts[current])\""))
    }
    guard upload.participant == configuration.participant else {
      return refuse(
        .invalid(
          "upload: error: participant \"\(upload.participant)\" differs from this run's \"\(configuration.participant)\""
        ))
    }
    // Names come from the server alone: SESSION-NNN, the first number free as an id and as a file.
    let (session, device) = (self.session, configuration.device)
    switch dataset.add({ id throws(CaptureUploadError) in try upload.trace(id: id, session: session, device: device) })
    {
    case .failure(.invalid(let reason)): return refuse(.invalid(reason))
    case .failure(.failed(let reason)): return refuse(.failed(reason))
    case .success(let (file, trace)):
      written.append(
        WrittenFile(
          path: file.path, id: file.id, prompt: current, intent: upload.intent, samples: trace.count,
          device: file.device, inode: file.inode, bytes: file.bytes))
      log("capture: \(written.count) of \(prompts.count): \(upload.intent) -> \(file.path) (\(trace.count) samples)")
      return .ok
    }
  }

  /// Removes the last trace this run wrote (when the file there is still the one it wrote) and
  /// shows its prompt again.
  ///
  /// - Returns: `.ok`, or `.conflict` when this run has written nothing yet or is over.
  package func redo() -> Outcome {
    guard !isFinished else { return refuse(.conflict("the run is over: nothing to redo")) }
    guard let last = written.last else {
      return refuse(.conflict("nothing to redo: no contact written in this run yet"))
    }
    var info = stat()
    if lstat(last.path, &info) == 0 {
      // The same file (an inode can be reused by a new file) with the same content.
      guard info.st_mode & S_IFMT == S_IFREG, UInt64(info.st_dev) == last.device, UInt64(info.st_ino) == last.inode,
        Self.content(of: last.path, limit: last.bytes.count + 1) == last.bytes
      else {
        return refuse(.conflict("\(last.path) is no longer the file this run wrote; it is left as it is"))
      }
      if unlink(last.path) != 0 {
        return refuse(.failed("\(last.path): cannot remove: \(SystemError.current)"))
      }
    }
    written.removeLast()
    redone.append(last)
    log("capture: redo prompt \(last.prompt + 1) (\(last.intent)): removed \(last.path)")
    return .ok
  }

  /// Ends the run early (Ctrl-C): ``waitUntilFinished()`` returns.
  package func interrupt() {
    guard !isFinished else { return }
    interrupted = !isComplete
    finish()
  }

  /// Returns when the participant finished after the last prompt or the run was interrupted.
  package func waitUntilFinished() async {
    if isFinished { return }
    await withCheckedContinuation { finishWaiters.append($0) }
  }

  /// What the run did.
  package func summary() -> CaptureSummary {
    CaptureSummary(
      session: session, participant: configuration.participant, seed: configuration.seed,
      dataset: configuration.dataset, intents: configuration.intents, prompts: prompts,
      written: written.map {
        .init(file: $0.path, id: $0.id, prompt: $0.prompt, intent: $0.intent, samples: $0.samples)
      },
      redone: redone.map { .init(file: $0.path, id: $0.id, prompt: $0.prompt, intent: $0.intent, samples: $0.samples) },
      interrupted: interrupted)
  }

  private func finish() {
    isFinished = true
    let waiters = finishWaiters
    finishWaiters = []
    for waiter in waiters { waiter.resume() }
  }

  private func refuse(_ outcome: Outcome) -> Outcome {
    switch outcome {
    case .ok: break
    case .invalid(let why), .conflict(let why), .failed(let why): log("capture: refused: \(why)")
    }
    return outcome
  }

  /// The names in a directory; empty when it cannot be read.
  static func entries(of directory: String) -> [String] {
    guard let handle = opendir(directory) else { return [] }
    defer { closedir(handle) }
    var names: [String] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  /// The first `limit` bytes of the file at `path`; `nil` when it cannot be read.
  static func content(of path: String, limit: Int) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while bytes.count < limit {
      let n = read(descriptor, &buffer, min(buffer.count, limit - bytes.count))
      if n < 0 && errno == EINTR { continue }
      guard n >= 0 else { return nil }
      if n == 0 { break }
      bytes += buffer[0..<n]
    }
    return bytes
  }

  static func padded(_ n: Int) -> String {
    let text = String(n)
    return text.count >= 3 ? text : String(repeating: "0", count: 3 - text.count) + text
  }

  static func join(_ directory: String, _ name: String) -> String {
    directory.hasSuffix("/") ? directory + name : directory + "/" + name
  }

  static func lastComponent(_ path: String) -> String {
    path.split(separator: "/").last.map(String.init) ?? path
  }
}
