/// Bytes for standard output held back until the run has succeeded, so that a command that fails
/// writes nothing there: in memory up to ``limit`` bytes, then in a ``ByteSpool`` (a temporary
/// file), so that memory stays bounded however long the output (`synth --count 2000000 --output -`
/// piped into another command).
package final class HeldOutput: ByteSink {
  /// The bytes kept in memory before the rest goes to a spool file: 32 MiB.
  package static let defaultLimit = 32 << 20

  /// The most bytes held in memory.
  package let limit: Int
  private let spoolPath: String
  private var memory: [UInt8] = []
  private var spool: ByteSpool?

  /// Holds output in memory, spilling beside `spoolPath` (a name in a temporary directory) past
  /// `limit` bytes.
  package init(spoolBeside spoolPath: String, limit: Int = HeldOutput.defaultLimit) {
    self.spoolPath = spoolPath
    self.limit = limit
  }

  /// Whether the output has moved to a spool file.
  package var isSpilled: Bool { spool != nil }

  /// Appends `bytes`; the first append past ``limit`` moves everything held to a spool file.
  ///
  /// - Throws: ``FileWriteError`` when the spool file cannot be created or written.
  package func append(_ bytes: [UInt8]) throws(FileWriteError) {
    if let spool { return try spool.append(bytes) }
    memory += bytes
    guard memory.count > limit else { return }
    let file = try ByteSpool(beside: spoolPath)
    spool = file
    try file.append(memory)
    memory = []
  }

  /// Writes everything held to `sink` (standard output by default), in order, and lets it go.
  ///
  /// - Throws: ``FileWriteError`` when a write fails (`.io`, path `-`, for standard output), or
  ///   when the spool cannot be read back.
  package func write(to sink: any ByteSink = StandardOutputSink()) throws(FileWriteError) {
    if let spool {
      try spool.copy(to: sink)
      self.spool = nil
    } else {
      try sink.append(memory)
      memory = []
    }
  }

  /// Drops what is held and removes the spool file. Safe to call more than once.
  package func discard() {
    spool?.discard()
    spool = nil
    memory = []
  }
}

/// Standard output as a ``ByteSink``: every append written at once, checked.
package final class StandardOutputSink: ByteSink {
  /// Standard output.
  package init() {}

  /// Writes `bytes` to standard output.
  ///
  /// - Throws: ``FileWriteError`` (`.io`, path `-`) when the write fails.
  package func append(_ bytes: [UInt8]) throws(FileWriteError) { try StandardOutput.write(bytes) }
}
