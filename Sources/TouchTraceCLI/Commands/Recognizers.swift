import ArgumentParser
import TouchRecognizers
import TouchReports

extension TouchTraceCommand {
  /// `touchtrace recognizers`: the recognizer catalog.
  struct Recognizers: ParsableCommand, GlobalCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "List the recognizer catalog: summaries, sources, stages, parameters (units, defaults, ranges, grids), sweeps.",
      discussion: """
        Use a name with `touchtrace run --recognizer NAME` and change parameters with \
        `--set NAME=VALUE`. A tap or long press can wait for another recognizer to fail with \
        `--require-failure-of NAME` (its parameters are then set as `--set required.NAME=VALUE`), \
        or as `NAME+OTHER` in sweep, tune and compare.

        JSON (--format json) is an array, one object per recognizer; `text` is another name \
        of md.

        Examples (from the repository root):
          touchtrace recognizers
          touchtrace recognizers --format json --output catalog.json
        """)

    @OptionGroup var output: OutputOptions<SummaryFormat>

    @OptionGroup var global: GlobalOptions

    func run() throws {
      let catalog = TouchTraceTool.catalog
      let bytes: [UInt8]
      switch output.resolvedFormat {
      case .md, .text: bytes = Array(CatalogReport.markdown(catalog).utf8)
      case .json: bytes = CatalogReport.json(catalog).encoded()
      }
      try Console.run { try output.emit(bytes, inputs: []) }
    }
  }
}
