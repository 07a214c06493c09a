/// One contact from touch-down to lift-off, stored column-wise.
///
/// Each column is a contiguous array with one element per sample, so per-sample loops stream
/// through memory. Events refer to samples by index. All columns have the same length
/// (checked in debug builds by ``checkInvariants()``).
///
/// Units: ``t`` in seconds (any origin; non-decreasing), ``force`` in device force units
/// (`UITouch.force`, Android pressure, evdev pressure levels), ``x`` and ``y`` in points,
/// ``radius`` in points.
public struct Trace: Hashable, Sendable {
  /// Identity, labels and provenance.
  public var metadata: TraceMetadata
  /// Sample times, seconds, non-decreasing.
  public var t: [Double]
  /// Force per sample, device units, ≥ 0.
  public var force: [Double]
  /// Phase per sample.
  public var phase: [TouchPhase]
  /// Horizontal position per sample, points; `nil` when the source has no positions.
  public var x: [Double]?
  /// Vertical position per sample, points; `nil` when the source has no positions.
  public var y: [Double]?
  /// Touch radius per sample, points; `nil` when the source has none.
  public var radius: [Double]?

  /// Creates a trace from its columns.
  ///
  /// - Parameters:
  ///   - metadata: identity, labels and provenance.
  ///   - t: sample times, seconds.
  ///   - force: force per sample, device units.
  ///   - phase: per-sample phases; `nil` gives ``TouchPhase/defaultSequence(count:)``.
  ///   - x: horizontal positions, points, or `nil`.
  ///   - y: vertical positions, points, or `nil`.
  ///   - radius: touch radii, points, or `nil`.
  /// - Precondition: every column has `t.count` elements. Passing columns of different lengths
  ///   is a programmer error and traps.
  public init(
    metadata: TraceMetadata, t: [Double], force: [Double], phase: [TouchPhase]? = nil,
    x: [Double]? = nil, y: [Double]? = nil, radius: [Double]? = nil
  ) {
    precondition(force.count == t.count, "force has \(force.count) samples, t has \(t.count)")
    precondition(phase.map { $0.count == t.count } ?? true, "phase column length differs from t")
    precondition(x.map { $0.count == t.count } ?? true, "x column length differs from t")
    precondition(y.map { $0.count == t.count } ?? true, "y column length differs from t")
    precondition(radius.map { $0.count == t.count } ?? true, "radius column length differs from t")
    self.metadata = metadata
    self.t = t
    self.force = force
    self.phase = phase ?? TouchPhase.defaultSequence(count: t.count)
    self.x = x
    self.y = y
    self.radius = radius
  }

  /// The number of samples.
  @inlinable public var count: Int { t.count }

  /// Whether the trace has no samples.
  @inlinable public var isEmpty: Bool { t.isEmpty }

  /// Time from the first to the last sample, seconds; `nil` for an empty trace.
  public var duration: Double? {
    guard let first = t.first, let last = t.last else { return nil }
    return last - first
  }

  /// The name reports use for the trace (see ``TraceMetadata/name``).
  public var name: String { metadata.name }

  /// Whether the trace carries x and y positions.
  public var hasPosition: Bool { x != nil && y != nil }
}
