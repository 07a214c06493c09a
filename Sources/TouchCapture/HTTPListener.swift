import FlyingSocks
import Foundation
import Synchronization

/// What the bounded server loop calls for each request read whole: capture's and try's
/// handlers (their access rules are checked inside `respond`).
package protocol CaptureResponder: Sendable {
  /// The rules the handler admits requests by.
  var access: CaptureAccess { get }
  /// The answer to `request`.
  func respond(to request: CaptureRequest) async -> CaptureResponse
}

/// The listening socket and connection loop both servers share: binding, the accept loop bounded
/// by ``CaptureLimits``, and the task that serves them on ``ServerThread``.
enum HTTPListener {
  /// A bound, listening server and the task serving it.
  struct Running: Sendable {
    /// The listening socket.
    var listener: AsyncSocket
    /// The task running the event loop and the accept loop.
    var task: Task<Void, Never>
    /// The port bound (the one asked for, or the free one port 0 picked).
    var port: UInt16
  }

  /// Binds `address`:`port`, listens, and serves every connection with the handler `makeHandler`
  /// gives for the port bound, on the server's own thread.
  ///
  /// - Throws: ``CaptureError/cannotListen(address:reason:)`` when the address cannot be bound.
  static func start<Handler: CaptureResponder>(
    address: CaptureAddress, port requestedPort: UInt16, limits: CaptureLimits,
    makeHandler: (UInt16) -> Handler
  ) async throws(CaptureError) -> (running: Running, handler: Handler) {
    let requested = "\(address.urlHost):\(requestedPort)"
    let pool = makePool()
    let listener: AsyncSocket
    let port: UInt16
    do {
      let socket: Socket
      if address.isIPv6 {
        socket = try Socket(domain: AF_INET6)
        try socket.setValue(true, for: .localAddressReuse)
        try socket.bind(to: sockaddr_in6.inet6(ip6: address.text, port: requestedPort))
      } else {
        socket = try Socket(domain: AF_INET)
        try socket.setValue(true, for: .localAddressReuse)
        try socket.bind(to: sockaddr_in.inet(ip4: address.text, port: requestedPort))
      }
      try socket.listen()
      switch try socket.sockname() {
      case .ip4(_, let bound), .ip6(_, let bound): port = bound
      default: port = requestedPort
      }
      try await pool.prepare()
      listener = try AsyncSocket(socket: socket, pool: pool)
    } catch {
      throw .cannotListen(address: requested, reason: error.localizedDescription)
    }
    let handler = makeHandler(port)
    // On the server's own thread (with every task it starts), so busy cooperative threads
    // elsewhere in the process cannot hold its answers back.
    let task = Task(executorPreference: ServerThread.shared) {
      await withTaskGroup(of: Void.self) { group in
        group.addTask { try? await pool.run() }
        group.addTask { await accept(on: listener, limits: limits, handler: handler) }
        await group.next()
        group.cancelAll()
      }
    }
    return (Running(listener: listener, task: task, port: port), handler)
  }

  /// Cancels the serving task, waits for it at most 2 s (a request being handled finishes
  /// first), and closes the listening socket.
  static func stop(_ running: Running) async {
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
  private static func accept<Handler: CaptureResponder>(
    on listener: AsyncSocket, limits: CaptureLimits, handler: Handler
  ) async {
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
        let deadline = ConnectionDeadline()
        guard let id = table.admit(deadline, limit: limits.maximumConnections) else {
          let busy = CaptureResponse.text(
            503, "busy: \(limits.maximumConnections) connections are open; try again\n", closes: true)
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
final class ConnectionTable: Sendable {
  private struct Entries {
    var open: [Int: ConnectionDeadline] = [:]
    var next = 0
  }
  private let entries = Mutex(Entries())

  /// Adds a connection and returns its id; when `limit` are open, first closes one that waits
  /// idle for its next request (it stays counted until it has closed, so at most `limit` + the
  /// ones closing are open), or returns `nil` when none does.
  func admit(_ deadline: ConnectionDeadline, limit: Int) -> Int? {
    entries.withLock { entries -> Int? in
      let closing = entries.open.values.filter(\.isClosing).count
      if entries.open.count - closing >= limit {
        guard let idle = entries.open.values.first(where: { $0.isIdle && !$0.isClosing }) else { return nil }
        idle.closeNow()
      }
      entries.next += 1
      entries.open[entries.next] = deadline
      return entries.next
    }
  }

  func remove(_ id: Int) {
    entries.withLock { $0.open[id] = nil }
  }
}

/// When the connection is closed unless it makes progress (`nil`: no deadline, while a
/// request is being handled), and whether it waits idle for a request.
final class ConnectionDeadline: Sendable {
  private struct State {
    var instant: ContinuousClock.Instant?
    var idle = false
    var closing = false
  }
  private let state = Mutex(State())

  func set(_ value: ContinuousClock.Instant?, idle: Bool = false) {
    state.withLock { state in
      guard !state.closing else { return }
      state.instant = value
      state.idle = idle
    }
  }
  func passed(_ now: ContinuousClock.Instant) -> Bool {
    state.withLock { state in state.instant.map { now >= $0 } ?? false }
  }
  /// Whether the connection waits for the first byte of a request.
  var isIdle: Bool { state.withLock(\.idle) }
  /// Whether ``closeNow()`` was called.
  var isClosing: Bool { state.withLock(\.closing) }
  /// Closes the connection at the watchdog's next look (within 0.1 s).
  func closeNow() {
    state.withLock { state in
      state.instant = .now
      state.closing = true
    }
  }
}

/// One client connection: reads requests with ``CaptureRequestParser`` and answers them in
/// order, under a watchdog that closes it when it stays silent or a request takes too long.
struct CaptureConnection<Handler: CaptureResponder>: Sendable {
  let socket: AsyncSocket
  let limits: CaptureLimits
  let handler: Handler

  let deadline: ConnectionDeadline

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
  private func converse(_ deadline: ConnectionDeadline) async {
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
  private func receive(into buffer: inout [UInt8], until: ContinuousClock.Instant, _ deadline: ConnectionDeadline)
    async throws -> Bool
  {
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
  private func drain(_ deadline: ConnectionDeadline) async throws {
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

  private func send(_ response: CaptureResponse, keepAlive: Bool, includeBody: Bool, _ deadline: ConnectionDeadline)
    async throws
  {
    deadline.set(.now + limits.idleTimeout)
    try await socket.write(Data(response.encoded(keepAlive: keepAlive, includeBody: includeBody)))
  }
}
