import ArgumentParser
import TouchEvaluation
import TouchExec
import TouchIO
import TouchPartials

extension TouchTraceCommand {
  /// `touchtrace merge`: the report of a job array from its partials.
  struct Merge: ParsableCommand, GlobalCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Merge the partials of a sharded sweep, tune, compare or run: the report one run over all the data gives.",
      discussion: """
        Each task of a job array runs the same command with --shard I/N and --partial FILE; \
        merge reads every partial (files, or directories holding *.partial files), checks each \
        one's checksum and consistency, that they come from one job (the same tool version, \
        command, arguments, input names and input contents) and that every shard 0 … N−1 is \
        there exactly once, naming the missing or doubled ones, then \
        writes the command's report: byte for byte the report the command writes when run on \
        all the data at once, in md, json or csv, and in html for sweep, tune and compare (its \
        figures replay the inputs the shards read, which must be in place and unchanged: their \
        SHA-256 is checked). The output options are the command's: --format, --output, \
        --json-output (sweep, tune), --csv-output (sweep); run the merge once per further \
        format. Merge executes nothing: partials whose recorded arguments name an output, a \
        study file or an exec: recognizer are refused. Exit 65 when the partials are damaged or \
        do not make one complete job, 66 when one cannot be read, 73 when an output would \
        replace a partial.

        Examples (from the repository root):
          touchtrace sweep samples/ --recognizer all --shard 0/2 \\
            --partial sweep-0.partial
          touchtrace sweep samples/ --recognizer all --shard 1/2 \\
            --partial sweep-1.partial
          touchtrace merge sweep-0.partial sweep-1.partial --output sweep.json \\
            --csv-output sweep.csv
        """)

    @Argument(help: ArgumentHelp("Partial files, or directories of *.partial files.", valueName: "partial"))
    var partials: [String]

    @Option(help: ArgumentHelp("Report format, as the merged command takes it.", valueName: "format"))
    var format: String?

    @Option(help: ArgumentHelp("Write the report to this file; - is standard output (default: -).", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("Also write the JSON report to this file (sweep, tune).", valueName: "file"))
    var jsonOutput: String?

    @Option(help: ArgumentHelp("Also write the CSV report to this file (sweep).", valueName: "file"))
    var csvOutput: String?

    @OptionGroup var global: GlobalOptions

    /// Whether the report asked for is HTML.
    var writesHTML: Bool {
      format == "html" || (format == nil && output.map({ OutputFormat(fileName: $0) == .html }) == true)
    }

    /// The commands whose partials merge.
    static let mergeable: Set<String> = ["sweep", "tune", "compare", "run"]

    /// Why merge will not run the recorded command `arguments` of `command` (`nil`: it may):
    /// merge computes results from the partials' state and never executes anything, reads no
    /// input and takes its outputs from its own options, so a recorded argument list naming an
    /// output, a study file, or an `exec:` recognizer (whose command would start) is refused.
    static func refusal(command: String, arguments: [String]) -> String? {
      guard mergeable.contains(command), let type = StudyFile.subcommand(command) else {
        return "it records touchtrace \(command), whose results do not merge (sweep, tune, compare, run)"
      }
      let split = CommandArguments(type).split(arguments)
      if let unknown = split.unknown.first {
        return "it records an argument touchtrace \(command) does not take (\(unknown))"
      }
      let forbidden = StudyFile.Effective.presentation.union(CommandArguments.excluded)
      if let key = split.values.keys.sorted().first(where: { forbidden.contains($0) }) {
        return "it records --\(key), which only the merge's own options decide"
      }
      for (key, values) in split.values.sorted(by: { $0.key < $1.key }) where key != "paths" {
        if values.contains(where: { $0.contains(ExecRecognizers.scheme) }) {
          return
            "it records an \(ExecRecognizers.scheme) recognizer (--\(key)), whose command merge does not start; run the command unsharded"
        }
      }
      return nil
    }

    func run() throws {
      var merged: MergedStudy!
      var mergedLists: SpilledSweep?
      var files: [String] = []
      try Console.run {
        files = try TraceFiles.expand(partials, extensions: [".partial"])
        // No output over a partial (or any file given), before anything is read.
        try Console.checkOutputs([output, jsonOutput, csvOutput], inputs: files)
        var read: [(file: String, partial: StudyPartial)] = []
        var lists = MergedLists()
        // Every partial's outcome lists (tune's: every configuration on every trace) go to one
        // temporary file as compact columns as they are read, each file a piece at a time.
        let spill = try OutcomeSpill(configurations: 0)
        for file in files {
          var partial: StudyPartial
          do {
            partial = try StudyPartial(reading: file, spill: spill)
          } catch let error as PartialError {
            throw DataError(description: "touchtrace merge: error: \(error.description)")
          }
          try lists.absorb(&partial)
          read.append((file, partial))
        }
        let tool = "touchtrace \(TouchTraceVersion.current)"
        if let other = read.first(where: { $0.partial.tool != tool }) {
          throw DataError(
            description:
              "touchtrace merge: error: \(other.file): written by \(other.partial.tool); this is \(tool): merge with the touchtrace that wrote it"
          )
        }
        do throws(PartialError) {
          merged = try MergedStudy(read)
          mergedLists = lists.spilled
        } catch {
          throw DataError(description: "touchtrace merge: error: \(error.description)")
        }
        if let why = Self.refusal(command: merged.command, arguments: merged.arguments) {
          throw DataError(description: "touchtrace merge: error: \(read[0].file): \(why)")
        }
        Console.diagnose(
          "touchtrace merge: note: \(read.count) partial\(read.count == 1 ? "" : "s") of touchtrace \(merged.command): \(merged.dataset.traces.count) analyzed traces, \(merged.dataset.skipped.count) skipped"
        )
      }
      // HTML figures come from a second read of the inputs (checked against the shards'
      // SHA-256); run has no HTML report.
      if writesHTML, merged.command == "run" {
        throw ValidationError(
          "touchtrace run has no HTML report; merge again with --output FILE ending in .md, .json or .csv")
      }
      // The outputs the merged command has.
      let extra: [String: Set<String>] = ["sweep": ["json-output", "csv-output"], "tune": ["json-output"]]
      for (name, value) in [("json-output", jsonOutput), ("csv-output", csvOutput)] where value != nil {
        guard extra[merged.command]?.contains(name) == true else {
          throw ValidationError(
            "--\(name): touchtrace \(merged.command) has no such output; merge again with --output FILE ending in the format wanted"
          )
        }
      }
      var presentation: [String] = []
      if let format { presentation += ["--format", format] }
      if let output { presentation += ["--output", output] }
      if let jsonOutput { presentation += ["--json-output", jsonOutput] }
      if let csvOutput { presentation += ["--csv-output", csvOutput] }
      if let threads = global.threads { presentation += ["--threads", String(threads)] }
      if global.quiet { presentation.append("--quiet") }
      var arguments = merged.arguments
      let split = arguments.firstIndex(of: "--") ?? arguments.endIndex
      arguments.insert(contentsOf: presentation, at: split)
      try ScoredData.$merged.withValue(merged) {
        try ScoredData.$mergedLists.withValue(mergedLists) {
          try Console.$protectedInputs.withValue(files) {
            try TouchTraceTool.execute([merged.command] + arguments)
          }
        }
      }
    }
  }
}

/// The partials' latency lists, written to a temporary file (``SpilledSweep``) as each partial
/// is read and taken out of it, so that merging holds each configuration's sums, not every
/// shard's lists: what one run over all the data keeps (1 GB in 4 shards of `--recognizer all`:
/// 377 configurations' lists, about 113 MB, twice that while they were joined in memory).
/// The lists join in the order of the partials, as `MergedStudy` would join them.
struct MergedLists {
  /// The lists of every partial absorbed, with their sums; `nil` before the first partial with
  /// a sweep.
  private(set) var spilled: SpilledSweep?

  /// Moves the lists of `partial`'s sweep to the spill file, leaving its sums (for
  /// `MergedStudy`'s checks and sums). A sweep of another plan than the first partial's keeps
  /// its lists: `MergedStudy` refuses it, naming the files.
  mutating func absorb(_ partial: inout StudyPartial) throws {
    guard let sweep = partial.sweep else { return }
    if spilled == nil {
      let empty = SweepPartial(
        configurations: sweep.configurations.map { ConfigurationPartial(shape: $0.shape) }, methods: sweep.methods)
      spilled = SpilledSweep(empty, spill: try LatencySpill())
    }
    guard sweep.methods == spilled!.methods, sweep.configurations.map(\.shape) == spilled!.shapes else { return }
    try spilled!.absorb(sweep)
    partial.sweep = SweepPartial(
      configurations: sweep.configurations.map { ConfigurationPartial(counts: $0.counts, shape: $0.shape, lists: []) },
      methods: sweep.methods)
  }
}
