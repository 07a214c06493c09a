import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A minimal HTTP/1.1 client over a raw loopback socket, independent of the server's library:
/// it writes the request bytes as given and reads the response until the server closes.
public enum RawHTTP {
  public struct Response: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: String
  }

  /// Sends `method path` with `body` (and `Connection: close`) to 127.0.0.1:`port`.
  /// `declaredLength` overrides Content-Length (a body larger than what is sent).
  /// `headers` are sent after `Host` (`host` replaces 127.0.0.1:PORT; `nil` values are left out).
  public static func send(
    port: UInt16, _ method: String, _ path: String, body: [UInt8] = [], declaredLength: Int? = nil,
    host: String? = nil, headers: [(String, String)] = []
  ) -> Response? {
    var request = "\(method) \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\n"
    for (name, value) in headers { request += "\(name): \(value)\r\n" }
    request +=
      "Connection: close\r\nContent-Type: application/json\r\nContent-Length: \(declaredLength ?? body.count)\r\n\r\n"
    guard let received = exchange(port: port, Array(request.utf8) + body, timeout: 30)?.received else { return nil }
    return parse(received)
  }

  /// A connected loopback socket with a receive timeout, or `nil`.
  public static func connect(port: UInt16, timeout seconds: Int) -> Int32? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    var timeout = timeval(tv_sec: seconds, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(fd)
      return nil
    }
    return fd
  }

  /// Writes all of `bytes` (stopping quietly when the server closes), then reads until the server
  /// closes or `timeout` seconds pass without data. `closed` tells which.
  public static func exchange(port: UInt16, _ bytes: [UInt8], timeout: Int) -> (received: [UInt8], closed: Bool)? {
    guard let fd = connect(port: port, timeout: timeout) else { return nil }
    defer { close(fd) }
    writeAll(fd, bytes)
    return readAll(fd)
  }

  /// Writes `bytes`; false if the connection broke first.
  @discardableResult
  public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      guard n > 0 else { return false }
      offset += n
    }
    return true
  }

  /// Waits up to `milliseconds` for `fd` to have something to read (data, or the peer's close);
  /// true if it has.
  public static func waitReadable(_ fd: Int32, milliseconds: Int32) -> Bool {
    var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    return poll(&entry, 1, milliseconds) > 0
  }

  /// Reads until the peer closes (`closed`) or the receive timeout passes.
  public static func readAll(_ fd: Int32) -> (received: [UInt8], closed: Bool) {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = read(fd, &buffer, buffer.count)
      if n == 0 { return (received, true) }
      if n < 0 { return (received, errno == ECONNRESET) }
      received += buffer[0..<n]
    }
  }

  /// The first response in `received`.
  public static func parse(_ received: [UInt8]) -> Response? {
    let text = String(decoding: received, as: UTF8.self)
    guard let split = text.range(of: "\r\n\r\n") else { return nil }
    let head = text[..<split.lowerBound].split(separator: "\r\n")
    guard let statusLine = head.first, statusLine.split(separator: " ").count >= 2,
      let status = Int(statusLine.split(separator: " ")[1])
    else { return nil }
    var headers: [String: String] = [:]
    for line in head.dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return Response(status: status, headers: headers, body: String(text[split.upperBound...]))
  }
}
