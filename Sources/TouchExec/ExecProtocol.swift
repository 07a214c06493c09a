import TouchCore
import TouchIO
import TouchRecognizers

/// The `exec:` protocol, version 1: JSON Lines over the child's standard input and output.
/// The full description, with a schema, is the article "The exec protocol" of the TouchExec catalog
/// (`Sources/TouchExec/Documentation.docc/TheExecProtocol.md`).
///
/// 1. The tool writes the hello line `{"touchtrace":"exec","version":1}`; the child answers one
///    line, an object with `"touchtrace":"exec"` and `"version":1`, and optionally `"stages"`
///    (1, the default, or 2 for a two-stage recognizer), `"needs_max_force"` and `"name"`.
/// 2. Then one request line per (configuration, contact), one answer line per request, in
///    request order. Requests are written ahead of the answers (a batch at a time), so a child
///    must read and answer line by line, flushing each answer.
/// 3. The tool closes the child's input when it is done; the child then exits.
package enum ExecProtocol {
  /// The protocol version this tool speaks.
  package static let version = 1

  /// The hello line the tool writes first.
  static let hello = Array(#"{"touchtrace":"exec","version":1}"#.utf8) + [UInt8(ascii: "\n")]

  /// What the child says of itself in its hello answer.
  struct Hello: Sendable, Hashable {
    /// 1 or 2.
    var stages: Int
    /// The name the child gives, if any.
    var name: String?
    /// Whether it needs the maximum possible force (traces without one are then refused, or
    /// skipped with `--skip-invalid`, as for built-ins that normalize force).
    var needsMaximumForce: Bool
  }

  /// Reads the child's hello answer.
  static func readHello(_ line: ArraySlice<UInt8>) throws(ChildFailure) -> Hello {
    let node = try parse(line, what: "its hello answer")
    guard case .object = node.kind else {
      throw ChildFailure(message: "its hello answer is \(node.typeName), not an object")
    }
    guard case .string("exec")? = node.member("touchtrace")?.value.kind else {
      throw ChildFailure(
        message:
          "its hello answer lacks \"touchtrace\": \"exec\" (is it a TouchTrace exec recognizer?): \(excerpt(line))")
    }
    guard case .number(let v)? = node.member("version")?.value.kind, v == Double(version) else {
      throw ChildFailure(
        message: "it speaks another protocol version (this tool speaks version \(version)): \(excerpt(line))")
    }
    let stages = try stage(node.member("stages"), default: 1, "its hello answer gives \"stages\"")
    var name: String?
    if case .string(let n)? = node.member("name")?.value.kind { name = n }
    var needs = false
    if let member = node.member("needs_max_force") {
      guard case .bool(let b) = member.value.kind else {
        throw ChildFailure(message: "its hello answer gives \"needs_max_force\" other than true or false")
      }
      needs = b
    }
    return Hello(stages: stages, name: name, needsMaximumForce: needs)
  }

  /// Appends the request line for one contact: `seq`, `id`, `touch`, `params`, `max_force` and
  /// `samples` (each with `t`, `force`, `max_force`, `x`, `y`, `phase`, as UIKit would deliver
  /// them: `began`, then `moved` for a changed force or position and `stationary` for an
  /// unchanged sample, then `ended` or `cancelled`; a one-sample contact is `began` then `ended`
  /// at the same sample).
  static func appendRequest(seq: Int, trace: Trace, params: ParameterValues, to out: inout [UInt8]) {
    out.append(contentsOf: #"{"seq":"#.utf8)
    out.append(contentsOf: String(seq).utf8)
    out.append(contentsOf: #","id":"#.utf8)
    appendString(trace.metadata.id, to: &out)
    out.append(contentsOf: #","touch":"#.utf8)
    out.append(contentsOf: String(trace.metadata.touch).utf8)
    out.append(contentsOf: #","params":{"#.utf8)
    for (k, entry) in params.entries.enumerated() {
      if k > 0 { out.append(UInt8(ascii: ",")) }
      appendString(entry.name, to: &out)
      out.append(UInt8(ascii: ":"))
      switch entry.value {
      case .number(let x): appendNumber(x, to: &out)
      case .flag(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
      case .list(let xs):
        out.append(UInt8(ascii: "["))
        for (j, x) in xs.enumerated() {
          if j > 0 { out.append(UInt8(ascii: ",")) }
          appendNumber(x, to: &out)
        }
        out.append(UInt8(ascii: "]"))
      }
    }
    var maxForce: [UInt8] = []
    appendNumber(trace.metadata.maxForce ?? .nan, to: &maxForce)
    out.append(contentsOf: #"},"max_force":"#.utf8)
    out.append(contentsOf: maxForce)
    out.append(contentsOf: #","samples":["#.utf8)
    let n = trace.count
    let x = trace.x
    let y = trace.y
    let hasPosition = x != nil && y != nil
    let last = trace.phase.last == .cancelled ? "cancelled" : "ended"
    func sample(_ i: Int, _ phase: String, first: Bool) {
      if !first { out.append(UInt8(ascii: ",")) }
      out.append(contentsOf: #"{"t":"#.utf8)
      appendNumber(trace.t[i], to: &out)
      out.append(contentsOf: #","force":"#.utf8)
      appendNumber(trace.force[i], to: &out)
      out.append(contentsOf: #","max_force":"#.utf8)
      out.append(contentsOf: maxForce)
      out.append(contentsOf: #","x":"#.utf8)
      appendNumber(hasPosition ? x![i] : .nan, to: &out)
      out.append(contentsOf: #","y":"#.utf8)
      appendNumber(hasPosition ? y![i] : .nan, to: &out)
      out.append(contentsOf: #","phase":""#.utf8)
      out.append(contentsOf: phase.utf8)
      out.append(contentsOf: #""}"#.utf8)
    }
    if n > 0 {
      sample(0, "began", first: true)
      if n == 1 { sample(0, last, first: false) }
      for i in 1..<max(1, n) {
        let phase: String
        if i == n - 1 {
          phase = last
        } else {
          let changed =
            trace.force[i] != trace.force[i - 1] || (hasPosition && (x![i] != x![i - 1] || y![i] != y![i - 1]))
          phase = changed ? "moved" : "stationary"
        }
        sample(i, phase, first: false)
      }
    }
    out.append(contentsOf: "]}\n".utf8)
  }

  /// Reads one answer: `seq` (required: the request's), `actions` (required, an array of
  /// `{"t": seconds, "stage": 1|2}`, stage 1 when absent) and `failed` (optional: seconds, or
  /// null). When the answer carries `id` or `touch`, they must be the request's.
  ///
  /// Requests are written ahead of the answers, so only `seq` ties an answer to its request: an
  /// answer without it could be a stray line, and taking it would shift every later answer onto
  /// another contact.
  static func readAnswer(_ line: ArraySlice<UInt8>, seq: Int, trace: Trace) throws(ChildFailure) -> ActionScript {
    let node = try parse(line, what: "its answer")
    guard case .object = node.kind else {
      throw ChildFailure(message: "its answer is \(node.typeName), not an object: \(excerpt(line))")
    }
    guard let member = node.member("seq") else {
      throw ChildFailure(
        message:
          "its answer has no \"seq\" (every answer carries its request's seq, \(seq) here, so that a stray line cannot shift answers onto other contacts): \(excerpt(line))"
      )
    }
    guard case .number(let s) = member.value.kind, s == Double(seq) else {
      throw ChildFailure(
        message: "answered out of order: an answer with \"seq\" \(member.value.text) came where \(seq) was due")
    }
    if let member = node.member("id") {
      guard case .string(let id) = member.value.kind, id == trace.metadata.id else {
        throw ChildFailure(
          message:
            "answered out of order: an answer for id \(member.value.text) came where '\(trace.metadata.id)' was due")
      }
    }
    if let member = node.member("touch") {
      guard case .number(let touch) = member.value.kind, touch == Double(trace.metadata.touch) else {
        throw ChildFailure(
          message:
            "answered out of order: an answer for touch \(member.value.text) came where \(trace.metadata.touch) was due"
        )
      }
    }
    guard let list = node.member("actions") else {
      throw ChildFailure(message: "its answer has no \"actions\" array: \(excerpt(line))")
    }
    guard case .array(let items) = list.value.kind else {
      throw ChildFailure(message: "its answer's \"actions\" is \(list.value.typeName), not an array")
    }
    var actions: [ActionScript.Action] = []
    for item in items {
      guard case .object = item.kind, case .number(let t)? = item.member("t")?.value.kind else {
        throw ChildFailure(message: "an action is not an object with a number \"t\" (seconds): \(excerpt(line))")
      }
      let stage = try stage(item.member("stage"), default: 1, "an action has \"stage\"")
      actions.append(ActionScript.Action(t: t, stage: stage))
    }
    var failed: Double?
    if let member = node.member("failed") {
      switch member.value.kind {
      case .null: break
      case .number(let t): failed = t
      default:
        throw ChildFailure(
          message: "its answer's \"failed\" is \(member.value.typeName), not a time in seconds or null")
      }
    }
    return ActionScript(actions: actions, failedAt: failed)
  }

  /// A stage number, 1 or 2 (`fallback` when the member is absent); `what` starts the message
  /// for any other value.
  private static func stage(_ member: JSONNode.Member?, default fallback: Int, _ what: String) throws(ChildFailure)
    -> Int
  {
    guard let member else { return fallback }
    guard case .number(let value) = member.value.kind, value == 1 || value == 2 else {
      throw ChildFailure(message: "\(what) \(member.value.text) (1 or 2)")
    }
    return value == 1 ? 1 : 2
  }

  private static func parse(_ line: ArraySlice<UInt8>, what: String) throws(ChildFailure) -> JSONNode {
    do throws(TraceLoadError) {
      return try JSONNode.parse(Array(line), file: "line")
    } catch {
      throw ChildFailure(message: "\(what) is not valid JSON (\(error.message)): \(excerpt(line))")
    }
  }

  /// The first 200 characters of a line, control characters escaped, for messages.
  static func excerpt(_ line: ArraySlice<UInt8>) -> String {
    let text = String(decoding: line.prefix(200), as: UTF8.self)
    var out = ""
    for scalar in text.unicodeScalars {
      out += scalar.value < 0x20 || scalar.value == 0x7f ? scalar.escaped(asASCII: true) : String(scalar)
    }
    return line.count > 200 ? "'\(out)…'" : "'\(out)'"
  }

  /// A JSON number: the shortest text that reads back to `x`; `null` for NaN and infinities.
  static func appendNumber(_ x: Double, to out: inout [UInt8]) {
    if x.isFinite { NumberText.append(x, to: &out) } else { out.append(contentsOf: "null".utf8) }
  }

  /// A JSON string (escaped as trace files escape it).
  static func appendString(_ s: String, to out: inout [UInt8]) { JSONTraceWriter.appendString(s, to: &out) }
}

extension JSONNode {
  /// The value as short text for messages.
  var text: String {
    switch kind {
    case .null: "null"
    case .bool(let b): b ? "true" : "false"
    case .number(let x): ParameterValue.text(x)
    case .string(let s): "'\(s)'"
    case .array: "an array"
    case .object: "an object"
    }
  }
}
