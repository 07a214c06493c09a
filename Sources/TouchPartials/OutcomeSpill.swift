public import TouchEvaluation

/// Every configuration's per-trace outcomes over a stream, on disk: each batch's
/// `OutcomeColumn` of each configuration is written to a ``LatencySpill`` file as it comes, and
/// a configuration's whole column is read back when asked for. Memory holds one batch's columns
/// while they are written and one configuration's column while it is read, not every
/// configuration's outcome on every trace.
public final class OutcomeSpill: @unchecked Sendable {
  /// Where one batch's column of one configuration lies: its parts' lists.
  private struct Segment {
    var counts1: LatencySpill.Ref
    var counts2: LatencySpill.Ref
    var flags: LatencySpill.Ref
    var starts: LatencySpill.Ref
    var numbers: LatencySpill.Ref
  }

  private let spill: LatencySpill
  /// Per configuration, its batches' segments in order.
  private var segments: [[Segment]]

  /// An empty spill for `configurations` configurations, in its own temporary file.
  ///
  /// - Throws: ``LatencySpill/Failure`` when the file cannot be created.
  public init(configurations: Int) throws(LatencySpill.Failure) {
    spill = try LatencySpill()
    segments = Array(repeating: [], count: configurations)
  }

  /// The number of configurations.
  public var count: Int { segments.count }

  /// Bytes written so far.
  public var size: Int { spill.size }

  /// Appends `column`, the outcomes of the next traces, to configuration `c`'s.
  ///
  /// - Throws: ``LatencySpill/Failure`` when the write fails (a full disk).
  public func append(_ column: OutcomeColumn, to c: Int) throws(LatencySpill.Failure) {
    let parts = column.parts
    segments[c].append(
      Segment(
        counts1: try spill.append(bitsOf: parts.counts1), counts2: try spill.append(bitsOf: parts.counts2),
        flags: try spill.append(bitsOf: parts.flags), starts: try spill.append(bitsOf: parts.starts),
        numbers: try spill.append(parts.numbers)))
  }

  /// Adds a configuration whose outcomes are `column`, after the others.
  ///
  /// - Throws: ``LatencySpill/Failure`` when the write fails (a full disk).
  package func append(column: OutcomeColumn) throws(LatencySpill.Failure) {
    segments.append([])
    try append(column, to: segments.count - 1)
  }

  /// Configuration `c`'s outcomes on every trace appended, in order.
  ///
  /// - Throws: ``LatencySpill/Failure`` when the read fails.
  public func column(_ c: Int) throws(LatencySpill.Failure) -> OutcomeColumn {
    var column = OutcomeColumn()
    for segment in segments[c] {
      let parts = OutcomeColumn.Parts(
        counts1: try spill.read(segment.counts1, as: UInt32.self),
        counts2: try spill.read(segment.counts2, as: UInt32.self), flags: try spill.read(segment.flags, as: UInt8.self),
        starts: try spill.read(segment.starts, as: UInt32.self), numbers: try spill.read(segment.numbers))
      column.append(contentsOf: OutcomeColumn(parts: parts))
    }
    return column
  }
}
