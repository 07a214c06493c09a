import ArgumentParser
import TouchCore
import TouchIO
import TouchReports
import TouchSignal
import TouchStudy

extension TouchTraceCommand {
  /// `touchtrace features`: one row of force-curve features per trace.
  struct Features: ParsableCommand, GlobalCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Compute force-curve features per trace: peak, rise, rate, impulse, peaks, saturation, logistic onset, reference time.",
      discussion: """
        CSV output is tidy: a header and one row per trace, empty cells for missing values \
        (pandas and R read it without options). JSON output (format touchtrace-features, \
        version 1) adds the trace accounting (total = analyzed + skipped), the skipped traces \
        and the options used. Units: seconds, device force units, force units per second. \
        A logistic fit that does not converge is reported by its status, with empty parameters; \
        so is one that converges to a curve outside the trace (status out_of_range: its midpoint \
        outside the trace's first-to-last sample times, or its amplitude above max_force, or \
        above 1.5 × the peak force when max_force is unknown), the JSON message saying which.

        Streams: traces are read and analyzed --batch-traces at a time; memory holds one \
        batch's samples and the accounting (files, warnings, skipped traces). CSV rows are \
        written as each batch is analyzed; JSON rows wait in a temporary file beside the \
        output until the accounting that heads the document is known. Standard output is \
        written in one piece at the end.

        Examples (from the repository root):
          touchtrace features samples/ --output features.csv
          touchtrace features samples/synth-iphone6s.csv --level-normalized 0.3 \\
            --format json
        """)

    @OptionGroup var input: InputOptions

    @OptionGroup var output: OutputOptions<Format>

    /// CSV or JSON.
    enum Format: FormatChoice {
      case csv, json

      var format: OutputFormat {
        switch self {
        case .csv: .csv
        case .json: .json
        }
      }
    }

    @OptionGroup var batch: BatchOptions

    @OptionGroup var global: GlobalOptions

    @Option(
      help: ArgumentHelp(
        "Level for time_above_level_s as a fraction of each trace's peak (default: 0.5).", valueName: "fraction"))
    var level: Double?

    @Option(
      help: ArgumentHelp(
        "Level as a fraction of max_force instead (empty for traces without one).", valueName: "fraction"))
    var levelNormalized: Double?

    @Option(help: ArgumentHelp("Level in force units instead.", valueName: "force"))
    var levelForce: Double?

    @Option(
      help: ArgumentHelp(
        "Minimum peak prominence for peak_count, as a fraction of each trace's peak.", valueName: "fraction"))
    var minProminence: Double = 0.2

    func validate() throws {
      let levels = [level, levelNormalized, levelForce].compactMap { $0 }
      if levels.count > 1 { throw ValidationError("give at most one of --level, --level-normalized, --level-force") }
      if let value = levels.first, !(value >= 0) || !value.isFinite {
        throw ValidationError("the level must be a non-negative number, got \(value)")
      }
      if !(minProminence >= 0) || !minProminence.isFinite {
        throw ValidationError("--min-prominence must be a non-negative number, got \(minProminence)")
      }
    }

    /// The feature settings the options describe.
    var extraction: FeatureExtraction {
      let level: ForceLevel =
        if let levelNormalized { .normalized(levelNormalized) } else if let levelForce { .force(levelForce) } else {
          .fractionOfPeak(self.level ?? 0.5)
        }
      return FeatureExtraction(level: level, minimumProminence: .fractionOfPeak(minProminence))
    }

    func run() throws {
      try Console.run {
        try Console.checkOutputs([output.file], inputs: input.inputPaths)
        let extraction = self.extraction
        let format = output.resolvedFormat
        var source = try InputBatches(input, batchTraces: batch.count())
        let target = try StreamTarget(output.target, inputs: input.inputPaths)
        defer { target.discard() }
        // CSV rows go out as they are computed; JSON rows wait in a spool file until the
        // accounting that heads the document is known.
        let spool = format == .json ? try ByteSpool(beside: target.spoolPath) : nil
        defer { spool?.discard() }
        if format == .csv { try target.sink.append(FeaturesReport.csvHeader) }
        var selected = 0
        var analyzed = 0
        var skipped: [SkippedTrace] = []
        var synthesized = SynthesizedTime.Tally()
        while let batch = try source.next() {
          selected += batch.traces.count
          let part = try PerTrace.batch(batch, skipInvalid: input.skipInvalid) { trace throws(SignalError) in
            try extraction.features(of: trace)
          }
          skipped += part.skipped
          let rows = zip(part.traces, part.results).map { FeaturesReport.Row(trace: $0, features: $1) }
          for trace in part.traces { synthesized.add(trace) }
          switch format {
          case .csv: try target.sink.append(FeaturesReport.csvRows(rows))
          case .json:
            for (k, row) in rows.enumerated() {
              try spool!.append(FeaturesReport.jsonElement(row).encodedElement(index: analyzed + k))
            }
          }
          analyzed += rows.count
        }
        try source.finish(selected: selected)
        Console.report(skipped: skipped)
        let allSkipped = source.skipped + skipped
        if format == .json {
          let document = StudyFile.recorded(
            FeaturesReport.jsonDocument(
              files: source.files, analyzed: analyzed, skipped: allSkipped, labelOverrides: source.labelOverrides,
              synthesizedTime: synthesized.result, extraction: extraction, diagnostics: source.diagnostics))
          let (head, tail) = document.encodedAround(member: "features")
          try target.sink.append(head)
          try spool!.copy(to: target.sink)
          try target.sink.append(JSONValue.arrayClose(count: analyzed))
          try target.sink.append(tail)
        }
        try target.commit()
        if format == .csv {
          Console.diagnose(
            "touchtrace features: \(analyzed + allSkipped.count) traces: \(analyzed) analyzed, \(allSkipped.count) skipped"
          )
          // The CSV table has no place for it: say it beside the accounting.
          if let sentence = synthesized.result.sentence(dependents: "times, durations and rates") {
            Console.diagnose("touchtrace features: warning: \(sentence)")
          }
        }
      }
    }
  }
}
