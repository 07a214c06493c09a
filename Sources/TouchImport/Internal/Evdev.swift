import TouchCore
import TouchIO

/// Linux input event types and codes the importers use (linux/input-event-codes.h).
enum EV {
  static let syn: UInt16 = 0x00
  static let key: UInt16 = 0x01
  static let abs: UInt16 = 0x03

  static let synReport: UInt16 = 0x00
  static let synMTReport: UInt16 = 0x02
  static let synDropped: UInt16 = 0x03

  static let absX: UInt16 = 0x00
  static let absY: UInt16 = 0x01
  static let absPressure: UInt16 = 0x18
  static let absMTSlot: UInt16 = 0x2F
  static let absMTPositionX: UInt16 = 0x35
  static let absMTPositionY: UInt16 = 0x36
  static let absMTTrackingID: UInt16 = 0x39
  static let absMTPressure: UInt16 = 0x3A

  static let btnTouch: UInt16 = 0x14A

  /// A code this table has no name for (`getevent -l` names we do not use).
  static let unknown: UInt16 = 0xFFFF

  /// Event type names as `getevent -l` prints them.
  static let typeNames: [String: UInt16] = [
    "EV_SYN": 0x00, "EV_KEY": 0x01, "EV_REL": 0x02, "EV_ABS": 0x03, "EV_MSC": 0x04, "EV_SW": 0x05,
    "EV_LED": 0x11, "EV_SND": 0x12, "EV_REP": 0x14, "EV_FF": 0x15, "EV_PWR": 0x16,
    "EV_FF_STATUS": 0x17,
  ]

  /// Code names (per type) as `getevent -l` prints them; only the ones the decoder needs, plus
  /// common neighbours so that logs read cleanly (unknown names are ignored events).
  static let codeNames: [UInt16: [String: UInt16]] = [
    syn: ["SYN_REPORT": 0x00, "SYN_CONFIG": 0x01, "SYN_MT_REPORT": 0x02, "SYN_DROPPED": 0x03],
    key: ["BTN_TOUCH": 0x14A, "BTN_TOOL_PEN": 0x140, "BTN_TOOL_RUBBER": 0x141, "BTN_TOOL_FINGER": 0x145],
    abs: [
      "ABS_X": 0x00, "ABS_Y": 0x01, "ABS_Z": 0x02, "ABS_PRESSURE": 0x18, "ABS_DISTANCE": 0x19,
      "ABS_TILT_X": 0x1A, "ABS_TILT_Y": 0x1B, "ABS_TOOL_WIDTH": 0x1C, "ABS_MISC": 0x28,
      "ABS_MT_SLOT": 0x2F, "ABS_MT_TOUCH_MAJOR": 0x30, "ABS_MT_TOUCH_MINOR": 0x31,
      "ABS_MT_WIDTH_MAJOR": 0x32, "ABS_MT_WIDTH_MINOR": 0x33, "ABS_MT_ORIENTATION": 0x34,
      "ABS_MT_POSITION_X": 0x35, "ABS_MT_POSITION_Y": 0x36, "ABS_MT_TOOL_TYPE": 0x37,
      "ABS_MT_BLOB_ID": 0x38, "ABS_MT_TRACKING_ID": 0x39, "ABS_MT_PRESSURE": 0x3A,
      "ABS_MT_DISTANCE": 0x3B,
    ],
  ]
}

/// One input event of a recording, with where it was written.
struct EvdevEvent {
  /// Microseconds on the recording's clock.
  var time: Int64
  var type: UInt16
  var code: UInt16
  var value: Int32
  /// Where the time is written.
  var timePosition: TextPosition
  /// Where the value is written.
  var valuePosition: TextPosition
  /// The start of the event's line.
  var linePosition: TextPosition { TextPosition(line: timePosition.line, column: 1) }

  func `is`(_ type: UInt16, _ code: UInt16) -> Bool { self.type == type && self.code == code }
}

/// An event, or a line that could not be read (kept in order so that skip mode can attribute
/// it to the contacts open at that point).
enum EvdevItem {
  case event(EvdevEvent)
  case malformed(TraceLoadError)
}

/// An absolute axis of a device description (`A: code min max fuzz flat [resolution]`).
struct EvdevAxis {
  var minimum: Int64
  var maximum: Int64
  /// Units per millimetre; 0 when not given.
  var resolution: Int64
}

/// What a recording says about its device.
struct EvdevDevice {
  var name: String?
  var axes: [UInt16: EvdevAxis] = [:]
}

/// The events of one input device in a recording of several (a getevent log, a
/// `libinput record --multiple` file).
struct EvdevPart {
  /// The device path the recording names (`/dev/input/event4`); `nil` when it names none.
  var path: String?
  var device = EvdevDevice()
  var items: [EvdevItem] = []
}

/// Turns a recording's events into one trace per contact.
///
/// Which events make a contact depends on where the pressure comes from (see the
/// ImportingRecordings article, "Contacts in evdev recordings"):
/// - per-contact `ABS_MT_PRESSURE` with slots (protocol B): a contact is a slot's tracking id from
///   ≥ 0 to −1 (or to another id); values are carried forward per slot;
/// - per-contact `ABS_MT_PRESSURE` with `SYN_MT_REPORT` (protocol A): a contact is a tracking id
///   present in consecutive frames (or, without tracking ids, the n-th report of each frame);
/// - only `ABS_PRESSURE` (pens, single-touch pads): a contact is `BTN_TOUCH` 1 … 0; without
///   `BTN_TOUCH` events, while any tracking id is active; without either, while pressure > 0.
///
/// Samples are taken at each `SYN_REPORT` (the frame's time); the frame that ends a contact
/// gives its `ended` sample.
struct EvdevDecoder {
  enum Mode { case slots, protocolA, singleTouch }
  enum TouchSource { case button, trackingIDs, pressure }

  private var collector: ContactCollector
  private let device: EvdevDevice
  private let startTime: Int64
  private let mode: Mode
  private let touchSource: TouchSource
  private let maxForce: Double?
  private let pressureOffset: Int64
  private let hasPosition: Bool
  private let xScale: (offset: Int64, scale: Double)
  private let yScale: (offset: Int64, scale: Double)

  /// Decodes `items` of `file`.
  static func decode(
    _ items: [EvdevItem], device: EvdevDevice, collector: ContactCollector, start: Int64? = nil
  ) throws(TraceLoadError) -> Dataset {
    var decoder = try EvdevDecoder(items, device: device, collector: collector, start: start)
    return try decoder.run(items)
  }

  /// The contacts of every device of a recording of `file`: one part alone as by
  /// ``decode(_:device:collector:start:)``; several, with ids `FILE@DEVICE` (the device path's
  /// last component, `unnamed` without one), touch numbers per device and one clock for all
  /// (seconds since the recording's first event).
  static func decode(_ parts: [EvdevPart], file: String, options: ImportOptions) throws(TraceLoadError) -> Dataset {
    guard parts.count > 1 else {
      return try decode(
        parts.first?.items ?? [], device: parts.first?.device ?? EvdevDevice(),
        collector: ContactCollector(file: file, options: options))
    }
    var dataset = Dataset(files: [file])
    let start = parts.compactMap { part -> Int64? in
      for case .event(let e) in part.items { return e.time }
      return nil
    }.min()
    for (var part, name) in zip(parts, deviceNames(parts)) {
      if part.device.name == nil { part.device.name = part.path }
      let id = "\(TraceImporter.traceID(forFile: file))@\(name)"
      var decoded = try decode(
        part.items, device: part.device, collector: ContactCollector(file: file, options: options, id: id),
        start: start)
      decoded.files = []
      dataset.append(contentsOf: decoded)
    }
    return dataset
  }

  /// The name each part's ids carry, one per part and all different: the device path's last
  /// component (`event4`), `unnamed` without a path; the whole path where two parts share the
  /// last component (`/dev/input/event4` and `/tmp/event4`); the part's number after a `-` where
  /// even that is shared.
  static func deviceNames(_ parts: [EvdevPart]) -> [String] {
    let short = parts.map { part in
      part.path.map { String($0.split(separator: "/").last ?? Substring($0)) } ?? "unnamed"
    }
    let long = parts.indices.map { k in
      short.filter { $0 == short[k] }.count > 1 ? (parts[k].path ?? "unnamed") : short[k]
    }
    return long.indices.map { k in long.filter { $0 == long[k] }.count > 1 ? "\(long[k])-\(k)" : long[k] }
  }

  /// - Parameter start: the time (µs) times count from; `nil` for the first event of `items`.
  private init(_ items: [EvdevItem], device: EvdevDevice, collector: ContactCollector, start origin: Int64?)
    throws(TraceLoadError)
  {
    self.collector = collector
    self.device = device
    var seen = Set<UInt32>()
    var start: Int64? = origin
    for case .event(let e) in items {
      seen.insert(UInt32(e.type) << 16 | UInt32(e.code))
      if start == nil { start = e.time }
    }
    func saw(_ type: UInt16, _ code: UInt16) -> Bool { seen.contains(UInt32(type) << 16 | UInt32(code)) }
    startTime = start ?? 0
    let pressureCode: UInt16
    if device.axes[EV.absMTPressure] != nil || saw(EV.abs, EV.absMTPressure) {
      mode = saw(EV.syn, EV.synMTReport) ? .protocolA : .slots
      touchSource = .trackingIDs
      pressureCode = EV.absMTPressure
    } else if device.axes[EV.absPressure] != nil || saw(EV.abs, EV.absPressure) {
      mode = .singleTouch
      touchSource =
        saw(EV.key, EV.btnTouch) ? .button : saw(EV.abs, EV.absMTTrackingID) ? .trackingIDs : .pressure
      pressureCode = EV.absPressure
    } else {
      throw TraceLoadError(
        .invalidRecording(
          "the recording has no pressure: neither ABS_MT_PRESSURE (0x3a) nor ABS_PRESSURE (0x18) events"),
        file: collector.file, position: TextPosition(line: 1, column: 1))
    }
    if let axis = device.axes[pressureCode], axis.maximum > axis.minimum {
      maxForce = Double(axis.maximum - axis.minimum)
      pressureOffset = axis.minimum
    } else {
      maxForce = nil
      pressureOffset = 0
    }
    let xCode = mode == .singleTouch ? EV.absX : EV.absMTPositionX
    let yCode = mode == .singleTouch ? EV.absY : EV.absMTPositionY
    hasPosition = saw(EV.abs, xCode) && saw(EV.abs, yCode)
    var unitsKnown = true
    func scale(_ code: UInt16) -> (offset: Int64, scale: Double) {
      let axis = device.axes[code]
      let offset = axis?.minimum ?? 0
      if let points = collector.options.positionScale { return (offset, points) }
      if let axis, axis.resolution > 0 { return (offset, TraceImporter.pointsPerMillimetre / Double(axis.resolution)) }
      unitsKnown = false
      return (offset, 1)
    }
    xScale = scale(xCode)
    yScale = scale(yCode)
    if hasPosition && !unitsKnown {
      self.collector.warn(
        "x and y are in device units: the recording gives no axis resolution (give --position-scale, points per device unit, to convert them to points)"
      )
    }
  }

  // MARK: - Running

  private struct Slot {
    var trackingID: Int32 = -1
    var x: Int32 = 0
    var y: Int32 = 0
    var pressure: Int32 = 0
    var pressureAt: TextPosition?
    var changes: [(id: Int32, at: TextPosition)] = []
    var contact: ImportedContact?
  }

  private var slots: [Int32: Slot] = [:]
  private var currentSlot: Int32 = 0
  // Single-touch state.
  private var single = Slot()
  private var button = false
  private var buttonChangedAt: TextPosition?
  // Protocol A contacts by identity.
  private var aContacts: [Int64: Slot] = [:]
  private var aOrder: [Int64] = []

  private mutating func run(_ items: [EvdevItem]) throws(TraceLoadError) -> Dataset {
    var frame: [EvdevEvent] = []
    for item in items {
      switch item {
      case .malformed(let error):
        try failOpenContacts(error)
      case .event(let event):
        if event.is(EV.syn, EV.synReport) {
          try process(frame, at: event)
          frame.removeAll(keepingCapacity: true)
        } else {
          frame.append(event)
        }
      }
    }
    if let first = frame.first {
      collector.warn(
        "\(frame.count) event\(frame.count == 1 ? "" : "s") after the last SYN_REPORT ignored (incomplete frame)",
        at: first.linePosition)
    }
    // Contacts still down when the recording stops keep their samples, without an end sample.
    var open: [ImportedContact] = []
    for key in slots.keys.sorted() { if let c = slots[key]?.contact { open.append(c) } }
    if let c = single.contact { open.append(c) }
    for key in aOrder { if let c = aContacts[key]?.contact { open.append(c) } }
    for contact in open.sorted(by: { $0.touch < $1.touch }) {
      collector.warn("contact \(contact.name) is still down when the recording ends", at: contact.origin.position)
      try collector.close(contact, terminal: nil)
    }
    return collector.dataset()
  }

  private mutating func failOpenContacts(_ error: TraceLoadError) throws(TraceLoadError) {
    var any = false
    for key in slots.keys.sorted() where slots[key]?.contact != nil {
      any = true
      try collector.fail(&slots[key]!.contact!, error)
    }
    if single.contact != nil {
      any = true
      try collector.fail(&single.contact!, error)
    }
    for key in aOrder where aContacts[key]?.contact != nil {
      any = true
      try collector.fail(&aContacts[key]!.contact!, error)
    }
    if !any { try collector.failOutsideContacts(error) }
  }

  private func seconds(_ time: Int64) -> Double { Double(time - startTime) / 1e6 }

  private func point(_ raw: Int32, _ axis: (offset: Int64, scale: Double)) -> Double {
    Double(Int64(raw) - axis.offset) * axis.scale
  }

  private func force(_ raw: Int32) -> Double { Double(Int64(raw) - pressureOffset) }

  /// Opens a contact for `slot` and appends its first sample.
  private mutating func begin(_ slot: inout Slot, at origin: TextPosition, frame syn: EvdevEvent) throws(TraceLoadError)
  {
    var contact = collector.open(at: origin, maxForce: maxForce, device: device.name, hasPosition: hasPosition)
    try sample(&contact, slot, syn)
    slot.contact = contact
  }

  private mutating func sample(_ contact: inout ImportedContact, _ slot: Slot, _ syn: EvdevEvent) throws(TraceLoadError)
  {
    try collector.append(
      &contact, t: seconds(syn.time), force: force(slot.pressure), x: point(slot.x, xScale),
      y: point(slot.y, yScale), tAt: syn.timePosition, forceAt: slot.pressureAt)
  }

  /// Appends the lift sample and closes the slot's contact.
  private mutating func end(_ slot: inout Slot, frame syn: EvdevEvent) throws(TraceLoadError) {
    guard var contact = slot.contact else { return }
    try sample(&contact, slot, syn)
    slot.contact = nil
    try collector.close(contact, terminal: .ended)
  }

  private mutating func process(_ frame: [EvdevEvent], at syn: EvdevEvent) throws(TraceLoadError) {
    switch mode {
    case .slots: try processSlots(frame, syn)
    case .protocolA: try processProtocolA(frame, syn)
    case .singleTouch: try processSingleTouch(frame, syn)
    }
  }

  // MARK: Protocol B

  private mutating func processSlots(_ frame: [EvdevEvent], _ syn: EvdevEvent) throws(TraceLoadError) {
    for e in frame where e.type == EV.abs {
      switch e.code {
      case EV.absMTSlot: currentSlot = e.value
      case EV.absMTTrackingID: slots[currentSlot, default: Slot()].changes.append((e.value, e.linePosition))
      case EV.absMTPositionX: slots[currentSlot, default: Slot()].x = e.value
      case EV.absMTPositionY: slots[currentSlot, default: Slot()].y = e.value
      case EV.absMTPressure:
        slots[currentSlot, default: Slot()].pressure = e.value
        slots[currentSlot, default: Slot()].pressureAt = e.valuePosition
      default: break
      }
    }
    for key in slots.keys.sorted() {
      var slot = slots[key]!
      let changes = slot.changes
      slot.changes.removeAll()
      var sampled = false
      for change in changes {
        if change.id < 0 {
          try end(&slot, frame: syn)
          sampled = true
        } else if change.id != slot.trackingID || slot.contact == nil {
          try end(&slot, frame: syn)
          try begin(&slot, at: change.at, frame: syn)
          sampled = true
        }
        slot.trackingID = change.id
      }
      if !sampled, var contact = slot.contact {
        try sample(&contact, slot, syn)
        slot.contact = contact
      }
      slots[key] = slot
    }
  }

  // MARK: Protocol A

  private mutating func processProtocolA(_ frame: [EvdevEvent], _ syn: EvdevEvent) throws(TraceLoadError) {
    let isMTFrame = frame.contains { $0.is(EV.syn, EV.synMTReport) }
    guard isMTFrame else {
      // A frame without contact reports changes nothing, unless it releases the button.
      if frame.contains(where: { $0.is(EV.key, EV.btnTouch) && $0.value == 0 }) {
        for key in aOrder {
          var slot = aContacts[key]!
          try end(&slot, frame: syn)
        }
        aContacts.removeAll()
        aOrder.removeAll()
      }
      return
    }
    // Split into reports.
    struct Report {
      var id: Int32?
      var x: Int32?
      var y: Int32?
      var pressure: Int32?
      var pressureAt: TextPosition?
      var start: TextPosition
    }
    var reports: [Report] = []
    var current: Report?
    for e in frame {
      if e.is(EV.syn, EV.synMTReport) {
        if let report = current { reports.append(report) }
        current = nil
        continue
      }
      guard e.type == EV.abs, e.code >= EV.absMTSlot, e.code <= 0x3F else { continue }
      var report = current ?? Report(start: e.linePosition)
      switch e.code {
      case EV.absMTTrackingID: report.id = e.value
      case EV.absMTPositionX: report.x = e.value
      case EV.absMTPositionY: report.y = e.value
      case EV.absMTPressure:
        report.pressure = e.value
        report.pressureAt = e.valuePosition
      default: break
      }
      current = report
    }
    // Identity: the tracking id, else the report's index (ids ≥ 2^32 so they never collide).
    var present: [(key: Int64, report: Report)] = []
    for (k, report) in reports.enumerated() {
      if let id = report.id, id < 0 { continue }  // a lifted contact
      present.append((report.id.map { Int64($0) } ?? (Int64(1) << 32) + Int64(k), report))
    }
    let keys = Set(present.map(\.key))
    for key in aOrder where !keys.contains(key) {
      var slot = aContacts[key]!
      try end(&slot, frame: syn)
      aContacts[key] = nil
    }
    aOrder.removeAll { !keys.contains($0) }
    for (key, report) in present {
      var slot = aContacts[key] ?? Slot()
      if let x = report.x { slot.x = x }
      if let y = report.y { slot.y = y }
      if let pressure = report.pressure {
        slot.pressure = pressure
        slot.pressureAt = report.pressureAt
      }
      if var contact = slot.contact {
        try sample(&contact, slot, syn)
        slot.contact = contact
      } else {
        try begin(&slot, at: report.start, frame: syn)
        aOrder.append(key)
      }
      aContacts[key] = slot
    }
  }

  // MARK: Single touch

  private mutating func processSingleTouch(_ frame: [EvdevEvent], _ syn: EvdevEvent) throws(TraceLoadError) {
    var startAt: TextPosition?
    for e in frame {
      switch (e.type, e.code) {
      case (EV.abs, EV.absX): single.x = e.value
      case (EV.abs, EV.absY): single.y = e.value
      case (EV.abs, EV.absPressure):
        single.pressure = e.value
        single.pressureAt = e.valuePosition
      case (EV.key, EV.btnTouch):
        button = e.value != 0
        if button { startAt = e.linePosition }
      case (EV.abs, EV.absMTSlot):
        currentSlot = e.value
      case (EV.abs, EV.absMTTrackingID):
        slots[currentSlot, default: Slot()].trackingID = e.value
        if e.value >= 0 { startAt = startAt ?? e.linePosition }
      default: break
      }
    }
    let touching: Bool
    switch touchSource {
    case .button: touching = button
    case .trackingIDs: touching = slots.values.contains { $0.trackingID >= 0 }
    case .pressure: touching = single.pressure > 0
    }
    if touching, var contact = single.contact {
      try sample(&contact, single, syn)
      single.contact = contact
    } else if touching {
      var slot = single
      try begin(&slot, at: startAt ?? frame.first?.linePosition ?? syn.linePosition, frame: syn)
      single = slot
    } else if single.contact != nil {
      var slot = single
      try end(&slot, frame: syn)
      single = slot
    }
  }
}
