#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the test process may do to the system, probed once in a scratch directory: tests that
/// need it are disabled with a message saying why (`.enabled(if:_:)`) where it is missing.
public enum SystemCapabilities {
  /// Whether a character device node can be made (`mknod`, as root outside a restricted
  /// container).
  public static let canMakeDeviceNodes: Bool = {
    let directory = TestData.temporaryDirectory("touchtrace-probe")
    defer { TestData.remove(directory) }
    return mknod(directory + "/null", S_IFCHR | 0o666, nullDevice) == 0
  }()

  /// The device number of `/dev/null` (major 1, minor 3), to make a node of one's own with
  /// `mknod` (glibc's `makedev` is a macro Swift does not import; small numbers encode as
  /// `major << 8 | minor`).
  public static let nullDevice = dev_t(1 << 8 | 3)

  /// Whether a small tmpfs can be mounted (`mount -t tmpfs -o size=64k`, as root).
  public static let canMountTmpfs: Bool = {
    let directory = TestData.temporaryDirectory("touchtrace-probe")
    defer { TestData.remove(directory) }
    guard mount("tmpfs", directory, "tmpfs", 0, "size=64k") == 0 else { return false }
    umount(directory)
    return true
  }()

  /// Mounts a tmpfs of `kilobytes` KiB on a fresh directory, runs `body` with its path, then
  /// unmounts and removes it. Use with ``canMountTmpfs``.
  public static func withSmallDisk<T>(kilobytes: Int, _ body: (_ directory: String) throws -> T) throws -> T {
    let directory = TestData.temporaryDirectory("touchtrace-full")
    defer {
      umount(directory)
      TestData.remove(directory)
    }
    guard mount("tmpfs", directory, "tmpfs", 0, "size=\(kilobytes)k") == 0 else {
      throw MountError(directory: directory, code: errno)
    }
    return try body(directory)
  }

  /// A tmpfs could not be mounted.
  public struct MountError: Error, CustomStringConvertible {
    /// Where.
    public var directory: String
    /// The `errno` value.
    public var code: Int32

    /// `cannot mount a tmpfs on DIR: REASON`.
    public var description: String { "cannot mount a tmpfs on \(directory): \(String(cString: strerror(code)))" }
  }
}
