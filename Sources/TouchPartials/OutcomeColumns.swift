public import TouchEvaluation

/// Per-trace outcome columns, one per configuration (or compared configuration), each read when
/// asked for: held in memory, read back from disk (``OutcomeSpill``), or merged from the
/// partials of a job as they are read. Whoever reads them holds one column at a time, not every
/// configuration's outcome on every trace.
public struct OutcomeColumns: Sendable {
  /// The number of columns.
  public let count: Int
  private let read: @Sendable (Int) throws -> OutcomeColumn

  /// Columns made by `column`, each when it is asked for.
  ///
  /// - Parameters:
  ///   - count: the number of columns.
  ///   - column: column `c`'s outcomes, `c` in `0 ..< count`; what it throws reaches
  ///     ``column(_:)``'s caller.
  public init(count: Int, column: @escaping @Sendable (Int) throws -> OutcomeColumn) {
    precondition(count >= 0, "a number of columns")
    self.count = count
    self.read = column
  }

  /// Columns held in memory.
  public init(_ columns: [OutcomeColumn]) {
    self.init(count: columns.count) { columns[$0] }
  }

  /// Every configuration's column of `spill`, read back from its file when asked for.
  public init(_ spill: OutcomeSpill) {
    self.init(count: spill.count) { try spill.column($0) }
  }

  /// Column `c`'s outcomes, in trace order.
  ///
  /// - Throws: what the source throws (``LatencySpill/Failure`` when a spill file cannot be
  ///   read).
  public func column(_ c: Int) throws -> OutcomeColumn {
    precondition(c >= 0 && c < count, "a column of the set")
    return try read(c)
  }

  /// Every column, read into memory (for the few a comparison pairs).
  ///
  /// - Throws: as ``column(_:)``.
  public func all() throws -> [OutcomeColumn] {
    try (0..<count).map { try column($0) }
  }
}
