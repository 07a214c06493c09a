import Foundation
import Testing
import TouchTestSupport

@testable import TouchTraceCLI

/// Labels on the command line: `--only` on any label, `id#n`, `touch=N`, the filter that keeps
/// nothing (exit 65), `--label-from-path`, `--labels-override`, `--by` an extra label.
///
/// Expected numbers come from the committed samples (84 android, 175 iphone6s and 84 touchpad
/// traces, one device per file, all contact 0) and from the real recordings' SOURCE.md.
@Suite("Labels (command line)", .touchtraceIsBuilt)
struct LabelCommandTests {
  static let samples = TestData.samples

  @Test func aFilterThatKeepsNothingIsADataError() throws {
    let devices = try runTouchtrace(["inspect", Self.samples, "--only", "device=nokia"])
    #expect(devices.code == 65)
    #expect(
      devices.errors
        == "touchtrace: error: --only device=nokia kept no trace; device values present: 'android', 'iphone6s', 'touchpad'\n"
    )
    // The second filter empties what the first kept; it is the one named.
    let hand = try runTouchtrace(["inspect", Self.samples, "--only", "device=android", "--only", "hand=left"])
    #expect(hand.code == 65)
    #expect(hand.errors == "touchtrace: error: --only hand=left kept no trace; no trace has a hand\n")
    let touch = try runTouchtrace(["inspect", Self.samples, "--only", "touch=1"])
    #expect(touch.code == 65)
    #expect(touch.errors == "touchtrace: error: --only touch=1 kept no trace; touch values present: '0'\n")
    #expect(
      try runTouchtrace(["inspect", Self.samples, "--only", "touch=0", "--output", "-", "--format", "json"]).code == 0)
  }

  @Test func labelFromPathGroupsAndFilters() throws {
    try inTemporaryDirectory { (directory: String) throws in
      // synth-{profile}.csv: android, iphone6s, touchpad — the same split as the device column.
      let path = ["--label-from-path", "synth-{profile}.csv"]
      let byProfile = directory + "/profile.json"
      let byDevice = directory + "/device.json"
      let sweep = ["sweep", Self.samples, "--recognizer", "deep-press", "--vary", "threshold=0.35", "--quiet"]
      #expect(runCommand(sweep + path + ["--by", "profile", "--output", byProfile]) == 0)
      #expect(runCommand(sweep + ["--by", "device", "--output", byDevice]) == 0)
      let profile = try #require(try jsonObject(byProfile)["by"] as? [String: Any])
      let device = try #require(try jsonObject(byDevice)["by"] as? [String: Any])
      #expect(profile["column"] as? String == "profile")
      let groups = try #require(profile["groups"] as? [[String: Any]])
      #expect(groups.compactMap { $0["group"] as? String } == ["android", "iphone6s", "touchpad"])
      #expect(groups.compactMap { $0["traces"] as? Int } == [84, 175, 84])
      let a = try #require((profile["results"] as? [[String: Any]])?.first?["groups"] as? [[String: Any]])
      let b = try #require((device["results"] as? [[String: Any]])?.first?["groups"] as? [[String: Any]])
      for (x, y) in zip(a, b) {
        for key in ByTests.counts { #expect(x[key] as? Int == y[key] as? Int, "\(key)") }
      }
      // --only on the path label.
      let only = directory + "/only.json"
      #expect(
        runCommand(
          ["inspect", Self.samples] + path + ["--only", "profile=touchpad", "--format", "json", "--output", only]) == 0)
      #expect(try jsonObject(only)["traces"] as? [String: Int] == ["total": 343, "analyzed": 84, "skipped": 259])
    }
  }

  @Test func overridesAreRefusedThenCounted() throws {
    try inTemporaryDirectory { (directory: String) throws in
      let labels = directory + "/labels.csv"
      TestData.write("trace,device,hand\nandroid-s8-0001,phone,left\nandroid-s8-0002,android,right\n", to: labels)
      let refused = try runTouchtrace(["inspect", Self.samples, "--labels", labels])
      #expect(refused.code == 65)
      #expect(
        refused.errors
          == "\(labels):2:17: error: 'device' is 'android' in the data but 'phone' in the labels (--labels-override replaces the data's value) (trace 'android-s8-0001')\n"
      )
      let output = directory + "/inspect.json"
      let note = try runTouchtrace([
        "inspect", Self.samples, "--labels", labels, "--labels-override", "--only", "hand=left,right", "--format",
        "json",
        "--output", output,
      ])
      #expect(note.code == 0)
      // One value replaced (android → phone); android-s8-0002's device is unchanged.
      #expect(note.errors.hasPrefix("note: --labels-override replaced 1 label value in 1 trace\n"))
      let traces = try #require(try jsonObject(output)["traces"] as? [String: Int])
      #expect(traces == ["total": 343, "analyzed": 2, "skipped": 341, "label_overrides": 1])
    }
  }

  @Test func outcomeTablesCarryExtraLabels() throws {
    try inTemporaryDirectory { (directory: String) throws in
      let labels = directory + "/labels.csv"
      TestData.write("trace,hand,posture\nandroid-s8-0001,left,sitting\nandroid-s8-0002,right,\n", to: labels)
      let table = directory + "/o.csv"
      let base = ["run", Self.samples, "--recognizer", "deep-press", "--labels", labels, "--only", "hand=left,right"]
      #expect(runCommand(base + ["--outcomes", table, "--format", "json", "--output", directory + "/r.json"]) == 0)
      let lines = try String(contentsOfFile: table, encoding: .utf8).split(separator: "\n").map(String.init)
      #expect(lines[0].hasSuffix(",latency,label:hand,label:posture"))
      // One row per trace (deep-press acts at most once on these two), ending in its labels.
      #expect(lines.count == 3)
      #expect(lines[1].hasPrefix("0,deep-press,defaults,android-s8-0001,") && lines[1].hasSuffix(",left,sitting"))
      #expect(lines[2].hasPrefix("0,deep-press,defaults,android-s8-0002,") && lines[2].hasSuffix(",right,"))
      let jsonl = directory + "/o.jsonl"
      #expect(runCommand(base + ["--outcomes", jsonl, "--format", "json", "--output", directory + "/r.json"]) == 0)
      let first = try String(contentsOfFile: jsonl, encoding: .utf8).split(separator: "\n")[0]
      #expect(first.hasSuffix(#","labels":{"hand":"left","posture":"sitting"}}"#))
    }
  }

  @Test func contactsByName() throws {
    try inTemporaryDirectory(writing: "trace,touch,t,force\nrec,0,0,1\nrec,0,1,1\nrec,1,0,2\nrec,1,1,2\nrec,2,0,3\n") {
      (directory: String) throws in
      let output = directory + "/o.json"
      let base = ["inspect", directory + "/t.csv", "--format", "json", "--output", output]
      #expect(runCommand(base + ["--only", "id=rec#1"]) == 0)
      #expect(try jsonObject(output)["traces"] as? [String: Int] == ["total": 3, "analyzed": 1, "skipped": 2])
      #expect(runCommand(base + ["--only", "id=rec"]) == 0)
      #expect(try jsonObject(output)["traces"] as? [String: Int] == ["total": 3, "analyzed": 3, "skipped": 0])
      #expect(runCommand(base + ["--only", "touch=0,2"]) == 0)
      #expect(try jsonObject(output)["traces"] as? [String: Int] == ["total": 3, "analyzed": 2, "skipped": 1])
      #expect(runCommand(base + ["--only", "id=rec#3"]) == 65)
    }
  }

  @Test(.enabled(if: SharedData.hasRealData, Comment(rawValue: SharedData.missingRealDataMessage)))
  func importLabelsRealRecordingsFromTheirPaths() throws {
    try inTemporaryDirectory { (directory: String) throws in
      let imported = directory + "/getevent.csv"
      #expect(
        runCommand([
          "import", "--from", "getevent", SharedData.realData("android-getevent"), "--label-from-path",
          "{device}/*-{gesture}.txt", "--output", imported,
        ]) == 0)
      let output = directory + "/o.json"
      // phone-three-touches and tablet-three-touches: 3 contacts each (SOURCE.md).
      #expect(
        runCommand(["inspect", imported, "--only", "gesture=three-touches", "--format", "json", "--output", output])
          == 0)
      #expect((try jsonObject(output)["traces"] as? [String: Int])?["analyzed"] == 6)
      #expect(
        runCommand([
          "inspect", imported, "--only", "device=Tablet", "--only", "id=tablet-three-touches#2", "--format", "json",
          "--output",
          output,
        ]) == 0)
      #expect((try jsonObject(output)["traces"] as? [String: Int])?["analyzed"] == 1)
    }
  }

  @Test(.enabled(if: SharedData.hasRealData, Comment(rawValue: SharedData.missingRealDataMessage)))
  func tabletColumnsErrorSaysWhereTheLayoutCameFrom() throws {
    // The UCI folder's readme.txt is no tablet log: the default layout expects 7 fields.
    let readme = SharedData.realData("uci-spiral-tablet/hw_dataset/readme.txt")
    let run = try runTouchtrace(["import", "--from", "tablet-csv", readme, "--output", "-"])
    #expect(run.code == 65)
    #expect(
      run.errors.hasPrefix(
        "\(readme):1:47: error: expected 7 fields, found 2: the layout is the default --columns x,y,-,force,-,t_ms,group"
      ))
    #expect(runCommand(["import", "--from", "evemu", "--columns", "x,y,force,t", Self.samples, "--output", "-"]) == 64)
  }
}
