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
/// malformed or invalid, 409 when it answers another prompt or comes before Start), `POST /redo`
/// removes the last trace this run wrote (also after the last prompt), `POST /start` leaves the
/// welcome or consent screen (``CaptureSession/start(_:)``), `POST /finish` ends the run after
/// the last prompt (``CaptureSession/end()``). Other paths: 404; other methods: 405.
package final class CaptureServer: Sendable {
  /// The run's state.
  package let session: CaptureSession
  /// The bounds on each connection.
  package var limits: CaptureLimits { server.limits }
  private let server: PageServer

  /// A server for `session`, not yet listening.
  ///
  /// - Parameters:
  ///   - session: the run (its configuration gives address, port, token and body limit).
  ///   - limits: the bounds on each connection; the body limit is the configuration's.
  /// - Throws: ``CaptureError/usage(_:)`` when the configuration's host is not an IP address.
  package init(session: CaptureSession, limits: CaptureLimits = CaptureLimits()) throws(CaptureError) {
    let configuration = session.configuration
    self.session = session
    server = try PageServer(host: configuration.host, limits: limits, maximumBodySize: configuration.maximumBodySize)
  }

  /// The access rules once listening (they name the port bound), else `nil`.
  package var access: CaptureAccess? { server.access }

  /// Starts listening and returns the URL to open: `http://HOST:PORT/`, with `?token=T` when the
  /// run has a token (the port is the one bound, also when 0 asked for any free one).
  ///
  /// - Throws: ``CaptureError/cannotListen(address:reason:)`` when the address cannot be bound.
  package func start() async throws(CaptureError) -> String {
    let configuration = session.configuration
    let session = self.session
    return try await server.start(
      port: configuration.port, token: configuration.token, command: "capture"
    ) { access in
      CaptureHTTPHandler(session: session, access: access)
    }
  }

  /// Waits until every prompt is done or the session is interrupted, then stops the server and
  /// returns the summary.
  package func run() async -> CaptureSummary {
    await session.waitUntilFinished()
    await stop()
    return await session.summary()
  }

  /// Stops listening and closes every connection (a request being handled finishes first; the
  /// wait is bounded to 2 s).
  package func stop() async {
    await server.stop()
  }
}

/// Answers the page's requests once ``CaptureAccess`` admits them (see ``CaptureServer``).
struct CaptureHTTPHandler: CaptureResponder {
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
        state: snapshot.json, prompt: snapshot.intent, words: snapshot.words, index: snapshot.index,
        total: session.prompts.count,
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
    case .start:
      return await answer(session.start(request.body))
    case .finish:
      return await answer(session.end())
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
