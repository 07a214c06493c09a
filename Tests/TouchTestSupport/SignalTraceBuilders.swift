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

/// Whether `actual` is within `relative` of `expected`, relative to `max(|expected|, floor)`:
/// a relative test that does not demand the impossible of values near zero.
public func isClose(_ actual: Double, _ expected: Double, relative: Double, floor: Double = 1) -> Bool {
  abs(actual - expected) <= relative * Swift.max(abs(expected), floor)
}

/// A small seeded generator (SplitMix64) with normally distributed draws, so randomized tests
/// replay exactly.
public struct SeededNoise: RandomNumberGenerator {
  private var state: UInt64

  /// Starts the sequence at `seed`.
  public init(seed: UInt64) { state = seed }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A draw from the normal distribution with mean 0 and standard deviation `sd` (Box–Muller).
  public mutating func normal(sd: Double) -> Double {
    let u1 = Double.random(in: Double.ulpOfOne..<1, using: &self)
    let u2 = Double.random(in: 0..<1, using: &self)
    return sd * (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
  }
}
