import Synchronization

/// Where a served page listens: what ``CaptureConfiguration`` and ``TryConfiguration`` share.
package protocol PageEndpoint: Sendable {
  /// The IP address to bind.
  var host: String { get }
  /// The port to bind (0: any free one).
  var port: UInt16 { get }
  /// The token the page's URL carries, if any.
  var token: String? { get }
  /// The largest request body, in bytes.
  var maximumBodySize: Int { get }
}

/// A request handler for one session's page: it answers the routes ``CaptureAccess`` admits;
/// the rest are refused before it is called.
package protocol SessionResponder: CaptureResponder {
  /// The session it answers for.
  associatedtype Session
  /// The page's routes.
  associatedtype Route: ServedRoute
  /// The handler of `session`'s requests under `access` (the rules for the port bound).
  init(session: Session, access: CaptureAccess)
  /// The answer to `request`, admitted to `route`.
  func respond(to request: CaptureRequest, on route: Route) async -> CaptureResponse
}

extension SessionResponder {
  /// `request` checked by ``CaptureResponder/access`` (Host, Origin, token, route, method,
  /// secret), then answered on its route, or refused.
  package func respond(to request: CaptureRequest) async -> CaptureResponse {
    switch access.check(request, routes: Route.self) {
    case .refuse(let refusal): refusal
    case .admit(let route): await respond(to: request, on: route)
    }
  }
}

/// A run a ``PageServer`` serves: ``CaptureSession`` or ``TrySession``.
package protocol ServedSession: Sendable {
  /// The run's settings.
  associatedtype Configuration: PageEndpoint
  /// What answers the page's requests once ``CaptureAccess`` admits them.
  associatedtype Handler: SessionResponder where Handler.Session == Self

  /// The command the page belongs to (`capture`, `try`): the access rules name it in refusals.
  static var command: String { get }
  /// The run's settings (address, port, token, body limit).
  nonisolated var configuration: Configuration { get }
  /// Returns when the run is over (every prompt done, or interrupted).
  func waitUntilFinished() async
  /// Ends the run early (Ctrl-C): ``waitUntilFinished()`` returns.
  func interrupt() async
}

/// The HTTP server of a served page (capture's, try's): the bounded connection loop
/// (``CaptureLimits``) and the access rules (``CaptureAccess``: Host, Origin, token, the
/// session's secret on `POST`) in front of a session, until ``stop()``.
package final class PageServer<Session: ServedSession>: Sendable {
  /// The run's state.
  package let session: Session
  /// The bounds on each connection.
  package let limits: CaptureLimits
  private let address: CaptureAddress
  private let secret: String
  private let state: Mutex<Running?> = Mutex(nil)

  private struct Running: Sendable {
    var server: HTTPListener.Running
    var access: CaptureAccess
  }

  /// A server for `session`, not yet listening, with a fresh secret.
  ///
  /// - Parameters:
  ///   - session: the run (its configuration gives address, port, token and body limit).
  ///   - limits: the bounds on each connection; the body limit is the configuration's.
  /// - Throws: ``CaptureError/usage(_:)`` when the configuration's host is not an IP address.
  package init(session: Session, limits: CaptureLimits = CaptureLimits()) throws(CaptureError) {
    self.session = session
    address = try CaptureAddress(session.configuration.host)
    var limits = limits
    limits.maximumBodySize = session.configuration.maximumBodySize
    self.limits = limits
    secret = CaptureAccess.makeSecret()
  }

  /// The access rules once listening (they name the port bound), else `nil`.
  package var access: CaptureAccess? { state.withLock { $0?.access } }

  /// Starts listening and returns the URL to open: `http://HOST:PORT/`, with `?token=T` when the
  /// run has a token (the port is the one bound, also when 0 asked for any free one).
  ///
  /// - Throws: ``CaptureError/cannotListen(address:reason:)`` when the address cannot be bound.
  package func start() async throws(CaptureError) -> String {
    let (session, secret) = (self.session, self.secret)
    let configuration = session.configuration
    let (running, handler) = try await HTTPListener.start(address: address, port: configuration.port, limits: limits) {
      bound in
      Session.Handler(
        session: session,
        access: CaptureAccess(
          host: configuration.host, port: bound, token: configuration.token, secret: secret, command: Session.command))
    }
    state.withLock { $0 = Running(server: running, access: handler.access) }
    var url = "http://\(address.urlHost):\(running.port)/"
    if let token = configuration.token { url += "?token=\(token)" }
    return url
  }

  /// Waits until the run is over (every prompt done, or interrupted), then stops the server.
  package func serveUntilFinished() async {
    await session.waitUntilFinished()
    await stop()
  }

  /// Stops listening and closes every connection (a request being handled finishes first; the
  /// wait is bounded to 2 s).
  package func stop() async {
    guard
      let running = state.withLock({ value -> Running? in
        defer { value = nil }
        return value
      })
    else { return }
    await HTTPListener.stop(running.server)
  }
}
