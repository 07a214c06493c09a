import ArgumentParser
import TouchCore
import TouchIO
import TouchReports
import TouchSignal
import TouchStudy

extension TouchTraceCommand {
  /// `touchtrace inspect`: a summary of a dataset.
  struct Inspect: ParsableCommand, GlobalCommand {
    static let configuration = CommandConfiguration(
      abstract: "Summarize a dataset: traces, samples, timing, force range and quantization, labels.",
      discussion: """
        Every input trace is accounted for: total = analyzed + skipped. Without --skip-invalid the \
        first invalid trace stops the command (exit 65) with PATH:LINE:COL: error: MESSAGE.

        Streams: traces are read and summarized --batch-traces at a time; memory holds one \
        batch's samples plus what the summary needs: counts, each trace's duration and sample \
        count, the distinct sampling intervals with their counts (exact quantiles), and for \
        the force quantization step the first 100 000 forces and the distinct forces with \
        their counts (overall and per device).

        Examples (from the repository root):
          touchtrace inspect samples/
          touchtrace inspect samples/ --format text --only device=iphone6s
          touchtrace inspect samples/synth-touchpad.csv --format json \\
            --output summary.json
        """)

    @OptionGroup var input: InputOptions

    @OptionGroup var output: OutputOptions<SummaryFormat>

    @OptionGroup var batch: BatchOptions

    @OptionGroup var global: GlobalOptions

    func run() throws {
      try Console.run {
        try Console.checkOutputs([output.file], inputs: input.inputPaths)
        var source = try InputBatches(input, batchTraces: batch.count(default: BatchOptions.inspectDefault))
        var accumulator = DatasetSummary.Accumulator()
        var selected = 0
        while let batch = try source.next() {
          selected += batch.traces.count
          for trace in batch.traces { accumulator.add(trace) }
        }
        try source.finish(selected: selected)
        let summary = accumulator.summary(
          files: source.files, skipped: source.skipped, labelOverrides: source.labelOverrides)
        let bytes: [UInt8] =
          switch output.resolvedFormat {
          case .md: Array((InspectReport.markdown(summary) + StudyFile.recordedMarkdown).utf8)
          case .text: Array(InspectReport.text(summary).utf8)
          case .json: StudyFile.recorded(InspectReport.json(summary, diagnostics: source.diagnostics)).encoded()
          }
        try output.emit(bytes, inputs: input.inputPaths)
      }
    }
  }
}
