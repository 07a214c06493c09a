#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where temporary files go when no output file is beside them: spools of standard output,
/// spilled latency lists.
package enum TemporaryDirectory {
  /// `$TMPDIR` when it is set and not empty, else `/tmp`.
  package static var path: String {
    getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
  }
}
