import TouchIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where tests find files: the repository's `samples/` and the shared real recordings (found as
/// ``SharedData/realData`` finds them; present in CI, may be absent elsewhere), and temporary
/// files.
public enum TestData {
  /// The repository root (``SharedData/repositoryRoot``).
  public static var repositoryRoot: String { SharedData.repositoryRoot }

  /// `samples/` in the repository.
  public static var samples: String { repositoryRoot + "/samples" }

  /// The shared real recordings (``SharedData/realData``); when they are absent, the path
  /// `../shared/realdata` beside the repository, which does not exist.
  public static var realData: String { SharedData.realData ?? repositoryRoot + "/../shared/realdata" }

  /// Whether the shared real recordings are present. Tests that need them are disabled with a
  /// message saying so when they are not, rather than passing silently.
  public static var hasRealData: Bool { SharedData.hasRealData }

  /// Whether a file or directory exists at `path`.
  public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

  /// A fresh empty directory under the system's temporary directory.
  public static func temporaryDirectory(_ name: String = "touchtrace-test") -> String {
    var template = Array("/tmp/\(name)-XXXXXX".utf8CString)
    let result = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    precondition(result != nil, "cannot create a temporary directory")
    return String(cString: result!)
  }

  /// Writes `text` to `path`, creating or replacing the file.
  public static func write(_ text: String, to path: String) {
    let file = fopen(path, "wb")
    precondition(file != nil, "cannot write \(path)")
    _ = text.utf8CString.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count - 1, file) }
    fclose(file)
  }

  /// The names of the entries of `directory` (hidden ones included; not `.` and `..`), sorted;
  /// `nil` when it cannot be listed.
  public static func names(in directory: String) -> [String]? {
    (try? FileSystem.entries(of: directory))?.sorted()
  }

  /// Removes a directory made by ``temporaryDirectory(_:)`` with the files and directories
  /// inside it.
  public static func remove(_ path: String) {
    guard path.hasPrefix("/tmp/"), let names = names(in: path) else { return }
    for name in names {
      let child = path + "/" + name
      if unlink(child) != 0 { remove(child) }
    }
    rmdir(path)
  }
}
