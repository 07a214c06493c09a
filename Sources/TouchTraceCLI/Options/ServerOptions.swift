import ArgumentParser

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a page server listens and the token it asks for (`capture`, `try`).
struct ServerOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Address to bind; anything but loopback needs a token (--token-file or TOUCHTRACE_CAPTURE_TOKEN).",
      valueName: "address"))
  var host = "127.0.0.1"

  @Option(help: ArgumentHelp("TCP port; 0 binds any free port (the printed URL names it).", valueName: "port"))
  var port: UInt16 = 8080

  @Option(
    help: ArgumentHelp(
      "Read the access token every request must carry from this file (required with a non-loopback --host unless TOUCHTRACE_CAPTURE_TOKEN is set; A-Z a-z 0-9 - . _ ~; one trailing line break ignored).",
      valueName: "file"))
  var tokenFile: String?

  /// The environment variable a token may come from.
  static let tokenVariable = "TOUCHTRACE_CAPTURE_TOKEN"

  /// The token: from `--token-file` (its content, one trailing line break dropped), else
  /// `deprecated` (capture's `--token`), else `TOUCHTRACE_CAPTURE_TOKEN` when set and not empty.
  func token(deprecated: String? = nil) throws(ValidationError) -> String? {
    if let tokenFile {
      guard let bytes = Self.readSmallFile(tokenFile) else {
        throw ValidationError("--token-file \(tokenFile): cannot be read (or is over 4 KiB)")
      }
      var text = bytes
      if text.last == UInt8(ascii: "\n") { text.removeLast() }
      if text.last == UInt8(ascii: "\r") { text.removeLast() }
      guard !text.isEmpty else { throw ValidationError("--token-file \(tokenFile) is empty") }
      return String(decoding: text, as: UTF8.self)
    }
    if let deprecated { return deprecated }
    if let value = getenv(Self.tokenVariable).map({ String(cString: $0) }), !value.isEmpty { return value }
    return nil
  }

  /// The bytes of `path`, at most 4 KiB, or `nil` when it cannot be read or is longer.
  private static func readSmallFile(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4097)
    while bytes.count <= 4096 {
      let n = read(fd, &buffer, buffer.count)
      if n < 0 { return nil }
      if n == 0 { break }
      bytes += buffer[0..<n]
    }
    return bytes.count <= 4096 ? bytes : nil
  }
}
