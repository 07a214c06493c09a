import ArgumentParser
import TouchStudy

/// `--spool-limit BYTES`: how much of the analyzed traces `sweep`, `tune` and `compare` may park
/// in a temporary file for the reads after the first (``AnalyzedSpool``).
struct SpoolOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Most bytes of analyzed traces kept in a temporary file ($TMPDIR, else /tmp; 8 bytes a sample per column and about 230 a trace: 342 MiB for a 1 GB iPhone CSV; deleted as it is made) for the reads after the first: the verdict's paired comparison, --outcomes, the HTML figures, --bootstrap. Past it those read the input files again, and standard input cannot be: its verdict says so, and --outcomes, HTML and --bootstrap fail (exit 65). 0: no file; standard input then keeps its traces in memory for those. K, M, G, T: powers of 1024 (e.g. 2G). Default: no limit.",
      valueName: "bytes"))
  var spoolLimit: ByteCount?

  /// Whether the analyzed traces are spooled at all.
  var spools: Bool { spoolLimit?.bytes != 0 }

  /// A spool for a first read; `nil` with `--spool-limit 0`.
  func spool() -> AnalyzedSpool? {
    spools ? AnalyzedSpool(limit: spoolLimit?.bytes ?? .max) : nil
  }
}
