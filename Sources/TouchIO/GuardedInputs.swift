import TouchCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file's device and inode: the same file under any name.
struct FileIdentity: Hashable {
  var device: UInt64
  var inode: UInt64

  init(_ info: stat) {
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
  }

  /// The identity of the file at `path` (following links), `nil` when there is none.
  init?(path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    self.init(info)
  }

  /// For a target that does not exist yet: its directory's identity and its last name component
  /// stand in, so two spellings of one new file are caught too. Returns `nil` when the directory
  /// cannot be examined.
  init?(ofParentOf path: String, name: String) {
    guard let directory = FileIdentity(path: OutputPath.directory(of: path)) else { return nil }
    // Fold the name into the inode: distinct new names in one directory stay distinct.
    device = directory.device ^ 0x8000_0000_0000_0000
    inode = directory.inode ^ FNV1a.hash(OutputPath.lastComponent(of: name).utf8)
  }
}

/// The inputs of a run, by identity.
struct GuardedInputs {
  /// Every input file (given, or found in a given directory) by identity, with a name to report.
  var files: [FileIdentity: String] = [:]
  /// Input directories: their real paths.
  var directories: [String] = []

  init(_ inputs: [String]) {
    for input in inputs {
      var info = stat()
      if input == OutputFiles.standardOutput {
        // `-` as an input is standard input: guard the file it was redirected from.
        if fstat(STDIN_FILENO, &info) == 0, info.st_mode & S_IFMT == S_IFREG {
          files[FileIdentity(info)] = "standard input"
        }
        continue
      }
      guard stat(input, &info) == 0 else { continue }
      if info.st_mode & S_IFMT == S_IFDIR {
        if let real = OutputPath.realPath(input) { directories.append(real) }
        for file in (try? TraceFiles.expand([input])) ?? [] {
          if let identity = FileIdentity(path: file), files[identity] == nil { files[identity] = file }
        }
      } else if files[FileIdentity(info)] == nil {
        files[FileIdentity(info)] = input
      }
    }
  }

  /// The input directory under which the next run over it would read `path` as a trace file.
  func directoryReading(_ path: String) -> String? {
    let name = OutputPath.lastComponent(of: path).lowercased()
    guard !name.hasPrefix("."), TraceFiles.directoryExtensions.contains(where: { name.hasSuffix($0) }),
      let parent = OutputPath.realPath(OutputPath.directory(of: path))
    else { return nil }
    for directory in directories {
      let base = directory == "/" ? "/" : directory + "/"
      guard parent == directory || parent.hasPrefix(base) else { continue }
      // The loader skips hidden directories.
      let below = parent.dropFirst(directory.count).split(separator: "/")
      if !below.contains(where: { $0.hasPrefix(".") }) { return directory }
    }
    return nil
  }
}
