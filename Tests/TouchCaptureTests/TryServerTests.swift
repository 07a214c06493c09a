import Foundation
import Synchronization
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

/// What a stand-in replay saw: the traces it was given and whether each was complete.
final class SeenTraces: Sendable {
  private let traces = Mutex<[(Trace, Bool)]>([])
  func add(_ trace: Trace, _ complete: Bool) { traces.withLock { $0.append((trace, complete)) } }
  var all: [(Trace, Bool)] { traces.withLock { $0 } }
}

/// A `touchtrace try` server on an ephemeral loopback port, its replay a stand-in that records
/// each trace and answers `[{"samples":N,"complete":B}]` (the recognizers' replay is tested in
/// touchtraceTests against `touchtrace run`).
struct TryHarness {
  let server: TryServer
  let session: TrySession
  let port: UInt16
  let dataset: String?
  let seen: SeenTraces
  let token: String?

  static func start(
    dataset: Bool = true, participant: String = "ana", device: String? = nil, token: String? = nil,
    limits: CaptureLimits = CaptureLimits()
  ) async throws -> TryHarness {
    let directory = dataset ? TestData.temporaryDirectory("touchtrace-try") + "/tried" : nil
    let configuration = TryConfiguration(
      configurations: ["deep-press threshold=0.35", "stable-press"], port: 0, token: token, dataset: directory,
      participant: participant, device: device)
    try configuration.validate()
    let seen = SeenTraces()
    let session = try TrySession(configuration: configuration) { trace, complete in
      seen.add(trace, complete)
      return Array("[{\"samples\":\(trace.count),\"complete\":\(complete)}]".utf8)
    }
    let server = try TryServer(session: session)
    let url = try await server.start()
    let port = UInt16(url.split(separator: ":").last!.prefix { $0.isNumber })!
    return TryHarness(server: server, session: session, port: port, dataset: directory, seen: seen, token: token)
  }

  /// Sends a request from a Dispatch thread; `POST`s carry the page's secret unless `secret` is
  /// false.
  func send(
    _ method: String, _ path: String, body: [UInt8] = [], declaredLength: Int? = nil, host: String? = nil,
    headers: [(String, String)] = [], secret: Bool = true
  ) async -> RawHTTP.Response? {
    var headers = headers
    if secret, method == "POST" { headers.append((CaptureAccess.secretHeader, server.access?.secret ?? "")) }
    let (port, all) = (self.port, headers)
    return await offThread {
      RawHTTP.send(port: port, method, path, body: body, declaredLength: declaredLength, host: host, headers: all)
    }
  }

  /// The JSON object of a response body.
  static func object(_ response: RawHTTP.Response?) -> [String: Any]? {
    guard let response else { return nil }
    return (try? JSONSerialization.jsonObject(with: Data(response.body.utf8))) as? [String: Any]
  }

  /// The files saved, sorted (hidden entries left out).
  func files() -> [String] {
    guard let dataset, let names = try? FileManager.default.contentsOfDirectory(atPath: dataset) else { return [] }
    return names.filter { !$0.hasPrefix(".") }.sorted()
  }
}

@Suite("touchtrace try: the server over a real socket", .serialized)
struct TryServerTests {
  @Test("the page holds the pressing area, the plot, a decision per configuration and the secret")
  func pageAndState() async throws {
    let h = try await TryHarness.start()
    defer { Task { await h.server.stop() } }
    let page = try #require(await h.send("GET", "/"))
    #expect(page.status == 200)
    #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
    #expect(page.headers["x-frame-options"] == "DENY")
    for id in ["try-area", "plot", "configurations", "marks", "save-intent", "save", "status"] {
      #expect(page.body.contains("id=\"\(id)\""), "\(id)")
    }
    let secret = try #require(Harness.secret(inPage: page.body))
    #expect(secret == h.server.access?.secret)
    #expect(!secret.isEmpty)

    let state = try #require(TryHarness.object(await h.send("GET", "/state")))
    #expect(state["configurations"] as? [String] == ["deep-press threshold=0.35", "stable-press"])
    #expect(state["participant"] as? String == "ana")
    #expect(state["canSave"] as? Bool == true)
    #expect(state["saved"] as? Int == 0)
    #expect(state["intents"] as? [String] == Intent.allCases.map(\.rawValue))
  }

  @Test("a contact so far is replayed as a prefix: times from pointerdown, float32 pressures, until its newest sample")
  func prefixAndCompleteReplays() async throws {
    let h = try await TryHarness.start(dataset: false)
    defer { Task { await h.server.stop() } }
    // Pressures are float32 values as a browser gives them, widened to double.
    let soFar: [Event] = [
      ("pointerdown", 1000, 0.10000000149011612, nil), ("pointermove", 1016, 0.5, nil),
      ("pointermove", 1050, 0.30000001192092896, nil),
    ]
    let prefix = try #require(
      TryHarness.object(await h.send("POST", "/replay", body: uploadBody(prompt: 0, intent: "press", events: soFar))))
    #expect(prefix["complete"] as? Bool == false)
    #expect(prefix["samples"] as? Int == 3)
    #expect(prefix["until"] as? Double == 0.05)
    #expect(prefix["t"] as? [Double] == [0, 0.016, 0.05])
    #expect(prefix["force"] as? [Double] == [0.1, 0.5, 0.3])
    let results = try #require(prefix["results"] as? [[String: Any]])
    #expect(results.first?["samples"] as? Int == 3)
    #expect(results.first?["complete"] as? Bool == false)

    let whole = try #require(
      TryHarness.object(
        await h.send(
          "POST", "/replay", body: uploadBody(prompt: 0, intent: "press", events: soFar + [("pointerup", 1100, 0, nil)])
        )))
    #expect(whole["complete"] as? Bool == true)
    #expect(whole["until"] is NSNull)
    #expect(whole["t"] as? [Double] == [0, 0.016, 0.05, 0.1])
    #expect(h.seen.all.map(\.1) == [false, true])
    #expect(h.seen.all.last?.0.phase.last == .ended)
    #expect(await h.session.contacts == 1)

    // Malformed contacts are 400 with the reason, and nothing is replayed.
    let bad = await h.send(
      "POST", "/replay", body: uploadBody(prompt: 0, intent: "press", events: [("pointermove", 0, 0.2, nil)]))
    #expect(bad?.status == 400)
    #expect(bad?.body.contains("starts with pointerdown") == true)
    #expect(h.seen.all.count == 2)
  }

  @Test("a saved contact is a labeled trace file that loads, with its intent and device; a new file each time")
  func saveWritesLoadableTraces() async throws {
    let h = try await TryHarness.start(device: "pixel-tablet")
    defer { Task { await h.server.stop() } }
    let events: [Event] = [
      ("pointerdown", 1000, 0.25, nil), ("pointermove", 1016, 0.5, nil), ("pointermove", 1050, 0.75, nil),
      ("pointerup", 1100, 0, nil),
    ]
    let first = try #require(
      TryHarness.object(await h.send("POST", "/save", body: uploadBody(prompt: 0, intent: "press", events: events))))
    #expect(first["intent"] as? String == "press")
    #expect(first["samples"] as? Int == 4)
    #expect(first["saved"] as? Int == 1)
    let second = try #require(
      TryHarness.object(await h.send("POST", "/save", body: uploadBody(prompt: 0, intent: "tap", events: events))))
    #expect(second["saved"] as? Int == 2)
    #expect(first["file"] as? String != second["file"] as? String)
    #expect(h.files() == ["try-ana-001.json", "try-ana-002.json"])

    let loaded = try TraceLoader.load([try #require(h.dataset)])
    #expect(loaded.traces.count == 2)
    let press = try #require(loaded.traces.first { $0.metadata.intent == .press })
    #expect(press.t == [0, 0.016, 0.05, 0.1])
    #expect(press.force == [0.25, 0.5, 0.75, 0])
    #expect(press.metadata.device == "pixel-tablet")
    #expect(loaded.traces.contains { $0.metadata.intent == .tap })
    #expect((TryHarness.object(await h.send("GET", "/state"))?["saved"] as? Int) == 2)
  }

  @Test("save refuses what it cannot keep: no dataset 409, unfinished or another participant 400, nothing written")
  func saveRefusals() async throws {
    let without = try await TryHarness.start(dataset: false)
    let events: [Event] = [("pointerdown", 1000, 0.25, nil), ("pointerup", 1100, 0, nil)]
    let off = await without.send("POST", "/save", body: uploadBody(prompt: 0, intent: "press", events: events))
    #expect(off?.status == 409)
    #expect(off?.body.contains("--dataset") == true)
    await without.server.stop()

    let h = try await TryHarness.start()
    defer { Task { await h.server.stop() } }
    let unfinished = await h.send(
      "POST", "/save",
      body: uploadBody(
        prompt: 0, intent: "press", events: [("pointerdown", 1000, 0.25, nil), ("pointermove", 1016, 0.5, nil)]))
    #expect(unfinished?.status == 400)
    let other = await h.send(
      "POST", "/save", body: uploadBody(prompt: 0, intent: "press", participant: "bo", events: events))
    #expect(other?.status == 400)
    #expect(other?.body.contains("participant \"bo\"") == true)
    #expect(h.files().isEmpty)
  }

  @Test("the access rules hold: Host, Origin, secret, token; unknown routes 404, wrong methods 405")
  func accessRules() async throws {
    let h = try await TryHarness.start()
    let body = uploadBody(
      prompt: 0, intent: "press", events: [("pointerdown", 1000, 0.25, nil), ("pointerup", 1100, 0, nil)])
    #expect(await h.send("GET", "/", host: "evil.example:\(h.port)")?.status == 403)
    #expect(await h.send("POST", "/replay", body: body, headers: [("Origin", "http://evil.example")])?.status == 403)
    #expect(await h.send("POST", "/save", body: body, headers: [("Origin", "http://evil.example")])?.status == 403)
    #expect(await h.send("POST", "/replay", body: body, secret: false)?.status == 403)
    #expect(await h.send("POST", "/save", body: body, secret: false)?.status == 403)
    #expect(
      await h.send("POST", "/save", body: body, headers: [(CaptureAccess.secretHeader, "wrong")], secret: false)?.status
        == 403)
    #expect(h.seen.all.isEmpty)
    #expect(h.files().isEmpty)
    // The page's own origin is admitted.
    #expect(
      await h.send("POST", "/replay", body: body, headers: [("Origin", "http://127.0.0.1:\(h.port)")])?.status == 200)
    for (method, path) in [("GET", "/contact"), ("POST", "/redo"), ("GET", "/replay/x"), ("POST", "/finish")] {
      #expect(await h.send(method, path)?.status == 404, "\(method) \(path)")
    }
    for (method, path) in [("GET", "/replay"), ("GET", "/save"), ("POST", "/"), ("DELETE", "/state")] {
      #expect(await h.send(method, path)?.status == 405, "\(method) \(path)")
    }
    await h.server.stop()

    let guarded = try await TryHarness.start(token: "s3cret-Token")
    defer { Task { await guarded.server.stop() } }
    #expect(await guarded.send("GET", "/")?.status == 403)
    #expect(await guarded.send("GET", "/state?token=wrong")?.status == 403)
    #expect(await guarded.send("POST", "/replay", body: body)?.status == 403)
    #expect(await guarded.send("GET", "/?token=s3cret-Token")?.status == 200)
    #expect(await guarded.send("POST", "/replay?token=s3cret-Token", body: body)?.status == 200)
  }

  @Test("a body over the limit is 413 and never replayed")
  func bodyLimit() async throws {
    let h = try await TryHarness.start()
    defer { Task { await h.server.stop() } }
    #expect(h.server.limits.maximumBodySize == CaptureConfiguration.defaultMaximumBodySize)
    // The declared length alone is refused, before any of the body is read.
    let response = await h.send(
      "POST", "/replay", body: Array("{}".utf8), declaredLength: h.server.limits.maximumBodySize + 1)
    #expect(response?.status == 413)
    #expect(h.seen.all.isEmpty)
  }

  @Test("a non-loopback host needs a token")
  func tokenRequiredOffLoopback() throws {
    let open = TryConfiguration(configurations: ["deep-press"], host: "0.0.0.0", port: 0)
    #expect(throws: CaptureError.self) { try open.validate() }
    let guarded = TryConfiguration(configurations: ["deep-press"], host: "0.0.0.0", port: 0, token: "s3cret-Token")
    #expect(throws: Never.self) { try guarded.validate() }
  }
}
