#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A route of a server: its path (the raw value) and the method it takes (`GET` routes also
/// answer `HEAD`).
package protocol ServedRoute: RawRepresentable, Sendable where RawValue == String {
  /// `GET` or `POST`.
  var method: String { get }
}

/// Who may talk to a capture server, checked on every request before it reaches the session.
///
/// In order: the `Host` header must name this server (`localhost`, `127.0.0.1` or `[::1]` with
/// its port, or the `--host` address; with a wildcard `--host` such as `0.0.0.0`, any IP address
/// with the port, never a name), so a page on a domain that resolves to this machine (DNS
/// rebinding) is refused; an `Origin` header, when sent, must be `http://` and one of those; the
/// run's token, when it has one, must be the `?token=`; the path must be a route (404) taken
/// with its method (405); and every request that changes state (`POST`) must carry the session's
/// secret in `X-Capture-Secret`. The secret is drawn at start from the system's random source
/// (256 bits), written only into the page the server serves, and compared in constant time. A
/// page on another origin can neither read it (no CORS headers are ever sent) nor send the
/// header without a preflight the server never allows.
@_spi(Fuzz) public struct CaptureAccess: Sendable {
  /// The routes of the capture page.
  @_spi(Fuzz) public enum Route: String, ServedRoute, CaseIterable {
    /// `GET /`: the page.
    case page = "/"
    /// `GET /state`: the state as JSON.
    case state = "/state"
    /// `POST /contact`: one contact.
    case contact = "/contact"
    /// `POST /redo`: removes the last trace this run wrote.
    case redo = "/redo"
    /// `POST /start`: leaves the welcome or consent screen (`{"agree": true}` with consent).
    case start = "/start"
    /// `POST /finish`: ends the run after the last prompt.
    case finish = "/finish"

    /// The method the route takes (`GET` routes also answer `HEAD`).
    @_spi(Fuzz) public var method: String {
      switch self {
      case .page, .state: "GET"
      case .contact, .redo, .start, .finish: "POST"
      }
    }
  }

  /// The header the page sends the secret in.
  package static let secretHeader = "X-Capture-Secret"

  /// The session's secret: 64 hexadecimal digits.
  package let secret: String
  /// The run's token, or `nil`.
  package let token: String?
  /// The command whose printed URL a refused client should open (`capture`, `try`).
  package let command: String
  /// The `Host` values (lower case) this server answers to.
  package let hosts: Set<String>
  /// The port, to match IP-literal hosts of a wildcard bind.
  let port: UInt16
  /// Whether the server is bound to every address (then any IP literal with the port is its).
  let wildcard: Bool

  /// The access rules of a server bound to `host`:`port`.
  ///
  /// - Parameters:
  ///   - host: the address bound (`--host`).
  ///   - port: the port bound.
  ///   - token: the run's token, or `nil`.
  ///   - secret: the session's secret (``makeSecret()``).
  ///   - command: the command serving (named in refusals: "open the URL touchtrace COMMAND printed").
  @_spi(Fuzz) public init(host: String, port: UInt16, token: String?, secret: String, command: String = "capture") {
    self.command = command
    var names = ["localhost", "127.0.0.1", "[::1]"]
    let bound = host == "localhost" ? "127.0.0.1" : host
    names.append(bound.contains(":") ? "[\(bound)]" : bound)
    var hosts = Set(names.map { "\($0.lowercased()):\(port)" })
    if port == 80 { hosts.formUnion(names.map { $0.lowercased() }) }
    self.hosts = hosts
    self.port = port
    self.wildcard = bound == "0.0.0.0" || bound == "::" || bound == "0:0:0:0:0:0:0:0"
    self.token = token
    self.secret = secret
  }

  /// A new secret: 32 bytes from the system's cryptographically secure random source
  /// (`SystemRandomNumberGenerator`: `getrandom` on Linux, `arc4random` on Darwin), in hexadecimal.
  package static func makeSecret() -> String {
    var generator = SystemRandomNumberGenerator()
    var text = ""
    for _ in 0..<4 {
      let word = generator.next()
      let hex = String(word, radix: 16)
      text += String(repeating: "0", count: 16 - hex.count) + hex
    }
    return text
  }

  /// Whether `value` (a `Host` header) names this server.
  ///
  /// - Parameter value: the header's value.
  package func allowsHost(_ value: String) -> Bool {
    let host = value.lowercased()
    if hosts.contains(host) { return true }
    guard wildcard else { return false }
    // A wildcard bind: an IP literal with the port (a name could be a rebinding domain).
    let suffix = ":\(port)"
    guard host.hasSuffix(suffix) else { return false }
    let address = String(host.dropLast(suffix.count))
    if address.hasPrefix("["), address.hasSuffix("]") {
      var bytes = in6_addr()
      return inet_pton(AF_INET6, String(address.dropFirst().dropLast()), &bytes) == 1
    }
    var bytes = in_addr()
    return inet_pton(AF_INET, address, &bytes) == 1
  }

  /// Whether `value` (an `Origin` header) is this server's: `http://` and an allowed host.
  ///
  /// - Parameter value: the header's value.
  package func allowsOrigin(_ value: String) -> Bool {
    let origin = value.lowercased()
    guard origin.hasPrefix("http://") else { return false }
    return allowsHost(String(origin.dropFirst("http://".count)))
  }

  /// What ``check(_:)`` decides.
  @_spi(Fuzz) public enum Verdict: Sendable, Equatable {
    /// The request may take this route.
    case admit(Route)
    /// The answer that refuses it.
    case refuse(CaptureResponse)
  }

  /// The capture route `request` may take, or the answer that refuses it (400, 403, 404 or 405).
  ///
  /// - Parameter request: a request as read by ``CaptureRequestParser``.
  @_spi(Fuzz) public func check(_ request: CaptureRequest) -> Verdict {
    switch check(request, routes: Route.self) {
    case .admit(let route): .admit(route)
    case .refuse(let response): .refuse(response)
    }
  }

  /// What ``check(_:routes:)`` decides for a server's own route table.
  package enum RouteVerdict<R: ServedRoute>: Sendable {
    /// The request may take this route.
    case admit(R)
    /// The answer that refuses it.
    case refuse(CaptureResponse)
  }

  /// The route of `routes` that `request` may take, or the answer that refuses it: 400 without
  /// a Host header; 403 for another host, another origin, a missing or wrong token, or a `POST`
  /// without the session's secret; 404 for a path that is no route; 405 for the wrong method.
  ///
  /// - Parameters:
  ///   - request: a request as read by ``CaptureRequestParser``.
  ///   - routes: the server's routes.
  package func check<R: ServedRoute>(_ request: CaptureRequest, routes: R.Type) -> RouteVerdict<R> {
    guard let host = request.headers["host"] else {
      return .refuse(.text(400, "bad request: no Host header\n"))
    }
    guard allowsHost(host) else {
      return .refuse(
        .text(
          403,
          "forbidden: Host \(Self.printable(host)) is not this server's name (open the URL touchtrace \(command) printed)\n"
        ))
    }
    if let origin = request.headers["origin"], !allowsOrigin(origin) {
      return .refuse(.text(403, "forbidden: requests from origin \(Self.printable(origin)) are not accepted\n"))
    }
    if let token {
      guard let given = request.query["token"], Self.same(given, token) else {
        return .refuse(.text(403, "forbidden: this page needs the token of the URL touchtrace \(command) printed\n"))
      }
    }
    guard let route = R(rawValue: request.path) else {
      return .refuse(.text(404, "not found: \(Self.printable(request.path))\n"))
    }
    guard request.method == route.method || (route.method == "GET" && request.method == "HEAD") else {
      var response = CaptureResponse.text(405, "\(route.rawValue) takes \(route.method)\n")
      response.headers.append(("Allow", route.method == "GET" ? "GET, HEAD" : route.method))
      return .refuse(response)
    }
    if route.method == "POST" {
      guard let given = request.headers[Self.secretHeader.lowercased()], Self.same(given, secret) else {
        return .refuse(
          .text(
            403,
            "forbidden: a request that changes the session needs its secret (the \(Self.secretHeader) header the page sends); reload the page\n"
          ))
      }
    }
    return .admit(route)
  }

  /// Compares without stopping at the first difference (the time depends on the lengths only).
  static func same(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8)
    let y = Array(b.utf8)
    var difference = x.count ^ y.count
    for i in 0..<min(x.count, y.count) { difference |= Int(x[i] ^ y[i]) }
    return difference == 0
  }

  /// At most 100 bytes of client text, printable ASCII only, for an answer.
  static func printable(_ text: String) -> String {
    String(decoding: text.utf8.prefix(100).map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
  }
}
