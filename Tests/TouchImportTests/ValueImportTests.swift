import Testing
import TouchCore
import TouchIO

@testable import TouchImport

@Suite struct ForceValuesImportTests {
  let options = ImportOptions(interval: 0.015)

  @Test func touchesStartAtZero() throws {
    let dataset = try importText("[0, 0.5, 1.25, 0.75, 0, 2, 0]", as: .forceValues, name: "log.json", options: options)
    #expect(dataset.traces.count == 3)
    let (a, b, c) = (dataset.traces[0], dataset.traces[1], dataset.traces[2])
    #expect(a.force == [0, 0.5, 1.25, 0.75])
    #expect(a.phase == [.began, .moved, .moved, .ended])
    #expect(a.t == [0, 0.015, 0.03, 0.045])
    #expect(b.force == [0, 2])
    #expect(b.t == [0.06, 0.075])
    #expect(c.force == [0])
    #expect(c.phase == [.began])
    #expect(dataset.traces.allSatisfy { $0.metadata.timeSynthesized && $0.metadata.maxForce == 20.0 / 3.0 })
    #expect(dataset.traces.map(\.name) == ["log", "log#1", "log#2"])
  }

  @Test func valuesBeforeTheFirstZeroFormAContact() throws {
    let dataset = try importText("[1, 1, 0, 2]", as: .forceValues, options: options)
    #expect(dataset.traces.map(\.force) == [[1, 1], [0, 2]])
  }

  @Test func maximumPrintedWithSevenDigitsIsTheMaximum() throws {
    let dataset = try importText("[0, 6.666667, 6.65]", as: .forceValues, options: options)
    #expect(dataset.traces[0].force == [0, 20.0 / 3.0, 6.65])
  }

  @Test func maximumForceOption() throws {
    var options = self.options
    options.maxForce = 1
    let error = importError("[0, 0.5, 1.5]", as: .forceValues, options: options)
    #expect(error?.position == TextPosition(line: 1, column: 10))
    #expect(error?.reason == .trace(.forceAboveMaximum(force: 1.5, maximum: 1)))
  }

  @Test func notANumber() {
    let error = importError("[\n  0,\n  0.5,\n  \"x\",\n  1\n]", as: .forceValues, options: options)
    #expect(error?.position == TextPosition(line: 4, column: 3))
    #expect(
      error?.description == "fixture.txt:4:3: error: expected a number, found a string (record 2, trace 'fixture')")
  }

  @Test func negativeValue() {
    let error = importError("[0,\n -0.5]", as: .forceValues, options: options)
    #expect(error?.position == TextPosition(line: 2, column: 2))
    #expect(error?.reason == .trace(.negativeForce(-0.5)))
  }

  @Test func notAnArray() {
    let error = importError("{\"force\": [0]}", as: .forceValues, options: options)
    #expect(error?.position == TextPosition(line: 1, column: 1))
    #expect(error?.message == "expected a JSON array of force values, found an object")
  }

  @Test func malformedJSON() {
    let error = importError("[0, 1,]", as: .forceValues, options: options)
    #expect(error?.position == TextPosition(line: 1, column: 6))  // the comma
    #expect(error?.reason == .invalidJSON("trailing comma before ']'"))
    // Whole-file problems throw even when skipping invalid traces.
    var skipping = options
    skipping.skipInvalid = true
    #expect(importError("[0, 1,]", as: .forceValues, options: skipping) != nil)
  }

  @Test func skipInvalidAccounting() throws {
    var skipping = options
    skipping.skipInvalid = true
    let dataset = try importText("[\"a\", 0, 1, null, 0, 2, 0, 3]", as: .forceValues, options: skipping)
    // "a" comes before any contact (unnamed skip); null spoils the first contact.
    #expect(dataset.total == 4)
    #expect(dataset.traces.map(\.force) == [[0, 2], [0, 3]])
    #expect(dataset.skipped.map(\.trace) == [nil, "fixture"])
    #expect(
      dataset.skipped.map(\.reportedPosition) == [TextPosition(line: 1, column: 2), TextPosition(line: 1, column: 13)])
  }
}

@Suite struct TabletLogImportTests {
  let options = ImportOptions(maxForce: 1023)

  @Test func contactsSplitOnHoverGapsGroupsAndClockJumps() throws {
    let text = """
      200;204;0;0;900;1000;0
      200;204;0;218;900;1007;0
      201;205;0;253;900;1014;0
      202;205;0;240;900;1023;0
      203;206;0;230;900;1060;0
      203;206;0;220;900;1067;0
      203;206;0;210;900;1074;1
      203;206;0;0;900;1081;1
      204;206;0;50;900;1088;1
      204;206;0;60;900;1050;1

      """
    let dataset = try importText(text, as: .tabletCSV, name: "C_0001.txt", options: options)
    // 1007–1023 (hover before), gap of 37 ms, 1060–1067, new group at 1074, hover at 1081,
    // 1088, clock jump back to 1050.
    #expect(dataset.traces.map(\.force) == [[218, 253, 240], [230, 220], [210], [50], [60]])
    #expect(dataset.traces.map(\.metadata.session) == ["0", "0", "1", "1", "1"])
    #expect(dataset.traces[0].t == [0.007, 0.014, 0.023])
    #expect(dataset.traces[0].phase == [.began, .moved, .ended])
    #expect(dataset.traces[0].x == [200, 201, 202])
    #expect(dataset.traces[0].metadata.maxForce == 1023)
    #expect(dataset.traces.allSatisfy { $0.metadata.id == "C_0001" })
  }

  @Test func gapAtExactlyTheLimitDoesNotSplit() throws {
    let dataset = try importText("0;0;0;10;0;1000;0\n0;0;0;10;0;1030;0\n", as: .tabletCSV, options: options)
    #expect(dataset.traces.count == 1)
  }

  @Test func customColumnsAndDelimiter() throws {
    var options = self.options
    options.columns = try TabletColumns(parsing: "t,force,x,y")
    let dataset = try importText("0.5,0.2,1,2\n0.51,0.4,1,2\n", as: .tabletCSV, options: options)
    #expect(dataset.traces.first?.t == [0, 0.010000000000000009])
    #expect(dataset.traces.first?.force == [0.2, 0.4])
  }

  @Test func wrongFieldCount() {
    let error = importError("1;2;0;100;900;1000;0\n1;2;0;100;900\n", as: .tabletCSV, options: options)
    #expect(error?.position == TextPosition(line: 2, column: 14))
    #expect(
      error?.message
        == "expected 7 fields, found 5: the layout is the default --columns x,y,-,force,-,t_ms,group (the UCI spiral layout X;Y;Z;Pressure;GripAngle;Timestamp;TestID); give --columns with one role per field (trace 'fixture')"
    )
    var given = options
    given.columns = try! TabletColumns(parsing: "x,y,force,t_ms")
    given.columnsGiven = true
    let fromOption = importError("1;2;0;100;900;1000;0\n", as: .tabletCSV, options: given)
    #expect(
      fromOption?.message
        == "expected 4 fields, found 7: the layout is --columns x,y,force,t_ms; give --columns with one role per field")
    #expect(fromOption?.position == TextPosition(line: 1, column: 11))  // field 5 of "1;2;0;100;900;…"
    let extra = importError("1;2;0;100;900;1000;0;9\n", as: .tabletCSV, options: options)
    #expect(extra?.position == TextPosition(line: 1, column: 22))
  }

  @Test func notANumber() {
    let error = importError("1;2;0;100;900;1000;0\n1;2;0;1x0;900;1007;0\n", as: .tabletCSV, options: options)
    #expect(error?.position == TextPosition(line: 2, column: 7))
    #expect(
      error?.description
        == "fixture.txt:2:7: error: field 4 is '1x0', not a number, but the layout (the default --columns x,y,-,force,-,t_ms,group (the UCI spiral layout X;Y;Z;Pressure;GripAngle;Timestamp;TestID)) makes it 'force' (trace 'fixture')"
    )
  }

  @Test func negativePressure() {
    let error = importError("1;2;0;-4;900;1000;0\n", as: .tabletCSV, options: options)
    #expect(error?.position == TextPosition(line: 1, column: 7))
    #expect(error?.reason == .trace(.negativeForce(-4)))
  }

  @Test func pressureAboveMaximum() {
    let error = importError("1;2;0;100;900;1000;0\n1;2;0;2000;900;1007;0\n", as: .tabletCSV, options: options)
    #expect(error?.position == TextPosition(line: 2, column: 7))
  }

  @Test func skipInvalidAccounting() throws {
    var skipping = options
    skipping.skipInvalid = true
    let text =
      "1;2;0;0;900;1000;0\n1;2;0;x;900;1007;0\n1;2;0;5;900;1014;0\n1;2;0;y;900;1021;0\n1;2;0;0;900;1028;0\n1;2;0;7;900;1035;0\n"
    let dataset = try importText(text, as: .tabletCSV, options: skipping)
    // Row 2 is bad with no contact open (unnamed skip); row 4 spoils the contact of row 3.
    #expect(dataset.total == 3)
    #expect(dataset.traces.map(\.force) == [[7]])
    #expect(dataset.skipped.map(\.trace) == [nil, "fixture"])
  }
}

@Suite struct PointerEventsImportTests {
  static let fixture = """
    [
      {"type": "pointerover", "pointerId": 1, "timeStamp": 999, "pressure": 0, "clientX": 10, "clientY": 20, "pointerType": "pen"},
      {"type": "pointerdown", "pointerId": 1, "timeStamp": 1000.5, "pressure": 0.25, "clientX": 10, "clientY": 20, "pointerType": "pen"},
      {"type": "pointermove", "pointerId": 1, "timeStamp": 1004.5, "pressure": 0.5, "clientX": 11, "clientY": 20, "pointerType": "pen"},
      {"type": "pointerdown", "pointerId": 2, "timeStamp": 1008.5, "pressure": 0.5, "clientX": 50, "clientY": 60, "pointerType": "touch"},
      {"type": "pointermove", "pointerId": 1, "timeStamp": 1008.5, "pressure": 0.75, "clientX": 12.5, "clientY": 21, "pointerType": "pen"},
      {"type": "pointerup", "pointerId": 1, "timeStamp": 1012.5, "pressure": 0, "clientX": 12.5, "clientY": 21, "pointerType": "pen"},
      {"type": "pointermove", "pointerId": 3, "timeStamp": 1013, "pressure": 0, "clientX": 1, "clientY": 1, "pointerType": "mouse"},
      {"type": "pointercancel", "pointerId": 2, "timeStamp": 1016.5, "pressure": 0, "clientX": 50, "clientY": 60, "pointerType": "touch"}
    ]
    """

  @Test func onePerPointerFromDownToUpOrCancel() throws {
    let dataset = try importText(Self.fixture, as: .pointerEvents, name: "session.json")
    #expect(dataset.traces.count == 2)
    let pen = dataset.traces[0]
    let finger = dataset.traces[1]
    // Seconds since the first contact record (the pointerdown at 1000.5 ms).
    #expect(pen.t == [0, 0.004, 0.008, 0.012])
    #expect(pen.force == [0.25, 0.5, 0.75, 0])
    #expect(pen.phase == [.began, .moved, .moved, .ended])
    #expect(pen.x == [10, 11, 12.5, 12.5])
    #expect(pen.metadata.device == "pen")
    #expect(pen.metadata.maxForce == 1)
    #expect(finger.t == [0.008, 0.016])
    #expect(finger.phase == [.began, .cancelled])
    #expect(finger.metadata.device == "touch")
    #expect(finger.name == "session#1")
  }

  @Test func missingPressure() {
    let text = "[{\"type\": \"pointerdown\", \"pointerId\": 1, \"timeStamp\": 5}]"
    let error = importError(text, as: .pointerEvents)
    #expect(error?.position == TextPosition(line: 1, column: 2))
    #expect(error?.message == "missing 'pressure' (record 0)")
  }

  @Test func wrongType() {
    let text = "[\n{\"type\": \"pointerdown\", \"pointerId\": \"one\", \"timeStamp\": 5, \"pressure\": 0.5}\n]"
    let error = importError(text, as: .pointerEvents)
    #expect(error?.position == TextPosition(line: 2, column: 38))
    #expect(error?.message == "'pointerId' must be a number, found a string (record 0)")
  }

  @Test func pressureAboveOne() {
    let text = "[{\"type\": \"pointerdown\", \"pointerId\": 1, \"timeStamp\": 5, \"pressure\": 1.5}]"
    let error = importError(text, as: .pointerEvents)
    #expect(error?.position == TextPosition(line: 1, column: 70))
    #expect(error?.reason == .trace(.forceAboveMaximum(force: 1.5, maximum: 1)))
  }

  @Test func skipInvalidAccounting() throws {
    let text = """
      [
      {"type": "pointerdown", "pointerId": 1, "timeStamp": 0, "pressure": 0.5},
      {"type": "pointermove", "pointerId": 1, "timeStamp": 4, "pressure": 3},
      {"type": "pointerup", "pointerId": 1, "timeStamp": 8, "pressure": 0},
      {"type": "pointerdown", "pointerId": 1, "timeStamp": 12, "pressure": 0.5},
      {"type": "pointerup", "pointerId": 1, "timeStamp": 16, "pressure": 0},
      {"type": 7}
      ]
      """
    let dataset = try importText(text, as: .pointerEvents, options: ImportOptions(skipInvalid: true))
    #expect(dataset.total == 3)
    #expect(dataset.traces.map(\.t) == [[0.012, 0.016]])
    #expect(dataset.skipped.map(\.trace) == ["fixture", nil])
    #expect(
      dataset.skipped.map(\.reportedPosition) == [TextPosition(line: 3, column: 69), TextPosition(line: 7, column: 10)])
  }
}

@Suite struct TraceImporterTests {
  @Test func traceIDs() {
    #expect(TraceImporter.traceID(forFile: "a/b/Wacom Intuos4 6x9.stylus-tap.events") == "Wacom Intuos4 6x9.stylus-tap")
    #expect(TraceImporter.traceID(forFile: "C_0001.txt") == "C_0001")
    #expect(TraceImporter.traceID(forFile: "dir/noextension") == "noextension")
    #expect(TraceImporter.traceID(forFile: ".hidden") == ".hidden")
  }

  @Test func sameFileNameTwice() throws {
    let text = Array("[0, 1]".utf8)
    try TraceFiles.write(text, to: "/tmp/touchtrace-dup-1.json")
    try TraceFiles.write(text, to: "/tmp/touchtrace-dup-1.values.json")
    let options = ImportOptions(interval: 0.01)
    // Different names, same contents: fine.
    let both = try TraceImporter.load(
      ["/tmp/touchtrace-dup-1.json", "/tmp/touchtrace-dup-1.values.json"], from: .forceValues, options: options)
    #expect(both.traces.map(\.name) == ["touchtrace-dup-1", "touchtrace-dup-1.values"])
    // The same file twice: the second gives duplicate ids.
    let error = #expect(throws: TraceLoadError.self) {
      try TraceImporter.load(
        ["/tmp/touchtrace-dup-1.json", "/tmp/touchtrace-dup-1.json"], from: .forceValues, options: options)
    }
    #expect(error?.reason == .duplicateTrace("touchtrace-dup-1", firstFile: "/tmp/touchtrace-dup-1.json"))
    var skipping = options
    skipping.skipInvalid = true
    let skipped = try TraceImporter.load(
      ["/tmp/touchtrace-dup-1.json", "/tmp/touchtrace-dup-1.json"], from: .forceValues, options: skipping)
    #expect(skipped.total == 2)
    #expect(skipped.skipped.count == 1)
  }

  @Test func missingFile() {
    let error = #expect(throws: TraceLoadError.self) {
      try TraceImporter.load(["/tmp/no-such-touchtrace-file.events"], from: .evemu)
    }
    #expect(error?.isFileAccessError == true)
  }

  @Test func columnsParsing() throws {
    #expect(try TabletColumns(parsing: "x,y,-,force,-,t_ms,group") == .uciSpiral)
    #expect(throws: TabletColumnsError.self) { try TabletColumns(parsing: "x,y,force") }
    #expect(throws: TabletColumnsError.self) { try TabletColumns(parsing: "force,t,t_ms") }
    #expect(throws: TabletColumnsError.self) { try TabletColumns(parsing: "x,force,t") }
    #expect(throws: TabletColumnsError.self) { try TabletColumns(parsing: "force,t,size") }
  }

  @Test func optionProblems() {
    #expect(ImportOptions().problem(for: .forceValues) != nil)
    #expect(ImportOptions(interval: 0).problem(for: .forceValues) != nil)
    #expect(ImportOptions(interval: 0.01).problem(for: .forceValues) == nil)
    #expect(ImportOptions(maxForce: -1).problem(for: .evemu) != nil)
    #expect(ImportOptions().problem(for: .evemu) == nil)
  }
}
