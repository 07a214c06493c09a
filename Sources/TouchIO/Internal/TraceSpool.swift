import TouchCore

/// Traces parked in a temporary binary file and read back in order, bit for bit: for an output
/// whose first bytes depend on every trace (a CSV file's header names the columns the traces
/// use), so the traces wait on disk, not in memory.
///
/// The file is hidden beside a given path (``OutputPath/temporaryName(for:)``), registered for
/// removal on `SIGINT`/`SIGTERM`, and removed by ``discard()`` (or when deinitialized).
/// Encoding: little-endian 64-bit integers and IEEE 754 bit patterns, strings as a length and
/// UTF-8 bytes, optional values behind a presence byte.
final class TraceSpool {
  private let file: SpoolFile
  private var reading = false
  /// The traces written.
  private(set) var count = 0

  /// Creates the spool file beside `path`.
  init(beside path: String) throws(FileWriteError) {
    file = try SpoolFile(beside: path)
  }

  /// Appends `trace`.
  func append(_ trace: Trace) throws(FileWriteError) {
    precondition(!reading, "the spool is being read")
    let m = trace.metadata
    put(m.id)
    put(Int64(m.touch))
    put(m.intent?.rawValue)
    put(m.pressAt)
    put(m.user)
    put(m.session)
    put(m.device)
    putOptional(m.maxForce)
    buffer.append(m.timeSynthesized ? 1 : 0)
    let labels = m.labels.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    put(Int64(labels.count))
    for (name, value) in labels {
      put(name)
      put(value)
    }
    put(trace.t)
    put(trace.force)
    buffer += trace.phase.map(\.rawValue)
    for column in [trace.x, trace.y, trace.radius] {
      buffer.append(column == nil ? 0 : 1)
      if let column { put(column) }
    }
    count += 1
    try file.flushIfFull()
  }

  /// Reads the traces back in order, calling `body` with each.
  func forEach(_ body: (Trace) throws(FileWriteError) -> Void) throws(FileWriteError) {
    reading = true
    try file.reopenForReading()
    var reader = Reader(file: file)
    for _ in 0..<count {
      let id = try reader.string()
      let touch = Int(try reader.integer())
      let intent = try reader.optionalString().flatMap(Intent.init(rawValue:))
      let pressAt = try reader.doubles()
      let user = try reader.optionalString()
      let session = try reader.optionalString()
      let device = try reader.optionalString()
      let maxForce = try reader.flag() ? try reader.double() : nil
      let synthesized = try reader.flag()
      var labels: [String: String] = [:]
      for _ in 0..<Int(try reader.integer()) {
        let name = try reader.string()
        labels[name] = try reader.string()
      }
      let t = try reader.doubles()
      let force = try reader.doubles()
      let phase = try reader.bytes(t.count).map { TouchPhase(rawValue: $0)! }
      let x = try reader.flag() ? try reader.doubles() : nil
      let y = try reader.flag() ? try reader.doubles() : nil
      let radius = try reader.flag() ? try reader.doubles() : nil
      let metadata = TraceMetadata(
        id: id, touch: touch, intent: intent, pressAt: pressAt, user: user, session: session, device: device,
        maxForce: maxForce, timeSynthesized: synthesized, labels: labels)
      try body(Trace(metadata: metadata, t: t, force: force, phase: phase, x: x, y: y, radius: radius))
    }
  }

  /// Closes and removes the spool file. Safe to call more than once.
  func discard() {
    file.discard()
  }

  /// The spool file's write buffer, which the encoders below append to.
  private var buffer: [UInt8] {
    get { file.buffer }
    _modify { yield &file.buffer }
  }

  private func put(_ value: Int64) {
    withUnsafeBytes(of: value.littleEndian) { buffer.append(contentsOf: $0) }
  }

  private func put(_ value: Double) { put(Int64(bitPattern: value.bitPattern)) }

  private func putOptional(_ value: Double?) {
    buffer.append(value == nil ? 0 : 1)
    if let value { put(value) }
  }

  private func put(_ text: String) {
    put(Int64(text.utf8.count))
    buffer.append(contentsOf: text.utf8)
  }

  private func put(_ text: String?) {
    buffer.append(text == nil ? 0 : 1)
    if let text { put(text) }
  }

  private func put(_ values: [Double]) {
    put(Int64(values.count))
    for value in values { put(value) }
  }

  /// Buffered reads of the spool's encoding.
  private struct Reader {
    let file: SpoolFile
    var buffer: [UInt8] = []
    var position = 0

    /// Makes at least `n` unread bytes available.
    mutating func fill(_ n: Int) throws(FileWriteError) {
      guard buffer.count - position < n else { return }
      buffer.removeFirst(position)
      position = 0
      var chunk = [UInt8](repeating: 0, count: Swift.max(1 << 16, n))
      while buffer.count < n {
        let got = try file.readChunk(into: &chunk)
        if got == 0 {
          throw FileWriteError(path: file.path, kind: .io, reason: "the temporary trace spool ended early")
        }
        buffer += chunk[0..<got]
      }
    }

    mutating func bytes(_ n: Int) throws(FileWriteError) -> ArraySlice<UInt8> {
      try fill(n)
      defer { position += n }
      return buffer[position..<position + n]
    }

    mutating func integer() throws(FileWriteError) -> Int64 {
      try fill(8)
      var value: UInt64 = 0
      for k in 0..<8 { value |= UInt64(buffer[position + k]) << (8 * UInt64(k)) }
      position += 8
      return Int64(bitPattern: value)
    }

    mutating func double() throws(FileWriteError) -> Double { Double(bitPattern: UInt64(bitPattern: try integer())) }

    mutating func flag() throws(FileWriteError) -> Bool { try bytes(1).first! != 0 }

    mutating func string() throws(FileWriteError) -> String {
      let n = Int(try integer())
      return String(decoding: try bytes(n), as: UTF8.self)
    }

    mutating func optionalString() throws(FileWriteError) -> String? { try flag() ? try string() : nil }

    mutating func doubles() throws(FileWriteError) -> [Double] {
      let n = Int(try integer())
      var values: [Double] = []
      values.reserveCapacity(n)
      for _ in 0..<n { values.append(try double()) }
      return values
    }
  }
}
