import Testing
import TouchCore
import TouchIO
import TouchTestSupport

@testable import TouchImport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A pen recording with a header: hover, BTN_TOUCH 1, a pressure change, BTN_TOUCH 0.
private let penRecording = """
  # EVEMU 1.3
  N: Test Pen
  A: 00 0 1000 0 0 10
  A: 01 0 1000 0 0 10
  A: 18 0 100 0 0 0
  E: 0.000000 0003 0000 100
  E: 0.000000 0003 0001 200
  E: 0.000000 0000 0000 0
  E: 0.010000 0003 0018 20
  E: 0.010000 0001 014a 1
  E: 0.010000 0000 0000 0
  E: 0.020000 0003 0018 60\t# EV_ABS / ABS_PRESSURE 60
  E: 0.020000 0003 0000 110
  E: 0.020000 0000 0000 0
  E: 0.030000 0003 0018 0
  E: 0.030000 0001 014a 0
  E: 0.030000 0000 0000 0

  """

@Suite struct EvemuImportTests {
  @Test func penContact() throws {
    let dataset = try importText(penRecording, as: .evemu)
    #expect(dataset.total == 1)
    let trace = try #require(dataset.traces.first)
    #expect(trace.metadata.id == "fixture")
    #expect(trace.metadata.device == "Test Pen")
    #expect(trace.metadata.maxForce == 100)
    // Times from the first event (0.000000); samples at each SYN_REPORT while BTN_TOUCH is 1,
    // and the lift frame.
    #expect(trace.t == [0.01, 0.02, 0.03])
    #expect(trace.force == [20, 60, 0])
    #expect(trace.phase == [.began, .moved, .ended])
    // 10 units per mm, 160 points per inch: x 100 → 10 mm, y 200 → 20 mm.
    let x = try #require(trace.x)
    let y = try #require(trace.y)
    #expect(abs(x[0] - 10 * 160 / 25.4) < 1e-9)
    #expect(abs(x[1] - 11 * 160 / 25.4) < 1e-9)
    #expect(abs(y[0] - 20 * 160 / 25.4) < 1e-9)
    #expect(dataset.diagnostics.isEmpty)
    #expect(dataset.origins[0].position == TextPosition(line: 10, column: 1))
  }

  /// A folder without recordings: the message names what the importer looked for, not the
  /// trace reader's patterns (issue 31).
  @Test func aFolderWithoutRecordingsNamesTheImportersPatterns() throws {
    let directory = TestData.temporaryDirectory()
    defer { TestData.remove(directory) }
    TestData.write("not a recording\n", to: directory + "/notes.md")
    let error = #expect(throws: TraceLoadError.self) { try TraceImporter.load([directory], from: .evemu) }
    #expect(error?.message == "directory holds no files to read (looked for *.events, *.evemu)")
    let getevent = #expect(throws: TraceLoadError.self) { try TraceImporter.load([directory], from: .getevent) }
    #expect(getevent?.message == "directory holds no files to read (looked for *.txt, *.log, *.getevent)")
  }

  @Test func invalidEventType() {
    let text = replacingLine(9, of: penRecording, with: "E: 0.010000 00z3 0018 20")
    let error = importError(text, as: .evemu)
    #expect(error?.position == TextPosition(line: 9, column: 13))
    #expect(error?.description == "fixture.txt:9:13: error: invalid event type '00z3' (expected hexadecimal)")
  }

  @Test func invalidEventValue() {
    let text = replacingLine(9, of: penRecording, with: "E: 0.010000 0003 0018 2O")
    #expect(importError(text, as: .evemu)?.position == TextPosition(line: 9, column: 23))
  }

  @Test func unknownLine() {
    let text = replacingLine(2, of: penRecording, with: "X: what")
    #expect(importError(text, as: .evemu)?.position == TextPosition(line: 2, column: 1))
  }

  @Test func pressureAboveAxisMaximum() {
    let text = replacingLine(12, of: penRecording, with: "E: 0.020000 0003 0018 160\t# too hard")
    let error = importError(text, as: .evemu)
    #expect(error?.position == TextPosition(line: 12, column: 23))
    #expect(error?.trace == "fixture")
    #expect(error?.reason == .trace(.forceAboveMaximum(force: 160, maximum: 100)))
  }

  @Test func timeGoingBackwards() {
    var text = replacingLine(15, of: penRecording, with: "E: 0.015000 0003 0018 0")
    text = replacingLine(16, of: text, with: "E: 0.015000 0001 014a 0")
    text = replacingLine(17, of: text, with: "E: 0.015000 0000 0000 0")
    let error = importError(text, as: .evemu)
    // The sample's time is the SYN_REPORT's.
    #expect(error?.position == TextPosition(line: 17, column: 4))
    #expect(error?.reason == .trace(.timeDecreasing(previous: 0.02, current: 0.015)))
  }

  @Test func skipInvalidAccountsForTheContact() throws {
    let text = replacingLine(12, of: penRecording, with: "E: 0.020000 0003 0018 160")
    let dataset = try importText(text, as: .evemu, options: ImportOptions(skipInvalid: true))
    #expect(dataset.traces.isEmpty)
    #expect(dataset.total == 1)
    #expect(dataset.skipped.first?.trace == "fixture")
    #expect(dataset.skipped.first?.reportedPosition == TextPosition(line: 12, column: 23))
  }

  @Test func malformedLineInsideAContactSkipsIt() throws {
    let text = replacingLine(13, of: penRecording, with: "E: 0.020000 0003 0000")
    let dataset = try importText(text, as: .evemu, options: ImportOptions(skipInvalid: true))
    #expect(dataset.total == 1)
    #expect(dataset.skipped.first?.trace == "fixture")
    #expect(dataset.skipped.first?.reportedPosition == TextPosition(line: 13, column: 22))
  }

  @Test func malformedLineOutsideContactsIsAnUnnamedSkip() throws {
    let text = replacingLine(7, of: penRecording, with: "E: zero 0003 0001 200")
    let strict = importError(text, as: .evemu)
    #expect(strict?.position == TextPosition(line: 7, column: 4))
    let dataset = try importText(text, as: .evemu, options: ImportOptions(skipInvalid: true))
    #expect(dataset.traces.count == 1)
    #expect(dataset.skipped.count == 1)
    #expect(dataset.skipped.first?.trace == nil)
    #expect(dataset.total == 2)
  }

  @Test func recordingWithoutPressure() {
    let text = "E: 0.000000 0003 0000 1\nE: 0.000000 0000 0000 0\n"
    let error = importError(text, as: .evemu)
    #expect(error?.position == TextPosition(line: 1, column: 1))
    #expect(error?.isFileAccessError == false)
  }

  @Test func headerlessRecordingUsesTheDescription() throws {
    let description = penRecording.split(separator: "\n").prefix(5).joined(separator: "\n") + "\n"
    let events = penRecording.split(separator: "\n").dropFirst(5).joined(separator: "\n") + "\n"
    let path = "/tmp/touchtrace-import-test-\(getpid()).desc"
    try TraceFiles.write(Array(description.utf8), to: path)
    let dataset = try importText(events, as: .evemu, options: ImportOptions(deviceDescription: path))
    #expect(dataset.traces.first?.metadata.maxForce == 100)
    #expect(dataset.traces.first?.metadata.device == "Test Pen")
    let bare = try importText(events, as: .evemu)
    #expect(bare.traces.first?.metadata.maxForce == nil)
    #expect(bare.traces.first?.force == [20, 60, 0])
  }

  /// Protocol B: two slots, overlapping contacts, values carried forward per slot.
  @Test func slots() throws {
    let text = """
      A: 2f 0 1 0 0
      A: 35 0 1000 0 0
      A: 36 0 1000 0 0
      A: 39 0 65535 0 0
      A: 3a 0 255 0 0
      E: 1.000000 0003 0039 10
      E: 1.000000 0003 0035 100
      E: 1.000000 0003 0036 100
      E: 1.000000 0003 003a 40
      E: 1.000000 0000 0000 0
      E: 1.010000 0003 003a 50
      E: 1.010000 0003 002f 1
      E: 1.010000 0003 0039 11
      E: 1.010000 0003 0035 300
      E: 1.010000 0003 003a 30
      E: 1.010000 0000 0000 0
      E: 1.020000 0003 002f 0
      E: 1.020000 0003 0039 -1
      E: 1.020000 0003 002f 1
      E: 1.020000 0003 003a 35
      E: 1.020000 0000 0000 0
      E: 1.030000 0003 0039 -001
      E: 1.030000 0000 0000 0

      """
    let dataset = try importText(text, as: .evemu)
    #expect(dataset.traces.count == 2)
    let first = dataset.traces[0]
    let second = dataset.traces[1]
    #expect(first.metadata.touch == 0 && second.metadata.touch == 1)
    #expect(first.t == [0, 0.01, 0.02])
    #expect(first.force == [40, 50, 50])
    #expect(first.phase == [.began, .moved, .ended])
    #expect(second.t == [0.01, 0.02, 0.03])
    #expect(second.force == [30, 35, 35])
    #expect(second.x == [300, 300, 300])
    #expect(second.y == [0, 0, 0])
    #expect(first.metadata.maxForce == 255)
    // No resolution in the A: lines: positions stay in device units, with a warning.
    #expect(dataset.diagnostics.count == 1)
    #expect(dataset.diagnostics.first?.severity == .warning)
  }

  /// Protocol A without tracking ids: the n-th report of a frame continues the n-th contact.
  @Test func anonymousProtocolA() throws {
    let text = """
      A: 35 0 1000 0 0
      A: 3a 0 255 0 0
      E: 0.000000 0003 003a 10
      E: 0.000000 0003 0035 1
      E: 0.000000 0000 0002 0
      E: 0.000000 0003 003a 20
      E: 0.000000 0003 0035 2
      E: 0.000000 0000 0002 0
      E: 0.000000 0000 0000 0
      E: 0.010000 0003 003a 11
      E: 0.010000 0003 0035 1
      E: 0.010000 0000 0002 0
      E: 0.010000 0000 0000 0
      E: 0.020000 0000 0002 0
      E: 0.020000 0000 0000 0

      """
    let dataset = try importText(text, as: .evemu)
    #expect(dataset.traces.count == 2)
    #expect(dataset.traces[0].t == [0, 0.01, 0.02])
    #expect(dataset.traces[0].force == [10, 11, 11])
    #expect(dataset.traces[1].t == [0, 0.01])
    #expect(dataset.traces[1].force == [20, 20])
    #expect(dataset.traces[1].phase == [.began, .ended])
    // Only an x axis was recorded: no positions.
    #expect(dataset.traces[0].x == nil)
  }

  @Test func contactStillDownAtTheEnd() throws {
    let text = penRecording.split(separator: "\n").prefix(14).joined(separator: "\n") + "\n"
    let dataset = try importText(text, as: .evemu)
    #expect(dataset.traces.first?.phase == [.began, .moved])
    #expect(dataset.diagnostics.contains { $0.message.contains("still down") })
  }
}

@Suite struct GeteventImportTests {
  /// Protocol A: two contacts identified by tracking id; the second starts while the first is
  /// down; an empty frame lifts all.
  static let protocolA = """
    add device 1: /dev/input/event2
      name:     "test-touchscreen"
    [   10.000000] EV_ABS       ABS_MT_TRACKING_ID   00000000
    [   10.000000] EV_ABS       ABS_MT_PRESSURE      00000020
    [   10.000000] EV_ABS       ABS_MT_POSITION_X    00000064
    [   10.000000] EV_ABS       ABS_MT_POSITION_Y    000000c8
    [   10.000000] EV_SYN       SYN_MT_REPORT        00000000
    [   10.000000] EV_SYN       SYN_REPORT           00000000
    [   10.015000] EV_ABS       ABS_MT_TRACKING_ID   00000000
    [   10.015000] EV_ABS       ABS_MT_PRESSURE      00000030
    [   10.015000] EV_ABS       ABS_MT_POSITION_X    00000064
    [   10.015000] EV_ABS       ABS_MT_POSITION_Y    000000C8
    [   10.015000] EV_SYN       SYN_MT_REPORT        00000000
    [   10.015000] EV_ABS       ABS_MT_TRACKING_ID   00000001
    [   10.015000] EV_ABS       ABS_MT_PRESSURE      00000010
    [   10.015000] EV_SYN       SYN_MT_REPORT        00000000
    [   10.015000] EV_SYN       SYN_REPORT           00000000
    [   10.030000] EV_ABS       ABS_MT_TRACKING_ID   00000001
    [   10.030000] EV_ABS       ABS_MT_PRESSURE      00000011
    [   10.030000] EV_SYN       SYN_MT_REPORT        00000000
    [   10.030000] EV_SYN       SYN_REPORT           00000000
    [   10.045000] EV_SYN       SYN_MT_REPORT        00000000
    [   10.045000] EV_SYN       SYN_REPORT           00000000

    """

  @Test func protocolA() throws {
    let dataset = try importText(Self.protocolA, as: .getevent)
    #expect(dataset.traces.count == 2)
    let a = dataset.traces[0]
    let b = dataset.traces[1]
    #expect(a.t == [0, 0.015, 0.03])
    #expect(a.force == [32, 48, 48])
    #expect(a.phase == [.began, .moved, .ended])
    #expect(a.x == [100, 100, 100])
    #expect(a.y == [200, 200, 200])
    #expect(b.t == [0.015, 0.03, 0.045])
    #expect(b.force == [16, 17, 17])
    #expect(a.metadata.device == "test-touchscreen")
    #expect(a.metadata.maxForce == nil)
  }

  @Test func trackingIDFramingWithoutReports() throws {
    // The "paint" logs: ids up and down without SYN_MT_REPORT; ffffffff (any case) lifts.
    let text = """
      [52032.679748] EV_ABS ABS_MT_TRACKING_ID 0000027d
      [52032.679779] EV_ABS ABS_MT_PRESSURE 00000098
      [52032.679779] EV_SYN SYN_REPORT 00000000
      [52032.700000] EV_ABS ABS_MT_PRESSURE 0000009a
      [52032.700000] EV_SYN SYN_REPORT 00000000
      [52032.735504] EV_ABS ABS_MT_TRACKING_ID FFFFFFFF
      [52032.735504] EV_SYN SYN_REPORT 00000000
      [52033.000000] EV_KEY BTN_TOUCH DOWN
      [52033.000000] EV_ABS ABS_MT_TRACKING_ID 0000027e
      [52033.000000] EV_SYN SYN_REPORT 00000000
      [52033.100000] EV_ABS ABS_MT_TRACKING_ID ffffffff
      [52033.100000] EV_SYN SYN_REPORT 00000000
      """
    let dataset = try importText(text, as: .getevent)
    #expect(dataset.traces.count == 2)
    #expect(dataset.traces[0].force == [0x98, 0x9a, 0x9a])
    // Microseconds from the first event: 52032.679779 − 52032.679748 = 31 µs.
    #expect(dataset.traces[0].t == [0.000031, 0.020252, 0.055756])
    // The slot keeps its pressure for the next contact (evdev sends only changes).
    #expect(dataset.traces[1].force == [0x9a, 0x9a])
    #expect(dataset.traces[1].phase == [.began, .ended])
  }

  @Test func invalidValue() {
    let text = replacingLine(12, of: Self.protocolA, with: "[   10.015000] EV_ABS       ABS_MT_PRESSURE      0000003g")
    let error = importError(text, as: .getevent)
    #expect(error?.position == TextPosition(line: 12, column: 50))
    #expect(error?.message == "invalid event value '0000003g' (expected up to 8 hexadecimal digits)")
  }

  @Test func missingTimestamp() {
    let text = replacingLine(4, of: Self.protocolA, with: "EV_ABS       ABS_MT_PRESSURE      00000020")
    #expect(importError(text, as: .getevent)?.position == TextPosition(line: 4, column: 1))
  }

  @Test func invalidTimestamp() {
    let text = replacingLine(4, of: Self.protocolA, with: "[   10.0a0000] EV_ABS ABS_MT_PRESSURE 00000020")
    #expect(importError(text, as: .getevent)?.position == TextPosition(line: 4, column: 5))
  }

  @Test func eventsFromTwoDevicesAreSplit() throws {
    // Tests/touchtraceTests/Fixtures/import/getevent-two-devices.txt, written by hand: a
    // touchscreen (event4, pressure 0…255) and a pen (event7, pressure 0…4095) interleaved.
    // Times count from the log's first event (100.000000 s) for both devices.
    let path = SharedData.repositoryRoot + "/Tests/touchtraceTests/Fixtures/import/getevent-two-devices.txt"
    let dataset = try TraceImporter.load([path], from: .getevent)
    #expect(dataset.files == [path])
    #expect(dataset.traces.map(\.name) == ["getevent-two-devices@event4", "getevent-two-devices@event7"])
    let (screen, pen) = (dataset.traces[0], dataset.traces[1])
    #expect(screen.metadata.device == "fts_ts")
    #expect(screen.metadata.maxForce == 255)
    #expect(screen.t == [0, 0.01, 0.02])
    #expect(screen.force == [0x20, 0x40, 0x40])
    #expect(screen.x == [0x64, 0x64, 0x64])
    #expect(pen.metadata.device == "sec_e-pen")
    #expect(pen.metadata.maxForce == 4095)
    #expect(pen.t == [0.005, 0.015, 0.025])
    #expect(pen.force == [0x100, 0x800, 0])
    #expect(pen.phase == [.began, .moved, .ended])
    #expect(pen.x == [1000, 1000, 1000])
  }

  @Test func twoDevicesWithoutHeaders() throws {
    let text = """
      [ 1.000000] /dev/input/event1: EV_ABS ABS_MT_TRACKING_ID 00000000
      [ 1.000000] /dev/input/event1: EV_ABS ABS_MT_PRESSURE 00000020
      [ 1.000000] /dev/input/event1: EV_SYN SYN_REPORT 00000000
      [ 1.500000] /dev/input/event2: EV_ABS ABS_MT_TRACKING_ID 00000005
      [ 1.500000] /dev/input/event2: EV_ABS ABS_MT_PRESSURE 00000010
      [ 1.500000] /dev/input/event2: EV_SYN SYN_REPORT 00000000
      [ 2.000000] /dev/input/event1: EV_ABS ABS_MT_TRACKING_ID ffffffff
      [ 2.000000] /dev/input/event1: EV_SYN SYN_REPORT 00000000
      [ 2.250000] /dev/input/event2: EV_ABS ABS_MT_TRACKING_ID ffffffff
      [ 2.250000] /dev/input/event2: EV_SYN SYN_REPORT 00000000
      """
    let dataset = try importText(text, as: .getevent)
    #expect(dataset.traces.map(\.name) == ["fixture@event1", "fixture@event2"])
    #expect(dataset.traces.map(\.metadata.device) == ["/dev/input/event1", "/dev/input/event2"])
    #expect(dataset.traces[0].t == [0, 1])
    #expect(dataset.traces[1].t == [0.5, 1.25])
    #expect(dataset.traces.map(\.metadata.maxForce) == [nil, nil])
  }

  @Test func timeGoingBackwardsInAContact() {
    let text = replacingLine(17, of: Self.protocolA, with: "[    9.015000] EV_SYN       SYN_REPORT           00000000")
    let error = importError(text, as: .getevent)
    #expect(error?.position == TextPosition(line: 17, column: 6))
    #expect(error?.trace == "fixture")
  }

  @Test func skipInvalidKeepsTheOtherContact() throws {
    let text = replacingLine(
      15, of: Self.protocolA, with: "[   10.015000] EV_ABS       ABS_MT_PRESSURE      00000010 extra")
    let dataset = try importText(text, as: .getevent, options: ImportOptions(skipInvalid: true))
    // The malformed line falls while contact 0 is open: it is skipped; the second contact's
    // pressure event was lost with the line, so its pressure is the slot's initial 0.
    #expect(dataset.total == 2)
    #expect(dataset.skipped.map(\.trace) == ["fixture"])
    #expect(dataset.traces.map(\.name) == ["fixture#1"])
  }
}
