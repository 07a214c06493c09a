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
enum RawHTTP {
  struct Response {
    var status: Int
    var headers: [String: String]
    var body: String
  }

  /// Sends `method path` with `body` (and `Connection: close`) to 127.0.0.1:`port`.
  /// `declaredLength` overrides Content-Length (a body larger than what is sent).
  static func send(
    port: UInt16, _ method: String, _ path: String, body: [UInt8] = [], declaredLength: Int? = nil
  ) -> Response? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { return nil }
    var request = Array(
      "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: \(declaredLength ?? body.count)\r\n\r\n"
        .utf8)
    request += body
    var offset = 0
    while offset < request.count {
      let n = request[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      guard n > 0 else { return nil }
      offset += n
    }
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
      let n = read(fd, &buffer, buffer.count)
      if n <= 0 { break }
      received += buffer[0..<n]
    }
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
