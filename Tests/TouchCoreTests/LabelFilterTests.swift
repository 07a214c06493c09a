import Testing
import TouchCore

/// Extra labels, `--only` on any label, `id#n`, `touch=N`, and the filter that keeps nothing.
@Suite("Labels and filters") struct LabelFilterTests {
  /// rec#0 (left), rec#1 (right), rec#2 (no hand), other (left): four traces of two recordings.
  static func dataset() -> Dataset {
    let metadata = [
      TraceMetadata(id: "rec", touch: 0, device: "pad", labels: ["hand": "left"]),
      TraceMetadata(id: "rec", touch: 1, device: "pad", labels: ["hand": "right"]),
      TraceMetadata(id: "rec", touch: 2, device: "pad"),
      TraceMetadata(id: "other", touch: 0, device: "pen", labels: ["hand": "left", "posture": ""]),
    ]
    let traces = metadata.map { Trace(metadata: $0, t: [0], force: [0]) }
    return Dataset(traces: traces, origins: traces.map { _ in TraceOrigin(file: "f.csv") })
  }

  @Test func labelReadsFieldsAndExtraLabels() {
    let m = TraceMetadata(id: "rec", touch: 3, intent: .press, user: "u1", labels: ["hand": "left", "empty": ""])
    #expect(m.label("id") == "rec")
    #expect(m.label("touch") == "3")
    #expect(m.label("intent") == "press")
    #expect(m.label("user") == "u1")
    #expect(m.label("session") == nil)
    #expect(m.label("hand") == "left")
    #expect(m.label("empty") == nil)  // empty values are dropped on creation
    #expect(m.labels == ["hand": "left"])
  }

  @Test func labelNames() {
    #expect(TraceMetadata.isValidExtraLabelName("hand"))
    #expect(TraceMetadata.isValidExtraLabelName("test-id.2_b"))
    #expect(!TraceMetadata.isValidExtraLabelName("Hand"))
    #expect(!TraceMetadata.isValidExtraLabelName("press_at"))
    #expect(!TraceMetadata.isValidExtraLabelName("device"))
    #expect(!TraceMetadata.isValidExtraLabelName("a b"))
    #expect(!TraceMetadata.isValidExtraLabelName(""))
  }

  @Test func onlyAnExtraLabel() throws {
    var dataset = Self.dataset()
    let left = try #require(TraceFilter(parsing: "hand=left"))
    #expect(dataset.keep(matching: [left]) == 2)
    #expect(dataset.traces.map(\.name) == ["rec", "other"])
    #expect(dataset.skipped.map(\.reason) == ["not selected (hand=left)", "not selected (hand=left)"])
  }

  @Test func onlyContactsByNameAndTouch() throws {
    // Reports name contact 1 of "rec" "rec#1" and contact 0 "rec"; "rec#0" names contact 0 too.
    let names = try #require(TraceFilter(parsing: "id=rec#1,rec#0"))
    let recording = try #require(TraceFilter(parsing: "id=rec"))
    let touch0 = try #require(TraceFilter(parsing: "touch=0"))
    let touch7 = try #require(TraceFilter(parsing: "touch=7"))
    var byName = Self.dataset()
    #expect(byName.keep(matching: [names]) == 2)
    #expect(byName.traces.map(\.name) == ["rec", "rec#1"])
    var wholeRecording = Self.dataset()
    #expect(wholeRecording.keep(matching: [recording]) == 1)
    #expect(wholeRecording.traces.map(\.name) == ["rec", "rec#1", "rec#2"])
    var byTouch = Self.dataset()
    #expect(byTouch.keep(matching: [touch0]) == 2)
    #expect(Self.dataset().emptyingFilter([touch7]) != nil)
    #expect(byTouch.traces.map(\.name) == ["rec", "other"])
  }

  @Test func theFilterThatKeepsNothing() throws {
    let dataset = Self.dataset()
    let pad = try #require(TraceFilter(parsing: "device=pad"))
    let hand = try #require(TraceFilter(parsing: "hand=both"))
    // After device=pad three traces remain: hands left, right and none.
    let empty = try #require(dataset.emptyingFilter([pad, hand]))
    #expect(empty.filter == hand)
    #expect(empty.values == ["left", "right"])
    #expect(empty.unlabelled == 1)
    #expect(empty.moreValues == 0)
    let touch7 = try #require(TraceFilter(parsing: "touch=7"))
    let touch = try #require(dataset.emptyingFilter([touch7], limit: 2))
    #expect(touch.values == ["0", "1"])
    #expect(touch.moreValues == 1)
    #expect(dataset.emptyingFilter([pad]) == nil)
    #expect(Dataset().emptyingFilter([hand]) == nil)
  }
}
