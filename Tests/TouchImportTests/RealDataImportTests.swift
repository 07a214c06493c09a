import Testing
import TouchCore
import TouchIO
import TouchTestSupport

@testable import TouchImport

// Every expected number below is copied from the SOURCE.md of the folder under
// ../shared/realdata (tables computed by whoever copied the recordings, not by this code), or
// read off the recording by hand where noted.

private let realDataMissing = Comment(rawValue: SharedData.missingRealDataMessage)

/// One evemu recording and what its folder's SOURCE.md says about it.
struct EvemuCase: CustomTestStringConvertible, Sendable {
  var file: String
  /// The companion description for recordings without a header.
  var description: String?
  /// Contacts: "new MT tracking IDs" for devices with ABS_MT_PRESSURE (per-contact pressure),
  /// else "BTN_TOUCH downs".
  var contacts: Int
  /// Upper end of "pressure min–max".
  var maxPressure: Double
  /// "axis max" of the pressure axis the contacts use (0x3a with MT pressure, else 0x18).
  var axisMax: Double
  /// "median in-contact frame rate" (pens only), Hz.
  var frameRate: Double?

  var testDescription: String { file }
}

private let synaptics = "touchpads/SynPS2 Synaptics TouchPad.desc"
private let hp8470p = "touchpads/SynPS2 Synaptics TouchPad.hp8470p.desc"
private let intuos = "tablets/Wacom Intuos4 6x9 Pen.desc"

let evemuCases: [EvemuCase] = [
  .init(
    file: "tablets/UC-LOGIC Tablet WP5540U Pen.events", contacts: 1, maxPressure: 451, axisMax: 1023, frameRate: 125),
  .init(file: "tablets/Wacom Cintiq 12WX.events", contacts: 2, maxPressure: 765, axisMax: 1023, frameRate: 141),
  .init(file: "tablets/Wacom Cintiq 13HD touch Pen.events", contacts: 2, maxPressure: 1267, axisMax: 2047),
  .init(file: "tablets/Wacom Cintiq 13HD.events", contacts: 40, maxPressure: 560, axisMax: 1023, frameRate: 167),
  .init(file: "tablets/Wacom Cintiq 22HDT Pen.events", contacts: 38, maxPressure: 1258, axisMax: 2047, frameRate: 125),
  .init(file: "tablets/Wacom DTH2242 Pen.events", contacts: 7, maxPressure: 1424, axisMax: 2047, frameRate: 143),
  .init(
    file: "tablets/Wacom Intuos4 6x9.stylus-drag.events", description: intuos, contacts: 1, maxPressure: 2047,
    axisMax: 2047, frameRate: 250),
  .init(
    file: "tablets/Wacom Intuos4 6x9.stylus-tap.events", description: intuos, contacts: 1, maxPressure: 2047,
    axisMax: 2047, frameRate: 250),
  .init(file: "tablets/dell_canvas_pen.evemu", contacts: 1, maxPressure: 4068, axisMax: 4095, frameRate: 169),
  // The four ALPS GlidePoint files have no BTN_TOUCH events and only single-touch ABS_PRESSURE:
  // a contact is "any tracking id active" (the kernel's pointer emulation). SOURCE.md lists
  // their tracking ids (2, 2, 1, 1); read by hand, the two ids of 2-finger-tap overlap
  // (0.030597 s to 0.214298 s) and form one contact, those of double-tap do not.
  .init(file: "touchpads/AlpsPS2 ALPS GlidePoint.2-finger-tap.events", contacts: 1, maxPressure: 62, axisMax: 127),
  .init(file: "touchpads/AlpsPS2 ALPS GlidePoint.double-tap.events", contacts: 2, maxPressure: 32, axisMax: 127),
  .init(
    file: "touchpads/AlpsPS2 ALPS GlidePoint.right-edge-scroll.events",
    description: "touchpads/AlpsPS2 ALPS GlidePoint.desc",
    contacts: 1, maxPressure: 13, axisMax: 127),
  .init(file: "touchpads/AlpsPS2 ALPS GlidePoint.single-tap.events", contacts: 1, maxPressure: 34, axisMax: 127),
  .init(
    file: "touchpads/AlpsPS2-ALPS-DualPoint-TouchPad-non-MT.doubletap.events", contacts: 2, maxPressure: 40,
    axisMax: 127),
  .init(
    file: "touchpads/AlpsPS2-ALPS-DualPoint-TouchPad-non-MT.tap.events", contacts: 1, maxPressure: 66, axisMax: 127),
  .init(
    file: "touchpads/AlpsPS2-ALPS-DualPoint-TouchPad.events",
    description: "touchpads/AlpsPS2-ALPS-DualPoint-TouchPad.desc",
    contacts: 1, maxPressure: 102, axisMax: 127),
  .init(
    file: "touchpads/CyPS2 Cypress Trackpad.three_finger_press.events", contacts: 3, maxPressure: 124, axisMax: 255),
  .init(file: "touchpads/CyPS2 Cypress Trackpad.three_finger_tap.events", contacts: 2, maxPressure: 91, axisMax: 255),
  .init(file: "touchpads/CyPS2 Cypress Trackpad.two_finger_press.events", contacts: 2, maxPressure: 110, axisMax: 255),
  .init(file: "touchpads/CyPS2 Cypress Trackpad.two_finger_tap.events", contacts: 2, maxPressure: 76, axisMax: 255),
  .init(file: "touchpads/ETPS2 Elantech Touchpad.Samsung-700Z3A.events", contacts: 2, maxPressure: 16, axisMax: 255),
  .init(
    file: "touchpads/ETPS2 Elantech Touchpad.events", description: "touchpads/ETPS2 Elantech Touchpad.desc",
    contacts: 3,
    maxPressure: 89, axisMax: 255),
  .init(
    file: "touchpads/SynPS2 Synaptics TouchPad-fdo23890.events",
    description: "touchpads/SynPS2 Synaptics TouchPad-fdo23890.desc", contacts: 2, maxPressure: 66, axisMax: 255),
  .init(
    file: "touchpads/SynPS2 Synaptics TouchPad-with-scrollbuttons.events", contacts: 2, maxPressure: 70, axisMax: 255),
  .init(
    file: "touchpads/SynPS2 Synaptics TouchPad.button-rpress.events", description: synaptics, contacts: 1,
    maxPressure: 51, axisMax: 255),
  .init(
    file: "touchpads/SynPS2 Synaptics TouchPad.events", description: synaptics, contacts: 45, maxPressure: 82,
    axisMax: 255),
  .init(
    file: "touchpads/SynPS2 Synaptics TouchPad.fdo48777-reproducer.events", description: synaptics, contacts: 2,
    maxPressure: 65, axisMax: 255),
  .init(
    file: "touchpads/SynPS2 Synaptics TouchPad.hp8470p.edge-scroll-horizontal.events", description: hp8470p,
    contacts: 4,
    maxPressure: 81, axisMax: 255),
  .init(
    file: "touchpads/SynPS2 Synaptics TouchPad.hp8470p.edge-scroll-vertical.events", description: hp8470p, contacts: 1,
    maxPressure: 78, axisMax: 255),
  .init(
    file: "touchpads/SynPS2 Synaptics TouchPad.hp8470p.two-finger-scroll-horizontal.events", description: hp8470p,
    contacts: 2, maxPressure: 100, axisMax: 255),
  .init(
    file: "touchpads/SynPS2 Synaptics TouchPad.hp8470p.two-finger-scroll-vertical.events", description: hp8470p,
    contacts: 1, maxPressure: 109, axisMax: 255),
  .init(
    file: "touchpads/SynPS2 Synaptics TouchPad.leftmove.events", description: synaptics, contacts: 1, maxPressure: 73,
    axisMax: 255),
  .init(
    file: "touchpads/SynPS2 Synaptics TouchPad.two-finger-vert-scroll.events", description: synaptics, contacts: 2,
    maxPressure: 68, axisMax: 255),
  .init(file: "touchpads/bcm5974.three-finger-click.events", contacts: 5, maxPressure: 255, axisMax: 256),
]

/// One getevent log and its SOURCE.md row.
struct GeteventCase: CustomTestStringConvertible, Sendable {
  var file: String
  /// "touch sequences (0→≥1 contacts)".
  var sequences: Int
  /// "max simultaneous contacts".
  var simultaneous: Int
  /// "pressure min–max (hex decoded)".
  var minPressure: Double
  var maxPressure: Double

  /// One trace per contact: a sequence holds `simultaneous` contacts in the two-finger files.
  var contacts: Int { simultaneous == 2 ? 2 : sequences }
  var testDescription: String { file }
}

let geteventCases: [GeteventCase] = [
  .init(file: "Phone/galaxy-paint-new.txt", sequences: 14, simultaneous: 1, minPressure: 68, maxPressure: 212),
  // SOURCE.md gives 2 simultaneous contacts here, but the file alternates strictly between a
  // new ABS_MT_TRACKING_ID and ffffffff (34 of each, never two ids in one frame; checked by
  // hand with grep), so the contacts never overlap.
  .init(file: "Phone/galaxys-paint.txt", sequences: 34, simultaneous: 1, minPressure: 70, maxPressure: 160),
  .init(file: "Phone/phone-CalenderaddEvent.txt", sequences: 8, simultaneous: 1, minPressure: 17, maxPressure: 64),
  .init(file: "Phone/phone-openCalender.txt", sequences: 3, simultaneous: 1, minPressure: 29, maxPressure: 73),
  .init(file: "Phone/phone-playAngryBirdsLevel1.txt", sequences: 1, simultaneous: 1, minPressure: 16, maxPressure: 59),
  .init(file: "Phone/phone-single-drag.txt", sequences: 1, simultaneous: 1, minPressure: 12, maxPressure: 49),
  .init(file: "Phone/phone-single-touch.txt", sequences: 1, simultaneous: 1, minPressure: 37, maxPressure: 37),
  .init(file: "Phone/phone-three-touches.txt", sequences: 3, simultaneous: 1, minPressure: 16, maxPressure: 68),
  .init(file: "Phone/phone-two-finger-drag.txt", sequences: 1, simultaneous: 2, minPressure: 23, maxPressure: 62),
  .init(
    file: "Tablet/tablet-AngryBirdsMultipleLevels.txt", sequences: 22, simultaneous: 1, minPressure: 32,
    maxPressure: 128),
  .init(file: "Tablet/tablet-CalenderaddEvent.txt", sequences: 8, simultaneous: 1, minPressure: 32, maxPressure: 192),
  .init(
    file: "Tablet/tablet-openAngryBirds-drag-tap-tap.txt", sequences: 3, simultaneous: 1, minPressure: 32,
    maxPressure: 128),
  .init(
    file: "Tablet/tablet-openCalender-drag-tap-tap.txt", sequences: 3, simultaneous: 1, minPressure: 32,
    maxPressure: 128),
  .init(
    file: "Tablet/tablet-playAngryBirdsLevel1.txt", sequences: 1, simultaneous: 1, minPressure: 32, maxPressure: 128),
  .init(file: "Tablet/tablet-single-drag.txt", sequences: 1, simultaneous: 1, minPressure: 64, maxPressure: 128),
  .init(file: "Tablet/tablet-single-touch.txt", sequences: 1, simultaneous: 1, minPressure: 64, maxPressure: 64),
  .init(file: "Tablet/tablet-three-touches.txt", sequences: 3, simultaneous: 1, minPressure: 32, maxPressure: 64),
  .init(file: "Tablet/tablet-two-finger-drag.txt", sequences: 1, simultaneous: 2, minPressure: 32, maxPressure: 128),
]

/// Checks what holds for every imported trace: valid (times non-decreasing, forces within
/// 0…max_force), one id per file, contact numbers 0, 1, …, phases from began to an end.
private func expectWellFormed(_ dataset: Dataset, file: String, sourceLocation: SourceLocation = #_sourceLocation) {
  #expect(dataset.skipped.isEmpty, "\(dataset.skipped)", sourceLocation: sourceLocation)
  for (k, trace) in dataset.traces.enumerated() {
    #expect(
      trace.validate() == nil, "\(trace.name): \(String(describing: trace.validate()))", sourceLocation: sourceLocation)
    #expect(trace.metadata.id == TraceImporter.traceID(forFile: file), sourceLocation: sourceLocation)
    #expect(trace.metadata.touch == k, sourceLocation: sourceLocation)
    #expect(zip(trace.t, trace.t.dropFirst()).allSatisfy { $0 <= $1 }, sourceLocation: sourceLocation)
    #expect(
      trace.force.allSatisfy { $0 >= 0 && $0 <= (trace.metadata.maxForce ?? .infinity) }, sourceLocation: sourceLocation
    )
    #expect(trace.phase.first == .began, sourceLocation: sourceLocation)
  }
}

@Suite(.enabled(if: SharedData.hasRealData, realDataMissing))
struct EvemuRealDataTests {
  @Test(arguments: evemuCases)
  func reproducesSourceCounts(_ c: EvemuCase) throws {
    let options = ImportOptions(deviceDescription: c.description.map { SharedData.realData("evemu-devices/" + $0) })
    let file = SharedData.realData("evemu-devices/" + c.file)
    let dataset = try TraceImporter.load([file], from: .evemu, options: options)
    expectWellFormed(dataset, file: file)
    #expect(dataset.traces.count == c.contacts)
    #expect(dataset.maxForceSeen == c.maxPressure)
    #expect(dataset.traces.allSatisfy { $0.metadata.maxForce == c.axisMax })
    if let rate = c.frameRate {
      var intervals: [Double] = []
      for trace in dataset.traces { intervals += zip(trace.t, trace.t.dropFirst()).map { $1 - $0 } }
      // SOURCE.md rounds the rate to whole hertz.
      #expect(abs(1 / median(intervals) - rate) <= 0.02 * rate, "median rate \(1 / median(intervals)) Hz")
    }
  }

  @Test func headerlessRecordingsPairWithTheDescBesideThem() throws {
    // Read off the folder by hand: the recording is named after the device "Wacom Intuos4 6x9"
    // (its tilt values 0…110 fit that .desc's ABS_TILT range 0…127, not the Pen .desc's −64…63);
    // that .desc's pressure axis is "A: 18 0 2047". The hp8470p recordings take the longer
    // name "SynPS2 Synaptics TouchPad.hp8470p.desc" over "SynPS2 Synaptics TouchPad.desc", and
    // "…-fdo23890.events" its own "…-fdo23890.desc".
    let tap = SharedData.realData("evemu-devices/tablets/Wacom Intuos4 6x9.stylus-tap.events")
    let dataset = try TraceImporter.load([tap], from: .evemu)
    #expect(dataset.traces.count == 1)
    #expect(dataset.traces[0].metadata.maxForce == 2047)
    #expect(dataset.traces[0].metadata.device == "Wacom Intuos4 6x9")
    #expect(
      dataset.diagnostics.first?.description
        == "\(tap): note: no device header: using the device description 'Wacom Intuos4 6x9.desc' beside it")
    let pairs = [
      (
        "touchpads/SynPS2 Synaptics TouchPad.hp8470p.edge-scroll-vertical.events",
        "SynPS2 Synaptics TouchPad.hp8470p.desc"
      ),
      ("touchpads/SynPS2 Synaptics TouchPad-fdo23890.events", "SynPS2 Synaptics TouchPad-fdo23890.desc"),
      ("touchpads/SynPS2 Synaptics TouchPad.leftmove.events", "SynPS2 Synaptics TouchPad.desc"),
      ("touchpads/AlpsPS2 ALPS GlidePoint.right-edge-scroll.events", "AlpsPS2 ALPS GlidePoint.desc"),
      ("touchpads/AlpsPS2-ALPS-DualPoint-TouchPad.events", "AlpsPS2-ALPS-DualPoint-TouchPad.desc"),
    ]
    for (recording, desc) in pairs {
      let path = SharedData.realData("evemu-devices/" + recording)
      #expect(TraceImporter.pairedDescription(for: path) == SharedData.realData("evemu-devices/touchpads/" + desc))
    }
    // A recording with its own header is not paired (no note).
    let headed = try TraceImporter.load(
      [SharedData.realData("evemu-devices/touchpads/ETPS2 Elantech Touchpad.Samsung-700Z3A.events")], from: .evemu)
    #expect(!headed.diagnostics.contains { $0.severity == .note })
  }

  @Test func headerlessRecordingWithoutDescWarnsAndHasNoMaximum() throws {
    // Alone in a directory the recording still carries ABS_PRESSURE events, so contacts are
    // found, but the axis range (the maximum force) is unknown, and the warning names the file.
    let bytes = try TraceFiles.read(SharedData.realData("evemu-devices/tablets/Wacom Intuos4 6x9.stylus-tap.events"))
    let directory = TestData.temporaryDirectory()
    defer { TestData.remove(directory) }
    let file = directory + "/Wacom Intuos4 6x9.stylus-tap.events"
    TestData.write(String(decoding: bytes, as: UTF8.self), to: file)
    let dataset = try TraceImporter.load([directory], from: .evemu)
    #expect(dataset.traces.count == 1)
    #expect(dataset.traces[0].metadata.maxForce == nil)
    #expect(dataset.maxForceSeen == 2047)
    #expect(
      dataset.diagnostics.last?.description
        == "warning: 1 evemu recording has no device header and no '.desc' beside it named after the device (pressure range unknown; give --description FILE): '\(file)'"
    )
  }

  @Test func penPositionsUseTheAxisResolution() throws {
    // Intuos4 ABS_X: 0…44704 at 200 units/mm (the .desc's A: 00 line) = 223.5 mm wide; the
    // contact's first frame (line 144–150, read by hand) has ABS_X 19466 and ABS_PRESSURE 1057.
    let file = SharedData.realData("evemu-devices/tablets/Wacom Intuos4 6x9.stylus-tap.events")
    let options = ImportOptions(deviceDescription: SharedData.realData("evemu-devices/" + intuos))
    let trace = try #require(try TraceImporter.load([file], from: .evemu, options: options).traces.first)
    let x = try #require(trace.x?.first)
    #expect(abs(x - 19466.0 / 200 * 160 / 25.4) < 1e-9)
    #expect(trace.force.first == 1057)
  }
}

@Suite(.enabled(if: SharedData.hasRealData, realDataMissing))
struct GeteventRealDataTests {
  @Test(arguments: geteventCases)
  func reproducesSourceCounts(_ c: GeteventCase) throws {
    let file = SharedData.realData("android-getevent/" + c.file)
    let dataset = try TraceImporter.load([file], from: .getevent)
    expectWellFormed(dataset, file: file)
    #expect(dataset.traces.count == c.contacts)
    let sequences = dataset.touchSequences
    #expect(sequences.count == c.sequences)
    #expect(sequences.maxSimultaneous == c.simultaneous)
    #expect(dataset.minForceSeen == c.minPressure)
    #expect(dataset.maxForceSeen == c.maxPressure)
    // getevent logs carry no axis ranges.
    #expect(dataset.traces.allSatisfy { $0.metadata.maxForce == nil })
  }

  @Test func maximumForceOption() throws {
    let file = SharedData.realData("android-getevent/Tablet/tablet-three-touches.txt")
    let dataset = try TraceImporter.load([file], from: .getevent, options: ImportOptions(maxForce: 255))
    #expect(dataset.traces.count == 3)
    #expect(dataset.traces.allSatisfy { $0.metadata.maxForce == 255 })
  }

  @Test func maximumForceFillsGapsUnlessOverriding() throws {
    // The UC-LOGIC header gives the pressure axis 0…1023 (SOURCE.md "axis max"): --max-force
    // only fills gaps, so it stays; with the override it is replaced.
    let file = SharedData.realData("evemu-devices/tablets/UC-LOGIC Tablet WP5540U Pen.events")
    let filled = try TraceImporter.load([file], from: .evemu, options: ImportOptions(maxForce: 500))
    #expect(filled.traces.allSatisfy { $0.metadata.maxForce == 1023 })
    let replaced = try TraceImporter.load(
      [file], from: .evemu, options: ImportOptions(maxForce: 2000, maxForceOverride: true))
    #expect(replaced.traces.allSatisfy { $0.metadata.maxForce == 2000 })
  }

  @Test func labelsFromThePaths() throws {
    // Phone/phone-three-touches.txt: 3 contacts (SOURCE.md); the path gives device and gesture.
    let directory = SharedData.realData("android-getevent")
    let options = ImportOptions(labelFromPath: [try PathLabels("{device}/*-{gesture}.txt")])
    let dataset = try TraceImporter.load(
      [directory + "/Phone/phone-three-touches.txt"], from: .getevent, options: options)
    #expect(dataset.traces.count == 3)
    #expect(
      dataset.traces.allSatisfy { $0.metadata.device == "Phone" && $0.metadata.labels == ["gesture": "three-touches"] })
  }

  @Test func allFilesTogether() throws {
    let files = ["Phone", "Tablet"].flatMap {
      SharedData.files(in: SharedData.realData("android-getevent/" + $0), suffix: ".txt")
    }
    #expect(files.count == 18)
    let dataset = try TraceImporter.load(files, from: .getevent)
    #expect(dataset.total == geteventCases.map(\.contacts).reduce(0, +))
    #expect(dataset.files.count == 18)
    // Every real log records one device (no PATH: prefixes), so none is split: ids stay the
    // file names (a split would give FILE@eventN).
    #expect(dataset.traces.allSatisfy { !$0.metadata.id.contains("@") })
  }
}

@Suite(.enabled(if: SharedData.hasRealData, realDataMissing))
struct ForceValuesRealDataTests {
  static let file = "algal-3dtouch/data-60secondsVariedForce/04317CA4-3AD0-4776-861E-78040D8BC3E2.json"

  @Test func segmentsOnZeros() throws {
    let interval = 1.0 / 60
    let dataset = try TraceImporter.load(
      [SharedData.realData(Self.file)], from: .forceValues, options: ImportOptions(interval: interval))
    expectWellFormed(dataset, file: Self.file)
    // SOURCE.md: 2140 values; touches (start index, length) (0,133) (133,314) (447,432)
    // (879,512) (1391,313) (1704,433), then 3 single 0 values at 2137–2139.
    #expect(dataset.sampleCount == 2140)
    let expected = [
      (0, 133), (133, 314), (447, 432), (879, 512), (1391, 313), (1704, 433), (2137, 1), (2138, 1), (2139, 1),
    ]
    #expect(dataset.traces.count == expected.count)
    for (trace, (start, length)) in zip(dataset.traces, expected) {
      #expect(trace.count == length)
      #expect(abs(trace.t[0] - Double(start) * interval) < 1e-9)
      #expect(trace.force[0] == 0)
      #expect(trace.metadata.timeSynthesized)
      #expect(trace.metadata.maxForce == 20.0 / 3.0)
      #expect(trace.phase.first == .began)
      if length > 1 { #expect(trace.phase.last == .ended) }
    }
    // "each reaching saturation at 6.666667 (10–29 saturated samples per touch)".
    for trace in dataset.traces.prefix(6) {
      let saturated = trace.force.filter { $0 == 20.0 / 3.0 }.count
      #expect((10...29).contains(saturated), "\(trace.name): \(saturated) saturated samples")
    }
    // "quantised in steps of exactly 1/60 (max |60·x − round(60·x)| = 2e-5)".
    let worst = dataset.traces.flatMap(\.force).map { abs(60 * $0 - (60 * $0).rounded()) }.max()!
    #expect(worst <= 2.1e-5)
  }
}

@Suite(.enabled(if: SharedData.hasRealData, realDataMissing))
struct TabletRealDataTests {
  /// The 77 data files (readme.txt excluded).
  static var files: [String] {
    ["control", "parkinson"].flatMap {
      SharedData.files(in: SharedData.realData("uci-spiral-tablet/hw_dataset/" + $0), suffix: ".txt")
    }
  }

  /// Backward jumps of the tablet clock between consecutive in-contact rows of one test. Not in
  /// SOURCE.md (which says the clock is monotonic within a test); counted here with a direct scan
  /// of the rows, independent of the importer.
  static func backwardJumps() throws -> Int {
    var count = 0
    for file in files {
      let text = String(decoding: try TraceFiles.read(file), as: UTF8.self)
      var previous: [Int]?
      for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) where !line.isEmpty {
        let row = line.split(separator: ";").map { Int($0)! }
        if let p = previous, p[6] == row[6], p[3] > 0, row[3] > 0, row[5] < p[5] { count += 1 }
        previous = row
      }
    }
    return count
  }

  @Test func reproducesSourceCounts() throws {
    let files = Self.files
    #expect(files.count == 77)
    let dataset = try TraceImporter.load(files, from: .tabletCSV, options: ImportOptions(maxForce: 1023))
    #expect(dataset.skipped.isEmpty)
    #expect(dataset.files.count == 77)
    #expect(dataset.traces.allSatisfy { $0.validate() == nil })
    #expect(dataset.traces.allSatisfy { $0.force.allSatisfy { $0 >= 1 && $0 <= 1023 } })
    // SOURCE.md: Test 0 in 76 files, Test 1 in 72; both hold only pen-down rows (221,714 and
    // 192,622), with 101 gaps > 30 ms; Test 2 has 174 contact↔hover transitions, i.e. 87
    // contacts, since every Test 2 contact starts and ends hovering.
    let jumps = try Self.backwardJumps()
    #expect(jumps == 2)
    let bySession = Dictionary(grouping: dataset.traces, by: { $0.metadata.session ?? "" })
    #expect((bySession["0"]?.count ?? 0) + (bySession["1"]?.count ?? 0) == 76 + 72 + 101 + jumps)
    #expect(bySession["2"]?.count == 174 / 2)
    #expect(dataset.traces.count == 76 + 72 + 101 + jumps + 174 / 2)
    #expect(bySession["0"]?.reduce(0) { $0 + $1.count } == 221_714)
    #expect(bySession["1"]?.reduce(0) { $0 + $1.count } == 192_622)
    // Timestamps step mostly 7 or 9 ms (≈110–140 Hz).
    let intervals = dataset.traces.prefix(40).flatMap { zip($0.t, $0.t.dropFirst()).map { $1 - $0 } }
    let typical = median(intervals)
    #expect(abs(typical - 0.007) < 1e-9 || abs(typical - 0.009) < 1e-9, "median interval \(typical) s")
  }
}
