import Foundation
import TouchCore

extension Trace {
  /// A trace sampled at a uniform `rate` (Hz) starting at `start` seconds: times are computed as
  /// `start + i / rate` from integers, phases are the default sequence (began, moved…, ended).
  public static func uniform(
    _ force: [Double], rate: Double = 60, start: Double = 0, id: String = "trace",
    maxForce: Double? = nil
  ) -> Trace {
    Trace(
      metadata: TraceMetadata(id: id, maxForce: maxForce),
      t: force.indices.map { start + Double($0) / rate },
      force: force)
  }

  /// A trace with the given sample times and forces and default phases.
  public static func sampled(
    t: [Double], force: [Double], id: String = "trace", maxForce: Double? = nil
  ) -> Trace {
    Trace(metadata: TraceMetadata(id: id, maxForce: maxForce), t: t, force: force)
  }
}

/// A dataset of `traces`, all from the file `test.csv`.
public func dataset(_ traces: [Trace]) -> Dataset {
  Dataset(traces: traces, origins: traces.map { _ in TraceOrigin(file: "test.csv") })
}

/// Whether `actual` is within `relative` of `expected`, relative to `max(|expected|, floor)`:
/// a relative test that does not demand the impossible of values near zero.
public func isClose(_ actual: Double, _ expected: Double, relative: Double, floor: Double = 1) -> Bool {
  abs(actual - expected) <= relative * Swift.max(abs(expected), floor)
}
