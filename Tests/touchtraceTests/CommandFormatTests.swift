import Foundation
import Testing
import TouchTestSupport

@testable import TouchTraceCLI

/// Every command run with every format its `--format` accepts (issue 28): the list of formats
/// comes from each command's own declaration, so a format added to a command is run here at once,
/// and a format this test cannot read fails it. Each output must be the format it says: JSON
/// that parses with its `format` member, CSV or JSON Lines of the right shape, Markdown with its
/// title, HTML with its doctype.
///
/// `capture` is left out: it serves a page until interrupted and writes its summary at exit
/// (`make check-capture` runs it in a browser, in both formats); so is `merge`, whose formats are
/// those of the command its partials record (the merge tests run each).
@Suite("Every command in every format")
struct CommandFormatTests {
  /// A command's arguments before `--format`, and the formats it accepts.
  struct Case: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    var formats: [OutputFormat]
    var testDescription: String { arguments[0] }
  }

  static let touchpad = TestData.samples + "/synth-touchpad.csv"

  static let cases: [Case] = [
    Case(arguments: ["inspect", touchpad], formats: SummaryFormat.formats),
    Case(arguments: ["recognizers"], formats: SummaryFormat.formats),
    Case(arguments: ["run", touchpad, "--recognizer", "deep-press"], formats: TouchTraceCommand.Run.Format.formats),
    Case(
      arguments: ["sweep", touchpad, "--recognizer", "deep-press", "--vary", "threshold=0.3,0.5"],
      formats: ReportFormat.formats),
    Case(
      arguments: [
        "tune", touchpad, "--recognizer", "deep-press", "--vary", "threshold=0.3,0.5", "--folds", "0", "--bootstrap",
        "0",
      ],
      formats: ReportFormat.formats),
    Case(
      arguments: ["compare", touchpad, "--a", "deep-press", "--b", "stable-press", "--bootstrap", "0"],
      formats: ReportFormat.formats),
    Case(
      arguments: ["check", touchpad, "--recognizer", "deep-press"], formats: TouchTraceCommand.Check.Format.formats),
    Case(arguments: ["features", touchpad], formats: TouchTraceCommand.Features.Format.formats),
    Case(arguments: ["smooth", touchpad, "--method", "median", "--window", "3"], formats: TraceFormat.formats),
    Case(arguments: ["synth", "--profile", "iphone6s", "--count", "3", "--seed", "1"], formats: TraceFormat.formats),
    Case(arguments: ["import", "--from", "force-values", "--interval", "0.016"], formats: TraceFormat.formats),
  ]

  @Test(arguments: cases)
  func everyFormatItAccepts(_ testCase: Case) throws {
    #expect(!testCase.formats.isEmpty)
    try inTemporaryDirectory { directory in
      var arguments = testCase.arguments
      if arguments[0] == "check" {
        let baseline = directory + "/baseline.json"
        #expect(runCommand(arguments + ["--write-baseline", baseline]) == 0)
        arguments += ["--baseline", baseline]
      }
      if arguments[0] == "import" {
        TestData.write("[0, 0.5, 1.25, 3.5, 2, 0.25, 0]\n", to: directory + "/forces.json")
        arguments.insert(directory + "/forces.json", at: 1)
      }
      for format in testCase.formats {
        let output = directory + "/out." + format.rawValue
        let code = runCommand(arguments + ["--format", format.rawValue, "--output", output])
        #expect(code == 0, "\(arguments[0]) --format \(format.rawValue)")
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(Self.looksLike(format, text), "\(arguments[0]) --format \(format.rawValue): \(text.prefix(120))")
      }
    }
  }

  /// Whether `text` is a document of `format`.
  static func looksLike(_ format: OutputFormat, _ text: String) -> Bool {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
    guard !lines.isEmpty else { return false }
    switch format {
    case .json:
      guard let value = try? JSONSerialization.jsonObject(with: Data(text.utf8)) else { return false }
      if let object = value as? [String: Any] { return object["format"] is String || object["traces"] != nil }
      return value is [Any]
    case .jsonl:
      return lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) is [String: Any] }
    case .csv:
      let columns = lines[0].split(separator: ",", omittingEmptySubsequences: false).count
      return columns > 1 && lines.dropFirst().allSatisfy { !$0.isEmpty } && lines.count > 1
    case .md:
      return lines[0].hasPrefix("# ")
    case .text:
      // Text for people (`recognizers` takes it as another name of Markdown): not JSON.
      return !lines[0].hasPrefix("{") && !lines[0].hasPrefix("[")
    case .html:
      return text.hasPrefix("<!DOCTYPE html>") && text.contains("</html>")
    }
  }
}
