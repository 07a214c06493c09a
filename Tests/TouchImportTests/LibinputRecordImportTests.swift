import Testing
import TouchCore
import TouchIO
import TouchTestSupport

@testable import TouchImport

/// A `libinput record` file as its man page lays it out: one touchscreen (protocol B slots),
/// one contact over three evdev frames, with a libinput frame and a hid frame between them
/// (passed over), the events list written at the key's own indentation (a compact YAML sequence).
private let touchscreen = """
  version: 1
  ndevices: 1
  libinput:
    version: "1.25.0"
  system:
    os: "debian:13"
    kernel: "6.12.0"
    dmi: "dmi:bvnTest:"
  devices:
  - node: /dev/input/event7
    evdev:
      # Name: Test Touchscreen
      # Supported Events:
      name: "Test Touchscreen"
      id: [3, 1267, 12345, 256]
      codes:
        0: [0, 1, 2] # EV_SYN
        1: [330] # EV_KEY
        3: [0, 1, 24, 47, 53, 54, 57, 58] # EV_ABS
      absinfo:
        0: [0, 4000, 0, 0, 20]
        1: [0, 3000, 0, 0, 20]
        24: [0, 255, 0, 0, 0]
        47: [0, 9, 0, 0, 0]
        53: [0, 4000, 0, 0, 20]
        54: [0, 3000, 0, 0, 20]
        57: [0, 65535, 0, 0, 0]
        58: [0, 255, 0, 0, 0]
      properties: [1]
    udev:
      properties:
      - ID_INPUT=1
      - ID_INPUT_TOUCHSCREEN=1
    events:
    # Current time is 12:00:00
    - evdev:
      - [  0,      0,   3,  47,     0] # EV_ABS / ABS_MT_SLOT               0
      - [  0,      0,   3,  57,    12] # EV_ABS / ABS_MT_TRACKING_ID       12
      - [  0,      0,   3,  53,   200] # EV_ABS / ABS_MT_POSITION_X      200
      - [  0,      0,   3,  54,   400] # EV_ABS / ABS_MT_POSITION_Y      400
      - [  0,      0,   3,  58,    40] # EV_ABS / ABS_MT_PRESSURE         40
      - [  0,      0,   1, 330,     1] # EV_KEY / BTN_TOUCH                1
      - [  0,      0,   0,   0,     0] # ------------ SYN_REPORT (0) ---------- +0ms
    - libinput:
      - {time: 0.000000, type: TOUCH_DOWN, slot: 0, seat_slot: 0, point: [10.00, 20.00]}
    - evdev:
      - [  0,  16000,   3,  53,   220] # EV_ABS / ABS_MT_POSITION_X      220
      - [  0,  16000,   3,  58,   120] # EV_ABS / ABS_MT_PRESSURE        120
      - [  0,  16000,   0,   0,     0] # ------------ SYN_REPORT (0) ---------- +16ms
    - hid:
        time: [  0,  17000]
        hidraw0: [1, 2, 3]
    - evdev:
      - [  0,  33000,   3,  57,    -1] # EV_ABS / ABS_MT_TRACKING_ID       -1
      - [  0,  33000,   1, 330,     0] # EV_KEY / BTN_TOUCH                0
      - [  0,  33000,   0,   0,     0] # ------------ SYN_REPORT (0) ---------- +17ms

  """

@Suite struct LibinputRecordImportTests {
  @Test func touchscreenContact() throws {
    let dataset = try importText(touchscreen, as: .libinputRecord, name: "fixture.yml")
    #expect(dataset.total == 1)
    let trace = try #require(dataset.traces.first)
    #expect(trace.metadata.id == "fixture")
    #expect(trace.metadata.device == "Test Touchscreen")
    #expect(trace.metadata.maxForce == 255, "ABS_MT_PRESSURE (58) absinfo maximum")
    // A sample per SYN_REPORT from the tracking id's start to its end; values carried forward.
    #expect(trace.t == [0, 0.016, 0.033])
    #expect(trace.force == [40, 120, 120])
    #expect(trace.phase == [.began, .moved, .ended])
    // 20 units per mm, 160 points per inch: x 200 → 10 mm, 220 → 11 mm; y 400 → 20 mm.
    let x = try #require(trace.x)
    let y = try #require(trace.y)
    #expect(zip(x, [10.0, 11, 11]).allSatisfy { abs($0 - $1 * 160 / 25.4) < 1e-9 })
    #expect(y.allSatisfy { abs($0 - 20 * 160 / 25.4) < 1e-9 })
  }

  @Test func theSameEventsAsEvemuGiveTheSameTrace() throws {
    // The fixture's events written as evemu-record lines (hexadecimal type and code).
    let evemu = """
      N: Test Touchscreen
      A: 00 0 4000 0 0 20
      A: 01 0 3000 0 0 20
      A: 18 0 255 0 0 0
      A: 2f 0 9 0 0 0
      A: 35 0 4000 0 0 20
      A: 36 0 3000 0 0 20
      A: 39 0 65535 0 0 0
      A: 3a 0 255 0 0 0
      E: 0.000000 0003 002f 0
      E: 0.000000 0003 0039 12
      E: 0.000000 0003 0035 200
      E: 0.000000 0003 0036 400
      E: 0.000000 0003 003a 40
      E: 0.000000 0001 014a 1
      E: 0.000000 0000 0000 0
      E: 0.016000 0003 0035 220
      E: 0.016000 0003 003a 120
      E: 0.016000 0000 0000 0
      E: 0.033000 0003 0039 -1
      E: 0.033000 0001 014a 0
      E: 0.033000 0000 0000 0

      """
    let fromEvemu = try importText(evemu, as: .evemu, name: "fixture.events")
    let fromLibinput = try importText(touchscreen, as: .libinputRecord, name: "fixture.yml")
    #expect(fromLibinput.traces == fromEvemu.traces)
  }

  @Test func severalDevicesAreSplitPerDevice() throws {
    let pen = """
      - node: /dev/input/event9
        evdev:
          name: Test Pen
          absinfo:
            0: [0, 1000, 0, 0, 10]
            24: [0, 2047, 0, 0, 0]
        events:
          - evdev:
            - [  0,   8000,   3,  24,   300]
            - [  0,   8000,   1, 330,     1]
            - [  0,   8000,   0,   0,     0]
          - evdev:
            - [  0,  24000,   3,  24,     0]
            - [  0,  24000,   1, 330,     0]
            - [  0,  24000,   0,   0,     0]

      """
    let text = touchscreen.replacing("ndevices: 1", with: "ndevices: 2") + pen
    let dataset = try importText(text, as: .libinputRecord, name: "both.yml")
    #expect(dataset.traces.map(\.metadata.id) == ["both@event7", "both@event9"])
    #expect(dataset.traces.map(\.metadata.device) == ["Test Touchscreen", "Test Pen"])
    #expect(dataset.traces.map(\.metadata.maxForce) == [255, 2047])
    // One clock for both devices: the touchscreen's first event is the origin.
    #expect(dataset.traces[1].t == [0.008, 0.024])
    #expect(dataset.traces[1].force == [300, 0])
  }

  @Test func anotherVersionIsRefused() throws {
    let text = replacingLine(1, of: touchscreen, with: "version: 2")
    let error = try #require(importError(text, as: .libinputRecord, name: "r.yml"))
    #expect(error.description.hasPrefix("r.yml:1:10: error: "))
    #expect(error.message.contains("version 2 is not supported"))
  }

  @Test func aFileWithoutVersionIsNotARecording() throws {
    let error = try #require(importError("devices:\n- node: /dev/input/event1\n", as: .libinputRecord, name: "x.yml"))
    #expect(error.description.hasPrefix("x.yml:1:1: error: not a libinput recording"))
  }

  @Test func malformedEventNamesLineAndColumn() throws {
    // Line 38 is the first frame's tracking id; four values instead of five.
    let text = replacingLine(38, of: touchscreen, with: "    - [  0,      0,   3,  57] # short")
    let error = try #require(importError(text, as: .libinputRecord, name: "r.yml"))
    #expect(error.description.hasPrefix("r.yml:38:7: error: "), "\(error)")
    #expect(error.message.contains("not 4 values"))
  }

  @Test func badFieldsNameTheirColumn() throws {
    let microseconds = replacingLine(47, of: touchscreen, with: "    - [  0, 1016000,   3,  53,   220]")
    let error = try #require(importError(microseconds, as: .libinputRecord, name: "r.yml"))
    #expect(error.description.hasPrefix("r.yml:47:13: error: invalid event microseconds 1016000"), "\(error)")
    let word = replacingLine(48, of: touchscreen, with: "    - [  0,  16000,   3,  58,  high]")
    let wordError = try #require(importError(word, as: .libinputRecord, name: "r.yml"))
    #expect(wordError.description.hasPrefix("r.yml:48:32: error: invalid event field 'high'"), "\(wordError)")
    let axis = replacingLine(28, of: touchscreen, with: "      58: [0, 255, 0, 0]")
    let axisError = try #require(importError(axis, as: .libinputRecord, name: "r.yml"))
    #expect(axisError.description.hasPrefix("r.yml:28:11: error: an absinfo entry has 5 values"), "\(axisError)")
  }

  /// A device listed twice (found by fuzz-libinput-record; its regression file is in
  /// Tests/FuzzRegressions) or without a path: the line and the column of the path.
  @Test func aDeviceNodeMustBeNamedOnce() throws {
    let again = "- node:  /dev/input/event7\n  events:\n  - evdev:\n    - [0, 40000, 3, 58, 10]\n"
    let error = try #require(
      importError(touchscreen + again, as: .libinputRecord, name: "r.yml"))
    #expect(error.description.hasPrefix("r.yml:57:10: error: the device node '/dev/input/event7' is listed twice"))
    let bare = try #require(importError(touchscreen + "- node:\n", as: .libinputRecord, name: "r.yml"))
    #expect(bare.description.hasPrefix("r.yml:57:8: error: a device without its node path"), "\(bare)")
  }

  /// Found by fuzz-libinput-record (a longer run): nodes `/dev/input/event3` and
  /// `Int/dev/input/event3` both gave ids `FILE@event3`. The same holds for a getevent log.
  @Test func devicesWithOneLastPathComponentKeepTheirWholePaths() {
    let parts = ["/dev/input/event3", "Int/dev/input/event3", "/dev/input/event4", nil, "unnamed", "unnamed"].map {
      EvdevPart(path: $0)
    }
    #expect(
      EvdevDecoder.deviceNames(parts) == [
        "/dev/input/event3", "Int/dev/input/event3", "event4", "unnamed-3", "unnamed-4", "unnamed-5",
      ])
  }

  @Test func skipInvalidAccountsForTheContact() throws {
    let text = replacingLine(48, of: touchscreen, with: "    - [  0,  16000,   3,  58,  high]")
    let dataset = try importText(text, as: .libinputRecord, name: "r.yml", options: ImportOptions(skipInvalid: true))
    #expect(dataset.traces.isEmpty)
    #expect(dataset.skipped.count == 1)
    #expect(dataset.skipped.first?.reason.contains("invalid event field") == true)
  }
}

/// Every real evemu recording, written as `libinput record` YAML by a converter of this test's
/// own (decimal codes, one `- evdev:` frame per SYN_REPORT, the header's or the `.desc`'s axes
/// as `absinfo`): the import reproduces the counts its folder's SOURCE.md states, and the same
/// traces as the evemu import.
@Suite(.enabled(if: SharedData.hasRealData, Comment(rawValue: SharedData.missingRealDataMessage)))
struct LibinputRecordRealDataTests {
  @Test(arguments: evemuCases)
  func reproducesSourceCounts(_ c: EvemuCase) throws {
    let file = SharedData.realData("evemu-devices/" + c.file)
    let description = c.description.map { SharedData.realData("evemu-devices/" + $0) }
    let options = ImportOptions(deviceDescription: description)
    let evemu = try TraceImporter.load([file], from: .evemu, options: options)
    let header = try description.map { try String(decoding: TraceFiles.read($0), as: UTF8.self) } ?? ""
    let yaml = libinputRecord(evemu: String(decoding: try TraceFiles.read(file), as: UTF8.self), description: header)
    let name = TraceImporter.traceID(forFile: file) + ".yml"
    let dataset = try importText(yaml, as: .libinputRecord, name: name)
    #expect(dataset.skipped.isEmpty)
    #expect(dataset.traces.count == c.contacts)
    #expect(dataset.maxForceSeen == c.maxPressure)
    #expect(dataset.traces.allSatisfy { $0.metadata.maxForce == c.axisMax })
    #expect(dataset.traces == evemu.traces)
  }

  /// `evemu` text (with `description`'s `N:`/`A:` lines when it has no header of its own) as
  /// `libinput record` YAML.
  private func libinputRecord(evemu: String, description: String) -> String {
    var name = "unknown"
    var absinfo: [String] = []
    var frames: [[String]] = [[]]
    for line in (description + "\n" + evemu).split(separator: "\n") {
      let words = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0].split(whereSeparator: {
        $0 == " " || $0 == "\t"
      })
      guard let key = words.first else { continue }
      switch key {
      case "N:": name = words.dropFirst().joined(separator: " ")
      case "A:":
        let numbers = words.dropFirst(2).map(String.init) + (words.count > 6 ? [] : ["0"])
        absinfo.append("      \(Int(words[1], radix: 16)!): [\(numbers.prefix(5).joined(separator: ", "))]")
      case "E:":
        let time = words[1].split(separator: ".")
        let micro = (String(time[1]) + "000000").prefix(6)
        let (type, code) = (Int(words[2], radix: 16)!, Int(words[3], radix: 16)!)
        frames[frames.count - 1].append("    - [\(time[0]), \(Int(micro)!), \(type), \(code), \(Int(words[4])!)]")
        if type == 0 && code == 0 { frames.append([]) }
      default: continue
      }
    }
    var lines = ["version: 1", "ndevices: 1", "devices:", "- node: /dev/input/event3", "  evdev:"]
    lines += ["    name: \"\(name)\"", "    absinfo:"] + absinfo + ["  events:"]
    for frame in frames where !frame.isEmpty { lines += ["  - evdev:"] + frame }
    return lines.joined(separator: "\n") + "\n"
  }
}
