@_spi(Fuzz) import TouchCapture

extension FuzzTargets {
  /// The capture server's request reading and routing, as one connection sees the bytes: each
  /// request read with `CaptureRequestParser.parse` (small limits: 256-byte head, 64-byte body, so
  /// short inputs reach every refusal) and checked by `CaptureAccess` (a token, a secret, port
  /// 8080), until the bytes run out or a refusal closes the connection. Each step must consume
  /// bytes (no loop without progress), give a request whose body has the declared length, and
  /// end in an answer of a known status whose encoding is one well-formed response; a refusal
  /// must close the connection. The same bytes read in two pieces (split where the first byte
  /// says) must give the same steps.
  public static func captureRequest(_ data: UnsafeRawBufferPointer) {
    let bytes = Array(data)
    let steps = connection(bytes)
    // Delivered in two pieces: a request is read only once whole, so what the first piece gives
    // (before it runs out) is the start of what the whole gives.
    if let first = bytes.first, bytes.count > 1 {
      var parts = connection(Array(bytes[..<(Int(first) % bytes.count)]))
      if parts.last == "more" { parts.removeLast() }
      precondition(steps.starts(with: parts), "read differently when split: \(parts) vs \(steps)")
    }
  }

  static let captureLimits = CaptureLimits(maximumHeadSize: 256, maximumBodySize: 64)
  static let captureAccess = CaptureAccess(host: "127.0.0.1", port: 8080, token: "tok", secret: "0123abcd")

  /// The steps of one connection over `bytes`: each request's route or refusal status, and
  /// "more" when the bytes end inside a request.
  static func connection(_ bytes: [UInt8]) -> [String] {
    var steps: [String] = []
    var offset = 0
    while offset < bytes.count {
      switch CaptureRequestParser.parse(bytes[offset...], limits: captureLimits) {
      case .needMore:
        steps.append("more")
        return steps
      case .head:
        preconditionFailure("parse returned a head")
      case .refuse(let response):
        precondition(response.closes, "a refusal that keeps the connection")
        precondition([400, 413, 431, 501, 505].contains(response.status), "refused with \(response.status)")
        checkEncoding(response)
        steps.append("refuse \(response.status)")
        return steps
      case .request(let request, let consumed):
        precondition(
          consumed > 0 && consumed <= bytes.count - offset, "consumed \(consumed) of \(bytes.count - offset)")
        precondition(request.body.count <= captureLimits.maximumBodySize, "a body over the limit")
        precondition(consumed - request.body.count <= captureLimits.maximumHeadSize, "a head over the limit")
        precondition(request.path.utf8.first == UInt8(ascii: "/"), "a path not starting with /")
        switch captureAccess.check(request) {
        case .admit(let route):
          precondition(
            request.headers["host"] != nil && request.query["token"] == "tok", "admitted without host or token")
          if route.method == "POST" {
            precondition(request.headers["x-capture-secret"] == "0123abcd", "a POST admitted without the secret")
          }
          steps.append("\(request.method) \(route.rawValue)")
        case .refuse(let response):
          precondition([400, 403, 404, 405].contains(response.status), "checked with \(response.status)")
          checkEncoding(response)
          steps.append("check \(response.status)")
        }
        offset += consumed
        guard request.keepsAlive else { return steps }
      }
    }
    return steps
  }

  /// The encoding is one response: a status line, headers, and exactly `Content-Length` bytes.
  static func checkEncoding(_ response: CaptureResponse) {
    let encoded = response.encoded(keepAlive: false)
    var end = 0
    while end + 3 < encoded.count, encoded[end..<(end + 4)].elementsEqual([13, 10, 13, 10]) == false { end += 1 }
    precondition(end + 4 + response.body.count == encoded.count, "the encoding's length differs from its body")
    for byte in encoded[..<end] {
      precondition(byte == 13 || byte == 10 || (byte >= 0x20 && byte < 0x7F), "a control byte in an answer's head")
    }
  }
}
