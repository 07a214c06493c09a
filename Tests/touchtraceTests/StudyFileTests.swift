import Foundation
import Testing
@_spi(Fuzz) import TouchCapture
import TouchTestSupport

@testable import TouchTraceCLI

/// `--config study.toml` and `--print-config`: a study file run is the same run as its flags,
/// byte for byte; the printed configuration reruns the run; flags win; mistakes in the file are
/// reported at their line and column with exit 65.
@Suite("Study files", .touchtraceIsBuilt)
struct StudyFileTests {
  static let samples = TestData.repositoryRoot + "/samples/synth-android.csv"

  @Test(arguments: [
    // (flags, the same as a study file)
    (
      [
        "sweep", samples, "--recognizer", "deep-press,stable-press", "--vary", "threshold=0.2:0.6:0.1", "--positive",
        "press,pop",
        "--tolerance", "0.2", "--format", "json",
      ],
      """
      paths = ["\(samples)"]
      positive = ["press", "pop"]
      [sweep]
      recognizer = ["deep-press", "stable-press"]
      vary = ["threshold=0.2:0.6:0.1"]
      tolerance = 0.2
      format = "json"
      """
    ),
    (
      [
        "tune", samples, "--recognizer", "deep-press", "--folds", "3", "--bootstrap", "50", "--seed",
        "18446744073709551615",
        "--format", "md",
      ],
      """
      paths = ["\(samples)"]
      folds = 3
      [tune]
      recognizer = "deep-press"
      bootstrap = 50
      seed = "18446744073709551615"
      format = "md"
      """
    ),
    (
      [
        "compare", samples, "--a", "deep-press", "--b", "stable-press", "--bootstrap", "50",
        "--no-continuity-correction",
        "--format", "json",
      ],
      """
      [compare]
      paths = ["\(samples)"]
      a = "deep-press"
      b = "stable-press"
      bootstrap = 50
      continuity-correction = false
      format = "json"
      """
    ),
  ])
  func aStudyFileRunIsByteIdenticalToItsFlags(_ flags: [String], _ study: String) throws {
    try inTemporaryDirectory { directory in
      let file = directory + "/study.toml"
      TestData.write(study, to: file)
      let direct = try runTouchtrace(flags)
      let configured = try runTouchtrace([flags[0], "--config", file])
      #expect(direct.code == 0 && configured.code == 0, "\(direct.errors)\(configured.errors)")
      #expect(!direct.output.isEmpty)
      #expect(configured.output == direct.output)
      // Both record the same effective configuration, and the tool's version.
      #expect(direct.output.contains("touchtrace \(TouchTraceVersion.current)"))
    }
  }

  /// A value the parser or a command's validation refuses is said at its line in the file, exit
  /// 65 (issue 31), not as a usage error about a flag the user never typed; the same value on
  /// the command line stays a usage error (64), and a command-line flag replacing it is fine.
  @Test func aRefusedValueInTheFileIsReportedAtItsLine() throws {
    try inTemporaryDirectory { directory in
      let file = directory + "/study.toml"
      TestData.write("recognizer = \"deep-press\"\n\n[tune]\nfolds = 3\nmax-early = 2\n", to: file)
      let refused = try runTouchtrace(["tune", Self.samples, "--config", file])
      #expect(refused.code == 65)
      #expect(refused.errors.hasPrefix("\(file):5:1: error: max-early: --max-early must be a number in 0...1, got 2.0"))
      let unparsable = directory + "/bad.toml"
      TestData.write("[sweep]\nrecognizer = \"deep-press\"\ntolerance = \"abc\"\n", to: unparsable)
      let bad = try runTouchtrace(["sweep", Self.samples, "--config", unparsable])
      #expect(bad.code == 65)
      #expect(
        bad.errors.hasPrefix(
          "\(unparsable):3:1: error: tolerance: The value 'abc' is invalid for '--tolerance <seconds>'"))
      #expect(try runTouchtrace(["sweep", Self.samples, "--config", unparsable, "--tolerance", "0.2"]).code == 0)
      #expect(
        try runTouchtrace(["sweep", Self.samples, "--recognizer", "deep-press", "--tolerance", "abc"]).code == 64)
    }
  }

  @Test func printConfigRoundTripsAndReruns() throws {
    try inTemporaryDirectory { directory in
      let flags = [
        "sweep", Self.samples, "--recognizer", "deep-press", "--vary", "threshold=1/60,0.25,0.5", "--only",
        "user=u01,u02",
        "--by", "user", "--skip-invalid", "--format", "csv",
      ]
      let printed = try runTouchtrace(flags + ["--print-config"])
      #expect(printed.code == 0, "\(printed.errors)")
      #expect(printed.output.contains("[sweep]\n"))
      #expect(printed.output.contains("vary = [\"threshold=1/60,0.25,0.5\"]\n"))
      #expect(printed.output.contains("skip-invalid = true\n"))
      #expect(printed.output.contains("tolerance = 0.25\n"), "defaults are printed")
      TestData.write(printed.output, to: directory + "/printed.toml")
      let again = try runTouchtrace(["sweep", "--config", directory + "/printed.toml", "--print-config"])
      #expect(again.output == printed.output)
      let direct = try runTouchtrace(flags)
      let rerun = try runTouchtrace(["sweep", "--config", directory + "/printed.toml"])
      #expect(direct.code == 0 && rerun.code == 0)
      #expect(rerun.output == direct.output && !direct.output.isEmpty)
    }
  }

  @Test func valuesWithQuotesBackslashesAndControlCharactersRoundTrip() throws {
    try inTemporaryDirectory { directory in
      let printed = try runTouchtrace([
        "sweep", Self.samples, "--recognizer", "deep-press", "--only", "id=a\"b\\c\u{7F}\td", "--print-config",
      ])
      #expect(printed.code == 0, "\(printed.errors)")
      #expect(printed.output.contains(#"only = ["id=a\"b\\c\u007F\td"]"#), "\(printed.output)")
      TestData.write(printed.output, to: directory + "/printed.toml")
      let again = try runTouchtrace(["sweep", "--config", directory + "/printed.toml", "--print-config"])
      #expect(again.code == 0 && again.output == printed.output, "\(again.errors)")
    }
  }

  @Test func flagsWinOverTheFileOptionByOption() throws {
    try inTemporaryDirectory { directory in
      TestData.write(
        """
        paths = ["\(Self.samples)"]
        [sweep]
        recognizer = "deep-press"
        vary = ["threshold=0.2,0.4", "x=1"]
        tolerance = 0.1
        """, to: directory + "/study.toml")
      let printed = try runTouchtrace([
        "sweep", "--config", directory + "/study.toml", "--tolerance", "0.3", "--vary", "threshold=0.5",
        "--print-config",
      ])
      #expect(printed.code == 0, "\(printed.errors)")
      #expect(printed.output.contains("tolerance = 0.3\n"))
      #expect(
        printed.output.contains("vary = [\"threshold=0.5\"]\n"),
        "a repeatable option given as a flag replaces every value")
      #expect(printed.output.contains("recognizer = \"deep-press\"\n"))
    }
  }

  @Test func recordedConfigurationLeavesOutThreadsAndOutputs() throws {
    try inTemporaryDirectory { directory in
      let base = ["sweep", Self.samples, "--recognizer", "deep-press", "--format", "json"]
      let one = try runTouchtrace(base + ["--threads", "1"])
      let two = try runTouchtrace(base + ["--threads", "2", "--output", directory + "/report.json"])
      #expect(one.code == 0 && two.code == 0)
      let written = try String(contentsOfFile: directory + "/report.json", encoding: .utf8)
      #expect(written == one.output)
      #expect(
        one.output.contains(#""configuration":{"tool":"touchtrace "#) || one.output.contains(#""configuration": {"#))
      #expect(!one.output.contains("\"threads\""))
    }
  }

  @Test(arguments: [
    (
      "[sweep]\nrecognizer = \"deep-press\"\ntolerence = 0.2\n",
      "3:1: error: unknown key 'tolerence': `touchtrace sweep` has no option --tolerence (did you mean 'tolerance'?)"
    ),
    ("colour = \"red\"\n", "1:1: error: unknown key 'colour': no command has an option --colour"),
    ("[sweep]\n  skip-invalid = \"yes\"\n", "2:3: error: 'skip-invalid' is a flag: give true or false"),
    ("[plot]\nx = 1\n", "1:1: error: unknown table [plot]"),
    ("[sweep]\nrecognizer = \"deep-press\n", "2:"),
  ])
  func mistakesAreReportedWhereTheyAre(_ study: String, _ message: String) throws {
    try inTemporaryDirectory { directory in
      let file = directory + "/study.toml"
      TestData.write(study, to: file)
      let result = try runTouchtrace(["sweep", Self.samples, "--recognizer", "deep-press", "--config", file])
      #expect(result.code == 65)
      #expect(result.errors.hasPrefix(file + ":" + message), "\(result.errors)")
      #expect(result.output.isEmpty)
    }
  }

  @Test func aMissingStudyFileIsExit66() throws {
    let result = try runTouchtrace([
      "sweep", Self.samples, "--recognizer", "deep-press", "--config", "/nonexistent/study.toml",
    ])
    #expect(result.code == 66)
    #expect(result.errors.contains("/nonexistent/study.toml"))
  }

  @Test func topLevelOptionsOfOtherCommandsAreIgnored() throws {
    try inTemporaryDirectory { directory in
      // `folds` is tune's; sweep ignores it, tune takes it.
      TestData.write(
        "paths = [\"\(Self.samples)\"]\nrecognizer = \"deep-press\"\nfolds = 4\n", to: directory + "/study.toml")
      let sweep = try runTouchtrace(["sweep", "--config", directory + "/study.toml", "--print-config"])
      #expect(sweep.code == 0 && !sweep.output.contains("folds"))
      let tune = try runTouchtrace(["tune", "--config", directory + "/study.toml", "--print-config"])
      #expect(tune.code == 0 && tune.output.contains("folds = 4\n"), "\(tune.errors)")
    }
  }
}

/// `[capture.intents.INTENT]` tables in a study file give the capture page its texts.
@Suite("study files: capture texts")
struct CaptureStudyTextTests {
  @Test func intentTablesBecomeTheTextOptions() throws {
    try inTemporaryDirectory { directory in
      let file = directory + "/study.toml"
      TestData.write(
        """
        [capture]
        dataset = "recordings"
        practice = 2
        consent = "I agree to take part."

        [capture.intents.tap]
        prompt = "Tap quickly"

        [capture.intents.press]
        prompt = "Press hard"
        instructions = "Push down firmly = then lift."

        """, to: file)
      let printed = try runTouchtrace(["capture", "--config", file, "--print-config"])
      #expect(printed.code == 0, "\(printed.errors)")
      #expect(printed.output.contains("intents = \"press,tap\"\n"), "\(printed.output)")
      #expect(
        printed.output.contains("intent-prompt = [\"press=Press hard\", \"tap=Tap quickly\"]\n"), "\(printed.output)")
      #expect(
        printed.output.contains("intent-instructions = [\"press=Push down firmly = then lift.\"]\n"),
        "\(printed.output)")
      #expect(printed.output.contains("practice = 2\n"))

      let command = try #require(
        try TouchTraceCommand.parseAsRoot([
          "capture", "--dataset", "d", "--intents", "press,tap", "--intent-prompt", "press=Press hard",
          "--intent-instructions", "press=Push down = firmly.", "--intent-instructions", "tap=Touch and lift.",
        ]) as? TouchTraceCommand.Capture)
      let configuration = try command.captureConfiguration(readingToken: false)
      #expect(configuration.texts[.press] == IntentText(prompt: "Press hard", instructions: "Push down = firmly."))
      #expect(
        configuration.texts[.tap]
          == IntentText(prompt: IntentText.standard(for: .tap).prompt, instructions: "Touch and lift."))

      TestData.write("[capture.intents.wiggle]\nprompt = \"x\"\n", to: file)
      let bad = try runTouchtrace(["capture", "--config", file, "--dataset", "d"])
      #expect(bad.code == 65)
      #expect(bad.errors.contains("[capture.intents.wiggle]"), "\(bad.errors)")
      #expect(runCommand(["capture", "--dataset", directory + "/d", "--intent-prompt", "wiggle=x"]) == 64)
      #expect(
        runCommand(["capture", "--dataset", directory + "/d", "--intents", "tap", "--intent-prompt", "press=x"]) == 64)
      #expect(runCommand(["capture", "--dataset", directory + "/d", "--practice", "21"]) == 64)
    }
  }
}
