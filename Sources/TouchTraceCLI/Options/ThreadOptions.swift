import ArgumentParser

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--threads`: how many threads the commands that replay many configurations use (`sweep`,
/// `tune`, `compare`). Results do not depend on it.
struct ThreadOptions: ParsableArguments {
  @Option(help: ArgumentHelp("Threads to use (default: every core).", valueName: "n"))
  var threads: Int?

  func validate() throws {
    if let threads, threads < 1 { throw ValidationError("--threads must be at least 1, got \(threads)") }
  }

  /// `--threads`, else the number of online processors.
  var count: Int { threads ?? Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}
