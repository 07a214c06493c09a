import Foundation
import Testing
import TouchTestSupport

/// A closed standard output (`>&-`) and a pipe whose reader has exited are write failures like
/// any other: exit 74 and a message, never exit 0 with the report written into a file that took
/// descriptor 1, never death by SIGPIPE (141) without a word (issue 26). The built executable
/// runs under `/bin/sh`, which closes or pipes its descriptors.
@Suite("touchtrace standard streams", .touchtraceIsBuilt)
struct StandardStreamTests {
  static let samples = TestData.repositoryRoot + "/samples"

  /// `/bin/sh -c SCRIPT touchtrace ARGS…` (the script runs `"$0" "$@"`): sh's exit code and
  /// standard error.
  func shell(_ script: String, _ arguments: [String]) throws -> (code: Int32, errors: String) {
    let run = try runChild("/bin/sh", ["-c", script, builtTouchtrace] + arguments)
    return (run.code, run.errors)
  }

  static let report = [
    "sweep", samples, "--recognizer", "deep-press", "--vary", "threshold=0.1:0.9:0.1", "--format", "json",
  ]

  @Test func aClosedStandardOutputIsExit74WithAMessage() throws {
    let (code, errors) = try shell(#"exec "$0" "$@" >&-"#, Self.report)
    #expect(code == 74, "\(errors)")
    #expect(errors.contains("standard output: error: cannot write: standard output closed"), "\(errors)")
    // Streamed through the latency spill (batches): the spill must not take descriptor 1.
    let (batched, message) = try shell(#"exec "$0" "$@" >&-"#, Self.report + ["--batch-traces", "7"])
    #expect(batched == 74, "\(message)")
  }

  @Test func closedStandardOutputAndErrorIsStillExit74() throws {
    let (code, _) = try shell(#"exec "$0" "$@" >&- 2>&-"#, Self.report)
    #expect(code == 74)
  }

  @Test func aClosedStandardOutputDoesNotMatterWhenTheReportGoesToAFile() throws {
    try inTemporaryDirectory { directory in
      let (code, errors) = try shell(#"exec "$0" "$@" >&-"#, Self.report + ["--output", directory + "/r.json"])
      #expect(code == 0, "\(errors)")
      #expect(TestData.exists(directory + "/r.json"))
    }
  }

  @Test func aPipeWhoseReaderExitedIsExit74WithAMessage() throws {
    try inTemporaryDirectory { directory in
      let status = directory + "/status"
      // `true` reads nothing and exits at once; then `head -c 1` as a reader that takes a byte.
      for reader in ["true", "head -c 1 >/dev/null"] {
        let (_, errors) = try shell(
          #"{ "$0" "$@"; echo $? > "# + status + #"; } | "# + reader, Self.report + ["--recognizer", "all"])
        let code = try String(contentsOfFile: status, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(code == "74", "\(reader): \(errors)")
        #expect(errors.contains("standard output closed: its reader has exited (broken pipe)"), "\(reader): \(errors)")
      }
    }
  }
}

/// A study file is an input of the run like any other, and must be text (issue 26).
@Suite("Study files as inputs", .touchtraceIsBuilt)
struct StudyFileInputTests {
  static let samples = TestData.repositoryRoot + "/samples/synth-android.csv"

  @Test func anOutputOverTheStudyFileIsRefusedAndTheFileUnchanged() throws {
    try inTemporaryDirectory { directory in
      let study = directory + "/study.toml"
      let text = "paths = [\"\(Self.samples)\"]\n[sweep]\nrecognizer = \"deep-press\"\nformat = \"json\"\n"
      TestData.write(text, to: study)
      try #require(link(study, directory + "/same.toml") == 0)
      for arguments in [
        ["sweep", "--config", study, "--output", study],
        ["sweep", "--config", study, "--output", directory + "/./same.toml"],
        ["inspect", "--config", study, "--format", "json", "--output", study],
        ["sweep", "--config", study, "--json-output", study, "--output", directory + "/r.md"],
      ] {
        let run = try runTouchtrace(arguments)
        #expect(run.code == 73, "\(arguments): \(run.errors)")
        #expect(run.errors.contains("error: refusing to write"), "\(arguments): \(run.errors)")
        #expect(try String(contentsOfFile: study, encoding: .utf8) == text, "\(arguments) replaced the study file")
        #expect(!TestData.exists(directory + "/r.md"), "all or nothing")
      }
      // The study file naming itself as the output.
      let own = directory + "/own.toml"
      let ownText =
        "paths = [\"\(Self.samples)\"]\n[sweep]\nrecognizer = \"deep-press\"\nformat = \"md\"\noutput = \"\(own)\"\n"
      TestData.write(ownText, to: own)
      let run = try runTouchtrace(["sweep", "--config", own])
      #expect(run.code == 73, "\(run.errors)")
      #expect(try String(contentsOfFile: own, encoding: .utf8) == ownText)
    }
  }

  /// `bytes` as study.toml, run `sweep --config`: exit code and standard error.
  func runStudy(_ bytes: [UInt8], in directory: String) throws -> (code: Int32, errors: String) {
    let study = directory + "/study.toml"
    try Data(bytes).write(to: URL(fileURLWithPath: study))
    let run = try runTouchtrace(["sweep", "--config", study, "--format", "json"])
    return (run.code, run.errors)
  }

  @Test func aNulByteInAStudyFileIsRefusedAtItsPosition() throws {
    try inTemporaryDirectory { directory in
      // Before: the parser stopped at the NUL and the `only` filter after it was dropped.
      let bytes = Array("paths = [\"\(Self.samples)\"]\nrecognizer = \"deep-press\" \0\nonly = [\"id=none\"]\n".utf8)
      let (code, errors) = try runStudy(bytes, in: directory)
      #expect(code == 65, "\(errors)")
      #expect(errors.contains("study.toml:2:27: error: a NUL byte"), "\(errors)")
    }
  }

  @Test func invalidUTF8InAStudyFileIsRefusedAtItsPosition() throws {
    try inTemporaryDirectory { directory in
      let bytes =
        Array("paths = [\"\(Self.samples)\"]\n# café ".utf8) + [0xE9, 0x0A]
        + Array("recognizer = \"deep-press\"\n".utf8)
      let (code, errors) = try runStudy(bytes, in: directory)
      #expect(code == 65, "\(errors)")
      #expect(errors.contains("study.toml:2:8: error: invalid UTF-8 (byte 0xE9)"), "\(errors)")
      // An overlong encoding and a surrogate are not UTF-8 either.
      for bad: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80]] {
        let (code, errors) = try runStudy(Array("# ".utf8) + bad + [0x0A], in: directory)
        #expect(code == 65 && errors.contains("study.toml:1:3: error: invalid UTF-8"), "\(bad): \(errors)")
      }
    }
  }
}
