import Testing
import TouchCore
import TouchTestSupport

@testable import TouchIO

/// Inputs the fuzzers (`make fuzz`, Fuzz/README.md) found a fault with, kept under
/// `Tests/FuzzRegressions/HARNESS/`: each must now give its clear error (or load), never trap.
/// The leaks among them are caught only under `swift test --sanitize=address`.
@Suite("Fuzz regressions: trace files")
struct FuzzRegressionTests {
  /// A regression input of the CSV, JSON or labels harness and what loading it must give.
  struct Case: CustomTestStringConvertible, Sendable {
    /// The file under `Tests/FuzzRegressions/`.
    var file: String
    /// The error's full description (`path:line:col: error: …` with the repository-relative
    /// path), or `nil` when the file loads.
    var error: String?
    /// Whether the error is about one trace, which `--skip-invalid` skips (the file then loads).
    var skippable = false
    var testDescription: String { file }
  }

  static let cases: [Case] = [
    // The CSV reader leaked its column buffers (about 12 KB) when it rejected a header: a file of
    // one byte, 0x1A. Found by fuzz-csv under LeakSanitizer.
    Case(
      file: "csv/header-rejected-leak.csv",
      error:
        "Tests/FuzzRegressions/csv/header-rejected-leak.csv:1:1: error: missing required column 'trace' (found '\\u{1A}')"
    ),
    // An empty session and user (JSON can say "") are no value: see emptyTextIsNoValueInEveryFormat.
    Case(file: "json/empty-session.json", error: nil),
    // Two JSON Lines records with the same id and contact: the one-file reader took both (the
    // directory loader refused the second), and CSV cannot write two traces of one id. Found by
    // fuzz-json's round-trip check (`make fuzz` in CI).
    Case(
      file: "json/duplicate-trace.jsonl",
      error:
        "Tests/FuzzRegressions/json/duplicate-trace.jsonl:2:1: error: trace 'touchpad-s8-0002' is defined twice (first in Tests/FuzzRegressions/json/duplicate-trace.jsonl) (record 1)",
      skippable: true),
  ]

  /// The harness folders whose inputs this suite loads as trace files (by extension).
  static let folders = ["csv", "json"]

  @Test(arguments: cases) func givesItsError(_ regression: Case) throws {
    let path = TestData.repositoryRoot + "/Tests/FuzzRegressions/" + regression.file
    let original = try TraceFiles.read(path)
    let file = "Tests/FuzzRegressions/" + regression.file
    let format = TraceFiles.Format(path: file)
    for skipInvalid in [false, true] {
      var bytes = original
      do {
        let dataset = try TraceLoader.read(
          &bytes, file: file, format: format, options: LoadOptions(skipInvalid: skipInvalid))
        if regression.skippable && skipInvalid {
          #expect(dataset.skipped.count == 1)
          #expect(regression.error?.contains(dataset.skipped.first?.reason ?? "-") == true, "\(dataset.skipped)")
        } else {
          #expect(regression.error == nil, "loaded \(dataset.traces.count) traces")
        }
      } catch {
        #expect(error.description == regression.error)
      }
    }
  }

  /// Found by fuzz-tablet-csv's round-trip check, reduced to JSON by hand: a trace whose
  /// `session` or `user` is empty text. Empty text is no value in the trace model (an empty CSV
  /// field reads as absent), so the JSON reader takes `""` as absent too and every format reads
  /// back what TouchTrace wrote.
  @Test func emptyTextIsNoValueInEveryFormat() throws {
    var bytes = try TraceFiles.read(TestData.repositoryRoot + "/Tests/FuzzRegressions/json/empty-session.json")
    let traces = try TraceLoader.read(&bytes, file: "empty-session.json", format: .json).traces
    #expect(traces.map(\.metadata.session) == [nil])
    #expect(traces.map(\.metadata.user) == [nil])
    for format in [TraceFiles.Format.json, .jsonl, .csv] {
      var written = TraceWriter.encode(traces, as: format)
      #expect(try TraceLoader.read(&written, file: "back.\(format)", format: format).traces == traces)
    }
  }

  /// `fuzz-labels` (round-trip check, CI on 2026-12-04): an extra label whose name starts with
  /// a combining mark (U+0656) was written as the column `label:\u{0656}ondtouch`, in which the
  /// colon and the mark are one character, so the reader's `hasPrefix("label:")` missed it and the
  /// label was lost. Read as a label, and kept through every format.
  @Test func aLabelNameStartingWithACombiningMarkSurvivesTheRoundTrip() throws {
    let trace = Trace(
      metadata: TraceMetadata(id: "p2", labels: ["\u{0656}ondtouch": "1", "plain": "x"]),
      t: [0, 0.05, 0.1], force: [0, 1, 0])
    for format in [TraceFiles.Format.json, .jsonl, .csv] {
      var written = TraceWriter.encode([trace], as: format)
      let read = try TraceLoader.read(&written, file: "back.\(format)", format: format).traces
      #expect(read.map(\.metadata.labels) == [["\u{0656}ondtouch": "1", "plain": "x"]], "\(format)")
    }
  }

  @Test func everyRegressionFileHasACase() {
    let files = Self.folders.flatMap { folder in
      SharedData.files(in: TestData.repositoryRoot + "/Tests/FuzzRegressions/" + folder, suffix: "")
    }.map { String($0.dropFirst((TestData.repositoryRoot + "/Tests/FuzzRegressions/").count)) }
    #expect(!files.isEmpty)
    #expect(files.sorted() == Self.cases.map(\.file).sorted())
  }
}
