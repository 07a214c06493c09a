import ArgumentParser
import TouchCore
import TouchEvaluation
import TouchRecognizers
import TouchReports

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension TouchTraceCommand {
  /// `touchtrace sweep`: accuracy and latency of recognizers over parameter grids.
  struct Sweep: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Score recognizers against labelled traces over parameter grids: accuracy, false positives, latency.",
      discussion: """
        Each configuration (recognizer + parameter values) is replayed over every labelled trace \
        and scored: actions are matched one to one to the trace's reference times (press_at, \
        else the offline reference rule) within --tolerance seconds; positives (--positive) count \
        per event (TP, FN, FP), other traces once (FP if any action, else TN). Latency is \
        action − reference and action − touch-down for true positives, in seconds. Two-stage \
        recognizers are also scored at stage 2 against pop traces, with a 3-class confusion \
        matrix. Traces without an intent label are skipped.

        --vary NAME=START:STOP:STEP (STOP included when on the grid; decimals or fractions such \
        as 1/60, every point computed exactly) or NAME=V1,V2,...; several --vary give their \
        Cartesian product. --vary and --set apply to every listed recognizer that has the \
        parameter. Without --vary each recognizer gets a default grid over its main threshold. \
        --recognizer all lists every variant; DEPENDENT+REQUIRED (for example tap+deep-press) is \
        a require-to-fail composition, whose added latency is reported.

        Output: --format md (a summary), json (versioned schema) or csv (one row per \
        configuration). Without --format, an --output file ending in .md, .json or .csv picks \
        the format; otherwise standard output gets md when it is a terminal and json when it is \
        not. --json-output and --csv-output write those formats as well. Results do not depend \
        on --threads.
        """)

    @OptionGroup var input: InputOptions

    @Option(
      help: ArgumentHelp(
        "Recognizers: comma-separated names, `all`, or DEPENDENT+REQUIRED compositions.", valueName: "name,..."))
    var recognizer: String

    @Option(
      name: .customLong("vary"),
      help: ArgumentHelp("Sweep a parameter: NAME=START:STOP:STEP or NAME=V1,V2,... (repeatable).", valueName: "name=grid"))
    var axes: [String] = []

    @Option(
      name: .customLong("set"),
      help: ArgumentHelp("Fix a parameter: NAME=VALUE (repeatable; required.NAME for compositions).", valueName: "name=value"))
    var settings: [String] = []

    @Option(help: ArgumentHelp("Intents that should trigger the action (stage 1).", valueName: "intent,..."))
    var positive: String = "press,pop"

    @Option(help: ArgumentHelp("Matching window: the largest |action − reference|, seconds.", valueName: "seconds"))
    var tolerance: Double = EvaluationOptions.defaultTolerance

    @Option(help: "Output format (default: from the --output ending, else md on a terminal, else json).")
    var format: Format?

    @Option(help: ArgumentHelp("Write the report to this file instead of standard output.", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("Also write the JSON report to this file.", valueName: "file"))
    var jsonOutput: String?

    @Option(help: ArgumentHelp("Also write the CSV report to this file.", valueName: "file"))
    var csvOutput: String?

    @Option(help: ArgumentHelp("Threads to use (default: every core).", valueName: "n"))
    var threads: Int?

    @Flag(help: "No progress on standard error.")
    var quiet = false

    enum Format: String, ExpressibleByArgument, CaseIterable {
      case md, json, csv
    }

    func validate() throws {
      _ = try makePlan()
      _ = try evaluationOptions()
      if let threads, threads < 1 { throw ValidationError("--threads must be at least 1, got \(threads)") }
    }

    /// The configurations the options describe.
    func makePlan() throws(ValidationError) -> SweepPlan {
      do throws(SweepPlanError) {
        let specs = try RecognizerSpec.list(recognizer)
        let axes = try self.axes.map { (text: String) throws(SweepPlanError) -> SweepAxis in try SweepAxis(parsing: text) }
        var fixed: [(name: String, value: String)] = []
        for setting in settings {
          guard let equals = setting.firstIndex(of: "="), equals != setting.startIndex else {
            throw SweepPlanError("--set expects NAME=VALUE, got '\(setting)'")
          }
          fixed.append((String(setting[..<equals]), String(setting[setting.index(after: equals)...])))
        }
        return try SweepPlan(recognizers: specs, axes: axes, settings: fixed)
      } catch {
        throw ValidationError(error.description)
      }
    }

    /// The scoring options.
    func evaluationOptions() throws(ValidationError) -> EvaluationOptions {
      var intents: [Intent] = []
      for word in positive.split(separator: ",", omittingEmptySubsequences: false) {
        let name = word.split(separator: " ").joined()
        guard let intent = Intent(name: name) else {
          throw ValidationError(
            "--positive: unknown intent '\(name)' (intents: \(Intent.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        intents.append(intent)
      }
      guard tolerance >= 0, tolerance.isFinite else {
        throw ValidationError("--tolerance must be a number of seconds ≥ 0, got \(tolerance)")
      }
      return EvaluationOptions(positives: intents, tolerance: tolerance)
    }

    /// The output format: the flag, else the --output ending, else md on a terminal, else json.
    var resolvedFormat: Format {
      if let format { return format }
      if let output {
        if output.hasSuffix(".json") { return .json }
        if output.hasSuffix(".csv") { return .csv }
        if output.hasSuffix(".md") { return .md }
      }
      return output == nil && Console.stdoutIsTerminal ? .md : .json
    }

    func run() throws {
      let plan = try makePlan()
      let options = try evaluationOptions()
      let threads = self.threads ?? Self.cores
      try Console.run {
        var dataset = try input.load()
        if let needsMaximum = plan.configurations.first(where: { $0.recognizer.requiresMaximumForce })?.recognizer {
          if input.skipInvalid {
            let before = dataset.skipped.count
            dataset.skipTraces { needsMaximum.unsupportedReason(for: $0) }
            for skip in dataset.skipped[before...] { Console.error(skip.description) }
          } else if let k = dataset.traces.firstIndex(where: { needsMaximum.unsupportedReason(for: $0) != nil }) {
            let origin = dataset.origins[k]
            let message = "trace '\(dataset.traces[k].name)': " + (needsMaximum.unsupportedReason(for: dataset.traces[k]) ?? "")
            throw DataError(
              description: Diagnostic(.error, message + " (use --max-force or --skip-invalid)", file: origin.file, position: origin.position)
                .description)
          }
        }
        let before = dataset.skipped.count
        let evaluation = Evaluation(dataset: dataset, options: options, threads: threads)
        Self.summarize(Array(evaluation.dataset.skipped[before...]))
        let progress = Progress(enabled: !quiet && Console.stderrIsTerminal)
        let result: SweepResult
        do throws(ReplayError) {
          result = try evaluation.sweep(plan, threads: threads, progress: { progress.update($0, $1) })
        } catch {
          throw DataError(description: "error: \(error.description)")
        }
        progress.finish()
        let bytes: [UInt8]
        switch resolvedFormat {
        case .md: bytes = Array(SweepReport.markdown(result).utf8)
        case .json: bytes = SweepReport.json(result).encoded()
        case .csv: bytes = SweepReport.csv(result)
        }
        if let jsonOutput { try Console.emit(SweepReport.json(result).encoded(), to: jsonOutput) }
        if let csvOutput { try Console.emit(SweepReport.csv(result), to: csvOutput) }
        try Console.emit(bytes, to: output)
      }
    }

    /// One line per reason for the traces scoring skipped (no intent label, …).
    static func summarize(_ skipped: [SkippedTrace]) {
      var reasons: [(String, Int)] = []
      for skip in skipped {
        if let k = reasons.firstIndex(where: { $0.0 == skip.reason }) { reasons[k].1 += 1 } else { reasons.append((skip.reason, 1)) }
      }
      for (reason, count) in reasons {
        Console.error("touchtrace sweep: warning: skipped \(count) trace\(count == 1 ? "" : "s"): \(reason)")
      }
    }

    /// The number of online processors.
    static var cores: Int { Swift.max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
  }
}

/// A progress line on standard error for sweeps longer than about a second.
final class Progress: @unchecked Sendable {
  private let enabled: Bool
  private let start = ContinuousClock.now
  private var shown = false
  private var lastShown = ContinuousClock.now

  init(enabled: Bool) { self.enabled = enabled }

  /// Shows `done / total` when a second has passed (at most ten times a second).
  func update(_ done: Int, _ total: Int) {
    guard enabled else { return }
    let now = ContinuousClock.now
    guard now - start >= .seconds(1), !shown || now - lastShown >= .milliseconds(100) || done == total else { return }
    shown = true
    lastShown = now
    let percent = total == 0 ? 100 : done * 100 / total
    write("\rtouchtrace sweep: \(done)/\(total) configurations (\(percent)%)")
  }

  /// Clears the line.
  func finish() {
    if shown { write("\r\u{1B}[K") }
  }

  private func write(_ text: String) {
    let bytes = Array(text.utf8)
    bytes.withUnsafeBufferPointer { _ = Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
  }
}
