/// The bounds the capture server puts on every connection: how much it reads, how long it waits,
/// how many clients it serves at once.
@_spi(Fuzz) public struct CaptureLimits: Sendable, Equatable {
  /// The request line and headers together, bytes (16 KiB); a longer head is answered 431 and
  /// the connection closed.
  @_spi(Fuzz) public var maximumHeadSize: Int
  /// The largest request body, bytes; a larger declared `Content-Length` is answered 413 and the
  /// connection closed without reading the body.
  @_spi(Fuzz) public var maximumBodySize: Int
  /// How long a connection may send nothing while the server waits for a request or its body
  /// (10 s); then it is closed.
  package var idleTimeout: Duration
  /// How long one request may take to arrive in full, from its first byte (30 s), however
  /// slowly its bytes trickle in; then the connection is closed.
  package var requestTimeout: Duration
  /// Connections served at once (64); one more is answered 503 and closed at once.
  package var maximumConnections: Int

  /// The largest request body accepted by default, bytes (4 MiB); a larger one is answered 413.
  @_spi(Fuzz) public static let defaultMaximumBodySize = 4 << 20

  /// The limits; the defaults are those of `touchtrace capture`.
  ///
  /// - Parameters:
  ///   - maximumHeadSize: request line and headers, bytes.
  ///   - maximumBodySize: request body, bytes.
  ///   - idleTimeout: the longest silence of a connection.
  ///   - requestTimeout: the longest time one request may take to arrive.
  ///   - maximumConnections: connections served at once.
  @_spi(Fuzz) public init(
    maximumHeadSize: Int = 16 << 10, maximumBodySize: Int = CaptureLimits.defaultMaximumBodySize,
    idleTimeout: Duration = .seconds(10), requestTimeout: Duration = .seconds(30), maximumConnections: Int = 64
  ) {
    self.maximumHeadSize = maximumHeadSize
    self.maximumBodySize = maximumBodySize
    self.idleTimeout = idleTimeout
    self.requestTimeout = requestTimeout
    self.maximumConnections = maximumConnections
  }
}

/// One HTTP/1.1 request as the capture server reads it.
@_spi(Fuzz) public struct CaptureRequest: Sendable, Equatable {
  /// The method as sent (`GET`, `POST`, …).
  @_spi(Fuzz) public var method: String
  /// The path of the request target, before any `?`.
  @_spi(Fuzz) public var path: String
  /// The query's `name=value` pairs, percent-decoded; a repeated name keeps its first value.
  @_spi(Fuzz) public var query: [String: String]
  /// `HTTP/1.1` or `HTTP/1.0`.
  package var version: String
  /// The headers, by lower-cased name (each name at most once: a repeated one is refused).
  @_spi(Fuzz) public var headers: [String: String]
  /// The body (`Content-Length` bytes).
  @_spi(Fuzz) public var body: [UInt8]

  /// Whether the connection stays open after the answer: HTTP/1.1 without `Connection: close`.
  @_spi(Fuzz) public var keepsAlive: Bool {
    guard version == "HTTP/1.1" else { return false }
    let tokens = (headers["connection"] ?? "").lowercased().split(separator: ",").map { $0.trimmingSpaces }
    return !tokens.contains("close")
  }
}

/// One answer of the capture server.
@_spi(Fuzz) public struct CaptureResponse: Sendable, Equatable {
  /// The status code.
  @_spi(Fuzz) public var status: Int
  /// Headers besides `Content-Length` and `Connection`, which ``encoded(keepAlive:includeBody:)`` adds.
  package var headers: [(name: String, value: String)]
  /// The body.
  @_spi(Fuzz) public var body: [UInt8]
  /// Whether the server closes the connection after this answer (whatever the request asked).
  @_spi(Fuzz) public var closes: Bool

  /// An answer; `closes` ends the connection after it.
  ///
  /// - Parameters:
  ///   - status: the status code.
  ///   - headers: headers besides `Content-Length` and `Connection`.
  ///   - body: the body.
  ///   - closes: whether the connection is closed after it.
  package init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = [], closes: Bool = false) {
    self.status = status
    self.headers = headers
    self.body = body
    self.closes = closes
  }

  /// A `text/plain` answer, not cached.
  ///
  /// - Parameters:
  ///   - status: the status code.
  ///   - text: the body (a line ending is the caller's).
  ///   - closes: whether the connection is closed after it.
  package static func text(_ status: Int, _ text: String, closes: Bool = false) -> CaptureResponse {
    CaptureResponse(
      status: status,
      headers: [
        ("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
      ],
      body: Array(text.utf8), closes: closes)
  }

  /// A page: `200`, HTML, not cached, not framed, no referrer.
  ///
  /// - Parameter html: the page's bytes.
  package static func page(_ html: [UInt8]) -> CaptureResponse {
    CaptureResponse(
      status: 200,
      headers: [
        ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"), ("X-Frame-Options", "DENY"), ("Referrer-Policy", "no-referrer"),
      ],
      body: html)
  }

  /// A state: `200`, JSON, not cached.
  ///
  /// - Parameter bytes: the JSON document.
  package static func json(_ bytes: [UInt8]) -> CaptureResponse {
    CaptureResponse(
      status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")], body: bytes)
  }

  /// The value of header `name` (compared without case), if set.
  ///
  /// - Parameter name: the header's name.
  package func header(_ name: String) -> String? {
    headers.first { $0.name.lowercased() == name.lowercased() }?.value
  }

  /// The answer's bytes: status line, headers, `Content-Length`, `Connection: close` unless
  /// `keepAlive` (and the answer does not close), the body unless `includeBody` is false (`HEAD`).
  ///
  /// - Parameters:
  ///   - keepAlive: whether the request asked to keep the connection.
  ///   - includeBody: false for an answer to `HEAD`.
  @_spi(Fuzz) public func encoded(keepAlive: Bool, includeBody: Bool = true) -> [UInt8] {
    var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    head += "Content-Length: \(body.count)\r\n"
    head += keepAlive && !closes ? "Connection: keep-alive\r\n" : "Connection: close\r\n"
    head += "\r\n"
    return Array(head.utf8) + (includeBody ? body : [])
  }

  /// The reason phrase of `status`.
  ///
  /// - Parameter status: a status code.
  package static func reason(_ status: Int) -> String {
    switch status {
    case 200: "OK"
    case 400: "Bad Request"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 405: "Method Not Allowed"
    case 408: "Request Timeout"
    case 409: "Conflict"
    case 411: "Length Required"
    case 413: "Content Too Large"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 503: "Service Unavailable"
    case 505: "HTTP Version Not Supported"
    default: "Status"
    }
  }

  /// Equal status, headers (in order), body and closing.
  @_spi(Fuzz) public static func == (a: CaptureResponse, b: CaptureResponse) -> Bool {
    a.status == b.status && a.body == b.body && a.closes == b.closes && a.headers.elementsEqual(b.headers) { $0 == $1 }
  }
}

/// The capture server's HTTP/1.1 reader: bytes in, a request or a refusal out, every step
/// bounded by ``CaptureLimits`` and linear in the bytes given.
///
/// It accepts what the capture page sends and nothing more: a request line `METHOD /path HTTP/1.x`,
/// header lines `Name: value` (each name once), an empty line, and a body of `Content-Length`
/// bytes. Chunked bodies (`Transfer-Encoding`) are answered 501, an over-long head 431, a body over
/// the limit 413, anything malformed 400; each refusal closes the connection, so the bytes after
/// it are never read as another request.
@_spi(Fuzz) public enum CaptureRequestParser {
  /// The start of a request: its line and headers, and how long its body is.
  @_spi(Fuzz) public struct Head: Sendable, Equatable {
    /// The request without its body.
    package var request: CaptureRequest
    /// The bytes of the request line and headers, the empty line included.
    package var size: Int
    /// The body's length (`Content-Length`, 0 when absent).
    package var bodySize: Int
  }

  /// The outcome of reading a buffer's start.
  @_spi(Fuzz) public enum Step: Sendable, Equatable {
    /// The buffer holds no whole head (or request) yet, and may still.
    case needMore
    /// A head and its size (``parseHead(_:limits:)``).
    case head(Head)
    /// A whole request and the bytes it took (``parse(_:limits:)``).
    case request(CaptureRequest, consumed: Int)
    /// An answer that refuses the request and closes the connection.
    case refuse(CaptureResponse)
  }

  /// Reads a request head from the start of `buffer`: `.head`, `.needMore` while no empty line
  /// has arrived within ``CaptureLimits/maximumHeadSize`` bytes, or `.refuse`.
  ///
  /// - Parameters:
  ///   - buffer: the bytes received on a connection and not yet consumed.
  ///   - limits: the bounds (head and body size).
  package static func parseHead(_ buffer: ArraySlice<UInt8>, limits: CaptureLimits) -> Step {
    // The end of the head: the first empty line (CRLF CRLF, or LF LF), looked for only within
    // the limit, so the scan is linear and bounded.
    let window = buffer.prefix(limits.maximumHeadSize)
    var end: Int?
    var lineStart = window.startIndex
    var index = window.startIndex
    while index < window.endIndex {
      if window[index] == UInt8(ascii: "\n") {
        let length = index - lineStart
        if length == 0 || (length == 1 && window[lineStart] == UInt8(ascii: "\r")) {
          end = index + 1
          break
        }
        lineStart = index + 1
      }
      index += 1
    }
    guard let end else {
      if buffer.count >= limits.maximumHeadSize {
        return .refuse(
          .text(
            431,
            "request head over \(limits.maximumHeadSize) bytes (request line and headers); the connection is closed\n",
            closes: true))
      }
      return .needMore
    }
    // Lines, without their line endings.
    var lines: [ArraySlice<UInt8>] = []
    var start = buffer.startIndex
    for i in buffer.startIndex..<end where buffer[i] == UInt8(ascii: "\n") {
      var line = buffer[start..<i]
      if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
      lines.append(line)
      start = i + 1
    }
    lines.removeLast()  // the empty line
    guard let requestLine = lines.first, !requestLine.isEmpty else { return bad("no request line") }
    for line in lines where line.contains(where: { $0 == 0 || $0 == UInt8(ascii: "\r") || $0 == 0x7F }) {
      return bad("a control character in the request head")
    }
    let parts = requestLine.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte) else {
      return bad("the request line is not METHOD TARGET HTTP/1.1")
    }
    let version = String(decoding: parts[2], as: UTF8.self)
    guard version.hasPrefix("HTTP/") else { return bad("the request line is not METHOD TARGET HTTP/1.1") }
    guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
      return .refuse(.text(505, "only HTTP/1.1 is served\n", closes: true))
    }
    let target = parts[1]
    guard target.first == UInt8(ascii: "/"), target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
      return bad("the request target must be a path starting with /")
    }
    let question = target.firstIndex(of: UInt8(ascii: "?"))
    let path = String(decoding: target[..<(question ?? target.endIndex)], as: UTF8.self)
    let query = question.map { parseQuery(target[($0 + 1)...]) } ?? [:]

    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
        line[..<colon].allSatisfy(isTokenByte)
      else { return bad("a header line is not Name: value") }
      let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
      let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingSpaces
      guard headers[name] == nil else { return bad("header \(name) is repeated") }
      headers[name] = value
    }
    if headers["transfer-encoding"] != nil {
      return .refuse(.text(501, "chunked request bodies are not accepted; send Content-Length\n", closes: true))
    }
    var bodySize = 0
    if let length = headers["content-length"] {
      guard !length.isEmpty, length.utf8.count <= 18, length.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
        let value = Int(length)
      else { return bad("Content-Length is not a number") }
      bodySize = value
    }
    if bodySize > limits.maximumBodySize {
      return .refuse(
        .text(
          413, "request body of \(bodySize) bytes; the limit is \(limits.maximumBodySize); the connection is closed\n",
          closes: true))
    }
    let request = CaptureRequest(
      method: String(decoding: parts[0], as: UTF8.self), path: path, query: query, version: version, headers: headers,
      body: [])
    return .head(Head(request: request, size: end - buffer.startIndex, bodySize: bodySize))
  }

  /// Reads one whole request from the start of `buffer`: ``parseHead(_:limits:)``, then the
  /// body once all of it is there. Never returns `.head`.
  ///
  /// - Parameters:
  ///   - buffer: the bytes received on a connection and not yet consumed.
  ///   - limits: the bounds.
  @_spi(Fuzz) public static func parse(_ buffer: ArraySlice<UInt8>, limits: CaptureLimits) -> Step {
    switch parseHead(buffer, limits: limits) {
    case .head(let head):
      let bodyStart = buffer.startIndex + head.size
      guard buffer.endIndex - bodyStart >= head.bodySize else { return .needMore }
      var request = head.request
      request.body = Array(buffer[bodyStart..<(bodyStart + head.bodySize)])
      return .request(request, consumed: head.size + head.bodySize)
    case let other: return other
    }
  }

  private static func bad(_ why: String) -> Step {
    .refuse(.text(400, "bad request: \(why); the connection is closed\n", closes: true))
  }

  /// RFC 9110 token characters (header names, methods).
  static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
  }

  /// `name=value&…`, percent-decoded (`+` stays `+`); the first of a repeated name wins.
  static func parseQuery(_ text: ArraySlice<UInt8>) -> [String: String] {
    var query: [String: String] = [:]
    for pair in text.split(separator: UInt8(ascii: "&")) {
      let equal = pair.firstIndex(of: UInt8(ascii: "="))
      let name = percentDecoded(pair[..<(equal ?? pair.endIndex)])
      let value = equal.map { percentDecoded(pair[($0 + 1)...]) } ?? ""
      if query[name] == nil { query[name] = value }
    }
    return query
  }

  static func percentDecoded(_ text: ArraySlice<UInt8>) -> String {
    func hex(_ byte: UInt8) -> UInt8? {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
      default: nil
      }
    }
    var bytes: [UInt8] = []
    var i = text.startIndex
    while i < text.endIndex {
      if text[i] == UInt8(ascii: "%"), i + 2 < text.endIndex,
        let high = hex(text[i + 1]), let low = hex(text[i + 2])
      {
        bytes.append(high << 4 | low)
        i += 3
      } else {
        bytes.append(text[i])
        i += 1
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
