import Testing
import TouchTestSupport

@testable import TouchTraceCLI

/// `--quiet`, `--config`, `--print-config` and `--threads`: one group every command takes, whose
/// options no report records (issue 28).
@Suite("Global options")
struct GlobalOptionsTests {
  @Test func everySubcommandTakesThem() {
    let subcommands = TouchTraceCommand.configuration.subcommands
    #expect(subcommands.count >= 15)
    for type in subcommands {
      #expect(type is any GlobalCommand.Type, "\(type._commandName) lacks the global options")
      let keys = Set(CommandArguments(type).arguments.map(\.key))
      #expect(keys.isSuperset(of: ["quiet", "threads"]), "\(type._commandName): \(keys.sorted())")
    }
  }

  /// Read off the group itself, and left out of every recorded configuration.
  @Test func theirKeysAreNeverRecorded() {
    #expect(GlobalOptions.keys.isSuperset(of: ["quiet", "threads"]))
    #expect(!GlobalOptions.keys.contains("config") && !GlobalOptions.keys.contains("print-config"))
    #expect(GlobalOptions.keys.isSubset(of: StudyFile.Effective.presentation))
  }

  /// The group's own check holds on every command, the ones that replay nothing included.
  @Test(arguments: [
    ["inspect", TestData.samples], ["recognizers"], ["merge", "none.partial"],
    ["sweep", TestData.samples, "--recognizer", "deep-press"],
    ["export", "--recognizer", "deep-press", "--output", "x"],
  ])
  func aThreadCountBelowOneIsAUsageError(_ arguments: [String]) {
    #expect(runCommand(arguments + ["--threads", "0", "--quiet"]) == 64)
  }
}
