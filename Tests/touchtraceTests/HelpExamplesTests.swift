import ArgumentParser
import Foundation
import Testing
import TouchTestSupport

@testable import TouchTraceCLI

/// Every subcommand's `--help` ends its description with an Examples section whose commands run
/// as written: each is run by `/bin/sh` from a directory holding the repository's `samples/`
/// (so files the examples write land there), in order, and must exit 0.
@Suite("Help examples", .touchtraceIsBuilt)
struct HelpExamplesTests {
  /// The commands that serve a page until a signal ends them (capture also when a browser has
  /// done every prompt), with the URL as the first line of standard output (by contract):
  /// CaptureCommandTests and TryCommandTests run their examples that way.
  static let servers: Set<String> = ["capture", "try"]

  /// Every subcommand's name but the ``servers``.
  static let commands = TouchTraceCommand.configuration.subcommands.map { $0._commandName }.filter {
    !servers.contains($0)
  }

  /// The example commands in `command`'s help as printed at 80 columns (continuation lines
  /// ending in `\` joined), with the longest printed line.
  static func examples(_ command: String) -> (commands: [String], widest: Int) {
    guard let type = TouchTraceCommand.configuration.subcommands.first(where: { $0._commandName == command }) else {
      return ([], 0)
    }
    let help = type.helpMessage(columns: 80)
    guard let start = help.range(of: "\nExamples (from the repository root):\n") else { return ([], 0) }
    var commands: [String] = []
    var widest = 0
    var continuing = false
    for line in help[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
      if line.isEmpty { break }
      widest = max(widest, line.count)
      let text = line.trimmingCharacters(in: .whitespaces)
      let body = text.hasSuffix("\\") ? String(text.dropLast()).trimmingCharacters(in: .whitespaces) : text
      if continuing { commands[commands.count - 1] += " " + body } else { commands.append(body) }
      continuing = text.hasSuffix("\\")
    }
    return (commands, widest)
  }

  @Test(arguments: commands)
  func examplesRunAsWritten(_ command: String) throws {
    let (examples, widest) = Self.examples(command)
    #expect(!examples.isEmpty, "touchtrace \(command) --help has no Examples section")
    #expect(widest <= 80, "an example line of \(command) is wider than 80 columns: it would wrap")
    try inTemporaryDirectory { directory in
      try FileManager.default.createSymbolicLink(
        atPath: directory + "/samples", withDestinationPath: TestData.repositoryRoot + "/samples")
      // Examples run in order in one directory; lines before the command's own may prepare its
      // input with other commands (merge's partials).
      #expect(examples.contains { $0.hasPrefix("touchtrace \(command) ") }, "no example of touchtrace \(command)")
      for example in examples {
        #expect(example.hasPrefix("touchtrace "), "\(example)")
        let (status, errors) = try Self.shell(example, in: directory)
        #expect(status == 0, "\(example) exited \(status): \(errors)")
      }
    }
  }

  /// The shared vocabulary: every subcommand's first example of itself (after the examples
  /// before it, which prepare its input) with `--format json --output - --quiet` writes one JSON
  /// document to standard output and nothing to standard error.
  @Test(arguments: commands)
  func everyCommandTakesFormatJSONOutputDashAndQuiet(_ command: String) throws {
    let examples = Self.examples(command).commands
    guard let first = examples.firstIndex(where: { $0.hasPrefix("touchtrace \(command) ") }) else {
      Issue.record("touchtrace \(command) --help has no example of itself")
      return
    }
    let example = examples[first]
    try inTemporaryDirectory { directory in
      try FileManager.default.createSymbolicLink(
        atPath: directory + "/samples", withDestinationPath: TestData.repositoryRoot + "/samples")
      for preparation in examples[..<first] {
        let (status, errors) = try Self.shell(preparation + " --quiet", in: directory)
        #expect(status == 0, "\(preparation) exited \(status): \(errors)")
      }
      // Output options given last win over the example's own.
      let line = example + " --format json --output - --quiet"
      let (status, output, errors) = try Self.shell(line, in: directory, keepingOutput: true)
      #expect(status == 0, "\(line) exited \(status): \(errors)")
      #expect(errors.isEmpty, "\(line) wrote to standard error under --quiet: \(errors)")
      let document = try? JSONSerialization.jsonObject(with: Data(output.utf8))
      #expect(document != nil, "\(line) did not write one JSON document: \(output.prefix(200))")
    }
  }

  /// Runs `line` with `/bin/sh -c` in `directory`, the built `touchtrace` first on the path;
  /// returns the exit status and standard error (standard output is read and dropped).
  static func shell(_ line: String, in directory: String) throws -> (Int32, String) {
    let (status, _, errors) = try shell(line, in: directory, keepingOutput: false)
    return (status, errors)
  }

  /// Runs `line` like ``shell(_:in:)``; returns standard output too when `keepingOutput`.
  static func shell(_ line: String, in directory: String, keepingOutput: Bool) throws -> (Int32, String, String) {
    var environment = ProcessInfo.processInfo.environment
    environment["PATH"] = builtProducts + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    let (status, output, errors) = try runChild("/bin/sh", ["-c", line], in: directory, environment: environment)
    return (status, keepingOutput ? output : "", errors)
  }
}
