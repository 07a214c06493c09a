import FlyingFox
import FlyingSocks
import Foundation
import TouchCore
import TouchIO

/// The capture page's HTTP server (FlyingFox): serves the page, takes each contact and adds it
/// to the dataset, until every prompt is done or ``stop()`` is called.
///
/// Routes, every one refused with 403 when the configuration has a token and the request's
/// `?token=` differs: `GET /` the page, `GET /state` the state as JSON, `POST /contact` one
/// contact (``CaptureUpload``; 413 over the body limit, 400 with the reason when malformed or
/// invalid, 409 when it answers another prompt), `POST /redo` removes the last trace this run
/// wrote. Other paths: 404; other methods: 405.
public final class CaptureServer: Sendable {
  /// The run's state.
  public let session: CaptureSession
  private let server: HTTPServer
  private let address: CaptureAddress
  private let token: String?
  private let runTask: Mutex<Task<Void, any Error>?> = Mutex(nil)

  /// A server for `session`, not yet listening.
  ///
  /// - Parameter session: the run (its configuration gives address, port, token and body limit).
  /// - Throws: ``CaptureError/usage(_:)`` when the configuration's host is not an IP address.
  public init(session: CaptureSession) throws(CaptureError) {
    let configuration = session.configuration
    let address = try CaptureAddress(configuration.host)
    self.session = session
    self.address = address
    self.token = configuration.token
    let handler = CaptureHTTPHandler(
      session: session, token: configuration.token, maximumBodySize: configuration.maximumBodySize)
    // Bodies up to the limit are read through the shared buffer, so an unread one is skipped
    // before the connection's next request.
    func serverConfiguration(_ socketAddress: some SocketAddress) -> HTTPServer.Configuration {
      HTTPServer.Configuration(
        address: socketAddress, timeout: 60, sharedRequestReplaySize: configuration.maximumBodySize + 1,
        logger: .disabled)
    }
    let config: HTTPServer.Configuration
    do {
      config =
        address.isIPv6
        ? serverConfiguration(try sockaddr_in6.inet6(ip6: address.text, port: configuration.port))
        : serverConfiguration(try sockaddr_in.inet(ip4: address.text, port: configuration.port))
    } catch {
      throw .usage("--host \(configuration.host) is not an IPv4 or IPv6 address")
    }
    self.server = HTTPServer(config: config, handler: handler)
  }

  /// Starts listening and returns the URL to open: `http://HOST:PORT/`, with `?token=T` when the
  /// run has a token (the port is the one bound, also when 0 asked for any free one).
  ///
  /// - Throws: ``CaptureError/cannotListen(address:reason:)`` when the address cannot be bound.
  public func start() async throws(CaptureError) -> String {
    let server = self.server
    let task = Task { try await server.run() }
    runTask.withLock { $0 = task }
    let requested = "\(address.urlHost):\(session.configuration.port)"
    do {
      try await server.waitUntilListening(timeout: 10)
    } catch {
      task.cancel()
      if case .failure(let failure) = await task.result {
        throw .cannotListen(address: requested, reason: failure.localizedDescription)
      }
      throw .cannotListen(address: requested, reason: error.localizedDescription)
    }
    var port = session.configuration.port
    switch await server.listeningAddress {
    case .ip4(_, let bound)?, .ip6(_, let bound)?: port = bound
    default: break
    }
    var url = "http://\(address.urlHost):\(port)/"
    if let token { url += "?token=\(token)" }
    return url
  }

  /// Waits until every prompt is done or the session is interrupted, then stops the server
  /// (letting open requests finish for up to 1 s) and returns the summary.
  public func run() async -> CaptureSummary {
    await session.waitUntilFinished()
    await stop()
    return await session.summary()
  }

  /// Stops listening and closes the connections.
  public func stop() async {
    await server.stop(timeout: 1)
    runTask.withLock { $0?.cancel() }
  }
}

/// A value shared between tasks behind a lock.
final class Mutex<Value>: @unchecked Sendable {
  private var value: Value
  private let lock = NSLock()
  init(_ value: Value) { self.value = value }
  func withLock<R>(_ body: (inout Value) -> R) -> R {
    lock.lock()
    defer { lock.unlock() }
    return body(&value)
  }
}

/// Answers the page's requests (see ``CaptureServer``).
struct CaptureHTTPHandler: HTTPHandler {
  let session: CaptureSession
  let token: String?
  let maximumBodySize: Int

  func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
    if let token {
      guard let given = request.query["token"], Self.same(given, token) else {
        return Self.text(.forbidden, "forbidden: this page needs the token of the URL touchtrace capture printed\n")
      }
    }
    let routes: [String: HTTPMethod] = ["/": .GET, "/state": .GET, "/contact": .POST, "/redo": .POST]
    guard let method = routes[request.path] else { return Self.text(.notFound, "not found: \(request.path)\n") }
    guard request.method == method || (method == .GET && request.method == .HEAD) else {
      var response = Self.text(.methodNotAllowed, "\(request.path) takes \(method.rawValue)\n")
      response.headers[HTTPHeader("Allow")] = method.rawValue
      return response
    }
    switch request.path {
    case "/":
      let snapshot = await session.snapshot()
      let page = CapturePage.html(
        state: snapshot.json, prompt: snapshot.intent, index: snapshot.index, total: session.prompts.count, token: token)
      return HTTPResponse(
        statusCode: .ok,
        headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
        body: Data(page))
    case "/state":
      return Self.json(await session.stateJSON())
    case "/contact":
      let body: [UInt8]
      switch try await Self.readBody(request, limit: maximumBodySize) {
      case .tooLarge(let size):
        return Self.text(
          .payloadTooLarge, "request body of \(size.map(String.init) ?? "more than \(maximumBodySize)") bytes; the limit is \(maximumBodySize)\n")
      case .body(let bytes): body = bytes
      }
      return await answer(session.submit(body))
    default:
      return await answer(session.redo())
    }
  }

  private func answer(_ outcome: CaptureSession.Outcome) async -> HTTPResponse {
    switch outcome {
    case .ok: return Self.json(await session.stateJSON())
    case .invalid(let why): return Self.text(.badRequest, why + "\n")
    case .conflict(let why): return Self.text(.conflict, why + "\n")
    case .failed(let why): return Self.text(.internalServerError, why + "\n")
    }
  }

  enum Body {
    case body([UInt8])
    case tooLarge(Int?)
  }

  /// The body, or `.tooLarge` without reading it when its declared length is over `limit`
  /// (a chunked body is read up to the limit).
  static func readBody(_ request: HTTPRequest, limit: Int) async throws -> Body {
    if let count = request.bodySequence.count {
      guard count <= limit else { return .tooLarge(count) }
    }
    var bytes: [UInt8] = []
    for try await chunk in request.bodySequence {
      bytes += chunk
      if bytes.count > limit { return .tooLarge(nil) }
    }
    return .body(bytes)
  }

  /// Compares without stopping at the first difference.
  static func same(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8), y = Array(b.utf8)
    var difference = x.count ^ y.count
    for i in 0..<min(x.count, y.count) { difference |= Int(x[i] ^ y[i]) }
    return difference == 0
  }

  static func text(_ status: HTTPStatusCode, _ text: String) -> HTTPResponse {
    HTTPResponse(
      statusCode: status, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
      body: Data(text.utf8))
  }

  static func json(_ bytes: [UInt8]) -> HTTPResponse {
    HTTPResponse(
      statusCode: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"], body: Data(bytes))
  }
}
