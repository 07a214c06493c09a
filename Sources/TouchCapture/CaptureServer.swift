import FlyingSocks
import Foundation
import TouchCore
import TouchIO

/// The capture page's HTTP server: serves the page, takes each contact and adds it to the
/// dataset, until every prompt is done or ``PageServer/stop()`` is called.
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
package typealias CaptureServer = PageServer<CaptureSession>

extension CaptureSession: ServedSession {
  package typealias Handler = CaptureHTTPHandler

  /// `capture`.
  package static var command: String { "capture" }
}

extension CaptureConfiguration: PageEndpoint {}

extension PageServer where Session == CaptureSession {
  /// Waits until every prompt is done or the session is interrupted, then stops the server and
  /// returns the summary.
  package func run() async -> CaptureSummary {
    await serveUntilFinished()
    return await session.summary()
  }
}

/// Answers the page's requests once ``CaptureAccess`` admits them (see ``CaptureServer``).
package struct CaptureHTTPHandler: SessionResponder {
  let session: CaptureSession
  package let access: CaptureAccess

  package init(session: CaptureSession, access: CaptureAccess) {
    (self.session, self.access) = (session, access)
  }

  package func respond(to request: CaptureRequest, on route: CaptureAccess.Route) async -> CaptureResponse {
    switch route {
    case .page:
      let snapshot = await session.snapshot()
      let page = CapturePage.html(
        state: snapshot.json, prompt: snapshot.intent, words: snapshot.words, index: snapshot.index,
        total: session.prompts.count,
        token: access.token, secret: access.secret)
      return .page(page)
    case .state:
      return CaptureResponse.json(await session.stateJSON())
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
    case .ok: return CaptureResponse.json(await session.stateJSON())
    case .invalid(let why): return .text(400, why + "\n")
    case .conflict(let why): return .text(409, why + "\n")
    case .failed(let why): return .text(500, why + "\n")
    }
  }
}
