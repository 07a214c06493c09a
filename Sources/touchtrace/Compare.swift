import ArgumentParser
import TouchCore
import TouchEvaluation
import TouchReports
import TouchTuning

extension TouchTraceCommand {
  /// `touchtrace compare`: two configurations on the same traces, pair by pair.
  struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Compare two configurations on the same traces: McNemar's test and the paired latency difference.",
      discussion: """
        --a and --b are NAME or NAME:PARAM=VALUE,PARAM=VALUE,... (a variant or DEPENDENT+REQUIRED \
        composition; unnamed parameters keep their defaults; a list parameter's values follow \
        its = separated by commas). Both are replayed over every labelled trace and scored as \
        touchtrace sweep scores them (--positive, --tolerance).

        McNemar's test uses each trace's decision (correct: no false positive and no false \
        negative at any stage): with b traces only A gets right and c only B gets right, \
        b + c < 25 uses the exact two-sided binomial test, p = min(1, 2·P(X ≤ min(b, c))) with \
        X ~ Binomial(b + c, 1/2); otherwise chi-square with one degree of freedom of \
        (|b − c| − 1)² / (b + c) (--no-continuity-correction: (b − c)² / (b + c)).

        The latency difference is B − A on every reference both matched, seconds, with a \
        percentile bootstrap interval for its mean (--bootstrap resamples of traces, or of \
        groups with --group-by, from GSL's mt19937 seeded with --seed).

        Output: --format md, json (touchtrace-compare) or csv (one row); without --format, an \
        --output ending picks it, else md on a terminal and json otherwise.
        """)

    @OptionGroup var input: InputOptions

    @Option(name: .customLong("a"), help: ArgumentHelp("Configuration A: NAME:PARAM=VALUE,...", valueName: "config"))
    var a: String

    @Option(name: .customLong("b"), help: ArgumentHelp("Configuration B: NAME:PARAM=VALUE,...", valueName: "config"))
    var b: String

    @OptionGroup var scoring: ScoringOptions

    @Option(help: "Resample each user's (session's, device's) traces together.")
    var groupBy: GroupName?

    @Option(help: ArgumentHelp("Bootstrap resamples for the mean latency difference (0: none).", valueName: "n"))
    var bootstrap = 1000

    @Option(help: ArgumentHelp("Confidence level of the bootstrap interval.", valueName: "level"))
    var confidence = 0.95

    @Option(help: ArgumentHelp("Seed of the random stream (0...4294967295).", valueName: "s"))
    var seed = 1

    @Flag(inversion: .prefixedNo, help: "Continuity-correct McNemar's chi-square statistic.")
    var continuityCorrection = true

    @Option(help: "Output format (default: from the --output ending, else md on a terminal, else json).")
    var format: ReportFormat?

    @Option(help: ArgumentHelp("Write the report to this file instead of standard output.", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("Threads to use (default: every core).", valueName: "n"))
    var threads: Int?

    func validate() throws {
      _ = try configurations()
      _ = try scoring.evaluationOptions()
      _ = try Scoring.resampling(bootstrap: bootstrap, confidence: confidence, seed: seed)
      try Scoring.validate(threads: threads)
    }

    /// Configurations A and B.
    func configurations() throws(ValidationError) -> (a: Configuration, b: Configuration) {
      do throws(SweepPlanError) {
        return (try Configuration(parsing: a), try Configuration(parsing: b))
      } catch {
        throw ValidationError("--a/--b: \(error.description)")
      }
    }

    func run() throws {
      let (a, b) = try configurations()
      let options = try scoring.evaluationOptions()
      let resampling = try Scoring.resampling(bootstrap: bootstrap, confidence: confidence, seed: seed)
      let threads = self.threads ?? Scoring.cores
      let format = ReportFormat.resolve(format, output: output)
      let key = groupBy?.key
      try Console.run {
        let evaluation = try Scoring.evaluation(
          input, for: [a.recognizer, b.recognizer], groupBy: key, options: options, threads: threads, command: "compare")
        let run: ComparisonResult
        do throws(TuningError) {
          run = try ComparisonResult(
            evaluation: evaluation, a: a, b: b, groupBy: key, bootstrap: resampling.bootstrap, seed: resampling.seed,
            continuityCorrection: continuityCorrection, threads: threads)
        } catch {
          throw DataError(description: "touchtrace compare: error: \(error.description)")
        }
        let bytes: [UInt8]
        switch format {
        case .md: bytes = Array(CompareReport.markdown(run).utf8)
        case .json: bytes = CompareReport.json(run).encoded()
        case .csv: bytes = CompareReport.csv(run)
        }
        try Console.emit(bytes, to: output)
      }
    }
  }
}
