package import TouchCore
import TouchIO

/// One contact as the capture page sends it (`POST /contact`): the prompt it answers, who made
/// it, the device, and its Pointer Events.
///
/// ```json
/// {"prompt": 0, "intent": "press", "participant": "ana",
///  "device": {"userAgent": "…", "screen": "1400x1000@1", "pointerType": "pen"},
///  "events": [{"type": "pointerdown", "timeStamp": 1200.5, "pressure": 0.1, "touchForce": 0,
///              "tiltX": 0, "tiltY": 0, "width": 1, "height": 1, "x": 10, "y": 20,
///              "pointerType": "pen"}, …]}
/// ```
///
/// Every member is required except `touchForce` (`null` or absent when the browser gives no
/// `Touch.force`); no other member is accepted, so nothing the client sends names a file.
package struct CaptureUpload: Sendable, Hashable {
  /// One Pointer Event.
  package struct Event: Sendable, Hashable {
    /// The sample's phase: `pointerdown` began, `pointermove` moved, `pointerup` ended,
    /// `pointercancel` cancelled.
    package var phase: TouchPhase
    /// The event's `timeStamp`, milliseconds.
    package var timeStamp: Double
    /// `pressure`, 0...1.
    package var pressure: Double
    /// `Touch.force` of the same contact, 0...1, when the browser gives it.
    package var touchForce: Double?
    /// `tiltX` and `tiltY`, degrees, -90...90.
    package var tiltX: Double, tiltY: Double
    /// `width` and `height` of the contact, CSS pixels.
    package var width: Double, height: Double
    /// Position in the capture area, CSS pixels.
    package var x: Double, y: Double
    /// `pointerType`: `pen`, `touch`, `mouse` or what the browser says.
    package var pointerType: String
  }

  /// The index (from 0) of the prompt this contact answers.
  package var prompt: Int
  /// The prompted intent.
  package var intent: Intent
  /// Who made the contact.
  package var participant: String
  /// The browser's user agent.
  package var userAgent: String
  /// The screen: `WIDTHxHEIGHT@RATIO` in CSS pixels and device pixels per CSS pixel.
  package var screen: String
  /// The contact's pointer type.
  package var pointerType: String
  /// The events, in order.
  package var events: [Event]

  /// The most events one contact may have.
  package static let maximumEvents = 100_000

  /// Reads an upload.
  ///
  /// - Parameter bytes: the request body (JSON).
  /// - Throws: ``CaptureUploadError`` with the position (`upload:LINE:COL`) of what is wrong.
  package static func parse(_ bytes: [UInt8]) throws(CaptureUploadError) -> CaptureUpload {
    let root: JSONNode
    do {
      root = try JSONNode.parse(bytes, file: "upload")
    } catch {
      throw CaptureUploadError(error.description)
    }
    var reader = Reader()
    return try reader.upload(root)
  }

  /// The trace this contact gives: time in seconds from the first event, force from `pressure`
  /// (as the shortest decimal of its float32, ``float32Decimal(_:)``; or `Touch.force` where
  /// present and nonzero), maximum force 1, device `name` when given (the browser's description
  /// then in the label `user_agent`), else the browser's description, phases from the event
  /// types, position in CSS pixels, radius half the larger of `width` and `height`.
  ///
  /// - Parameters:
  ///   - id: the trace id (chosen by the server).
  ///   - session: the recording session.
  ///   - name: the device name (`--device`); `nil` for the browser's description.
  ///   - inProgress: whether the contact may still be going on: then its events so far (from
  ///     `pointerdown`, the last one not necessarily a lift) are accepted as an unterminated
  ///     trace (the prefix `touchtrace try` replays while the finger is down).
  /// - Throws: ``CaptureUploadError`` when the trace breaks a rule of the trace model
  ///   (`Trace.validate()`), or the contact does not start with `pointerdown` and (unless
  ///   `inProgress`) end with `pointerup` or `pointercancel`.
  package func trace(id: String, session: String, device name: String? = nil, inProgress: Bool = false)
    throws(CaptureUploadError) -> Trace
  {
    guard let first = events.first, first.phase == .began else {
      throw CaptureUploadError("upload: error: a contact starts with pointerdown")
    }
    guard inProgress || (events.count >= 2 && events.last!.phase.isTerminal) else {
      throw CaptureUploadError("upload: error: a contact ends with pointerup or pointercancel")
    }
    let start = first.timeStamp
    let browser = "\(pointerType); screen \(screen); \(userAgent)"
    // With a device name the browser's description is a label of its own (`user_agent`).
    let metadata = TraceMetadata(
      id: id, intent: intent, user: participant, session: session, device: name ?? browser, maxForce: 1,
      labels: name == nil ? [:] : ["user_agent": browser])
    let trace = Trace(
      metadata: metadata,
      t: events.map { ($0.timeStamp - start) / 1000 },
      force: events.map { event in
        if let touchForce = event.touchForce, touchForce > 0 { return touchForce }
        return Self.float32Decimal(event.pressure)
      },
      phase: events.map(\.phase),
      x: events.map(\.x), y: events.map(\.y),
      radius: events.map { max($0.width, $0.height) / 2 })
    if let (sample, problem) = trace.validate() {
      let place = sample.map { "event \($0): " } ?? ""
      throw CaptureUploadError("upload: error: \(place)\(problem.description)")
    }
    return trace
  }
}

extension CaptureUpload {
  /// `x` as the shortest decimal that reads back to the same float32, when `x` is a float32
  /// widened to double (a `PointerEvent.pressure` is a float: `0.10000000149011612` becomes
  /// `0.1`); otherwise `x`.
  package static func float32Decimal(_ x: Double) -> Double {
    let single = Float(x)
    guard single.isFinite, Double(single) == x, let shortest = Double(single.description) else { return x }
    return shortest
  }
}

/// A request body that is not a valid contact; the message says where and why.
package struct CaptureUploadError: Error, Hashable, Sendable, CustomStringConvertible {
  /// `upload:LINE:COL: error: …` or `upload: error: …`.
  package var description: String
  init(_ description: String) { self.description = description }
}

/// Reads the JSON tree of an upload.
private struct Reader {
  func fail(_ node: JSONNode, _ message: String) -> CaptureUploadError {
    CaptureUploadError("upload:\(node.position): error: \(message)")
  }

  func members(_ node: JSONNode, allowed: [String], optional: Set<String> = [], what: String) throws(CaptureUploadError)
    -> [String: JSONNode]
  {
    guard case .object(let list) = node.kind else {
      throw fail(node, "\(what) must be an object, not \(node.typeName)")
    }
    var found: [String: JSONNode] = [:]
    for member in list {
      guard allowed.contains(member.key) else {
        throw CaptureUploadError("upload:\(member.keyPosition): error: unknown member \"\(member.key)\" in \(what)")
      }
      guard found[member.key] == nil else {
        throw CaptureUploadError("upload:\(member.keyPosition): error: \"\(member.key)\" appears twice in \(what)")
      }
      found[member.key] = member.value
    }
    for key in allowed where found[key] == nil && !optional.contains(key) {
      throw fail(node, "\(what) has no \"\(key)\"")
    }
    return found
  }

  func number(_ node: JSONNode, _ name: String, in range: ClosedRange<Double>? = nil) throws(CaptureUploadError)
    -> Double
  {
    guard case .number(let value) = node.kind else {
      throw fail(node, "\"\(name)\" must be a number, not \(node.typeName)")
    }
    guard value.isFinite else { throw fail(node, "\"\(name)\" must be finite") }
    if let range, !range.contains(value) {
      throw fail(node, "\"\(name)\" is \(value), outside \(range.lowerBound)...\(range.upperBound)")
    }
    return value
  }

  func string(_ node: JSONNode, _ name: String, limit: Int = 1024) throws(CaptureUploadError) -> String {
    guard case .string(let value) = node.kind else {
      throw fail(node, "\"\(name)\" must be a string, not \(node.typeName)")
    }
    guard value.utf8.count <= limit else { throw fail(node, "\"\(name)\" is longer than \(limit) bytes") }
    return value
  }

  mutating func upload(_ root: JSONNode) throws(CaptureUploadError) -> CaptureUpload {
    let top = try members(root, allowed: ["prompt", "intent", "participant", "device", "events"], what: "the upload")
    let promptValue = try number(top["prompt"]!, "prompt", in: 0...1_000_000)
    guard promptValue == promptValue.rounded() else { throw fail(top["prompt"]!, "\"prompt\" must be a whole number") }
    let intentText = try string(top["intent"]!, "intent")
    guard let intent = Intent(name: intentText) else { throw fail(top["intent"]!, "unknown intent \"\(intentText)\"") }
    let participant = try string(top["participant"]!, "participant", limit: 200)
    let device = try members(top["device"]!, allowed: ["userAgent", "screen", "pointerType"], what: "\"device\"")
    let userAgent = try string(device["userAgent"]!, "userAgent")
    let screen = try string(device["screen"]!, "screen", limit: 100)
    let pointerType = try string(device["pointerType"]!, "pointerType", limit: 40)
    guard case .array(let list) = top["events"]!.kind else {
      throw fail(top["events"]!, "\"events\" must be an array, not \(top["events"]!.typeName)")
    }
    guard !list.isEmpty else { throw fail(top["events"]!, "\"events\" is empty") }
    guard list.count <= CaptureUpload.maximumEvents else {
      throw fail(top["events"]!, "\"events\" has \(list.count) events, more than \(CaptureUpload.maximumEvents)")
    }
    var events: [CaptureUpload.Event] = []
    events.reserveCapacity(list.count)
    let keys = [
      "type", "timeStamp", "pressure", "touchForce", "tiltX", "tiltY", "width", "height", "x", "y", "pointerType",
    ]
    for node in list {
      let m = try members(node, allowed: keys, optional: ["touchForce"], what: "an event")
      let typeText = try string(m["type"]!, "type", limit: 40)
      let phase: TouchPhase
      switch typeText {
      case "pointerdown": phase = .began
      case "pointermove": phase = .moved
      case "pointerup": phase = .ended
      case "pointercancel": phase = .cancelled
      default:
        throw fail(
          m["type"]!, "unknown event type \"\(typeText)\" (pointerdown, pointermove, pointerup, pointercancel)")
      }
      var touchForce: Double?
      if let node = m["touchForce"] {
        if case .null = node.kind {} else { touchForce = try number(node, "touchForce", in: 0...1) }
      }
      events.append(
        CaptureUpload.Event(
          phase: phase,
          timeStamp: try number(m["timeStamp"]!, "timeStamp", in: 0...1e13),
          pressure: try number(m["pressure"]!, "pressure", in: 0...1),
          touchForce: touchForce,
          tiltX: try number(m["tiltX"]!, "tiltX", in: -90...90),
          tiltY: try number(m["tiltY"]!, "tiltY", in: -90...90),
          width: try number(m["width"]!, "width", in: 0...1e6),
          height: try number(m["height"]!, "height", in: 0...1e6),
          x: try number(m["x"]!, "x", in: -1e7...1e7),
          y: try number(m["y"]!, "y", in: -1e7...1e7),
          pointerType: try string(m["pointerType"]!, "pointerType", limit: 40)))
    }
    return CaptureUpload(
      prompt: Int(promptValue), intent: intent, participant: participant, userAgent: userAgent,
      screen: screen, pointerType: pointerType, events: events)
  }
}
