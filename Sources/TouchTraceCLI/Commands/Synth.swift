import ArgumentParser
import TouchCore
import TouchIO
import TouchSynth

extension TouchTraceCommand {
  /// `touchtrace synth`: labelled traces from the generative model.
  struct Synth: ParsableCommand, GlobalCommand {
    static let configuration = CommandConfiguration(
      abstract: "Synthesize labelled touch traces for a device profile.",
      discussion: """
        Each trace is one gesture (tap, hard tap, press, pop, hold, drag or none) by one of --users \
        simulated people, with its ground-truth intent and press_at times (the moments the planned \
        force is half-way up each deliberate ramp). The same arguments give the same bytes.

        Streams: traces are generated and written --batch-traces at a time (each from its own \
        random stream, so the batch size changes nothing); memory holds one batch and the \
        gesture schedule (a gesture and a user per trace). CSV output waits in a temporary file \
        beside the output until the last trace (its header names the columns any trace uses); \
        standard output is written in one piece at the end.

        Profiles: \(DeviceProfile.all.map(\.name).joined(separator: ", ")).
        Intents for --mix: \(GestureKind.allCases.map(\.rawValue).joined(separator: ", ")) \
        (hard-tap is labelled tap).

        Examples (from the repository root):
          touchtrace synth --profile iphone6s --count 100 --seed 7 \\
            --output synth.csv
          touchtrace synth --profile android --count 20 --mix press=1,tap=1 \\
            --format jsonl --output -
        """)

    @Option(help: ArgumentHelp("Device profile.", valueName: "name"))
    var profile: String

    @Option(help: ArgumentHelp("Number of traces.", valueName: "n"))
    var count: Int

    @Option(
      help: ArgumentHelp(
        "Relative weights, e.g. tap=3,hard-tap=1,press=2 (unnamed intents get 0; default: all equal).",
        valueName: "intent=weight,..."))
    var mix: String?

    @Option(help: ArgumentHelp("Number of simulated users.", valueName: "u"))
    var users = 4

    @Option(help: seedHelp)
    var seed: UInt64 = 1

    @OptionGroup var output: OutputOptions<TraceFormat>

    @OptionGroup var batch: BatchOptions

    @OptionGroup var global: GlobalOptions

    func validate() throws {
      guard DeviceProfile.named(profile) != nil else {
        throw ValidationError(
          "unknown profile '\(profile)' (expected one of \(DeviceProfile.all.map(\.name).joined(separator: ", ")))")
      }
      guard count >= 0 else { throw ValidationError("--count must not be negative, got \(count)") }
      guard users >= 1 else { throw ValidationError("--users must be at least 1, got \(users)") }
      if let mix {
        do { _ = try IntentMix(parsing: mix) } catch { throw ValidationError("--mix: \(error)") }
      }
    }

    func run() throws {
      try Console.run {
        // validate() has checked both.
        let device = DeviceProfile.named(profile)!
        let weights = try mix.map { text throws(IntentMixError) in try IntentMix(parsing: text) } ?? .uniform
        let synthesizer = Synthesizer(profile: device, seed: seed, userCount: users, mix: weights)
        // Generated and written --batch-traces at a time: each trace comes from its own random
        // stream, so the bytes do not depend on the batch size.
        let kinds = synthesizer.kinds(count: count)
        let out = try TraceOutput(output, inputs: [])
        defer { out.discard() }
        var start = 0
        while start < kinds.count {
          let end = min(kinds.count, start + batch.count())
          try out.write(
            (start..<end).map { index in
              synthesizer.synthesize(index: index, kind: kinds[index], user: synthesizer.user(ofTrace: index)).trace
            })
          start = end
        }
        try out.commit()
      }
    }
  }
}
