import ArgumentParser
import TouchCore
import TouchIO
import TouchReports
import TouchSignal

extension TouchTraceCommand {
  /// `touchtrace inspect`: a summary of a dataset.
  struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Summarize a dataset: traces, samples, timing, force range and quantization, labels.",
      discussion: """
        Every input trace is accounted for: total = analyzed + skipped. Without --skip-invalid the \
        first invalid trace stops the command (exit 65) with PATH:LINE:COL: error: MESSAGE.
        """)

    @OptionGroup var input: InputOptions

    @Option(help: "Output format.")
    var format: Format = .text

    @Option(help: ArgumentHelp("Write the summary to this file instead of standard output.", valueName: "file"))
    var output: String?

    enum Format: String, ExpressibleByArgument, CaseIterable {
      case text, json
    }

    func run() throws {
      try Console.run {
        let dataset = try input.load()
        let summary = DatasetSummary(dataset)
        let bytes: [UInt8] =
          switch format {
          case .text: Array(InspectReport.text(summary).utf8)
          case .json: InspectReport.json(summary, diagnostics: dataset.diagnostics).encoded()
          }
        try Console.emit(bytes, to: output)
      }
    }
  }
}
