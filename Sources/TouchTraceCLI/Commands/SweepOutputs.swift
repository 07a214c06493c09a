import TouchEvaluation
import TouchIO
import TouchRecognizers
import TouchReports
import TouchStudy
import TouchTuning

/// What `touchtrace sweep` writes: the report in the chosen format, `--json-output` and
/// `--csv-output`, all committed together or none. JSON goes to a file piece by piece (its
/// reference list has a record per positive).
struct SweepOutputs {
  /// The verdict and what the reports insert of it.
  struct VerdictParts {
    /// The verdict.
    var verdict: Verdict
    /// Its Markdown section (and the misfire rates', with no positive trace).
    var section: String
    /// The misfire rates' JSON object, with no positive trace.
    var misfires: JSONValue?
  }

  let result: SweepResult
  let grouped: GroupedMetrics?
  let intervals: SweepIntervals?
  let verdict: VerdictParts
  /// The outputs written whole.
  private(set) var files: [(path: String, bytes: [UInt8])] = []
  /// The JSON documents written piece by piece.
  private(set) var streams: [StreamedOutput] = []
  /// The JSON report, built once for `--json-output` and a JSON report alike.
  private var document: JSONValue?

  init(result: SweepResult, grouped: GroupedMetrics?, intervals: SweepIntervals?, verdict: VerdictParts) {
    (self.result, self.grouped, self.intervals, self.verdict) = (result, grouped, intervals, verdict)
  }

  /// The JSON report, the verdict and the misfire rates inserted, with the recorded
  /// configuration.
  func json() -> JSONValue {
    let document = SweepReport.json(result, by: grouped, intervals: intervals)
    let verdictObject = VerdictReport.json(
      verdict.verdict, configurations: result.configurations, metrics: result.metrics)
    var withVerdict = VerdictReport.inserting(verdictObject, into: document)
    if let misfires = verdict.misfires { withVerdict = MisfireReport.inserting(misfires, into: withVerdict) }
    return StudyFile.recorded(withVerdict)
  }

  /// The CSV table.
  func csv() -> [UInt8] { SweepReport.csv(result, by: grouped, intervals: intervals) }

  /// Adds every output `command` asks for (`request` and `threads` for the HTML report's
  /// figures, drawn from the samples kept or a second read).
  mutating func add(_ command: TouchTraceCommand.Sweep, request: ScoredStream.Request, threads: Int) throws {
    let inputs = command.input.inputPaths
    if let path = command.jsonOutput { try addJSON(path, inputs: inputs) }
    if let path = command.csvOutput { files.append((path, csv())) }
    let target = command.report.target
    switch command.report.resolvedFormat {
    case .md:
      let report = SweepReport.markdown(result, by: grouped, intervals: intervals)
      files.append(
        (target, Array((VerdictReport.inserting(verdict.section, into: report) + StudyFile.recordedMarkdown).utf8)))
    case .json: try addJSON(target, inputs: inputs)
    case .csv: files.append((target, csv()))
    case .html:
      let figures: SweepFigureData
      if request.keepSamples {
        do throws(ReplayError) {
          figures = try SweepFigureData.gather(result, threads: threads)
        } catch {
          throw DataError.replay(error, command: "sweep")
        }
      } else {
        figures = try FigurePass.gather(result, request: request)
      }
      files.append(
        (target, SweepReport.html(result, figures, appendix: StudyFile.recordedMarkdown, verdict: verdict.section)))
    }
  }

  /// The JSON report to `path`: piece by piece to a file, whole for standard output.
  private mutating func addJSON(_ path: String, inputs: [String]) throws(FileWriteError) {
    let document = self.document ?? json()
    self.document = document
    guard path != OutputFiles.standardOutput else { return files.append((path, document.encoded())) }
    let stream = try StreamedOutput(path: path, inputs: Console.guarded(inputs))
    try Console.write(document, to: stream)
    streams.append(stream)
  }
}
