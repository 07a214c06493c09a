import TouchCore
import TouchIO

/// Reads a bare JSON array of `UITouch.force` values (as logged by a recognizer's action on
/// every touch event): a contact starts at each value that is exactly 0 (the `began` event
/// reports no force); its last value is its `ended` sample. Values before the first 0 form a
/// contact too. Times are synthesized: value number k (0-based, over the whole file) is at
/// `k × interval` seconds.
///
/// Values above the maximum force by at most one part in a million are set to the maximum:
/// such arrays are printed with 7 significant digits, so 20/3 appears as `6.666667`.
struct ForceValuesReader {
  let file: String
  let options: ImportOptions

  /// Relative excess over the maximum force accepted as print rounding.
  static let roundingTolerance = 1e-6

  func read(_ bytes: [UInt8]) throws(TraceLoadError) -> Dataset {
    precondition(options.interval != nil, "force arrays need an interval")
    let interval = options.interval!
    let root = try JSONNode.parse(bytes, file: file)
    guard case .array(let values) = root.kind else {
      throw TraceLoadError(
        .invalidRecording("expected a JSON array of force values, found \(root.typeName)"), file: file,
        position: root.position)
    }
    let maxForce = options.maxForce(recorded: nil) ?? ImportOptions.forceValuesMaxForce
    var collector = ContactCollector(file: file, options: options, unchangedPhase: .moved)
    var contact: ImportedContact?
    for (k, node) in values.enumerated() {
      guard case .number(var value) = node.kind else {
        let error = TraceLoadError(
          .invalidRecording("expected a number, found \(node.typeName)"), file: file, position: node.position,
          record: k)
        if contact != nil { try collector.fail(&contact!, error) } else { try collector.failOutsideContacts(error) }
        continue
      }
      if value == 0 || contact == nil {
        if let open = contact { try collector.close(open, terminal: .ended) }
        contact = collector.open(
          at: node.position, maxForce: maxForce, device: nil, hasPosition: false, timeSynthesized: true)
      }
      if value > maxForce, value <= maxForce * (1 + Self.roundingTolerance) { value = maxForce }
      try collector.append(&contact!, t: Double(k) * interval, force: value, tAt: node.position, forceAt: node.position)
    }
    if let open = contact { try collector.close(open, terminal: .ended) }
    return collector.dataset()
  }
}

/// Reads a JSON array of W3C PointerEvent records, as a web page can log them:
/// `{"type": "pointermove", "pointerId": 1, "timeStamp": 1234.5, "pressure": 0.5,
/// "clientX": 10, "clientY": 20, "pointerType": "touch"}`.
///
/// One contact per pointer from `pointerdown` to `pointerup` (`ended`) or `pointercancel`
/// (`cancelled`); `pointermove` records of a pointer that is down are its samples. Other event
/// types, and moves of pointers that are not down (hover), are ignored. `timeStamp` is in
/// milliseconds; times are seconds since the first record. `pressure` (0…1) is the force, with
/// maximum force 1; `clientX`/`clientY` (CSS pixels, 1/96 in, as iOS points) are x and y; the
/// `pointerType` is the device unless one is given.
struct PointerEventsReader {
  let file: String
  let options: ImportOptions

  private static let contactTypes: Set<String> = ["pointerdown", "pointermove", "pointerup", "pointercancel"]

  func read(_ bytes: [UInt8]) throws(TraceLoadError) -> Dataset {
    let root = try JSONNode.parse(bytes, file: file)
    guard case .array(let records) = root.kind else {
      throw TraceLoadError(
        .invalidRecording("expected a JSON array of PointerEvent records, found \(root.typeName)"), file: file,
        position: root.position)
    }
    var collector = ContactCollector(file: file, options: options, unchangedPhase: .moved)
    var down: [Double: ImportedContact] = [:]
    var downOrder: [Double] = []
    var start: Double?
    let scale = options.positionScale ?? 1

    for (r, node) in records.enumerated() {
      do throws(TraceLoadError) {
        let record = try Record(node, index: r, file: file)
        guard Self.contactTypes.contains(record.type) else { continue }
        let origin = start ?? record.timeStamp.value
        start = origin
        let t = (record.timeStamp.value - origin) / 1000
        let id = record.pointerId
        if record.type == "pointerdown" {
          if var open = down[id] {
            try collector.fail(
              &open,
              TraceLoadError(
                .invalidRecording("pointerdown for pointer \(Self.format(id)), which is already down"), file: file,
                position: node.position, record: r))
            try collector.close(open, terminal: nil)
          } else {
            downOrder.append(id)
          }
          down[id] = collector.open(
            at: node.position, maxForce: 1, device: record.pointerType, hasPosition: record.position != nil)
        }
        guard var contact = down[id] else { continue }  // a hovering pointer
        if (record.position != nil) != contact.hasPosition {
          try collector.fail(
            &contact,
            TraceLoadError(
              .trace(.partialColumn("clientX")), file: file,
              position: record.position?.at ?? node.position, record: r))
        } else {
          try collector.append(
            &contact, t: t, force: record.pressure.value, x: (record.position?.x ?? 0) * scale,
            y: (record.position?.y ?? 0) * scale, tAt: record.timeStamp.at, forceAt: record.pressure.at)
        }
        switch record.type {
        case "pointerup", "pointercancel":
          try collector.close(contact, terminal: record.type == "pointerup" ? .ended : .cancelled)
          down[id] = nil
          downOrder.removeAll { $0 == id }
        default:
          down[id] = contact
        }
      } catch {
        guard options.skipInvalid else { throw error }
        // A record that cannot be read belongs to the pointer it names, if that can be read.
        if let id = Record.pointerId(of: node), var contact = down[id] {
          try collector.fail(&contact, error)
          down[id] = contact
        } else {
          try collector.failOutsideContacts(error)
        }
      }
    }
    for id in downOrder {
      guard let contact = down[id] else { continue }
      collector.warn("pointer \(Self.format(id)) is still down at the end of the file", at: contact.origin.position)
      try collector.close(contact, terminal: nil)
    }
    return collector.dataset()
  }

  static func format(_ id: Double) -> String {
    id == id.rounded() && abs(id) < 1e15 ? String(Int64(id)) : "\(id)"
  }

  /// A number of a record and where it is written.
  private typealias Located = (value: Double, at: TextPosition)

  /// The fields of one record, checked.
  private struct Record {
    var type: String
    var pointerType: String?
    var pointerId: Double = 0
    var timeStamp: Located
    var pressure: Located
    /// `clientX`, `clientY`, and where `clientX` is written.
    var position: (x: Double, y: Double, at: TextPosition)?

    static func pointerId(of node: JSONNode) -> Double? {
      guard let member = node.member("pointerId"), case .number(let id) = member.value.kind else { return nil }
      return id
    }

    init(_ node: JSONNode, index r: Int, file: String) throws(TraceLoadError) {
      func fail(_ message: String, _ at: TextPosition) -> TraceLoadError {
        TraceLoadError(.invalidRecording(message), file: file, position: at, record: r)
      }
      guard case .object = node.kind else {
        throw fail("expected a PointerEvent object, found \(node.typeName)", node.position)
      }
      func string(_ key: String, required: Bool) throws(TraceLoadError) -> String? {
        guard let member = node.member(key) else {
          if required { throw fail("missing '\(key)'", node.position) }
          return nil
        }
        guard case .string(let text) = member.value.kind else {
          throw fail("'\(key)' must be a string, found \(member.value.typeName)", member.value.position)
        }
        return text
      }
      func number(_ key: String) throws(TraceLoadError) -> Located? {
        guard let member = node.member(key) else { return nil }
        guard case .number(let value) = member.value.kind else {
          throw fail("'\(key)' must be a number, found \(member.value.typeName)", member.value.position)
        }
        return (value, member.value.position)
      }
      type = try string("type", required: true)!
      pointerType = try string("pointerType", required: false)
      guard PointerEventsReader.contactTypes.contains(type) else {
        (timeStamp, pressure) = ((0, node.position), (0, node.position))
        return
      }
      guard let id = try number("pointerId") else { throw fail("missing 'pointerId'", node.position) }
      guard let time = try number("timeStamp") else { throw fail("missing 'timeStamp'", node.position) }
      guard let pressure = try number("pressure") else { throw fail("missing 'pressure'", node.position) }
      (pointerId, timeStamp, self.pressure) = (id.value, time, pressure)
      let x = try number("clientX")
      let y = try number("clientY")
      if let x, let y {
        position = (x.value, y.value, x.at)
      } else if let given = x ?? y {
        throw fail("'\(x == nil ? "clientY" : "clientX")' without '\(x == nil ? "clientX" : "clientY")'", given.at)
      }
    }
  }
}
