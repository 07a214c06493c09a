import Dispatch
import Foundation
import Testing
@_spi(Fuzz) import TouchCapture
import TouchCore
import TouchTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The reproducers of the security review (issue 26), each over a real loopback socket and
/// bounded in time: who may write, what the reader accepts, and answers within bounded time
/// while clients misbehave.
@Suite("touchtrace capture: origins, secret, limits", .serialized, .timeLimit(.minutes(1)))
struct CaptureSecurityTests {
  /// Writes the first prompt's contact; the harness then has one trace to lose.
  func writeOne(_ h: Harness) async throws {
    let intent = h.session.prompts[0].rawValue
    let response = try #require(
      await h.send("POST", "/contact", body: uploadBody(prompt: 0, intent: intent, events: contact)))
    #expect(response.status == 200)
    #expect(h.files().count == 1)
  }

  @Test("a request from another origin is refused: no forged contact, no redo")
  func crossOrigin() async throws {
    let h = try await Harness.start()
    let intent = h.session.prompts[0].rawValue
    // Even with the right secret (the worst case), an Origin that is not this server is 403.
    for origin in ["http://evil.example", "http://127.0.0.1:1", "null", "https://127.0.0.1:\(h.port)"] {
      let forged = try #require(
        await h.send(
          "POST", "/contact", body: uploadBody(prompt: 0, intent: intent, events: contact),
          headers: [("Origin", origin)]))
      #expect(forged.status == 403, "\(origin)")
      #expect(forged.body.contains("origin"))
    }
    #expect(h.files().isEmpty)
    try await writeOne(h)
    let redo = try #require(await h.send("POST", "/redo", headers: [("Origin", "http://evil.example")]))
    #expect(redo.status == 403)
    #expect(h.files().count == 1)
    // The server's own origins are accepted.
    for origin in ["http://127.0.0.1:\(h.port)", "http://localhost:\(h.port)"] {
      #expect(await h.send("GET", "/state", headers: [("Origin", origin)])?.status == 200)
    }
    await h.server.stop()
  }

  @Test("a foreign Host (DNS rebinding) is refused; loopback names with the port are served")
  func foreignHost() async throws {
    let h = try await Harness.start()
    for host in [
      "evil.example:\(h.port)", "evil.example", "127.0.0.1", "127.0.0.1:1", "localhost.evil.example:\(h.port)",
    ] {
      let response = try #require(await h.send("GET", "/", host: host))
      #expect(response.status == 403, "\(host)")
      #expect(!response.body.contains("SECRET"))
    }
    for host in ["127.0.0.1:\(h.port)", "localhost:\(h.port)", "LOCALHOST:\(h.port)", "[::1]:\(h.port)"] {
      #expect(await h.send("GET", "/state", host: host)?.status == 200, "\(host)")
    }
    // No Host at all: 400.
    let raw = try #require(await h.exchange(Array("GET / HTTP/1.1\r\nConnection: close\r\n\r\n".utf8), timeout: 5))
    #expect(RawHTTP.parse(raw.received)?.status == 400)
    await h.server.stop()
  }

  @Test("a wildcard --host answers to any IP address with its port, never to a name")
  func wildcardHost() {
    let access = CaptureAccess(host: "0.0.0.0", port: 8080, token: "t", secret: "s")
    #expect(access.allowsHost("192.168.1.20:8080"))
    #expect(access.allowsHost("[fe80::1]:8080"))
    #expect(access.allowsHost("localhost:8080"))
    #expect(!access.allowsHost("192.168.1.20:8081"))
    #expect(!access.allowsHost("phone.example:8080"))
    #expect(!access.allowsHost("192.168.1.20"))
    let bound = CaptureAccess(host: "192.168.1.20", port: 8080, token: "t", secret: "s")
    #expect(bound.allowsHost("192.168.1.20:8080"))
    #expect(!bound.allowsHost("10.0.0.1:8080"))
  }

  @Test("every POST needs the session's secret: missing or wrong is 403 and changes nothing")
  func secretRequired() async throws {
    let h = try await Harness.start()
    let intent = h.session.prompts[0].rawValue
    let body = uploadBody(prompt: 0, intent: intent, events: contact)
    let missing = try #require(await h.send("POST", "/contact", body: body, secret: false))
    #expect(missing.status == 403)
    #expect(missing.body.contains("secret"))
    let wrong = await h.send(
      "POST", "/contact", body: body, headers: [(CaptureAccess.secretHeader, String(repeating: "0", count: 64))])
    #expect(wrong?.status == 403)
    let short = await h.send(
      "POST", "/contact", body: body, headers: [(CaptureAccess.secretHeader, String(h.secret.prefix(63)))])
    #expect(short?.status == 403)
    #expect(h.files().isEmpty)
    try await writeOne(h)
    #expect(await h.send("POST", "/redo", secret: false)?.status == 403)
    #expect(h.files().count == 1)
    // The page holds the secret; with it, redo works.
    let page = try #require(await h.send("GET", "/"))
    let secret = try #require(Harness.secret(inPage: page.body))
    #expect(secret.count == 64 && secret.allSatisfy(\.isHexDigit))
    #expect(
      await h.send("POST", "/redo", headers: [(CaptureAccess.secretHeader, secret)], secret: false)?.status == 200)
    #expect(h.files().isEmpty)
    // A new server draws a new secret.
    let other = try await Harness.start()
    #expect(other.secret != h.secret)
    await other.server.stop()
    await h.server.stop()
  }

  @Test("unknown routes are 404 and wrong methods 405; neither runs redo")
  func routes() async throws {
    let h = try await Harness.start()
    try await writeOne(h)
    for (method, path) in [("POST", "/nowhere"), ("POST", "/redo/"), ("POST", "/REDO"), ("GET", "/favicon.ico")] {
      #expect(await h.send(method, path)?.status == 404, "\(method) \(path)")
    }
    for (method, path) in [
      ("GET", "/redo"), ("PUT", "/redo"), ("DELETE", "/redo"), ("OPTIONS", "/contact"), ("POST", "/state"),
      ("PATCH", "/"),
    ] {
      let response = try #require(await h.send(method, path))
      #expect(response.status == 405, "\(method) \(path)")
      #expect(response.headers["allow"] != nil)
    }
    #expect(h.files().count == 1)
    await h.server.stop()
  }

  @Test("a body over the limit is 413 and the connection closes: a POST /redo hidden in it never runs")
  func smuggling() async throws {
    let h = try await Harness.start()
    try await writeOne(h)
    let limit = CaptureConfiguration.defaultMaximumBodySize
    let hidden = Array(
      "POST /redo HTTP/1.1\r\nHost: 127.0.0.1:\(h.port)\r\n\(CaptureAccess.secretHeader): \(h.secret)\r\nContent-Length: 0\r\n\r\n"
        .utf8)
    // Just over the limit, ending with the hidden request; then the hidden request again after
    // the declared body (where a reader that skipped the body would find it).
    var body = [UInt8](repeating: UInt8(ascii: " "), count: limit + 1 - hidden.count)
    body += hidden
    var request = Array(
      "POST /contact HTTP/1.1\r\nHost: 127.0.0.1:\(h.port)\r\n\(CaptureAccess.secretHeader): \(h.secret)\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
        .utf8)
    request += body + hidden
    let started = ContinuousClock.now
    let result = try #require(await h.exchange(request, timeout: 10))
    let elapsed = ContinuousClock.now - started
    let text = String(decoding: result.received, as: UTF8.self)
    #expect(RawHTTP.parse(result.received)?.status == 413)
    #expect(text.components(separatedBy: "\r\nConnection: ").count == 2, "exactly one answer: \(text.prefix(400))")
    #expect(result.closed)
    #expect(elapsed < .seconds(5))
    // The trace is still there, and redo never ran.
    #expect(h.files().count == 1)
    #expect(await h.session.summary().redone.isEmpty)
    // Pipelined requests within the limits are still served in order on one connection.
    let two = Array(
      "GET /state HTTP/1.1\r\nHost: 127.0.0.1:\(h.port)\r\n\r\nGET /state HTTP/1.1\r\nHost: 127.0.0.1:\(h.port)\r\nConnection: close\r\n\r\n"
        .utf8)
    let pipelined = try #require(await h.exchange(two, timeout: 5))
    #expect(String(decoding: pipelined.received, as: UTF8.self).components(separatedBy: "HTTP/1.1 200 OK").count == 3)
    await h.server.stop()
  }

  @Test("a chunked body or a malformed head is refused and the connection closed")
  func malformedHeads() async throws {
    let h = try await Harness.start()
    try await writeOne(h)
    let host = "Host: 127.0.0.1:\(h.port)\r\n"
    let secret = "\(CaptureAccess.secretHeader): \(h.secret)\r\n"
    let redo = "POST /redo HTTP/1.1\r\n\(host)\(secret)Content-Length: 0\r\n\r\n"
    let cases: [(String, Int)] = [
      ("POST /contact HTTP/1.1\r\n\(host)\(secret)Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + redo, 501),
      ("POST /contact HTTP/1.1\r\n\(host)\(secret)Content-Length: 5\r\nContent-Length: 0\r\n\r\n" + redo, 400),
      ("POST /contact HTTP/1.1\r\n\(host)\(secret)Content-Length: -1\r\n\r\n" + redo, 400),
      ("POST /contact HTTP/1.1\r\n\(host)\(secret) Content-Length: 0\r\n\r\n" + redo, 400),
      ("GET / HTTP/2.0\r\n\(host)\r\n" + redo, 505),
      ("GET http://evil.example/ HTTP/1.1\r\n\(host)\r\n" + redo, 400),
      ("\r\n" + redo, 400),
    ]
    for (request, status) in cases {
      let result = try #require(await h.exchange(Array(request.utf8), timeout: 5))
      let text = String(decoding: result.received, as: UTF8.self)
      #expect(RawHTTP.parse(result.received)?.status == status, "\(request.prefix(60)): \(text.prefix(200))")
      #expect(text.components(separatedBy: "\r\nConnection: ").count == 2)
      #expect(result.closed)
    }
    #expect(h.files().count == 1)
    await h.server.stop()
  }

  @Test("256 KiB of header without a line break: 431 and closed, and others are served meanwhile")
  func headerFlood() async throws {
    let h = try await Harness.start()
    let port = h.port
    let flood = Array("GET / HTTP/1.1\r\nX-Flood: ".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 256 << 10)
    // Two clients flood at once while a third asks for the state.
    async let first = offThread { RawHTTP.exchange(port: port, flood, timeout: 20) }
    async let second = offThread { RawHTTP.exchange(port: port, flood, timeout: 20) }
    try await Task.sleep(for: .milliseconds(50))
    let started = ContinuousClock.now
    let state = await h.send("GET", "/state")
    let answered = ContinuousClock.now - started
    #expect(state?.status == 200)
    #expect(answered < .seconds(2), "the state took \(answered)")
    for result in await [first, second] {
      let result = try #require(result)
      #expect(RawHTTP.parse(result.received)?.status == 431)
      #expect(result.closed)
    }
    // Many header lines adding up past the limit: 431 too.
    let lines = Array(("GET / HTTP/1.1\r\n" + String(repeating: "X-A: b\r\n", count: 4000) + "\r\n").utf8)
    let many = try #require(await h.exchange(lines, timeout: 5))
    #expect(RawHTTP.parse(many.received)?.status == 431)
    await h.server.stop()
  }

  @Test("idle and trickling connections are closed; at the connection cap an idle one makes room, else 503")
  func idleAndCap() async throws {
    let limits = CaptureLimits(idleTimeout: .seconds(1), requestTimeout: .seconds(2), maximumConnections: 4)
    let h = try await Harness.start(limits: limits)
    let port = h.port
    // Silent: closed after the idle timeout.
    let idleResult = await offThread { () -> (closed: Bool, seconds: Double)? in
      guard let fd = RawHTTP.connect(port: port, timeout: 10) else { return nil }
      defer { close(fd) }
      let start = DispatchTime.now()
      let result = RawHTTP.readAll(fd)
      return (result.closed, Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
    }
    let idle = try #require(idleResult)
    #expect(idle.closed)
    #expect(idle.seconds >= 0.9 && idle.seconds < 3, "closed after \(idle.seconds) s")
    // One byte every 0.5 s never goes idle, but the request's whole time is bounded.
    let trickleResult = await offThread { () -> (closed: Bool, seconds: Double)? in
      guard let fd = RawHTTP.connect(port: port, timeout: 10) else { return nil }
      defer { close(fd) }
      let start = DispatchTime.now()
      for byte in Array("GET /state HTTP/1.1\r\nX-Slow: ".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 40) {
        guard RawHTTP.writeAll(fd, [byte]) else { break }
        // Half a second between bytes, unless the server answers or closes meanwhile.
        if RawHTTP.waitReadable(fd, milliseconds: 500) { break }
        if Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9 > 6 { break }
      }
      let result = RawHTTP.readAll(fd)
      return (result.closed, Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
    }
    let trickle = try #require(trickleResult)
    #expect(trickle.closed)
    #expect(trickle.seconds < 4, "closed after \(trickle.seconds) s")
    // Four silent connections fill the cap: a fifth is served, and an idle one closed for it.
    let holders = await offThread { (0..<4).compactMap { _ in RawHTTP.connect(port: port, timeout: 10) } }
    #expect(holders.count == 4)
    try await Task.sleep(for: .milliseconds(200))
    #expect(await h.send("GET", "/state")?.status == 200)
    // Four connections each in the middle of a request fill it too: then the fifth is 503.
    let busyHolders = await offThread {
      (0..<4).compactMap { _ -> Int32? in
        guard let fd = RawHTTP.connect(port: port, timeout: 10) else { return nil }
        RawHTTP.writeAll(fd, Array("GET /state HTTP/1.1\r\n".utf8))
        usleep(100_000)  // read by the server before the next one arrives
        return fd
      }
    }
    #expect(busyHolders.count == 4)
    try await Task.sleep(for: .milliseconds(300))
    let busy = await h.send("GET", "/state")
    #expect(busy?.status == 503)
    // Once they are closed for idling, requests are served again.
    try await Task.sleep(for: .milliseconds(1500))
    #expect(await h.send("GET", "/state")?.status == 200)
    for fd in busyHolders { close(fd) }
    for fd in holders { close(fd) }
    await h.server.stop()
  }

  @Test("the request parser: bounded, linear, one request at a time")
  func parser() {
    let limits = CaptureLimits(maximumBodySize: 10)
    let request = Array("POST /contact?token=a%41b&x=1 HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabcGET".utf8)
    guard case .request(let parsed, let consumed) = CaptureRequestParser.parse(request[...], limits: limits) else {
      Issue.record("not parsed")
      return
    }
    #expect(parsed.method == "POST" && parsed.path == "/contact" && parsed.query == ["token": "aAb", "x": "1"])
    #expect(parsed.body == Array("abc".utf8))
    #expect(consumed == request.count - 3)
    #expect(CaptureRequestParser.parse(request[..<20], limits: limits) == .needMore)
    let over = Array("POST / HTTP/1.1\r\nContent-Length: 11\r\n\r\n".utf8)
    guard case .refuse(let refusal) = CaptureRequestParser.parse(over[...], limits: limits) else {
      Issue.record("not refused")
      return
    }
    #expect(refusal.status == 413 && refusal.closes)
    // A 1 MiB head without a line break is refused after looking at 16 KiB only.
    let long = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
    let started = ContinuousClock.now
    for _ in 0..<100 {
      guard case .refuse(let response) = CaptureRequestParser.parse(long[...], limits: CaptureLimits()) else {
        Issue.record("not refused")
        return
      }
      #expect(response.status == 431)
    }
    #expect(ContinuousClock.now - started < .seconds(2))
  }
}
