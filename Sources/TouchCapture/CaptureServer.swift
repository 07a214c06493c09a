import FlyingSocks
import Foundation
import TouchCore
import TouchIO

/// The capture page's HTTP server: serves the page, takes each contact and adds it to the
/// dataset, until every prompt is done or ``stop()`` is called.
///
/// Sockets and the event loop are FlyingSocks'; the HTTP/1.1 reading is the server's own
/// (``CaptureRequestParser``), so every connection is bounded by ``CaptureLimits``: the head
/// (16 KiB, else 431), the body (the configuration's limit, else 413 without reading it), silence
/// (10 s) and the time one request takes to arrive (30 s), and the connections served at once
/// (64, else 503). Every refusal closes its connection, so no byte after it is read as a request.
///
/// Each request passes ``CaptureAccess`` first (Host, Origin, token, route, method, the
/// session's secret on `POST`). Routes: `GET /` the page (with the secret built in), `GET /state`
/// the state as JSON, `POST /contact` one contact (``CaptureUpload``; 400 with the reason when
/// malformed or invalid, 409 when it answers another prompt), `POST /redo` removes the last trace
/// this run wrote. Other paths: 404; other methods: 405.
public final class CaptureServer: Sendable {
  /// The run's state.
  public let session: CaptureSession
  /// The bounds on each connection.
  public let limits: CaptureLimits
  private let address: CaptureAddress
  private let secret: String
  private let state: Mutex<Running?> = Mutex(nil)

  private struct Running: Sendable {
    var listener: AsyncSocket
    var task: Task<Void, Never>
    var access: CaptureAccess
  }

  /// A server for `session`, not yet listening.
  ///
  /// - Parameters:
  ///   - session: the run (its configuration gives address, port, token and body limit).
  ///   - limits: the bounds on each connection; the body limit is the configuration's.
  /// - Throws: ``CaptureError/usage(_:)`` when the configuration's host is not an IP address.
  public init(session: CaptureSession, limits: CaptureLimits = CaptureLimits()) throws(CaptureError) {
    let configuration = session.configuration
    self.address = try CaptureAddress(configuration.host)
    self.session = session
    var limits = limits
    limits.maximumBodySize = configuration.maximumBodySize
    self.limits = limits
    self.secret = CaptureAccess.makeSecret()
  }

  /// The access rules once listening (they name the port bound), else `nil`.
  public var access: CaptureAccess? { state.withLock { $0?.access } }

  /// Starts listening and returns the URL to open: `http://HOST:PORT/`, with `?token=T` when the
  /// run has a token (the port is the one bound, also when 0 asked for any free one).
  ///
  /// - Throws: ``CaptureError/cannotListen(address:reason:)`` when the address cannot be bound.
  public func start() async throws(CaptureError) -> String {
    let configuration = session.configuration
    let requested = "\(address.urlHost):\(configuration.port)"
    let pool = Self.makePool()
    let listener: AsyncSocket
    let port: UInt16
    do {
      let socket: Socket
      if address.isIPv6 {
        socket = try Socket(domain: AF_INET6)
        try socket.setValue(true, for: .localAddressReuse)
        try socket.bind(to: sockaddr_in6.inet6(ip6: address.text, port: configuration.port))
      } else {
        socket = try Socket(domain: AF_INET)
        try socket.setValue(true, for: .localAddressReuse)
        try socket.bind(to: sockaddr_in.inet(ip4: address.text, port: configuration.port))
      }
      try socket.listen()
      switch try socket.sockname() {
      case .ip4(_, let bound), .ip6(_, let bound): port = bound
      default: port = configuration.port
      }
      try await pool.prepare()
      listener = try AsyncSocket(socket: socket, pool: pool)
    } catch {
      throw .cannotListen(address: requested, reason: error.localizedDescription)
    }
    let access = CaptureAccess(host: configuration.host, port: port, token: configuration.token, secret: secret)
    let handler = CaptureHTTPHandler(session: session, access: access)
    let limits = self.limits
    // On the server's own thread (with every task it starts), so busy cooperative threads
    // elsewhere in the process cannot hold its answers back.
    let task = Task(executorPreference: ServerThread.shared) {
      await withTaskGroup(of: Void.self) { group in
        group.addTask { try? await pool.run() }
        group.addTask { await Self.accept(on: listener, limits: limits, handler: handler) }
        await group.next()
        group.cancelAll()
      }
    }
    state.withLock { $0 = Running(listener: listener, task: task, access: access) }
    var url = "http://\(address.urlHost):\(port)/"
    if let token = configuration.token { url += "?token=\(token)" }
    return url
  }

  /// Waits until every prompt is done or the session is interrupted, then stops the server and
  /// returns the summary.
  public func run() async -> CaptureSummary {
    await session.waitUntilFinished()
    await stop()
    return await session.summary()
  }

  /// Stops listening and closes every connection (a request being handled finishes first; the
  /// wait is bounded to 2 s).
  public func stop() async {
    guard let running = state.withLock({ value -> Running? in
      defer { value = nil }
      return value
    }) else { return }
    running.task.cancel()
    await withTaskGroup(of: Void.self) { group in
      group.addTask { await running.task.value }
      group.addTask { try? await Task.sleep(for: .seconds(2)) }
      await group.next()
      group.cancelAll()
    }
    try? running.listener.close()
  }

  static func makePool() -> some AsyncSocketPool {
    #if canImport(Darwin)
      return .kQueue()
    #else
      return .ePoll()
    #endif
  }

  /// Accepts connections until cancelled, at most `limits.maximumConnections` served at once:
  /// past that, a connection waiting idle for its next request is closed to make room (a
  /// browser opens a new one when it needs it), and when none is idle the newcomer gets 503.
  private static func accept(on listener: AsyncSocket, limits: CaptureLimits, handler: CaptureHTTPHandler) async {
    let table = ConnectionTable()
    await withDiscardingTaskGroup { group in
      while !Task.isCancelled {
        let client: AsyncSocket
        do {
          client = try await listener.accept()
        } catch is CancellationError {
          return
        } catch SocketError.disconnected {
          return
        } catch {
          // Out of descriptors (EMFILE) and the like: wait a little, never stop serving.
          try? await Task.sleep(for: .milliseconds(50))
          continue
        }
        let deadline = CaptureConnection.Deadline()
        guard let id = table.admit(deadline, limit: limits.maximumConnections) else {
          let busy = CaptureResponse.text(503, "busy: \(limits.maximumConnections) connections are open; try again\n", closes: true)
          _ = try? client.socket.write(Data(busy.encoded(keepAlive: false)))
          try? client.close()
          continue
        }
        group.addTask {
          await CaptureConnection(socket: client, limits: limits, handler: handler, deadline: deadline).serve()
          table.remove(id)
        }
      }
    }
  }
}

/// The open connections: their deadlines, to close an idle one when the table is full.
final class ConnectionTable: @unchecked Sendable {
  private let lock = NSLock()
  private var entries: [Int: CaptureConnection.Deadline] = [:]
  private var next = 0

  /// Adds a connection and returns its id; when `limit` are open, first closes one that waits
  /// idle for its next request (it stays counted until it has closed, so at most `limit` + the
  /// ones closing are open), or returns `nil` when none does.
  func admit(_ deadline: CaptureConnection.Deadline, limit: Int) -> Int? {
    lock.lock()
    defer { lock.unlock() }
    let closing = entries.values.filter(\.isClosing).count
    if entries.count - closing >= limit {
      guard let idle = entries.values.first(where: { $0.isIdle && !$0.isClosing }) else { return nil }
      idle.closeNow()
    }
    next += 1
    entries[next] = deadline
    return next
  }

  func remove(_ id: Int) {
    lock.lock()
    entries[id] = nil
    lock.unlock()
  }
}

/// One client connection: reads requests with ``CaptureRequestParser`` and answers them in
/// order, under a watchdog that closes it when it stays silent or a request takes too long.
struct CaptureConnection: Sendable {
  let socket: AsyncSocket
  let limits: CaptureLimits
  let handler: CaptureHTTPHandler

  let deadline: Deadline

  /// When the connection is closed unless it makes progress (`nil`: no deadline, while a
  /// request is being handled), and whether it waits idle for a request.
  final class Deadline: @unchecked Sendable {
    private let lock = NSLock()
    private var instant: ContinuousClock.Instant?
    private var idle = false
    private var closing = false
    func set(_ value: ContinuousClock.Instant?, idle: Bool = false) {
      lock.lock()
      if !closing {
        instant = value
        self.idle = idle
      }
      lock.unlock()
    }
    func passed(_ now: ContinuousClock.Instant) -> Bool {
      lock.lock()
      defer { lock.unlock() }
      return instant.map { now >= $0 } ?? false
    }
    /// Whether the connection waits for the first byte of a request.
    var isIdle: Bool {
      lock.lock()
      defer { lock.unlock() }
      return idle
    }
    /// Whether ``closeNow()`` was called.
    var isClosing: Bool {
      lock.lock()
      defer { lock.unlock() }
      return closing
    }
    /// Closes the connection at the watchdog's next look (within 0.1 s).
    func closeNow() {
      lock.lock()
      instant = .now
      closing = true
      lock.unlock()
    }
  }

  func serve() async {
    let deadline = self.deadline
    deadline.set(.now + limits.idleTimeout, idle: true)
    await withTaskGroup(of: Void.self) { group in
      group.addTask { await converse(deadline) }
      group.addTask {
        while !Task.isCancelled {
          try? await Task.sleep(for: .milliseconds(100))
          if deadline.passed(.now) { return }
        }
      }
      await group.next()
      group.cancelAll()
    }
    try? socket.close()
  }

  /// Requests and answers until the client closes, a refusal, `Connection: close` or cancellation.
  private func converse(_ deadline: Deadline) async {
    var buffer: [UInt8] = []
    var consumed = 0
    do {
      while !Task.isCancelled {
        // The head: read until it is whole (bounded by the head limit) or refused.
        let requestDeadline = ContinuousClock.now + limits.requestTimeout
        var head: CaptureRequestParser.Head
        reading: while true {
          switch CaptureRequestParser.parseHead(buffer[consumed...], limits: limits) {
          case .head(let found):
            head = found
            break reading
          case .refuse(let response):
            try await send(response, keepAlive: false, includeBody: true, deadline)
            try await drain(deadline)
            return
          case .needMore, .request:
            if buffer.count == consumed, buffer.count > 0 {
              buffer.removeAll(keepingCapacity: true)
              consumed = 0
            }
            guard try await receive(into: &buffer, until: requestDeadline, deadline) else { return }
          }
        }
        consumed += head.size
        // The body: exactly Content-Length bytes (already bounded by the body limit).
        while buffer.count - consumed < head.bodySize {
          guard try await receive(into: &buffer, until: requestDeadline, deadline) else { return }
        }
        var request = head.request
        request.body = Array(buffer[consumed..<(consumed + head.bodySize)])
        consumed += head.bodySize
        if consumed == buffer.count {
          buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
          consumed = 0
        } else if consumed > 1 << 16 {
          buffer.removeFirst(consumed)
          consumed = 0
        }
        deadline.set(nil)
        let response = await handler.respond(to: request)
        let keepAlive = request.keepsAlive && !response.closes
        try await send(response, keepAlive: keepAlive, includeBody: request.method != "HEAD", deadline)
        guard keepAlive else { return }
        deadline.set(.now + limits.idleTimeout, idle: buffer.count == consumed)
      }
    } catch {
      // Cancelled by the watchdog or the server's stop, or the client went away.
    }
  }

  /// Reads what has arrived (waiting at most the idle timeout, and not past `until`) onto
  /// `buffer`; false when the client closed.
  private func receive(into buffer: inout [UInt8], until: ContinuousClock.Instant, _ deadline: Deadline) async throws -> Bool {
    deadline.set(min(.now + limits.idleTimeout, until), idle: buffer.isEmpty)
    do {
      buffer += try await socket.read(atMost: 64 << 10)
      return true
    } catch SocketError.disconnected {
      return false
    }
  }

  /// After a refusal: ends the sending side, then reads and discards what the client still sends
  /// (at most 8 MiB, for at most 2 s) before the connection is closed, so the client reads the
  /// answer instead of a reset. Nothing read here is parsed.
  private func drain(_ deadline: Deadline) async throws {
    _ = shutdown(socket.socket.file.rawValue, Int32(SHUT_WR))
    deadline.set(.now + .seconds(2))
    var discarded = 0
    while discarded < 8 << 20 {
      do {
        discarded += try await socket.read(atMost: 64 << 10).count
      } catch SocketError.disconnected {
        return
      }
    }
  }

  private func send(_ response: CaptureResponse, keepAlive: Bool, includeBody: Bool, _ deadline: Deadline) async throws {
    deadline.set(.now + limits.idleTimeout)
    try await socket.write(Data(response.encoded(keepAlive: keepAlive, includeBody: includeBody)))
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

/// Answers the page's requests once ``CaptureAccess`` admits them (see ``CaptureServer``).
struct CaptureHTTPHandler: Sendable {
  let session: CaptureSession
  let access: CaptureAccess

  func respond(to request: CaptureRequest) async -> CaptureResponse {
    let route: CaptureAccess.Route
    switch access.check(request) {
    case .refuse(let refusal): return refusal
    case .admit(let admitted): route = admitted
    }
    switch route {
    case .page:
      let snapshot = await session.snapshot()
      let page = CapturePage.html(
        state: snapshot.json, prompt: snapshot.intent, index: snapshot.index, total: session.prompts.count,
        token: access.token, secret: access.secret)
      return CaptureResponse(
        status: 200,
        headers: [
          ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
          ("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"), ("Referrer-Policy", "no-referrer"),
        ],
        body: page)
    case .state:
      return Self.json(await session.stateJSON())
    case .contact:
      return await answer(session.submit(request.body))
    case .redo:
      return await answer(session.redo())
    }
  }

  private func answer(_ outcome: CaptureSession.Outcome) async -> CaptureResponse {
    switch outcome {
    case .ok: return Self.json(await session.stateJSON())
    case .invalid(let why): return .text(400, why + "\n")
    case .conflict(let why): return .text(409, why + "\n")
    case .failed(let why): return .text(500, why + "\n")
    }
  }

  static func json(_ bytes: [UInt8]) -> CaptureResponse {
    CaptureResponse(
      status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")], body: bytes)
  }
}
