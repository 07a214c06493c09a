/// The routes of the try page.
package enum TryRoute: String, ServedRoute, CaseIterable {
  /// `GET /`: the page.
  case page = "/"
  /// `GET /state`: the state as JSON.
  case state = "/state"
  /// `POST /replay`: a contact, complete or so far, replayed through every configuration.
  case replay = "/replay"
  /// `POST /save`: a complete contact saved as a labeled trace.
  case save = "/save"

  /// The method the route takes (`GET` routes also answer `HEAD`).
  package var method: String {
    switch self {
    case .page, .state: "GET"
    case .replay, .save: "POST"
    }
  }
}

/// The try page's HTTP server: the capture server's bounded connection loop and access rules
/// (``CaptureAccess``: Host, Origin, token, the session's secret on `POST`) in front of a
/// ``TrySession``, until ``stop()``.
///
/// Routes: `GET /` the page (with the secret built in), `GET /state` the state as JSON,
/// `POST /replay` a contact replayed (``TrySession/replay(_:)``; 400 with the reason when
/// malformed), `POST /save` a contact saved (409 without a dataset). Other paths: 404; other
/// methods: 405.
package final class TryServer: Sendable {
  /// The run's state.
  package let session: TrySession
  /// The bounds on each connection.
  package var limits: CaptureLimits { server.limits }
  private let server: PageServer

  /// A server for `session`, not yet listening.
  ///
  /// - Parameters:
  ///   - session: the run (its configuration gives address, port, token and body limit).
  ///   - limits: the bounds on each connection; the body limit is the configuration's.
  /// - Throws: ``CaptureError/usage(_:)`` when the configuration's host is not an IP address.
  package init(session: TrySession, limits: CaptureLimits = CaptureLimits()) throws(CaptureError) {
    let configuration = session.configuration
    self.session = session
    server = try PageServer(host: configuration.host, limits: limits, maximumBodySize: configuration.maximumBodySize)
  }

  /// The access rules once listening (they name the port bound), else `nil`.
  package var access: CaptureAccess? { server.access }

  /// Starts listening and returns the URL to open: `http://HOST:PORT/`, with `?token=T` when the
  /// run has a token.
  ///
  /// - Throws: ``CaptureError/cannotListen(address:reason:)`` when the address cannot be bound.
  package func start() async throws(CaptureError) -> String {
    let configuration = session.configuration
    let session = self.session
    return try await server.start(
      port: configuration.port, token: configuration.token, command: "try"
    ) { access in
      TryHTTPHandler(session: session, access: access)
    }
  }

  /// Waits until the session is interrupted, then stops the server.
  package func run() async {
    await session.waitUntilFinished()
    await stop()
  }

  /// Stops listening and closes every connection (a request being handled finishes first; the
  /// wait is bounded to 2 s).
  package func stop() async {
    await server.stop()
  }
}

/// Answers the try page's requests once ``CaptureAccess`` admits them (see ``TryServer``).
struct TryHTTPHandler: CaptureResponder {
  let session: TrySession
  let access: CaptureAccess

  func respond(to request: CaptureRequest) async -> CaptureResponse {
    let route: TryRoute
    switch access.check(request, routes: TryRoute.self) {
    case .refuse(let refusal): return refusal
    case .admit(let admitted): route = admitted
    }
    switch route {
    case .page:
      let page = TryPage.html(state: await session.stateJSON(), token: access.token, secret: access.secret)
      return CaptureResponse(
        status: 200,
        headers: [
          ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
          ("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"), ("Referrer-Policy", "no-referrer"),
        ],
        body: page)
    case .state:
      return CaptureHTTPHandler.json(await session.stateJSON())
    case .replay:
      return Self.answer(await session.replay(request.body))
    case .save:
      return Self.answer(await session.save(request.body))
    }
  }

  static func answer(_ outcome: TrySession.Outcome) -> CaptureResponse {
    switch outcome {
    case .ok(let json): CaptureHTTPHandler.json(json)
    case .invalid(let why): .text(400, why + "\n")
    case .conflict(let why): .text(409, why + "\n")
    case .failed(let why): .text(500, why + "\n")
    }
  }
}
