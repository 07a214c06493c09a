import ArgumentParser

/// The `touchtrace` command: measures which force-press recognizer, at which thresholds,
/// recognizes what users mean, and how fast.
@main
struct TouchTraceCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "touchtrace",
    abstract: "Measure force-press recognizers on recorded touch traces.",
    version: TouchTraceVersion.current,
    subcommands: [
      Inspect.self, Recognizers.self, Run.self, Smooth.self, Features.self, Synth.self, Import.self,
    ]
  )
}

/// The version string printed by `touchtrace --version`.
enum TouchTraceVersion {
  static let current = "0.1.0"
}
