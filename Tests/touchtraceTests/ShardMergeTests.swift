import Foundation
import Testing
import TouchPartials
import TouchTestSupport

@testable import TouchTraceCLI

/// `--shard I/N --partial FILE` and `touchtrace merge`: the merged report is the unsharded
/// report, byte for byte, in every format; and the batch size and thread count change nothing.
@Suite("Shards and merge")
struct ShardMergeTests {
  /// Every fifth contact of each samples/ file, written once a run (69 of the 343: the three
  /// devices with their maximum forces, all six users and every intent) under `.build`, where it
  /// is rewritten rather than left behind: the merges of the costlier commands are checked on it,
  /// at a fifth of the replays.
  static let data: String = {
    let directory = TestData.repositoryRoot + "/.build/test-data/samples-every-fifth"
    try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for name in ["synth-iphone6s.csv", "synth-android.csv", "synth-touchpad.csv"] {
      let text = (try? String(contentsOfFile: TestData.samples + "/" + name, encoding: .utf8)) ?? ""
      var kept: [Substring] = []
      var contacts = 0
      var current: Substring?
      for (index, line) in text.split(separator: "\n").enumerated() {
        if index == 0 {
          kept.append(line)
          continue
        }
        let trace = line.prefix { $0 != "," }
        if trace != current {
          contacts += 1
          current = trace
        }
        if contacts % 5 == 1 { kept.append(line) }
      }
      TestData.write(kept.joined(separator: "\n") + "\n", to: directory + "/" + name)
    }
    return directory
  }()

  /// `merge` moves each partial's latency lists to a temporary file as it reads it
  /// (`MergedLists`): the partial keeps its sums, and every configuration's lists and sums read
  /// back are those `MergedStudy` joins in memory from the partials as written.
  @Test func mergeMovesEachPartialsListsToDisk() throws {
    try inTemporaryDirectory { directory in
      var partials: [(file: String, partial: StudyPartial)] = []
      for i in 0..<3 {
        let file = "\(directory)/\(i).partial"
        #expect(
          runCommand([
            "sweep", Self.data, "--recognizer", "deep-press,stable-press", "--shard", "\(i)/3", "--partial", file,
            "--quiet",
          ]) == 0)
        partials.append(
          (file, try StudyPartial(decoding: Array(try Data(contentsOf: URL(fileURLWithPath: file))), file: file)))
      }
      let joined = try #require(try MergedStudy(partials).sweep)
      #expect(joined.configurations.contains { !$0.lists.allSatisfy(\.isEmpty) })
      var lists = MergedLists()
      var moved = partials
      for k in moved.indices { try lists.absorb(&moved[k].partial) }
      #expect(
        moved.allSatisfy { $0.partial.sweep?.configurations.allSatisfy { $0.lists.allSatisfy(\.isEmpty) } == true })
      let spilled = try #require(lists.spilled)
      #expect(try spilled.materialized() == joined)
      // What merging the emptied partials still joins: the sums.
      let sums = try #require(try MergedStudy(moved).sweep)
      #expect(sums.configurations.map(\.counts) == joined.configurations.map(\.counts))
    }
  }

  /// Runs `command` on samples/ unsharded (each format) and as `n` shards merged, for each `n`,
  /// and expects identical bytes.
  static func expectMergesEqual(
    _ command: [String], shards counts: [Int], formats: [String] = ["json", "csv", "md"],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    try inTemporaryDirectory { directory in
      var whole: [String: Data] = [:]
      for format in formats {
        let path = "\(directory)/whole.\(format)"
        #expect(runCommand(command + ["--output", path, "--quiet"]) == 0, sourceLocation: sourceLocation)
        whole[format] = try Data(contentsOf: URL(fileURLWithPath: path))
      }
      for n in counts {
        let parts = "\(directory)/parts-\(n)"
        try FileManager.default.createDirectory(atPath: parts, withIntermediateDirectories: false)
        for i in 0..<n {
          #expect(
            runCommand(command + ["--shard", "\(i)/\(n)", "--partial", "\(parts)/\(i).partial", "--quiet"]) == 0,
            sourceLocation: sourceLocation)
        }
        for format in formats {
          let path = "\(directory)/merged-\(n).\(format)"
          #expect(runCommand(["merge", parts, "--output", path, "--quiet"]) == 0, sourceLocation: sourceLocation)
          let merged = try Data(contentsOf: URL(fileURLWithPath: path))
          #expect(merged == whole[format], "\(command[0]) \(n) shards, \(format)", sourceLocation: sourceLocation)
        }
      }
    }
  }

  /// One-pass, class and replayed configurations; one and two stages; a require-to-fail
  /// composition; per-user groups.
  @Test func sweepMergesToTheUnshardedReport() throws {
    try Self.expectMergesEqual(
      [
        "sweep", ShardMergeTests.data, "--recognizer", "deep-press,hysteresis,peek-pop,long-press,tap+deep-press",
        "--by", "user",
      ],
      shards: [1, 2, 4, 7])
  }

  /// A sweep's HTML report merged: its figures replay the inputs the shards read (checked by
  /// their SHA-256), so the page is the unsharded one, byte for byte; once an input changes, the
  /// merge refuses the HTML report (exit 65, nothing written) and still writes the others.
  @Test func sweepMergesToTheUnshardedHTMLReport() throws {
    try Self.expectMergesEqual(
      ["sweep", ShardMergeTests.data, "--recognizer", "deep-press,stable-press,peek-pop", "--by", "user"],
      shards: [1, 3], formats: ["html"])
    try inTemporaryDirectory { directory in
      let input = directory + "/in.csv"
      let text = try String(contentsOfFile: ShardMergeTests.data + "/synth-android.csv", encoding: .utf8)
      TestData.write(text, to: input)
      for i in 0..<2 {
        #expect(
          runCommand([
            "sweep", input, "--recognizer", "deep-press", "--shard", "\(i)/2", "--partial", "\(directory)/\(i).partial",
            "--quiet",
          ]) == 0)
      }
      let parts = ["merge", directory + "/0.partial", directory + "/1.partial", "--quiet", "--output"]
      #expect(runCommand(parts + [directory + "/before.html"]) == 0)
      // The same traces, one force a hair different: only the SHA-256 tells.
      let changed = text.replacingOccurrences(of: ",0.5,", with: ",0.51,")
      #expect(changed != text)
      TestData.write(changed, to: input)
      let run = try runTouchtrace(parts + [directory + "/after.html"])
      #expect(run.code == 65)
      #expect(run.errors.contains("changed since (SHA-256 differs)"))
      #expect(!FileManager.default.fileExists(atPath: directory + "/after.html"))
      #expect(runCommand(parts + [directory + "/after.json"]) == 0)
    }
  }

  /// `tune`'s and `compare`'s HTML reports merged: their figures, example traces included,
  /// come from a second read of the inputs the shards read, so the pages are the unsharded ones.
  @Test func tuneAndCompareMergeToTheUnshardedHTMLReports() throws {
    try Self.expectMergesEqual(
      [
        "tune", ShardMergeTests.data, "--recognizer", "deep-press,stable-press", "--folds", "3", "--group-by", "user",
        "--bootstrap", "50", "--by", "device",
      ],
      shards: [1, 3], formats: ["html"])
    try Self.expectMergesEqual(
      [
        "compare", ShardMergeTests.data, "--a", "deep-press:threshold=0.4", "--b", "stable-press", "--group-by", "user",
        "--bootstrap", "50",
      ],
      shards: [1, 3], formats: ["html"])
  }

  /// Grouped cross-validation and a bootstrap of the chosen configuration.
  @Test func tuneMergesToTheUnshardedReport() throws {
    try Self.expectMergesEqual(
      [
        "tune", ShardMergeTests.data, "--recognizer", "deep-press,stable-press,peek-pop", "--folds", "3", "--group-by",
        "user",
        "--bootstrap", "200", "--seed", "11",
      ],
      shards: [1, 2, 4, 7])
  }

  /// Paired decisions (McNemar) and the bootstrap of the latency difference over users.
  @Test func compareMergesToTheUnshardedReport() throws {
    try Self.expectMergesEqual(
      [
        "compare", ShardMergeTests.data, "--a", "deep-press:threshold=0.4", "--b", "stable-press", "--group-by", "user",
        "--bootstrap", "300",
      ],
      shards: [1, 2, 4, 7])
  }

  /// `run`: per-trace replays of a composition, in trace order.
  @Test func runMergesToTheUnshardedReport() throws {
    try Self.expectMergesEqual(
      ["run", ShardMergeTests.data, "--recognizer", "tap", "--require-failure-of", "deep-press"], shards: [1, 2, 4, 7],
      formats: ["json", "csv"])
  }

  /// Traces with synthesized time travel whole, so the merged report states their interval.
  @Test func synthesizedTimeSurvivesTheMerge() throws {
    try inTemporaryDirectory(writing: PapercutTests.synthesized) { directory in
      try Self.expectMergesEqual(
        ["sweep", directory + "/t.csv", "--recognizer", "deep-press", "--positive", "press"], shards: [1, 2, 3],
        formats: ["md", "json"])
    }
  }

  /// Batches of 1, 7 and 100 traces, 1 and 2 threads: the same bytes as one batch of all.
  @Test func batchSizeAndThreadsChangeNothing() throws {
    try inTemporaryDirectory { directory in
      let command = [
        "sweep", ShardMergeTests.data, "--recognizer", "deep-press,hysteresis,peek-pop,tap+deep-press", "--by",
        "device", "--quiet",
      ]
      let reference = directory + "/all.json"
      #expect(runCommand(command + ["--batch-traces", "100000", "--threads", "1", "--output", reference]) == 0)
      let expected = try Data(contentsOf: URL(fileURLWithPath: reference))
      for (batch, threads) in [(1, 2), (7, 1), (100, 2)] {
        let path = directory + "/\(batch)-\(threads).json"
        #expect(runCommand(command + ["--batch-traces", "\(batch)", "--threads", "\(threads)", "--output", path]) == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == expected, "batch \(batch), threads \(threads)")
      }
    }
  }

  /// Runs `command` in batches of 1 (2 threads) and 7 (1 thread) and expects the report at
  /// `reference` (made in one batch of all), byte for byte, in `format`.
  static func expectBatchesGive(
    _ reference: String, command: [String], format: String, in directory: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let expected = try Data(contentsOf: URL(fileURLWithPath: reference))
    #expect(!expected.isEmpty, sourceLocation: sourceLocation)
    for (batch, threads) in [(1, 2), (7, 1)] {
      let path = directory + "/\(batch)-\(threads).\(format)"
      let arguments = ["--batch-traces", "\(batch)", "--threads", "\(threads)", "--format", format, "--output", path]
      #expect(runCommand(command + arguments) == 0, sourceLocation: sourceLocation)
      #expect(
        try Data(contentsOf: URL(fileURLWithPath: path)) == expected, "\(format): batch \(batch)",
        sourceLocation: sourceLocation)
    }
  }

  /// `compare` pairs A's and B's outcomes as the traces are read (no samples kept): batches of 1,
  /// 7 and all traces, 1 and 2 threads give the same bytes in every format it streams, and its
  /// `--outcomes` table, written from those outcomes, is the table of the path that keeps the
  /// traces and replays them after the read (taken for an HTML report).
  @Test func compareStreamsLikeItReplays() throws {
    try inTemporaryDirectory { directory in
      let command = [
        "compare", ShardMergeTests.data, "--a", "deep-press", "--b", "stable-press", "--bootstrap", "50", "--seed", "4",
        "--group-by", "user", "--by", "device", "--quiet",
      ]
      let replayed = directory + "/replayed.csv"
      #expect(
        runCommand(command + ["--outcomes", replayed, "--format", "html", "--output", directory + "/r.html"]) == 0)
      for format in ["json", "md", "csv"] {
        let reference = directory + "/all.\(format)"
        let streamed = directory + "/streamed-\(format).csv"
        #expect(
          runCommand(
            command + ["--batch-traces", "100000", "--outcomes", streamed, "--format", format, "--output", reference])
            == 0)
        #expect(
          try Data(contentsOf: URL(fileURLWithPath: streamed)) == Data(contentsOf: URL(fileURLWithPath: replayed)))
        try Self.expectBatchesGive(reference, command: command, format: format, in: directory)
      }
    }
  }

  /// `tune` keeps every configuration's outcomes on disk as the traces are read, batch by batch,
  /// for its folds and bootstrap: batches of 1, 7 and all traces, 1 and 2 threads give the same
  /// bytes in every format.
  @Test func tuneReportsDoNotDependOnTheBatchSize() throws {
    try inTemporaryDirectory { directory in
      let command = [
        "tune", ShardMergeTests.data, "--recognizer", "deep-press,stable-press", "--folds", "3", "--group-by", "user",
        "--bootstrap", "50", "--seed", "5", "--by", "device", "--quiet",
      ]
      for format in ["json", "md", "csv"] {
        let reference = directory + "/all.\(format)"
        #expect(runCommand(command + ["--batch-traces", "100000", "--format", format, "--output", reference]) == 0)
        try Self.expectBatchesGive(reference, command: command, format: format, in: directory)
      }
    }
  }

  /// The sweep of every catalog recognizer over ``data`` in one batch of all (JSON), made once
  /// for the batch sizes below.
  static let everyRecognizerInOneBatch: Data = {
    inTemporaryDirectory { directory in
      let reference = directory + "/all.json"
      let code = runCommand(everyRecognizerSweep + ["--batch-traces", "100000", "--output", reference])
      return code == 0 ? (try? Data(contentsOf: URL(fileURLWithPath: reference))) ?? Data() : Data()
    }
  }()

  static let everyRecognizerSweep = [
    "sweep", ShardMergeTests.data, "--recognizer", "all", "--format", "json", "--quiet",
  ]

  /// Every catalog recognizer over ``data`` (iPhone, Android and touchpad traces: maximum forces
  /// 20/3, 1 and others, arriving in later batches): recognizers whose default grids follow the
  /// maximum force (shunkit, df-continuous) make a later batch restart the pass, which must
  /// build its plan again (issue 26: batches of 1 to 250 crashed with SIGILL). Each batch size
  /// gives the bytes of one batch of all (69 traces: batches of 30 are three, the last short).
  @Test(arguments: [1, 2, 7, 30])
  func everyRecognizerOnMixedDevicesAnyBatch(batch: Int) throws {
    try inTemporaryDirectory { directory throws in
      let path = directory + "/\(batch).json"
      #expect(runCommand(Self.everyRecognizerSweep + ["--batch-traces", "\(batch)", "--output", path]) == 0)
      let expected = Self.everyRecognizerInOneBatch
      #expect(!expected.isEmpty)
      #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == expected, "batch \(batch)")
    }
  }

  /// Shards in small batches (each shard restarts its pass when a new maximum force arrives)
  /// merge to the unsharded report of every catalog recognizer; `tune` over the recognizers
  /// that follow the maximum force too. JSON holds every figure (the other formats render the
  /// same merged state: `sweepMergesToTheUnshardedReport` checks them all).
  @Test func restartedShardsMergeToTheUnshardedReport() throws {
    try Self.expectMergesEqual(
      ["sweep", ShardMergeTests.data, "--recognizer", "all", "--batch-traces", "7"], shards: [3], formats: ["json"])
    try Self.expectMergesEqual(
      ["tune", ShardMergeTests.data, "--recognizer", "shunkit,df-continuous", "--batch-traces", "2"], shards: [2],
      formats: ["json"])
  }

  /// Missing, doubled and mismatched partials are refused with exit 65 and a message naming them;
  /// a file that is not a partial too; HTML (but a sweep's) and --shard without --partial are
  /// usage errors.
  @Test func refusesIncompleteOrMixedPartials() throws {
    try inTemporaryDirectory { directory in
      let command = ["sweep", TestData.samples, "--recognizer", "deep-press", "--quiet"]
      for i in 0..<3 {
        #expect(runCommand(command + ["--shard", "\(i)/3", "--partial", "\(directory)/\(i).partial"]) == 0)
      }
      #expect(
        runCommand([
          "sweep", TestData.samples, "--recognizer", "peek-pop", "--quiet", "--shard", "1/3", "--partial",
          "\(directory)/other.partial",
        ]) == 0)
      let out = directory + "/r.json"
      func merge(_ files: [String]) throws -> (Int32, String) {
        let run = try runTouchtrace(["merge"] + files.map { "\(directory)/\($0)" } + ["--output", out])
        return (run.code, run.errors)
      }
      var (code, errors) = try merge(["0.partial", "2.partial"])
      #expect(code == 65)
      #expect(errors.contains("missing shard 1/3 of 3"))
      (code, errors) = try merge(["0.partial", "1.partial", "2.partial", "1.partial"])
      #expect(code == 65)
      #expect(errors.contains("shard 1/3 given 2 times"))
      (code, errors) = try merge(["0.partial", "other.partial", "2.partial"])
      #expect(code == 65)
      #expect(errors.contains("come from different runs"))
      #expect(errors.contains("peek-pop"))
      TestData.write("trace,t,force\n", to: directory + "/fake.partial")
      (code, errors) = try merge(["0.partial", "fake.partial"])
      #expect(code == 65)
      #expect(errors.contains("fake.partial: not a touchtrace partial"))
      #expect(!FileManager.default.fileExists(atPath: out))
      #expect(runCommand(command + ["--shard", "0/3"]) == 64)
      #expect(runCommand(command + ["--shard", "3/3", "--partial", directory + "/x.partial"]) == 64)
      #expect(runCommand(command + ["--bootstrap", "10", "--partial", directory + "/x.partial"]) == 64)
      // An output the merged command has not (run writes one report).
      #expect(
        runCommand([
          "run", TestData.samples, "--recognizer", "deep-press", "--quiet", "--partial", directory + "/run.partial",
        ]) == 0)
      #expect(runCommand(["merge", directory + "/run.partial", "--csv-output", directory + "/x.csv", "--quiet"]) == 64)
      // run has no HTML report.
      #expect(runCommand(["merge", directory + "/run.partial", "--output", directory + "/r.html", "--quiet"]) == 64)
      #expect(!FileManager.default.fileExists(atPath: directory + "/r.html"))
      #expect(!FileManager.default.fileExists(atPath: directory + "/x.csv"))
    }
  }

  /// A forged partial (checksum recomputed) whose recorded arguments name an `exec:` recognizer
  /// or an output: merge refuses it (exit 65), starts nothing and writes nowhere.
  @Test func mergeRunsNothingAPartialRecords() throws {
    try inTemporaryDirectory { directory in
      let shard = directory + "/0.partial"
      #expect(
        runCommand(["sweep", TestData.samples, "--recognizer", "deep-press", "--quiet", "--partial", shard]) == 0)
      let original = try StudyPartial(decoding: Array(try Data(contentsOf: URL(fileURLWithPath: shard))), file: shard)
      let ran = directory + "/ran"
      let elsewhere = directory + "/elsewhere.json"
      for arguments in [
        ["--recognizer", "exec:touch \(ran)", "--", TestData.samples],
        ["--recognizer", "deep-press,exec:touch \(ran)", "--", TestData.samples],
        ["--output", elsewhere, "--recognizer", "deep-press", "--", TestData.samples],
        ["--config", directory + "/study.toml", "--recognizer", "deep-press", "--", TestData.samples],
        ["--csv-output", elsewhere, "--recognizer", "deep-press", "--", TestData.samples],
      ] {
        var forged = original
        forged.arguments = arguments
        let path = directory + "/forged.partial"
        try Data(forged.encoded()).write(to: URL(fileURLWithPath: path))
        let run = try runTouchtrace(["merge", path, "--output", directory + "/r.json"])
        #expect(run.code == 65, "\(arguments): \(run.errors)")
        #expect(run.errors.contains("forged.partial: it records"), "\(run.errors)")
        #expect(!FileManager.default.fileExists(atPath: ran))
        #expect(!FileManager.default.fileExists(atPath: elsewhere))
        #expect(!FileManager.default.fileExists(atPath: directory + "/r.json"))
      }
      // A shard of an exec: recognizer is refused before its command starts (merge could not
      // use its partial).
      let refused = try runTouchtrace(
        [
          "sweep", TestData.samples, "--recognizer", "exec:touch \(ran)", "--shard", "0/2", "--partial",
          directory + "/e.partial",
        ])
      #expect(refused.code == 64, "\(refused.errors)")
      #expect(refused.errors.contains("merge would refuse this partial"), "\(refused.errors)")
      #expect(!FileManager.default.fileExists(atPath: ran))
      #expect(!FileManager.default.fileExists(atPath: directory + "/e.partial"))
      // The genuine partial still merges.
      #expect(runCommand(["merge", shard, "--output", directory + "/r.json", "--quiet"]) == 0)
    }
  }

  /// Shards run on edited data under the same path: their input hashes differ, merge refuses.
  @Test func refusesShardsOfEditedData() throws {
    try inTemporaryDirectory { directory in
      let data = directory + "/data.csv"
      let text = try String(contentsOfFile: TestData.samples + "/synth-iphone6s.csv", encoding: .utf8)
      try text.write(toFile: data, atomically: true, encoding: .utf8)
      let command = ["sweep", data, "--recognizer", "deep-press", "--quiet"]
      #expect(runCommand(command + ["--shard", "0/2", "--partial", directory + "/0.partial"]) == 0)
      // One force changed: the same file name, other contents.
      let line = try #require(text.split(separator: "\n").dropFirst().first(where: { $0.contains("moved") }))
      var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      fields[2] = String(Double(fields[2])! * 0.5)
      try text.replacingOccurrences(of: String(line), with: fields.joined(separator: ","))
        .write(toFile: data, atomically: true, encoding: .utf8)
      #expect(runCommand(command + ["--shard", "1/2", "--partial", directory + "/1.partial"]) == 0)
      let run = try runTouchtrace(
        ["merge", directory + "/0.partial", directory + "/1.partial", "--output", directory + "/r.json"])
      #expect(run.code == 65)
      #expect(run.errors.contains("the same files with other contents"), "\(run.errors)")
      #expect(!FileManager.default.fileExists(atPath: directory + "/r.json"))
    }
  }

  /// `merge P/ --output P/0.partial` (or a JSON or CSV output onto a partial) is refused with
  /// exit 73, and the partial is left as it was.
  @Test func refusesAnOutputOverAPartial() throws {
    try inTemporaryDirectory { directory in
      let parts = directory + "/P"
      try FileManager.default.createDirectory(atPath: parts, withIntermediateDirectories: false)
      let command = ["sweep", TestData.samples, "--recognizer", "deep-press", "--quiet"]
      for i in 0..<2 {
        #expect(runCommand(command + ["--shard", "\(i)/2", "--partial", "\(parts)/\(i).partial"]) == 0)
      }
      let before = try Data(contentsOf: URL(fileURLWithPath: parts + "/0.partial"))
      for options in [
        ["--output", parts + "/0.partial"], ["--output", parts + "/1.partial", "--format", "json"],
        ["--output", directory + "/r.md", "--json-output", parts + "/0.partial"],
        ["--output", directory + "/r.md", "--csv-output", parts + "/1.partial"],
      ] {
        let run = try runTouchtrace(["merge", parts] + options)
        #expect(run.code == 73, "\(options): \(run.errors)")
        #expect(run.errors.contains("input"), "\(run.errors)")
      }
      #expect(try Data(contentsOf: URL(fileURLWithPath: parts + "/0.partial")) == before)
      #expect(!FileManager.default.fileExists(atPath: directory + "/r.md"))
      #expect(runCommand(["merge", parts, "--output", directory + "/r.md", "--quiet"]) == 0)
    }
  }
}
