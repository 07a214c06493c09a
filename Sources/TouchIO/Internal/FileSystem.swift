#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Thin wrappers over the C library for reading whole files and walking directories.
///
/// Inputs are regular files, FIFOs (read once, to their end) and standard input (`-`); other
/// special files (devices, sockets) are refused before they are opened, and every input stops
/// at a size limit, so nothing reads forever.
package enum FileSystem {
  enum Kind {
    case file, directory, fifo
    case other(String)
  }

  /// What is at `path` (symbolic links followed); `-` is standard input, a FIFO-like stream.
  /// - Throws: ``TraceLoadError`` when `path` cannot be looked up: `.fileNotFound` for a missing
  ///   path, `.unreadable` with the C library's reason otherwise (a symbolic link loop, a
  ///   denied search permission).
  static func kind(of path: String) throws(TraceLoadError) -> Kind {
    if path == TraceFiles.standardInput { return .fifo }
    var info = stat()
    guard stat(path, &info) == 0 else { throw accessError(path, errno) }
    return kind(info)
  }

  private static func kind(_ info: stat) -> Kind {
    switch info.st_mode & S_IFMT {
    case S_IFDIR: .directory
    case S_IFREG: .file
    case S_IFIFO: .fifo
    case S_IFCHR: .other("a character device")
    case S_IFBLK: .other("a block device")
    case S_IFSOCK: .other("a socket")
    default: .other("not a regular file")
    }
  }

  /// An open input: its descriptor and size (regular files), owned by the caller.
  struct Input {
    var fd: Int32
    /// The size of a regular file, bytes; `nil` for streams.
    var size: Int?
    var ownsDescriptor: Bool

    func finish() { if ownsDescriptor { _ = close(fd) } }
  }

  /// Opens `path` for reading once: standard input for `-`; refuses directories and special
  /// files other than FIFOs, and regular files larger than `limit` bytes.
  static func openInput(_ path: String, limit: Int) throws(TraceLoadError) -> Input {
    if path == TraceFiles.standardInput {
      var info = stat()
      let size = fstat(0, &info) == 0 && info.st_mode & S_IFMT == S_IFREG ? Int(exactly: info.st_size) : nil
      if let size, size > limit { throw tooLarge(path, limit: limit) }
      return Input(fd: 0, size: size, ownsDescriptor: false)
    }
    // Look before opening: opening a device can have effects (and /dev/zero never ends).
    if case .other(let what) = try kind(of: path) { throw refused(path, what) }
    let fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC)
    guard fd >= 0 else { throw accessError(path, errno) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let code = errno
      _ = close(fd)
      throw accessError(path, code)
    }
    switch kind(info) {
    case .file:
      let size = Int(exactly: info.st_size) ?? Int.max
      guard size <= limit else {
        _ = close(fd)
        throw tooLarge(path, limit: limit)
      }
      return Input(fd: fd, size: size, ownsDescriptor: true)
    case .fifo:
      return Input(fd: fd, size: nil, ownsDescriptor: true)
    case .directory:
      _ = close(fd)
      throw TraceLoadError(.unreadable("is a directory"), file: path)
    case .other(let what):  // replaced between the look and the open
      _ = close(fd)
      throw refused(path, what)
    }
  }

  static func refused(_ path: String, _ what: String) -> TraceLoadError {
    TraceLoadError(.unreadable("is \(what), not a regular file, a FIFO or standard input ('-')"), file: path)
  }

  static func tooLarge(_ path: String, limit: Int) -> TraceLoadError {
    TraceLoadError(.inputTooLarge(limit: limit), file: path)
  }

  /// Reads what is left of `input` to its end: the expected size first, straight into the
  /// array, then whatever follows (files that grow while read, streams) in chunks, never more
  /// than `limit` bytes.
  private static func readAll(_ input: Input, path: String, limit: Int) throws(TraceLoadError) -> [UInt8] {
    let fd = input.fd
    var (bytes, failure) = readFully(fd, upTo: Swift.min(input.size ?? 0, limit))
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while failure == 0 {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
      if n < 0 {
        if errno != EINTR { failure = errno }
        continue
      }
      if n == 0 { break }
      guard n <= limit - bytes.count else { throw tooLarge(path, limit: limit) }
      bytes.append(contentsOf: chunk[0..<n])
    }
    if failure != 0 { throw accessError(path, failure) }
    return bytes
  }

  /// The next `count` bytes of `fd`, short reads and interruptions retried: fewer only where the
  /// input ends first, or where a read fails (`failure` its `errno`, else 0).
  static func readFully(_ fd: Int32, upTo count: Int) -> (bytes: [UInt8], failure: Int32) {
    var failure: Int32 = 0
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
      while filled < count {
        let n = read(fd, buffer.baseAddress! + filled, count - filled)
        if n < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        if n == 0 { return }
        filled += n
      }
    }
    return (bytes, failure)
  }

  /// Reads the whole input at `path` (`-`: standard input), at most `limit` bytes.
  static func readBytes(_ path: String, limit: Int) throws(TraceLoadError) -> [UInt8] {
    let input = try openInput(path, limit: limit)
    defer { input.finish() }
    return try readAll(input, path: path, limit: limit)
  }

  /// Calls `body` with the bytes of the input at `path`, writable in place without touching the
  /// file: a private copy-on-write memory mapping of regular files (no copy of the file into
  /// the process unless a page is written), the read bytes otherwise (FIFOs and standard input
  /// are opened and read once).
  static func withMutableBytes<R>(
    of path: String, limit: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) throws(TraceLoadError) -> R
  ) throws(TraceLoadError) -> R {
    let input = try openInput(path, limit: limit)
    if let size = input.size, size > 0,
      let mapping = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, input.fd, 0),
      mapping != MAP_FAILED
    {
      input.finish()
      defer { munmap(mapping, size) }
      return try body(UnsafeMutableBufferPointer(start: mapping.assumingMemoryBound(to: UInt8.self), count: size))
    }
    let read: Result<[UInt8], TraceLoadError>
    do throws(TraceLoadError) { read = .success(try readAll(input, path: path, limit: limit)) } catch {
      read = .failure(error)
    }
    input.finish()
    var bytes = try read.get()
    let result: Result<R, TraceLoadError> = bytes.withUnsafeMutableBufferPointer { buffer in
      do throws(TraceLoadError) { return .success(try body(buffer)) } catch { return .failure(error) }
    }
    return try result.get()
  }

  /// Writes all of `bytes` to `descriptor`, retrying short writes and interruptions; returns 0,
  /// or the `errno` of the write that failed.
  static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32 {
    bytes.withUnsafeBufferPointer { buffer in
      var offset = 0
      while offset < buffer.count {
        let n = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if n < 0 {
          if errno == EINTR { continue }
          return errno
        }
        offset += n
      }
      return 0
    }
  }

  /// The entries of a directory, without `.` and `..`, unsorted.
  package static func entries(of directory: String) throws(TraceLoadError) -> [String] {
    guard let handle = opendir(directory) else { throw accessError(directory, errno) }
    defer { closedir(handle) }
    var names: [String] = []
    while let entry = readdir(handle) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }

  static func accessError(_ path: String, _ code: Int32) -> TraceLoadError {
    switch code {
    case ENOENT, ENOTDIR: TraceLoadError(.fileNotFound, file: path)
    case ELOOP: TraceLoadError(.unreadable("symbolic link loop (\(describe(code)))"), file: path)
    default: TraceLoadError(.unreadable(describe(code)), file: path)
    }
  }

  static func describe(_ code: Int32) -> String {
    SystemError.text(code).lowercased()
  }
}

extension TraceFiles {
  /// Reads the whole input at `path`: a regular file, a FIFO (read once) or standard input
  /// (`-`).
  ///
  /// - Parameters:
  ///   - path: the file, or `-` for standard input.
  ///   - limit: the most bytes read; a larger input throws `.inputTooLarge`.
  /// - Throws: ``TraceLoadError``: `.fileNotFound`, `.unreadable` (also for directories,
  ///   devices and sockets, and symbolic link loops), `.inputTooLarge`.
  public static func read(_ path: String, limit: Int = LoadOptions.defaultMaximumInputSize) throws(TraceLoadError)
    -> [UInt8]
  {
    try FileSystem.readBytes(path, limit: limit)
  }
}
