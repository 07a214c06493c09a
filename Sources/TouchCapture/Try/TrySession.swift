package import TouchCore
import TouchIO

/// Replays one contact through every configuration tried: the JSON array of their results, one
/// object per configuration in ``TryConfiguration/configurations`` order (each as `touchtrace
/// run` writes a result: `actions`, `events`, `final_state`, …).
///
/// `complete` is false for a contact still going on (its events so far): then only the events
/// strictly before the last sample's time may be given, since the harness closes a trace at its
/// last sample as a lift; those are the events the whole contact's replay has at those times.
package typealias TryReplay = @Sendable (_ trace: Trace, _ complete: Bool) -> [UInt8]

/// The state of one `touchtrace try` run: replays each contact as it arrives and saves the ones
/// asked for. Every change goes through this actor, one request at a time.
package actor TrySession {
  /// A contact saved as a labeled trace.
  package struct Saved: Sendable, Hashable {
    /// The file's path.
    package var path: String
    /// The trace id.
    package var id: String
    /// The intent it was labeled with.
    package var intent: Intent
    /// Samples in the trace.
    package var samples: Int
  }

  /// The answer to a request: the JSON to send, or why it is refused.
  package enum Outcome: Sendable, Hashable {
    /// Done; the JSON answer.
    case ok([UInt8])
    /// The request is malformed or invalid (HTTP 400), with the reason.
    case invalid(String)
    /// The request does not fit the run (HTTP 409), with the reason.
    case conflict(String)
    /// The trace could not be written (HTTP 500), with the reason.
    case failed(String)
  }

  /// The run's configuration.
  package nonisolated let configuration: TryConfiguration
  /// The session name of saved traces (`try-PARTICIPANT`, with `-runK` when taken); `nil`
  /// without a dataset.
  package nonisolated let session: String?
  /// Contacts saved, in order.
  package private(set) var saved: [Saved] = []
  /// Complete contacts replayed.
  package private(set) var contacts = 0

  private let replay: TryReplay
  private var dataset: CaptureDataset?
  private var isFinished = false
  private var finishWaiters: [CheckedContinuation<Void, Never>] = []
  private let log: @Sendable (String) -> Void

  /// A session.
  ///
  /// - Parameters:
  ///   - configuration: the run (it should have passed `validate()`).
  ///   - replay: replays a contact through every configuration.
  ///   - log: receives one line per contact saved or refused.
  /// - Throws: ``CaptureError`` when the dataset cannot be opened.
  package init(
    configuration: TryConfiguration, replay: @escaping TryReplay, log: @escaping @Sendable (String) -> Void = { _ in }
  ) throws(CaptureError) {
    self.configuration = configuration
    self.replay = replay
    self.log = log
    if let directory = configuration.dataset {
      let dataset = try CaptureDataset(
        directory: directory, base: "try-" + CaptureNames.slug(configuration.participant))
      self.dataset = dataset
      self.session = dataset.session
    } else {
      self.session = nil
    }
  }

  /// The state the page starts from, as JSON: `configurations` (their names), `participant`,
  /// `canSave` (whether a dataset was given), `saved` (contacts saved so far), `intents` (the
  /// labels a saved contact may get).
  package func stateJSON() -> [UInt8] {
    var out: [UInt8] = Array("{\"configurations\":[".utf8)
    for (k, name) in configuration.configurations.enumerated() {
      if k > 0 { out.append(UInt8(ascii: ",")) }
      JSONTraceWriter.appendString(name, to: &out)
    }
    out += Array("],\"participant\":".utf8)
    JSONTraceWriter.appendString(configuration.participant, to: &out)
    out += Array(",\"canSave\":\(dataset != nil),\"saved\":\(saved.count),\"intents\":[".utf8)
    out += Array(Intent.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ",").utf8)
    out += Array("]}".utf8)
    return out
  }

  /// Replays a contact (`POST /replay`, a ``CaptureUpload`` body whose `prompt` and `intent` are
  /// not used): complete when its last event is `pointerup` or `pointercancel`, else the prefix
  /// of a contact still going on.
  ///
  /// - Returns: `.ok` with the JSON `{"complete", "samples", "until", "t", "force", "results"}`: the
  ///   trace's times (seconds from `pointerdown`) and forces as the replay saw them, `until` the
  ///   time before which a prefix's events are final (`null` for a complete contact), and the
  ///   replay's results; `.invalid` for a malformed contact.
  package func replay(_ body: [UInt8]) -> Outcome {
    let upload: CaptureUpload
    let trace: Trace
    do {
      upload = try CaptureUpload.parse(body)
      trace = try upload.trace(id: "try", session: session ?? "try", device: configuration.device, inProgress: true)
    } catch {
      return .invalid(error.description)
    }
    let complete = upload.events.count >= 2 && upload.events.last!.phase.isTerminal
    if complete { contacts += 1 }
    var out: [UInt8] = Array("{\"complete\":\(complete),\"samples\":\(trace.count),\"until\":".utf8)
    if complete { out += Array("null".utf8) } else { NumberText.append(trace.t[trace.count - 1], to: &out) }
    out += Array(",\"t\":".utf8)
    Self.appendArray(trace.t, to: &out)
    out += Array(",\"force\":".utf8)
    Self.appendArray(trace.force, to: &out)
    out += Array(",\"results\":".utf8)
    out += replay(trace, complete)
    out.append(UInt8(ascii: "}"))
    return .ok(out)
  }

  /// Saves a complete contact (`POST /save`, a ``CaptureUpload`` body; its `intent` is the label
  /// the person chose) as a new trace file in the dataset.
  ///
  /// - Returns: `.ok` with `{"file", "id", "intent", "samples", "saved"}`; `.conflict` when the
  ///   run has no dataset; `.invalid` for a malformed or
  ///   unfinished contact or another participant; `.failed` when the file cannot be written.
  package func save(_ body: [UInt8]) -> Outcome {
    guard var dataset else { return refuse(.conflict("saving is off: start touchtrace try with --dataset DIR")) }
    let upload: CaptureUpload
    do {
      upload = try CaptureUpload.parse(body)
    } catch {
      return refuse(.invalid(error.description))
    }
    guard upload.participant == configuration.participant else {
      return refuse(
        .invalid(
          "upload: error: participant \"\(upload.participant)\" differs from this run's \"\(configuration.participant)\""
        ))
    }
    let device = configuration.device
    let session = dataset.session
    switch dataset.add({ id throws(CaptureUploadError) in try upload.trace(id: id, session: session, device: device) })
    {
    case .success(let (written, _)):
      self.dataset = dataset
      saved.append(Saved(path: written.path, id: written.id, intent: upload.intent, samples: written.samples))
      log("try: saved \(upload.intent) -> \(written.path) (\(written.samples) samples)")
      return .ok(savedJSON())
    case .failure(.invalid(let why)):
      self.dataset = dataset
      return refuse(.invalid(why))
    case .failure(.failed(let why)):
      self.dataset = dataset
      return refuse(.failed(why))
    }
  }

  /// `{"file", "id", "intent", "samples", "saved"}` of the last contact saved.
  func savedJSON() -> [UInt8] {
    guard let last = saved.last else { return Array("{}".utf8) }
    var out: [UInt8] = Array("{\"file\":".utf8)
    JSONTraceWriter.appendString(last.path, to: &out)
    out += Array(",\"id\":".utf8)
    JSONTraceWriter.appendString(last.id, to: &out)
    out += Array(",\"intent\":\"\(last.intent.rawValue)\",\"samples\":\(last.samples),\"saved\":\(saved.count)}".utf8)
    return out
  }

  /// Ends the run (Ctrl-C): ``waitUntilFinished()`` returns.
  package func interrupt() {
    guard !isFinished else { return }
    isFinished = true
    let waiters = finishWaiters
    finishWaiters = []
    for waiter in waiters { waiter.resume() }
  }

  /// Returns when the run was interrupted.
  package func waitUntilFinished() async {
    if isFinished { return }
    await withCheckedContinuation { finishWaiters.append($0) }
  }

  private func refuse(_ outcome: Outcome) -> Outcome {
    switch outcome {
    case .ok: break
    case .invalid(let why), .conflict(let why), .failed(let why): log("try: refused: \(why)")
    }
    return outcome
  }

  private static func appendArray(_ values: [Double], to out: inout [UInt8]) {
    out.append(UInt8(ascii: "["))
    for (k, value) in values.enumerated() {
      if k > 0 { out.append(UInt8(ascii: ",")) }
      NumberText.append(value, to: &out)
    }
    out.append(UInt8(ascii: "]"))
  }
}
