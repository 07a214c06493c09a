#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Thin wrappers over the C library for reading whole files and walking directories.
enum FileSystem {
  enum Kind { case file, directory, missing, other }

  /// What is at `path`.
  static func kind(of path: String) -> Kind {
    var info = stat()
    guard stat(path, &info) == 0 else { return .missing }
    switch info.st_mode & S_IFMT {
    case S_IFDIR: return .directory
    case S_IFREG: return .file
    default: return .other
    }
  }

  /// Reads the whole file at `path`.
  static func readBytes(_ path: String) throws(TraceLoadError) -> [UInt8] {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw accessError(path, errno) }
    defer { close(fd) }
    var info = stat()
    guard fstat(fd, &info) == 0 else { throw accessError(path, errno) }
    if info.st_mode & S_IFMT == S_IFDIR {
      throw TraceLoadError(.unreadable("is a directory"), file: path)
    }
    // Read the size fstat reports straight into the array, then whatever follows (files that
    // grow while read, and special files whose size reads as 0) in chunks.
    let expected = max(Int(info.st_size), 0)
    var failure: Int32 = 0
    var bytes = [UInt8](unsafeUninitializedCapacity: expected) { buffer, count in
      while count < expected {
        let n = read(fd, buffer.baseAddress! + count, expected - count)
        if n < 0 {
          if errno == EINTR { continue }
          failure = errno
          return
        }
        if n == 0 { return }
        count += n
      }
    }
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while failure == 0 {
      let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
      if n < 0 {
        if errno != EINTR { failure = errno }
        continue
      }
      if n == 0 { break }
      bytes.append(contentsOf: chunk[0..<n])
    }
    if failure != 0 { throw accessError(path, failure) }
    return bytes
  }

  /// Calls `body` with the bytes of the file at `path`, writable in place without touching the
  /// file: a private copy-on-write memory mapping of regular files (no copy of the file into
  /// the process unless a page is written), the read bytes otherwise.
  static func withMutableBytes<R>(
    of path: String, _ body: (UnsafeMutableBufferPointer<UInt8>) throws(TraceLoadError) -> R
  ) throws(TraceLoadError) -> R {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { throw accessError(path, errno) }
    var info = stat()
    guard fstat(fd, &info) == 0 else {
      let code = errno
      close(fd)
      throw accessError(path, code)
    }
    let size = Int(info.st_size)
    if info.st_mode & S_IFMT == S_IFREG, size > 0,
      let mapping = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0),
      mapping != MAP_FAILED
    {
      close(fd)
      defer { munmap(mapping, size) }
      return try body(UnsafeMutableBufferPointer(start: mapping.assumingMemoryBound(to: UInt8.self), count: size))
    }
    close(fd)
    var bytes = try readBytes(path)
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
  static func entries(of directory: String) throws(TraceLoadError) -> [String] {
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
    code == ENOENT || code == ENOTDIR
      ? TraceLoadError(.fileNotFound, file: path)
      : TraceLoadError(.unreadable(describe(code)), file: path)
  }

  static func describe(_ code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    return String(cString: text).lowercased()
  }
}

extension TraceFiles {
  /// Reads the whole file at `path`.
  public static func read(_ path: String) throws(TraceLoadError) -> [UInt8] {
    try FileSystem.readBytes(path)
  }
}
