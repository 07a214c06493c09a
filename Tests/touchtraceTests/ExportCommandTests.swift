import Foundation
import Testing
import TouchTestSupport

@testable import TouchTraceCLI

/// `touchtrace export`: refusals with their exit codes, the files written, and the release
/// executable's Swift core built with swiftc and run on its vectors with no difference.
@Suite("export command")
struct ExportCommandTests {
  static let samples = TestData.repositoryRoot + "/samples/synth-iphone6s.csv"

  @Test("unsupported recognizers, both or neither configuration, bad counts and type names are usage errors")
  func refusals() {
    inTemporaryDirectory { directory in
      let out = directory + "/x"
      for arguments in [
        ["export", "--recognizer", "tap", "--output", out],
        ["export", "--recognizer", "tap+deep-press", "--output", out],
        ["export", "--output", out],
        ["export", "--recognizer", "deep-press", "--configuration", directory + "/c.json", "--output", out],
        ["export", "--recognizer", "deep-press", "--random", "-1", "--output", out],
        ["export", "--recognizer", "deep-press", "--random", "100001", "--output", out],
        ["export", "--recognizer", "deep-press", "--output", "-", "--format", "files"],
        ["tune", Self.samples, "--recognizer", "deep-press,shunkit", "--export", out],
        ["tune", Self.samples, "--recognizer", "deep-press", "--exact", "--export", out],
        ["export", "--recognizer", "deep-press", "--type-name", "9lives", "--output", out],
        ["export", "--recognizer", "deep-press", "--set", "threshold", "--output", out],
        ["export", "--recognizer", "deep-press", "--language", "cobol", "--output", out],
      ] {
        #expect(runCommand(arguments) == 64, "\(arguments)")
      }
      #expect(!FileManager.default.fileExists(atPath: out))
    }
  }

  @Test("writes each language's core, adapter and check, the vectors and a README; replaces nothing")
  func writes() throws {
    try inTemporaryDirectory { directory in
      let out = directory + "/exported"
      let arguments = [
        "export", "--recognizer", "hysteresis", "--set", "pressThreshold=0.3", "--output", out, "--random", "20",
        "--quiet", Self.samples,
      ]
      #expect(runCommand(arguments) == 0)
      let files = try FileManager.default.subpathsOfDirectory(atPath: out).filter { !$0.hasSuffix("/") }.sorted()
      for expected in [
        "README.md", "vectors.txt", "swift/ForcePressCore.swift", "swift/ForcePressCoreGestureRecognizer.swift",
        "swift/check/main.swift", "kotlin/ForcePressCore.kt", "kotlin/ConformanceCheck.kt",
        "typescript/force-press-core.ts", "typescript/force-press-core.js",
      ] {
        #expect(files.contains(expected), "\(files)")
      }
      let core = try String(contentsOfFile: out + "/swift/ForcePressCore.swift", encoding: .utf8)
      #expect(core.contains("public static let pressThreshold: Double = 0.3"))
      #expect(core.contains("Recognizer: hysteresis"))
      #expect(core.contains("sha256 "))
      let vectors = try String(contentsOfFile: out + "/vectors.txt", encoding: .utf8)
      #expect(vectors.hasPrefix("touchtrace-vectors 1 hysteresis\n"))
      #expect(vectors.components(separatedBy: "\nend\n").count - 1 == 175 + 20)
      // A directory holding one of the export's files is refused, and nothing is left behind.
      let other = directory + "/other"
      try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: false)
      try Data("mine".utf8).write(to: URL(fileURLWithPath: other + "/README.md"))
      #expect(runCommand(["export", "--recognizer", "deep-press", "--output", other, "--quiet"]) == 73)
      #expect(try FileManager.default.contentsOfDirectory(atPath: other) == ["README.md"])
      #expect(try String(contentsOfFile: other + "/README.md", encoding: .utf8) == "mine")
      // A second export into the same directory replaces nothing.
      #expect(runCommand(arguments) == 73)
      #expect(try String(contentsOfFile: out + "/vectors.txt", encoding: .utf8) == vectors)
    }
  }

  @Test("tune --export writes the chosen configuration with its provenance and the tuning's traces as vectors")
  func tuneExports() throws {
    try inTemporaryDirectory { directory in
      /// Runs `tune` with hysteresis on the samples, `export` its option and target, the report to
      /// `report`; expects exit 0.
      func tune(_ export: [String], report: String) {
        #expect(
          runCommand(["tune", Self.samples, "--recognizer", "hysteresis"] + export + ["--output", report, "--quiet"])
            == 0)
      }
      let out = directory + "/tuned"
      tune(["--export", out], report: directory + "/t.md")
      let core = try String(contentsOfFile: out + "/kotlin/ForcePressCore.kt", encoding: .utf8)
      #expect(core.contains("Recognizer: hysteresis"))
      #expect(core.contains("Tuned on: 175 traces"))
      #expect(core.contains("% CI"))
      #expect(core.contains("Cross-validated (5 folds by trace)"))
      let vectors = try String(contentsOfFile: out + "/vectors.txt", encoding: .utf8)
      #expect(vectors.components(separatedBy: "\nend\n").count - 1 == 175)
      // The chosen threshold is the one tune --export-json names.
      let json = directory + "/c.json"
      tune(["--export-json", json], report: directory + "/u.md")
      let document = try jsonObject(json)
      let threshold = try #require((document["params"] as? [String: Any])?["pressThreshold"] as? Double)
      #expect(core.contains("const val PRESS_THRESHOLD: Double = \(threshold)"))
    }
  }

  @Test(
    "tune --export writes its vectors as a second read passes: export's bytes for the chosen configuration, whatever the batch size or source",
    .debugTouchtraceIsBuilt)
  func tuneExportsVectorsAsTheTracesPass() throws {
    try inTemporaryDirectory { directory in
      let tune = ["tune", "--recognizer", "hysteresis", "--folds", "0", "--quiet"]
      /// The vectors and README `tune` exports to `name` with `options` (the traces read from a file).
      func exported(_ name: String, _ options: [String]) throws -> (vectors: String, readme: String) {
        let out = directory + "/" + name
        #expect(runCommand(tune + [Self.samples, "--export", out, "--output", out + ".md"] + options) == 0)
        return (
          try String(contentsOfFile: out + "/vectors.txt", encoding: .utf8),
          try String(contentsOfFile: out + "/README.md", encoding: .utf8)
        )
      }
      let streamed = try exported("file", ["--export-json", directory + "/chosen.json"])
      #expect(try exported("batches", ["--batch-traces", "7"]) == streamed)
      // The reference: `export` of the configuration tune chose, its traces loaded whole.
      #expect(
        runCommand([
          "export", "--configuration", directory + "/chosen.json", Self.samples, "--output", directory + "/reference",
          "--quiet",
        ]) == 0)
      let reference = try String(contentsOfFile: directory + "/reference/vectors.txt", encoding: .utf8)
      #expect(streamed.vectors == reference)
      #expect(reference.components(separatedBy: "\nend\n").count - 1 == 175)
      // Listed where a file held in memory stands: after the languages' files.
      #expect(streamed.readme.contains("- `typescript/conformance-check.mjs` (check)\n- `vectors.txt` (vectors)\n"))
      // Standard input: from the spool of its analyzed traces, and with its samples kept.
      for (name, options) in [("stdin", []), ("stdin-kept", ["--spool-limit", "0"])] {
        let out = directory + "/" + name
        let run = try runDebugTouchtrace(tune + ["-", "--export", out] + options, standardInput: Self.samples)
        #expect(run.code == 0, "\(run.errors)")
        #expect(try String(contentsOfFile: out + "/vectors.txt", encoding: .utf8) == reference, "\(options)")
      }
    }
  }

  @Test(
    "export reads its traces batch by batch, standard input too: the same vectors, and the input's SHA-256 recorded",
    .debugTouchtraceIsBuilt)
  func exportReadsStandardInput() throws {
    try inTemporaryDirectory { directory in
      let export = ["export", "--recognizer", "hysteresis", "--random", "3", "--quiet"]
      #expect(runCommand(export + [Self.samples, "--output", directory + "/file"]) == 0)
      let run = try runDebugTouchtrace(export + ["-", "--output", directory + "/stdin"], standardInput: Self.samples)
      #expect(run.code == 0, "\(run.errors)")
      let vectors = try String(contentsOfFile: directory + "/file/vectors.txt", encoding: .utf8)
      #expect(try String(contentsOfFile: directory + "/stdin/vectors.txt", encoding: .utf8) == vectors)
      #expect(vectors.components(separatedBy: "\nend\n").count - 1 == 175 + 3)
      // The digest of the bytes read, as sha256sum gives it for the file.
      let sum = try runChild("/usr/bin/env", ["sha256sum", Self.samples])
      let hex = try #require(sum.output.split(separator: " ").first.map(String.init))
      for (name, file) in [("file", Self.samples), ("stdin", "<stdin>")] {
        let readme = try String(contentsOfFile: directory + "/\(name)/README.md", encoding: .utf8)
        #expect(readme.contains("sha256 \(hex)  \(file)\n"), "\(name)")
      }
    }
  }

  @Test("--format json writes one document holding every file")
  func jsonDocument() throws {
    try inTemporaryDirectory { directory in
      let out = directory + "/export.json"
      #expect(runCommand(["export", "--recognizer", "peek-pop", "--output", out, "--quiet", "--random", "3"]) == 0)
      let document = try jsonObject(out)
      #expect(document["format"] as? String == "touchtrace-export")
      #expect((document["vectors"] as? [String: Any])?["contacts"] as? Int == 3)
      let files = try #require(document["files"] as? [[String: Any]])
      #expect(
        files.contains {
          $0["path"] as? String == "typescript/force-press-core.ts"
            && ($0["contents"] as? String)?.contains("peekThreshold") == true
        })
    }
  }

  @Test(
    "the release executable's Swift core, built with swiftc, equals the replay on its vectors",
    .enabled(if: FileManager.default.isExecutableFile(atPath: releaseBinary), "skipped: no release build"))
  func swiftCoreEqualsReplay() throws {
    try inTemporaryDirectory { directory in
      let out = directory + "/e"
      let export = try runChild(
        releaseBinary,
        [
          "export", "--recognizer", "one-euro/stable-press", "--set", "dwellTime=0.05", "--language", "swift",
          "--output", out,
          "--random", "300", "--seed", "5", Self.samples,
        ])
      #expect(export.code == 0, "\(export.errors)")
      let build = try runChild(
        "/usr/bin/env", ["swiftc", "-O", "ForcePressCore.swift", "check/main.swift", "-o", out + "/check"],
        in: out + "/swift")
      #expect(build.code == 0, "\(build.errors)")
      let check = try runChild("/bin/sh", ["-c", "'\(out)/check' < '\(out)/vectors.txt'"])
      #expect(check.code == 0, "\(check.output)\(check.errors)")
      #expect(
        check.output.hasPrefix("swift: 475 contacts, ") && check.output.hasSuffix(", 0 differences\n"),
        "\(check.output)")
    }
  }
}
