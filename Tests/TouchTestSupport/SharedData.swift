#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Locations of the repository and of the shared real recordings (`../shared/realdata` beside
/// the repository root), found from this source file's path so tests work from any directory.
public enum SharedData {
  /// The repository root (the directory holding `Package.swift`).
  public static let repositoryRoot: String = {
    var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)  // Tests/TouchTestSupport/SharedData.swift
    return parts.joined(separator: "/")
  }()

  /// The real recordings: `$TOUCHTRACE_SHARED/realdata` when that variable is set, else the
  /// first `shared/realdata` found beside the repository root or beside one of its parent
  /// directories (a git worktree may sit one level deeper than the main checkout). `nil` when
  /// there is none: the tests that need it are then reported as skipped, with the reason.
  public static let realData: String? = {
    if let base = getenv("TOUCHTRACE_SHARED") {
      let path = String(cString: base) + "/realdata"
      return isDirectory(path) ? path : nil
    }
    var parts = repositoryRoot.split(separator: "/", omittingEmptySubsequences: false)
    while parts.count > 1 {
      parts.removeLast()
      let candidate = parts.joined(separator: "/") + "/shared/realdata"
      if isDirectory(candidate) { return candidate }
    }
    return nil
  }()

  /// Whether the real recordings are present.
  public static var hasRealData: Bool { realData != nil }

  /// Why real-data tests are skipped (`.enabled(if:_:)` with `Comment(rawValue:)`).
  public static let missingRealDataMessage =
    "real recordings not found: ../shared/realdata beside the repository root (or $TOUCHTRACE_SHARED/realdata) is absent, so these tests do not run on this machine"

  /// The path of `relative` inside the real recordings.
  /// - Precondition: ``hasRealData``.
  public static func realData(_ relative: String) -> String {
    precondition(realData != nil, "no real data")
    return realData! + "/" + relative
  }

  /// The files directly inside `directory` whose names end with `suffix`, sorted by name.
  public static func files(in directory: String, suffix: String) -> [String] {
    (TestData.names(in: directory) ?? []).filter { $0.hasSuffix(suffix) && !$0.hasPrefix(".") }.map {
      directory + "/" + $0
    }
  }

  /// Whether `path` is a directory.
  public static func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }
}
