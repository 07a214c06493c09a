import Testing
import TouchCore
import TouchTestSupport

@testable import TouchIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Extra label columns in labels files, `--labels-override`, `--label-from-path`, and extra labels
/// in the trace formats.
@Suite("Extra labels") struct ExtraLabelsTests {
  /// Two traces in two files; `a` has user u1 and device pad, `b` no user.
  static let files: KeyValuePairs<String, String> = [
    "lab/pad/alice/press-01.csv": "trace,t,force,user,device\na,0,1,u1,pad\na,1,2,u1,pad\n",
    "lab/pen/bob/tap-02.csv": "trace,t,force\nb,0,1\nb,1,1\n",
    "lab/notes.csv": "trace,t,force\nc,0,1\n",
  ]

  @Test func labelsFileExtraColumnsFillAndMayNotContradict() throws {
    let directory = temporaryDirectory(with: [
      "d.csv": "trace,t,force,user\na,0,1,u1\nb,0,1,\n",
      "labels.csv": "trace,Hand,posture,user\na,left,sitting,\nb,right,,u2\n",
    ])
    defer { TestData.remove(directory) }
    let dataset = try TraceLoader.load([directory + "/d.csv"], options: LoadOptions(labels: directory + "/labels.csv"))
    // Header names are case-insensitive (Hand is hand); an empty cell gives no label.
    #expect(dataset.traces[0].metadata.labels == ["hand": "left", "posture": "sitting"])
    #expect(dataset.traces[1].metadata.labels == ["hand": "right"])
    #expect(dataset.traces[1].metadata.user == "u2")
    #expect(dataset.labelOverrides == 0)
    #expect(dataset.diagnostics.isEmpty)
  }

  @Test func overridesAreCountedAndRefusedWithoutTheFlag() throws {
    let directory = temporaryDirectory(with: [
      "d.csv": "trace,t,force,user,device,intent\na,0,1,u1,pad,tap\nb,0,1,u2,pad,tap\nc,0,1,u3,,\n",
      // a: user and intent change (2 values); b: user equal, device changes (1); c: fills only.
      "labels.csv": "trace,user,device,intent,hand\na,u9,pad,press,left\nb,u2,pen,,left\nc,u3,pen,hold,right\n",
    ])
    defer { TestData.remove(directory) }
    let refused = #expect(throws: TraceLoadError.self) {
      try TraceLoader.load([directory + "/d.csv"], options: LoadOptions(labels: directory + "/labels.csv"))
    }
    #expect(refused?.reason == .labelConflict(field: "intent", data: "tap", labels: "press"))
    #expect(refused?.message.contains("--labels-override") == true)
    #expect(refused?.position == TextPosition(line: 2, column: 10))  // "a,u9,pad," is 9 characters

    let dataset = try TraceLoader.load(
      [directory + "/d.csv"], options: LoadOptions(labels: directory + "/labels.csv", labelsOverride: true))
    #expect(dataset.labelOverrides == 3)
    #expect(dataset.overriddenTraces == 2)
    #expect(dataset.traces.map(\.metadata.user) == ["u9", "u2", "u3"])
    #expect(dataset.traces.map(\.metadata.device) == ["pad", "pen", "pen"])
    #expect(dataset.traces.map(\.metadata.intent) == [.press, .tap, .hold])
    #expect(dataset.traces.map { $0.metadata.labels["hand"] } == ["left", "left", "right"])
  }

  @Test func pathPatternsMatchTrailingComponents() throws {
    let pattern = try PathLabels("{device}/{user}/{intent}-*.csv")
    #expect(pattern.names == ["device", "user", "intent"])
    #expect(pattern.match("x/lab/pad/alice/press-01.csv") == ["device": "pad", "user": "alice", "intent": "press"])
    #expect(pattern.match("alice/press-01.csv") == nil)  // too few components
    #expect(pattern.match("pad/alice/press.csv") == nil)  // no '-'
    // Placeholders take as little as lets the rest match: the device ends at the first '.'.
    let evemu = try PathLabels("{kind}/{model}.{gesture}.events")
    #expect(
      evemu.match("evemu/touchpads/SynPS2 Synaptics TouchPad.hp8470p.edge-scroll-vertical.events")
        == ["kind": "touchpads", "model": "SynPS2 Synaptics TouchPad", "gesture": "hp8470p.edge-scroll-vertical"])
    #expect(evemu.match("tablets/Wacom Cintiq 13HD.events") == nil)
    // A name used twice must match the same text.
    let twice = try PathLabels("{user}/{user}-*.csv")
    #expect(twice.match("ann/ann-1.csv") == ["user": "ann"])
    #expect(twice.match("ann/bob-1.csv") == nil)
  }

  @Test func badPatterns() {
    #expect(throws: PathLabelsError.unclosedPlaceholder) { try PathLabels("{user/x.csv") }
    #expect(throws: PathLabelsError.badName("t")) { try PathLabels("{t}.csv") }
    #expect(throws: PathLabelsError.badName("id")) { try PathLabels("{id}.csv") }
    #expect(throws: PathLabelsError.adjacentPlaceholders) { try PathLabels("{user}{hand}.csv") }
    #expect(throws: PathLabelsError.noPlaceholder) { try PathLabels("*.csv") }
    #expect(throws: PathLabelsError.emptyComponent) { try PathLabels("a//{user}") }
  }

  @Test func labelFromPathFillsConflictsAndReportsUnmatchedFiles() throws {
    let directory = TestData.temporaryDirectory()
    for (name, text) in Self.files {
      var path = directory
      for part in name.split(separator: "/").dropLast() {
        path += "/" + part
        mkdir(path, 0o755)
      }
      TestData.write(text, to: directory + "/" + name)
    }
    defer { TestData.remove(directory) }
    let pattern = try PathLabels("{device}/{hand}/{intent}-*.csv")
    let filled = try TraceLoader.load([directory + "/lab"], options: LoadOptions(labelFromPath: [pattern]))
    #expect(filled.traces.map(\.name) == ["c", "a", "b"])  // files in byte order: notes, pad, pen
    #expect(filled.traces[0].metadata.labels.isEmpty)
    #expect(filled.traces[1].metadata.labels == ["hand": "alice"])
    #expect(filled.traces[1].metadata.intent == .press)
    #expect(filled.traces[2].metadata.device == "pen")
    #expect(filled.traces[2].metadata.intent == .tap)
    #expect(
      filled.diagnostics.map(\.description) == [
        "warning: --label-from-path '{device}/{hand}/{intent}-*.csv' matched no path of 1 file: '\(directory)/lab/notes.csv'"
      ])

    // user u1 in the data, alice in the path: refused, then overridden and counted.
    let users = try PathLabels("{user}/*.csv")
    let refused = #expect(throws: TraceLoadError.self) {
      try TraceLoader.load([directory + "/lab/pad"], options: LoadOptions(labelFromPath: [users]))
    }
    #expect(refused?.message.contains("--labels-override") == true)
    let overridden = try TraceLoader.load(
      [directory + "/lab/pad"], options: LoadOptions(labelFromPath: [users], labelsOverride: true))
    #expect(overridden.traces[0].metadata.user == "alice")
    #expect(overridden.labelOverrides == 1)

    // A path word that is no intent is an error for {intent}.
    let intents = try PathLabels("{intent}.csv")
    let bad = #expect(throws: TraceLoadError.self) {
      try TraceLoader.load([directory + "/lab/notes.csv"], options: LoadOptions(labelFromPath: [intents]))
    }
    #expect(bad?.reason == .trace(.unknownIntent("notes")))
  }

  @Test func unmatchedFilesAreCountedInOneLine() throws {
    let directory = temporaryDirectory(with: [
      "1.csv": "trace,t,force\na,0,1\n", "2.csv": "trace,t,force\nb,0,1\n", "3.csv": "trace,t,force\nc,0,1\n",
      "4.csv": "trace,t,force\nd,0,1\n", "5.csv": "trace,t,force\ne,0,1\n", "6.csv": "trace,t,force\nf,0,1\n",
      "hand-left.csv": "trace,t,force\ng,0,1\n",
    ])
    defer { TestData.remove(directory) }
    let dataset = try TraceLoader.load(
      [directory], options: LoadOptions(labelFromPath: [try PathLabels("hand-{hand}.csv")]))
    let shown = (1...5).map { "'\(directory)/\($0).csv'" }.joined(separator: ", ")
    #expect(
      dataset.diagnostics.map(\.description) == [
        "warning: --label-from-path 'hand-{hand}.csv' matched no path of 6 files: \(shown), …"
      ])
    #expect(dataset.traces.last?.metadata.labels == ["hand": "left"])
  }

  @Test func theFirstMatchingPatternWins() throws {
    let directory = temporaryDirectory(with: [
      "left-tap.csv": "trace,t,force\na,0,1\n", "right.csv": "trace,t,force\nb,0,1\n",
      "x_y.csv": "trace,t,force\nc,0,1\n",
    ])
    defer { TestData.remove(directory) }
    let patterns = [try PathLabels("{hand}-{gesture}.csv"), try PathLabels("{hand}.csv")]
    let dataset = try TraceLoader.load([directory], options: LoadOptions(labelFromPath: patterns))
    // left-tap.csv matches the first pattern; right.csv only the second ("x_y" matches the
    // second too: a placeholder takes any text).
    #expect(
      dataset.traces.map(\.metadata.labels) == [
        ["hand": "left", "gesture": "tap"], ["hand": "right"], ["hand": "x_y"],
      ])
    #expect(dataset.diagnostics.isEmpty)
    let strict = [try PathLabels("{hand}-{gesture}.csv"), try PathLabels("{hand}-*.csv")]
    let partial = try TraceLoader.load([directory], options: LoadOptions(labelFromPath: strict))
    #expect(
      partial.diagnostics.map(\.message) == [
        "--label-from-path '{hand}-{gesture}.csv' or '{hand}-*.csv' matched no path of 2 files: '\(directory)/right.csv', '\(directory)/x_y.csv'"
      ])
  }

  @Test func traceFormatsKeepExtraLabels() throws {
    let traces = [
      Trace(metadata: TraceMetadata(id: "a", labels: ["hand": "left", "posture": "a,b"]), t: [0, 1], force: [0, 1]),
      Trace(metadata: TraceMetadata(id: "b", labels: ["hand": "right"]), t: [0], force: [2]),
    ]
    let csv = String(decoding: TraceWriter.csv(traces), as: UTF8.self)
    #expect(
      csv == """
        trace,t,force,phase,label:hand,label:posture
        a,0.0,0.0,began,left,"a,b"
        a,1.0,1.0,ended,left,"a,b"
        b,0.0,2.0,began,right,

        """)
    for format in [TraceFiles.Format.csv, .json, .jsonl] {
      var bytes = TraceWriter.encode(traces, as: format)
      let back = try TraceLoader.read(&bytes, file: "x", format: format)
      #expect(back.traces.map(\.metadata.labels) == traces.map(\.metadata.labels), "\(format)")
    }
    let json = String(decoding: JSONTraceWriter.lines([traces[1]]), as: UTF8.self)
    #expect(json.contains(#""labels":{"hand":"right"}"#))
  }

  @Test func labelColumnsMustRepeatOnEveryRow() {
    let error = csvError("trace,t,force,label:hand\na,0,1,left\na,1,1,right\n")
    #expect(error?.reason == .trace(.metadataDiffers(field: "label:hand", first: "left", now: "right")))
    #expect(error?.position == TextPosition(line: 3, column: 7))
  }

  @Test func badJSONLabels() {
    let error = jsonError(#"{"id":"a","t":[0],"force":[1],"labels":{"hand":3}}"# + "\n", lines: true)
    #expect(error?.message == "label 'hand' must be a string (record 0, trace 'a', field 'labels')")
    let reserved = jsonError(#"{"id":"a","t":[0],"force":[1],"labels":{"device":"x"}}"# + "\n", lines: true)
    #expect(reserved?.message.hasPrefix("label name 'device' is reserved") == true)
  }

  @Test func maxForceFillsGapsOrOverrides() throws {
    let text = "trace,t,force,max_force\na,0,1,10\nb,0,1,\n"
    let fill = try loadCSV(text, options: LoadOptions(maxForce: 5))
    #expect(fill.traces.map(\.metadata.maxForce) == [10, 5])
    let override = try loadCSV(text, options: LoadOptions(maxForce: 5, maxForceOverride: true))
    #expect(override.traces.map(\.metadata.maxForce) == [5, 5])
  }
}
