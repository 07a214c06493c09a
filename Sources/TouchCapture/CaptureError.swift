#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a capture run cannot start or had to stop.
package enum CaptureError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A bad option (the command exits with 64).
  case usage(String)
  /// The dataset directory cannot be used (not a directory, or cannot be created).
  case dataset(path: String, reason: String)
  /// The dataset directory holds a file the trace loader cannot read.
  case unreadableDataset(path: String, reason: String)
  /// The server could not listen on the address.
  case cannotListen(address: String, reason: String)

  /// The message, without the command name.
  package var description: String {
    switch self {
    case .usage(let message): message
    case .dataset(let path, let reason), .unreadableDataset(let path, let reason): "\(path): \(reason)"
    case .cannotListen(let address, let reason): "cannot listen on \(address): \(reason)"
    }
  }
}

/// A numeric host address, checked.
struct CaptureAddress: Sendable {
  /// The address as bound (`localhost` becomes 127.0.0.1).
  var text: String
  /// Whether it is an IPv6 address.
  var isIPv6: Bool
  /// Whether only this machine can reach it: 127.0.0.0/8 or ::1.
  var isLoopback: Bool

  init(_ host: String) throws(CaptureError) {
    let text = host == "localhost" ? "127.0.0.1" : host
    if text.contains(":") {
      var address = in6_addr()
      guard inet_pton(AF_INET6, text, &address) == 1 else {
        throw .usage("--host \(host) is not an IPv4 or IPv6 address")
      }
      var loopback = in6_addr()
      _ = inet_pton(AF_INET6, "::1", &loopback)
      self.isLoopback = withUnsafeBytes(of: &address) { a in withUnsafeBytes(of: &loopback) { b in a.elementsEqual(b) }
      }
      self.isIPv6 = true
    } else {
      var address = in_addr()
      guard inet_pton(AF_INET, text, &address) == 1 else {
        throw .usage("--host \(host) is not an IPv4 or IPv6 address")
      }
      self.isLoopback = withUnsafeBytes(of: &address) { $0[0] == 127 }
      self.isIPv6 = false
    }
    self.text = text
  }

  /// The address as written in a URL (IPv6 in brackets).
  var urlHost: String { isIPv6 ? "[\(text)]" : text }
}
