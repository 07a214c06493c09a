import Foundation
import Testing
import TouchTestSupport

@testable import TouchTraceCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `inspect`, `features`, `smooth`, `import` and `synth` process traces batch by batch
/// (`--batch-traces`): the batch size changes no byte, a failed run leaves the target and its
/// directory as they were, and the temporary spool files are gone at the end.
@Suite("Streaming commands")
struct StreamingCommandTests {
  /// Each command, each format it writes: batches of 1, 7 and 100 000 traces give the same bytes.
  @Test(arguments: [
    (["inspect", TestData.samples], ["md", "json"]),
    (["inspect", TestData.samples, "--only", "intent=press,tap"], ["json"]),
    (["features", TestData.samples], ["csv", "json"]),
    (["features", TestData.samples, "--skip-invalid", "--only", "device=iphone6s,touchpad"], ["csv", "json"]),
    (["smooth", TestData.samples, "--method", "savgol", "--window", "7"], ["csv", "json", "jsonl"]),
    (["smooth", TestData.samples, "--method", "ema", "--alpha", "0.4", "--only", "device=android"], ["csv", "jsonl"]),
    (["synth", "--profile", "touchpad", "--count", "40", "--seed", "3"], ["csv", "json", "jsonl"]),
  ])
  func batchSizeChangesNoByte(command: [String], formats: [String]) throws {
    try inTemporaryDirectory { directory in
      for format in formats {
        var outputs: [Data] = []
        for batch in [1, 7, 100_000] {
          let path = "\(directory)/\(batch).\(format)"
          #expect(
            runCommand(command + ["--format", format, "--batch-traces", "\(batch)", "--output", path, "--quiet"]) == 0)
          outputs.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        #expect(!outputs[0].isEmpty)
        #expect(outputs[1] == outputs[0], "\(command) \(format): batches of 7")
        #expect(outputs[2] == outputs[0], "\(command) \(format): one batch")
      }
    }
  }

  /// `import` of several recordings, written as each is converted: the batch size changes no
  /// byte, and every contact of the three files (the sample holds two) is in the output, in
  /// file order.
  @Test func importBatchSizeChangesNoByte() throws {
    let sample = try String(contentsOfFile: TestData.samples + "/recordings/force-values.txt", encoding: .utf8)
    try inTemporaryDirectory { directory in
      let inputs = directory + "/in"
      try FileManager.default.createDirectory(atPath: inputs, withIntermediateDirectories: false)
      for name in ["a", "b", "c"] { TestData.write(sample, to: "\(inputs)/\(name).txt") }
      for format in ["csv", "json", "jsonl"] {
        var outputs: [Data] = []
        for batch in [1, 2, 100_000] {
          let path = "\(directory)/\(batch).\(format)"
          let code = runCommand([
            "import", "--from", "force-values", "\(inputs)/a.txt", "\(inputs)/b.txt", "\(inputs)/c.txt", "--interval",
            "0.016667", "--format", format, "--batch-traces",
            "\(batch)", "--output", path, "--quiet",
          ])
          #expect(code == 0)
          outputs.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        #expect(outputs[1] == outputs[0], "\(format): batches of 2")
        #expect(outputs[2] == outputs[0], "\(format): one batch")
        if format == "jsonl" {
          let ids = String(decoding: outputs[0], as: UTF8.self).split(separator: "\n").map { line in
            line.split(separator: "\"")[3]  // {"id":"NAME",…
          }
          #expect(ids == ["a", "a", "b", "b", "c", "c"])  // two contacts per file
        }
      }
    }
  }

  /// A run that fails after it has started writing (here: `--only` keeps no trace, found at the
  /// end of the input) leaves an existing target as it was and no temporary file beside it.
  @Test(arguments: [
    ["smooth", TestData.samples, "--method", "median", "--window", "5", "--format", "csv"],
    ["smooth", TestData.samples, "--method", "median", "--window", "5", "--format", "json"],
    ["features", TestData.samples, "--format", "json"],
    ["features", TestData.samples, "--format", "csv"],
    ["inspect", TestData.samples, "--format", "json"],
  ])
  func failedRunLeavesTheTargetAlone(command: [String]) throws {
    try inTemporaryDirectory { directory in
      let target = directory + "/out.data"
      TestData.write("keep me\n", to: target)
      let code = runCommand(
        command + ["--only", "device=no-such-device", "--batch-traces", "5", "--output", target, "--quiet"])
      #expect(code == 65)
      let kept = try String(contentsOfFile: target, encoding: .utf8)
      let names = try FileManager.default.contentsOfDirectory(atPath: directory)
      #expect(kept == "keep me\n")
      #expect(names == ["out.data"])
    }
  }

  /// CSV to standard output goes through a spool file in `$TMPDIR`: the bytes equal the file
  /// output's, and the spool is removed.
  @Test func standardOutputSpoolIsRemoved() throws {
    try inTemporaryDirectory { directory in
      let spool = directory + "/tmp"
      try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: false)
      let file = directory + "/s.csv"
      let arguments = ["synth", "--profile", "android", "--count", "9", "--format", "csv", "--batch-traces", "2"]
      #expect(runCommand(arguments + ["--output", file, "--quiet"]) == 0)
      let run = try runTouchtrace(arguments, environment: ["TMPDIR": spool])
      #expect(run.code == 0)
      let written = try String(contentsOfFile: file, encoding: .utf8)
      let left = try FileManager.default.contentsOfDirectory(atPath: spool)
      #expect(run.output == written)
      #expect(left.isEmpty)
    }
  }

  /// `--batch-traces 0` is a usage error.
  @Test func batchTracesMustBePositive() {
    #expect(runCommand(["synth", "--profile", "android", "--count", "2", "--batch-traces", "0"]) == 64)
    #expect(runCommand(["inspect", TestData.samples, "--batch-traces", "0"]) == 64)
  }
}
