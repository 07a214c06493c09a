import Testing
import TouchCore
import TouchIO
import TouchTestSupport

@testable import TouchImport

/// Importer inputs the fuzzers (`make fuzz`, Fuzz/README.md) found a fault with, kept under
/// `Tests/FuzzRegressions/FORMAT/`.
@Suite("Fuzz regressions: importers")
struct ImportFuzzRegressionTests {
  /// The path of a regression file.
  static func path(_ file: String) -> String { TestData.repositoryRoot + "/Tests/FuzzRegressions/" + file }

  /// Known gap, for the lead (found by fuzz-tablet-csv, minimized: `7;9;;9;;9;`, ten bytes): a
  /// row whose group field is empty imports with `session` "" (empty text), which CSV writes as
  /// an empty field and reads back as absent, so the imported trace does not survive a CSV round
  /// trip. The same holds for empty text from JSON (TouchIOTests, emptyTextDoesNotSurviveCSV).
  @Test func emptyTabletGroupGivesNoSession() throws {
    let bytes = try TraceFiles.read(Self.path("tablet-csv/empty-group.txt"))
    let dataset = try TraceImporter.read(bytes, file: "empty-group.txt", from: .tabletCSV)
    #expect(dataset.traces.count == 1)
    #expect(dataset.traces.first?.force == [9])
    #expect(dataset.traces.first?.x == [7])
    #expect(dataset.traces.first?.metadata.session == nil, "an empty group is no session")
  }

  /// Found by fuzz-libinput-record (its first run, 687 executions; minimized by hand): two
  /// devices with one node path made two contacts of one id, which the CSV round trip refused.
  /// The file is refused, with or without `--skip-invalid`.
  @Test(arguments: [false, true])
  func aDeviceNodeListedTwiceIsRefused(skipInvalid: Bool) throws {
    let bytes = try TraceFiles.read(Self.path("libinput-record/node-twice.yml"))
    #expect(throws: TraceLoadError.self) {
      try TraceImporter.read(
        bytes, file: "node-twice.yml", from: .libinputRecord, options: ImportOptions(skipInvalid: skipInvalid))
    }
  }

  /// Found by fuzz-libinput-record (20 000 executions; minimized by hand): device nodes
  /// `/dev/input/event3` and `…/event3` both named their contacts `FILE@event3`. Each device
  /// keeps its whole path where the last components agree.
  @Test func devicesWithOneLastComponentGetDistinctIDs() throws {
    let bytes = try TraceFiles.read(Self.path("libinput-record/same-last-component.yml"))
    let dataset = try TraceImporter.read(bytes, file: "same-last-component.yml", from: .libinputRecord)
    #expect(
      dataset.traces.map(\.metadata.id) == ["same-last-component@/dev/input/event3", "same-last-component@x/event3"])
  }

  @Test func everyRegressionFileHasATest() {
    let formats = ["evemu", "getevent", "force-values", "tablet-csv", "pointer-events", "libinput-record"]
    let files = formats.flatMap { format in SharedData.files(in: Self.path(format), suffix: "") }
    #expect(
      files == [
        Self.path("tablet-csv/empty-group.txt"), Self.path("libinput-record/node-twice.yml"),
        Self.path("libinput-record/same-last-component.yml"),
      ])
  }
}
