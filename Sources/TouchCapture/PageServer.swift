import Synchronization

/// What the capture and try servers share: the address to bind, the bounds on connections and
/// the page's secret, and, once listening, the running listener and its access rules.
final class PageServer: Sendable {
  /// The bounds on each connection.
  let limits: CaptureLimits
  private let host: String
  private let address: CaptureAddress
  private let secret: String
  private let state: Mutex<Running?> = Mutex(nil)

  private struct Running: Sendable {
    var server: HTTPListener.Running
    var access: CaptureAccess
  }

  /// A server for `host`, not yet listening, with a fresh secret.
  ///
  /// - Parameters:
  ///   - host: the IP address to bind.
  ///   - limits: the bounds on each connection.
  ///   - maximumBodySize: the largest request body, in bytes (it replaces the limits' own).
  /// - Throws: ``CaptureError/usage(_:)`` when `host` is not an IP address.
  init(host: String, limits: CaptureLimits, maximumBodySize: Int) throws(CaptureError) {
    self.host = host
    address = try CaptureAddress(host)
    var limits = limits
    limits.maximumBodySize = maximumBodySize
    self.limits = limits
    secret = CaptureAccess.makeSecret()
  }

  /// The access rules once listening (they name the port bound), else `nil`.
  var access: CaptureAccess? { state.withLock { $0?.access } }

  /// Starts listening on `port` (0: any free one) and returns the URL to open:
  /// `http://HOST:PORT/`, with `?token=T` when there is a token.
  ///
  /// - Parameters:
  ///   - makeHandler: the handler, from the access rules for the port bound.
  /// - Throws: ``CaptureError/cannotListen(address:reason:)`` when the address cannot be bound.
  func start<Handler: CaptureResponder>(
    port: UInt16, token: String?, command: String, makeHandler: (CaptureAccess) -> Handler
  ) async throws(CaptureError) -> String {
    let (host, secret) = (self.host, self.secret)
    let (running, handler) = try await HTTPListener.start(address: address, port: port, limits: limits) { bound in
      makeHandler(CaptureAccess(host: host, port: bound, token: token, secret: secret, command: command))
    }
    state.withLock { $0 = Running(server: running, access: handler.access) }
    var url = "http://\(address.urlHost):\(running.port)/"
    if let token { url += "?token=\(token)" }
    return url
  }

  /// Stops listening and closes every connection (a request being handled finishes first; the
  /// wait is bounded to 2 s).
  func stop() async {
    guard
      let running = state.withLock({ value -> Running? in
        defer { value = nil }
        return value
      })
    else { return }
    await HTTPListener.stop(running.server)
  }
}
