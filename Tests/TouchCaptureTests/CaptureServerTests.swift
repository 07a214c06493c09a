import Dispatch
import Foundation
import Testing
@_spi(Fuzz) import TouchCapture
import TouchCore
import TouchIO
import TouchTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A capture server on an ephemeral loopback port with a fresh dataset directory.
struct Harness {
  let dataset: String
  let session: CaptureSession
  let server: CaptureServer
  let port: UInt16
  let token: String?

  static func start(
    token: String? = nil, intents: [Intent] = [.press, .tap], count: Int = 2, participant: String = "ana",
    seed: UInt64 = 7, maximumBodySize: Int = CaptureConfiguration.defaultMaximumBodySize,
    limits: CaptureLimits = CaptureLimits(), prepare: (String) -> Void = { _ in },
    adjust: (inout CaptureConfiguration) -> Void = { _ in }
  ) async throws -> Harness {
    let dataset = TestData.temporaryDirectory("touchtrace-capture") + "/dataset"
    _ = mkdir(dataset, 0o777)
    prepare(dataset)
    var configuration = CaptureConfiguration(
      dataset: dataset, host: "127.0.0.1", port: 0, intents: intents, count: count, participant: participant,
      seed: seed, token: token, maximumBodySize: maximumBodySize)
    adjust(&configuration)
    try configuration.validate()
    let session = try CaptureSession(configuration: configuration)
    let server = try CaptureServer(session: session, limits: limits)
    let url = try await server.start()
    let afterColon = url.split(separator: ":").last!
    let port = UInt16(afterColon.prefix { $0.isNumber })!
    return Harness(dataset: dataset, session: session, server: server, port: port, token: token)
  }

  /// `path` with `?token=` added when the harness has a token (and `token` is not given).
  func path(_ path: String, token: String? = nil) -> String {
    guard let value = token ?? self.token else { return path }
    return path + "?token=" + value
  }

  /// Sends a request from a Dispatch thread (the blocking client never holds a Swift
  /// concurrency thread the server needs).
  /// `POST`s carry the session's secret unless `secret` is false (or another is given in `headers`).
  func send(
    _ method: String, _ path: String, body: [UInt8] = [], declaredLength: Int? = nil, host: String? = nil,
    headers: [(String, String)] = [], secret: Bool = true
  ) async -> RawHTTP.Response? {
    let port = self.port
    var headers = headers
    if secret, method == "POST", !headers.contains(where: { $0.0 == CaptureAccess.secretHeader }) {
      headers.append((CaptureAccess.secretHeader, self.secret))
    }
    let all = headers
    return await offThread {
      RawHTTP.send(port: port, method, path, body: body, declaredLength: declaredLength, host: host, headers: all)
    }
  }

  /// Sends `bytes` as they are on a new connection and reads until the server closes or
  /// `timeout` seconds pass without data.
  func exchange(_ bytes: [UInt8], timeout: Int) async -> (received: [UInt8], closed: Bool)? {
    let port = self.port
    return await offThread { RawHTTP.exchange(port: port, bytes, timeout: timeout) }
  }

  /// The session's secret, as the page holds it.
  var secret: String { server.access?.secret ?? "" }

  /// The page's secret as the page shows it (`const SECRET = "…"`).
  static func secret(inPage page: String) -> String? {
    guard let start = page.range(of: "const SECRET = \"") else { return nil }
    return String(page[start.upperBound...].prefix { $0 != "\"" })
  }

  /// The names of the non-hidden entries in the dataset directory, sorted.
  func files() -> [String] { (TestData.names(in: dataset) ?? []).filter { !$0.hasPrefix(".") } }
}

/// Runs blocking socket work on a Dispatch thread (a blocking client never holds a Swift
/// concurrency thread the server needs).
func offThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
  await withCheckedContinuation { continuation in
    DispatchQueue.global().async { continuation.resume(returning: work()) }
  }
}

/// One Pointer Event of an upload: type, timeStamp (ms), pressure, Touch.force.
typealias Event = (type: String, ms: Double, pressure: Double, touchForce: Double?)

/// The JSON body the page sends, written by hand.
func uploadBody(prompt: Int, intent: String, participant: String = "ana", events: [Event], extra: String = "")
  -> [UInt8]
{
  let eventTexts = events.enumerated().map { k, e in
    let force = e.touchForce.map { "\($0)" } ?? "null"
    return """
      {"type":"\(e.type)","timeStamp":\(e.ms),"pressure":\(e.pressure),"touchForce":\(force),"tiltX":10,"tiltY":-5,\
      "width":4,"height":6,"x":\(100 + k),"y":\(200 + 2 * k),"pointerType":"pen"}
      """
  }
  return Array(
    """
    {"prompt":\(prompt),"intent":"\(intent)","participant":"\(participant)",\
    "device":{"userAgent":"TestAgent/1.0","screen":"1024x768@2","pointerType":"pen"},\
    "events":[\(eventTexts.joined(separator: ","))]\(extra)}
    """.utf8)
}

/// A valid four-event contact.
let contact: [Event] = [
  ("pointerdown", 1000, 0.25, nil), ("pointermove", 1016, 0.5, 0.6), ("pointermove", 1050, 0.75, 0),
  ("pointerup", 1100, 0, nil),
]

@Suite("touchtrace capture: configuration and prompt order")
struct CaptureConfigurationTests {
  @Test("a non-loopback --host is refused without a token, accepted with one")
  func nonLoopbackNeedsToken() throws {
    for host in ["0.0.0.0", "192.168.1.20", "10.0.0.1", "::", "fe80::1"] {
      #expect(throws: CaptureError.self) { try CaptureConfiguration(dataset: "d", host: host).validate() }
      try CaptureConfiguration(dataset: "d", host: host, token: "abc-123").validate()
    }
    for host in ["127.0.0.1", "127.1.2.3", "::1", "localhost"] {
      try CaptureConfiguration(dataset: "d", host: host).validate()
    }
    do {
      try CaptureConfiguration(dataset: "d", host: "0.0.0.0").validate()
      Issue.record("0.0.0.0 without a token was accepted")
    } catch {
      guard case .usage(let message) = error else {
        Issue.record("not a usage error: \(error)")
        return
      }
      #expect(message.contains("--token"))
    }
  }

  @Test("bad options are usage errors")
  func badOptions() {
    let bad = [
      CaptureConfiguration(dataset: "d", host: "example.com"),
      CaptureConfiguration(dataset: "d", token: "has space"),
      CaptureConfiguration(dataset: "d", token: ""),
      CaptureConfiguration(dataset: "d", intents: []),
      CaptureConfiguration(dataset: "d", intents: [.press, .press]),
      CaptureConfiguration(dataset: "d", intents: [.none]),
      CaptureConfiguration(dataset: "d", count: 0),
      CaptureConfiguration(dataset: "d", participant: ""),
    ]
    for configuration in bad {
      #expect(throws: CaptureError.self) { try configuration.validate() }
    }
  }

  // Reference values from an independent Python implementation of SplitMix64, Fisher–Yates and
  // 64-bit FNV-1a (the algorithms as PromptOrder and defaultSeed document them).
  @Test("prompt order and default seed equal an independent implementation")
  func promptOrder() {
    #expect(
      PromptOrder.shuffled([.press, .tap, .hold, .drag, .pop], count: 1, seed: 42) == [
        .tap, .hold, .press, .pop, .drag,
      ])
    #expect(PromptOrder.shuffled([.press, .tap], count: 3, seed: 7) == [.press, .tap, .press, .press, .tap, .tap])
    #expect(CaptureConfiguration.defaultSeed(participant: "ana") == 16_642_942_579_245_054_725)
    #expect(CaptureConfiguration(dataset: "d", participant: "ana").seed == 16_642_942_579_245_054_725)
  }
}

@Suite("touchtrace capture: the server over a real socket", .serialized)
struct CaptureServerTests {
  @Test("the token is checked on every request: missing or wrong is 403, nothing written")
  func tokenChecked() async throws {
    let h = try await Harness.start(token: "s3cret-Token")
    let first = h.session.prompts[0]
    #expect(await h.send("GET", "/")?.status == 403)
    #expect(await h.send("GET", "/?token=wrong")?.status == 403)
    #expect(await h.send("GET", "/state?token=s3cret-Tok")?.status == 403)
    let refused = await h.send(
      "POST", "/contact?token=wrong", body: uploadBody(prompt: 0, intent: first.rawValue, events: contact))
    #expect(refused?.status == 403)
    #expect(await h.send("POST", "/redo")?.status == 403)
    #expect(h.files().isEmpty)
    let page = try #require(await h.send("GET", h.path("/")))
    #expect(page.status == 200)
    #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
    #expect(page.body.contains("id=\"prompt\" data-intent=\"\(first.rawValue)\""))
    #expect(page.body.contains("id=\"capture-area\""))
    #expect(page.body.contains("1 of 4"))
    await h.server.stop()
  }

  @Test("an oversized body is 413 and nothing is written")
  func oversized() async throws {
    let h = try await Harness.start()
    let intent = h.session.prompts[0].rawValue
    // Declared larger than 4 MiB: refused from the header, before the body is read.
    let declared = await h.send("POST", "/contact", body: [], declaredLength: 5 << 20)
    #expect(declared?.status == 413)
    await h.server.stop()

    let small = try await Harness.start(maximumBodySize: 300)
    let body = uploadBody(prompt: 0, intent: intent, events: contact)
    #expect(body.count > 300)
    #expect(await small.send("POST", "/contact", body: body)?.status == 413)
    #expect(small.files().isEmpty)
    #expect(await small.session.current == 0)
    await small.server.stop()
    #expect(h.files().isEmpty)
  }

  @Test("a malformed or invalid body is 400 with the reason, and nothing is written")
  func malformed() async throws {
    let h = try await Harness.start()
    let intent = h.session.prompts[0].rawValue
    let cases: [(body: [UInt8], reason: String)] = [
      (Array("{".utf8), "upload:1:2: error: invalid JSON"),
      (Array("[]".utf8), "upload:1:1: error: the upload must be an object"),
      (Array(#"{"prompt":0}"#.utf8), "has no \"intent\""),
      (
        uploadBody(prompt: 0, intent: intent, events: [("pointerdown", 0, 1.5, nil), ("pointerup", 1, 0, nil)]),
        "\"pressure\" is 1.5"
      ),
      (uploadBody(prompt: 0, intent: intent, events: []), "\"events\" is empty"),
      (
        uploadBody(prompt: 0, intent: intent, events: [("pointerdown", 10, 0.2, nil), ("pointerup", 5, 0, nil)]),
        "event 1: t decreases"
      ),
      (
        uploadBody(prompt: 0, intent: intent, events: [("pointermove", 0, 0.2, nil), ("pointerup", 5, 0, nil)]),
        "starts with pointerdown"
      ),
      (
        uploadBody(prompt: 0, intent: intent, events: [("pointerdown", 0, 0.2, nil), ("pointermove", 5, 0.3, nil)]),
        "ends with pointerup"
      ),
      (
        uploadBody(prompt: 0, intent: intent, events: [("pointerdown", 0, 0.2, nil), ("pointerwiggle", 5, 0, nil)]),
        "unknown event type"
      ),
      (uploadBody(prompt: 0, intent: "squeeze", events: contact), "unknown intent"),
    ]
    for (body, reason) in cases {
      let response = try #require(await h.send("POST", "/contact", body: body))
      #expect(response.status == 400, "\(reason)")
      #expect(response.body.contains(reason), "\(response.body) should say \(reason)")
    }
    #expect(h.files().isEmpty)
    #expect(await h.session.current == 0)
    await h.server.stop()
  }

  @Test("a valid contact writes exactly one new file that the loader reads back with its labels")
  func validUpload() async throws {
    let h = try await Harness.start()
    let intent = h.session.prompts[0]
    let response = try #require(
      await h.send("POST", "/contact", body: uploadBody(prompt: 0, intent: intent.rawValue, events: contact)))
    #expect(response.status == 200)
    #expect(response.body.contains("\"index\":1"))
    let files = h.files()
    #expect(files == ["ana-seed7-001.json"])
    let dataset = try TraceLoader.load([h.dataset])
    let trace = try #require(dataset.traces.first)
    #expect(dataset.traces.count == 1)
    #expect(trace.metadata.id == "ana-seed7-001")
    #expect(trace.metadata.intent == intent)
    #expect(trace.metadata.user == "ana")
    #expect(trace.metadata.session == "ana-seed7")
    #expect(trace.metadata.device == "pen; screen 1024x768@2; TestAgent/1.0")
    #expect(trace.metadata.maxForce == 1)
    // By hand: seconds from the first timeStamp; Touch.force (0.6) where present and nonzero,
    // else pressure; radius half the larger of width 4 and height 6.
    #expect(trace.t == [0, 0.016, 0.05, 0.1])
    #expect(trace.force == [0.25, 0.6, 0.75, 0])
    #expect(trace.phase == [.began, .moved, .moved, .ended])
    #expect(trace.x == [100, 101, 102, 103])
    #expect(trace.y == [200, 202, 204, 206])
    #expect(trace.radius == [3, 3, 3, 3])
    await h.server.stop()
  }

  @Test("file names come from the server: client names are refused, the participant is made safe")
  func namesFromServer() async throws {
    let h = try await Harness.start(participant: "../../evil name")
    let intent = h.session.prompts[0].rawValue
    for extra in [#","file":"../../owned.json""#, #","id":"mine""#] {
      let response = await h.send(
        "POST", "/contact",
        body: uploadBody(prompt: 0, intent: intent, participant: "../../evil name", events: contact, extra: extra))
      #expect(response?.status == 400)
      #expect(response?.body.contains("unknown member") == true)
    }
    #expect(h.files().isEmpty)
    let response = await h.send(
      "POST", "/contact", body: uploadBody(prompt: 0, intent: intent, participant: "../../evil name", events: contact))
    #expect(response?.status == 200)
    #expect(h.files() == ["evil_name-seed7-001.json"])
    #expect(!TestData.exists(h.dataset + "/../owned.json"))
    let trace = try #require(try TraceLoader.load([h.dataset]).traces.first)
    #expect(trace.metadata.user == "../../evil name")
    await h.server.stop()
  }

  @Test("a file already at the next name is never replaced")
  func neverOverwrites() async throws {
    let h = try await Harness.start()
    let intent = h.session.prompts[0].rawValue
    // Appears after the run started, at the name the server would pick first.
    let planted = h.dataset + "/" + h.session.session + "-001.json"
    TestData.write("planted by hand\n", to: planted)
    let response = await h.send("POST", "/contact", body: uploadBody(prompt: 0, intent: intent, events: contact))
    #expect(response?.status == 200)
    #expect(h.files() == ["ana-seed7-001.json", "ana-seed7-002.json"])
    #expect(try String(contentsOfFile: planted, encoding: .utf8) == "planted by hand\n")
    await h.server.stop()
  }

  @Test("the session and ids avoid those already in the dataset")
  func avoidsExisting() async throws {
    let existing = Trace(
      metadata: TraceMetadata(id: "ana-seed7-001", intent: .tap, session: "ana-seed7"), t: [0, 0.1], force: [0.1, 0])
    let h = try await Harness.start { dataset in
      TestData.write(String(decoding: JSONTraceWriter.document([existing]), as: UTF8.self), to: dataset + "/old.json")
    }
    #expect(h.session.session == "ana-seed7-run2")
    let intent = h.session.prompts[0].rawValue
    #expect(
      await h.send("POST", "/contact", body: uploadBody(prompt: 0, intent: intent, events: contact))?.status == 200)
    #expect(h.files() == ["ana-seed7-run2-001.json", "old.json"])
    #expect(try TraceLoader.load([h.dataset]).traces.count == 2)
    await h.server.stop()

    // A run that kept no trace still left its summary: the next run takes another session.
    let again = try await Harness.start { dataset in
      _ = mkdir(dataset + "/.sessions", 0o777)
      TestData.write("{}\n", to: dataset + "/.sessions/ana-seed7.json")
    }
    #expect(again.session.session == "ana-seed7-run2")
    await again.server.stop()
  }

  @Test("redo removes only the last file this run wrote")
  func redo() async throws {
    let existing = Trace(metadata: TraceMetadata(id: "someone-else", intent: .tap), t: [0, 0.1], force: [0.1, 0])
    let existingBytes = JSONTraceWriter.document([existing])
    let h = try await Harness.start { dataset in
      TestData.write(String(decoding: existingBytes, as: UTF8.self), to: dataset + "/earlier.json")
    }
    let first = h.session.prompts[0].rawValue
    let nothing = await h.send("POST", "/redo")
    #expect(nothing?.status == 409)
    #expect(nothing?.body.contains("nothing to redo") == true)
    #expect(h.files() == ["earlier.json"])

    #expect(
      await h.send("POST", "/contact", body: uploadBody(prompt: 0, intent: first, events: contact))?.status == 200)
    #expect(h.files() == ["ana-seed7-001.json", "earlier.json"])
    let redone = try #require(await h.send("POST", "/redo"))
    #expect(redone.status == 200)
    #expect(redone.body.contains("\"index\":0"))
    #expect(h.files() == ["earlier.json"])
    #expect(await h.send("POST", "/redo")?.status == 409)
    #expect(try Array(String(contentsOfFile: h.dataset + "/earlier.json", encoding: .utf8).utf8) == existingBytes)

    // The same prompt again; then the file is replaced by someone else: redo leaves it.
    #expect(
      await h.send("POST", "/contact", body: uploadBody(prompt: 0, intent: first, events: contact))?.status == 200)
    let path = h.dataset + "/ana-seed7-002.json"
    unlink(path)
    TestData.write("someone else's\n", to: path)
    let refused = await h.send("POST", "/redo")
    #expect(refused?.status == 409)
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "someone else's\n")
    let summary = await h.session.summary()
    #expect(summary.redone.map(\.id) == ["ana-seed7-001"])
    await h.server.stop()
  }

  @Test("a contact for another prompt is 409; another intent or participant is 400")
  func wrongPrompt() async throws {
    let h = try await Harness.start()
    let prompts = h.session.prompts
    let other = prompts[0] == .press ? "tap" : "press"
    #expect(
      await h.send("POST", "/contact", body: uploadBody(prompt: 1, intent: prompts[1].rawValue, events: contact))?
        .status == 409)
    let intent = await h.send("POST", "/contact", body: uploadBody(prompt: 0, intent: other, events: contact))
    #expect(intent?.status == 400)
    #expect(intent?.body.contains("differs from the prompt's") == true)
    let participant = await h.send(
      "POST", "/contact", body: uploadBody(prompt: 0, intent: prompts[0].rawValue, participant: "bo", events: contact))
    #expect(participant?.status == 400)
    #expect(h.files().isEmpty)
    #expect(await h.send("GET", "/nowhere")?.status == 404)
    #expect(await h.send("GET", "/contact")?.status == 405)
    let state = try #require(await h.send("GET", "/state"))
    #expect(state.status == 200)
    #expect(
      state.body.contains(
        "\"index\":0,\"total\":4,\"recorded\":0,\"complete\":false,\"done\":false,\"intent\":\"\(prompts[0])\""))
    await h.server.stop()
  }

  @Test("after the last prompt the run waits: redo still works, Finish ends it with its summary, and the port closes")
  func runEnds() async throws {
    let h = try await Harness.start(intents: [.hold], count: 2)
    let run = Task { await h.server.run() }
    #expect(await h.send("POST", "/finish")?.status == 409)
    #expect(
      await h.send("POST", "/contact", body: uploadBody(prompt: 0, intent: "hold", events: contact))?.status == 200)
    let last = try #require(
      await h.send("POST", "/contact", body: uploadBody(prompt: 1, intent: "hold", events: contact)))
    #expect(last.status == 200)
    #expect(last.body.contains("\"recorded\":2,\"complete\":true,\"done\":false"))
    #expect(last.body.contains("\"canRedo\":true,\"canFinish\":true"))
    // A further contact is refused; the last one can be redone and recorded again.
    #expect(
      await h.send("POST", "/contact", body: uploadBody(prompt: 2, intent: "hold", events: contact))?.status == 409)
    let redone = try #require(await h.send("POST", "/redo"))
    #expect(redone.body.contains("\"index\":1,\"total\":2,\"recorded\":1,\"complete\":false"))
    #expect(
      await h.send("POST", "/contact", body: uploadBody(prompt: 1, intent: "hold", events: contact))?.status == 200)
    let finished = try #require(await h.send("POST", "/finish"))
    #expect(finished.status == 200)
    #expect(finished.body.contains("\"done\":true"))
    #expect(finished.body.contains("\"canRedo\":false,\"canFinish\":false"))
    let summary = await run.value
    #expect(summary.written.map(\.id) == ["ana-seed7-001", "ana-seed7-003"])
    #expect(summary.redone.map(\.id) == ["ana-seed7-002"])
    #expect(summary.counts.map(\.count) == [2])
    #expect(summary.prompts == [.hold, .hold])
    #expect(!summary.interrupted)
    #expect(await h.session.finishedByParticipant)
    #expect(await h.send("GET", "/state") == nil)
  }
}

@Suite("touchtrace capture: session summary")
struct CaptureSummaryTests {
  @Test("JSON and Markdown say what was written, per intent, and what was redone")
  func summaryText() {
    let file = CaptureSummary.File(file: "d/p-seed1-002.json", id: "p-seed1-002", prompt: 0, intent: .tap, samples: 5)
    let gone = CaptureSummary.File(file: "d/p-seed1-001.json", id: "p-seed1-001", prompt: 0, intent: .tap, samples: 3)
    let summary = CaptureSummary(
      session: "p-seed1", participant: "p", seed: 1, dataset: "d", intents: [.press, .tap], prompts: [.tap, .press],
      written: [file], redone: [gone], interrupted: true)
    let json = String(decoding: summary.json(), as: UTF8.self)
    #expect(
      json == """
        {
          "session": "p-seed1",
          "participant": "p",
          "seed": 1,
          "dataset": "d",
          "prompts": ["tap", "press"],
          "completed": 1,
          "total": 2,
          "interrupted": true,
          "counts": {"press": 0, "tap": 1},
          "files": [
            {"file": "d/p-seed1-002.json", "id": "p-seed1-002", "prompt": 0, "intent": "tap", "samples": 5}
          ],
          "redone": [
            {"file": "d/p-seed1-001.json", "id": "p-seed1-001", "prompt": 0, "intent": "tap", "samples": 3}
          ]
        }

        """)
    let markdown = String(decoding: summary.markdown(), as: UTF8.self)
    #expect(markdown.contains("- Traces: 1 of 2 prompts (interrupted). Redone: 1."))
    #expect(markdown.contains("| tap | 1 |"))
    #expect(markdown.contains("- prompt 1 (tap): d/p-seed1-001.json"))
  }
}
