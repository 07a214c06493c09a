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
/// ``TrySession``, until ``PageServer/stop()``; ``PageServer/serveUntilFinished()`` waits for
/// an interrupt.
///
/// Routes: `GET /` the page (with the secret built in), `GET /state` the state as JSON,
/// `POST /replay` a contact replayed (``TrySession/replay(_:)``; 400 with the reason when
/// malformed), `POST /save` a contact saved (409 without a dataset). Other paths: 404; other
/// methods: 405.
package typealias TryServer = PageServer<TrySession>

extension TrySession: ServedSession {
  package typealias Handler = TryHTTPHandler

  /// `try`.
  package static var command: String { "try" }
}

extension TryConfiguration: PageEndpoint {}

/// Answers the try page's requests once ``CaptureAccess`` admits them (see ``TryServer``).
package struct TryHTTPHandler: SessionResponder {
  let session: TrySession
  package let access: CaptureAccess

  package init(session: TrySession, access: CaptureAccess) {
    (self.session, self.access) = (session, access)
  }

  package func respond(to request: CaptureRequest, on route: TryRoute) async -> CaptureResponse {
    switch route {
    case .page:
      let page = TryPage.html(state: await session.stateJSON(), token: access.token, secret: access.secret)
      return .page(page)
    case .state:
      return CaptureResponse.json(await session.stateJSON())
    case .replay:
      return Self.answer(await session.replay(request.body))
    case .save:
      return Self.answer(await session.save(request.body))
    }
  }

  static func answer(_ outcome: TrySession.Outcome) -> CaptureResponse {
    switch outcome {
    case .ok(let json): CaptureResponse.json(json)
    case .invalid(let why): .text(400, why + "\n")
    case .conflict(let why): .text(409, why + "\n")
    case .failed(let why): .text(500, why + "\n")
    }
  }
}
