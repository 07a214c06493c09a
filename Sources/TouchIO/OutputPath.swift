#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Checked writes to standard output.
enum StandardOutput {
  /// Writes all of `bytes` to standard output.
  ///
  /// - Throws: ``FileWriteError`` (`.io`, path `-`) when a write fails.
  static func write(_ bytes: [UInt8]) throws(FileWriteError) {
    let failure = FileSystem.writeAll(bytes, to: STDOUT_FILENO)
    if failure != 0 {
      throw FileWriteError(path: OutputFiles.standardOutput, kind: .io, code: failure)
    }
  }
}

/// Path arithmetic for outputs.
enum OutputPath {
  /// The directory a path's last component is in (`.` for a bare name).
  static func directory(of path: String) -> String {
    let trimmed = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
    guard let slash = trimmed.lastIndex(of: "/") else { return "." }
    return slash == trimmed.startIndex ? "/" : String(trimmed[..<slash])
  }

  /// The last component of a path.
  static func lastComponent(of path: String) -> String {
    let trimmed = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
    guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
    return String(trimmed[trimmed.index(after: slash)...])
  }

  /// `DIR/.NAME.touchtrace-XXXXXXXX`: a fresh random name beside `path`, hidden (so directory
  /// searches skip it) and short enough for the file system (NAME is cut to 200 bytes).
  static func temporaryName(for path: String) -> String {
    let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
    var generator = SystemRandomNumberGenerator()
    let suffix = String(
      decoding: (0..<10).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] }, as: UTF8.self)
    let whole = Array(lastComponent(of: path).utf8)
    var name = Array(whole.prefix(200))
    if name.count < whole.count {
      // Do not cut a UTF-8 sequence in half: drop a cut sequence's bytes.
      while let last = name.last, last & 0xC0 == 0x80 || last >= 0xC0 { name.removeLast() }
    }
    let base = String(decoding: name, as: UTF8.self)
    let parent = directory(of: path)
    let prefix = path.contains("/") ? (parent == "/" ? "/" : parent + "/") : ""
    return prefix + "." + base + ".touchtrace-" + suffix
  }

  /// The canonical absolute path of an existing file or directory.
  static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
