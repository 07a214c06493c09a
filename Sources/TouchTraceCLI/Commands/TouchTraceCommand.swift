import ArgumentParser

/// The `touchtrace` command: measures which force-press recognizer, at which thresholds,
/// recognizes what users mean, and how fast.
struct TouchTraceCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "touchtrace",
    abstract: "Measure force-press recognizers on recorded touch traces.",
    discussion: """
      Reads traces from CSV, JSON and JSON Lines files (see the README for the formats), \
      replays them through force-press recognizer variants and reports accuracy and latency.

      Exit codes: 0 success; 64 usage error; 65 bad input data (PATH:LINE:COL: error: …; \
      an input over --max-input-size); 66 an input file is missing or unreadable, a device, a \
      socket or a symbolic link loop; 69 an exec: recognizer failed, or capture cannot listen on \
      its address; 73 an output refused (an \
      input of the run, a directory, a device, a FIFO, a socket, a symbolic link) or not created; \
      74 writing an output failed (standard output included); 1 anything else.
      """,
    version: TouchTraceVersion.current,
    subcommands: [
      Inspect.self, Recognizers.self, Run.self, Sweep.self, Tune.self, Compare.self, Check.self, Smooth.self,
      Features.self,
      Synth.self, Import.self, Capture.self, Try.self, Export.self, Merge.self,
    ]
  )
}

/// The version string printed by `touchtrace --version`.
enum TouchTraceVersion {
  static let current = "0.1.0"
}
