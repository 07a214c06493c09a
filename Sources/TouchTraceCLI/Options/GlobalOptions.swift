import ArgumentParser

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The options every command takes, with one meaning everywhere: `--quiet`, `--verbose`,
/// `--config`, `--print-config` and `--threads`.
///
/// `TouchTraceTool` reads them once, before the command runs: `--config` and `--print-config`
/// are expanded by `StudyFile` before parsing, `--quiet` and `--verbose` bind `Console.quiet`
/// and `Console.verbose` around the run.
/// None of them changes a figure, so a report's recorded configuration leaves them all out
/// (``StudyFile/Effective/presentation`` is derived from this group).
struct GlobalOptions: ParsableArguments {
  @Flag(
    help: "Print only errors on standard error: no notes, warnings, skipped-trace lines, per-contact lines or progress."
  )
  var quiet = false

  @Flag(
    help:
      "Also print on standard error each batch of traces as it is read: its number, files, traces kept and skipped, and the seconds since the start; and last, when the command succeeds, its peak resident memory (not with --quiet)."
  )
  var verbose = false

  @Option(help: ArgumentHelp("Read options from this study file (TOML; flags given here win).", valueName: "file"))
  var config: String?

  @Flag(help: "Print the study file (TOML) that reproduces this run, defaults included, and run nothing.")
  var printConfig = false

  @Option(
    help: ArgumentHelp(
      "Threads for the commands that replay or resample many configurations (default: every core); results do not depend on it.",
      valueName: "n"))
  var threads: Int?

  func validate() throws {
    if let threads, threads < 1 { throw ValidationError("--threads must be at least 1, got \(threads)") }
  }

  /// `--threads`, else the number of online processors.
  var threadCount: Int { threads ?? Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

  /// The long names of the options here that a study file sets (`quiet`, `verbose`, `threads`; `config`
  /// and `print-config` are read before parsing), from the argument parser's description of the
  /// group, so that an option added here is left out of every recorded configuration at once.
  static let keys: Set<String> = Set(CommandArguments(Probe.self).arguments.map(\.key))

  /// A command made of this group alone, to read its description.
  private struct Probe: ParsableCommand {
    @OptionGroup var global: GlobalOptions
  }
}

/// A subcommand of `touchtrace`: every one takes ``GlobalOptions``.
protocol GlobalCommand {
  /// `--quiet`, `--verbose`, `--config`, `--print-config`, `--threads`.
  var global: GlobalOptions { get }
}
