public import TouchCore

/// The length of a moving window, in samples or in seconds.
///
/// A window of `K` samples spans `(K − 1)·Δ` seconds, where `Δ` is the sampling interval. A
/// window given in seconds is converted per trace with the trace's median sampling interval
/// (`Trace.medianInterval`): `K = round(S / Δ) + 1` (halves round away from zero),
/// at least 1. Centred filters need an odd `K` (they look `H = (K − 1)/2` samples back and ahead)
/// and use `K + 1` when `K` is even, as GSL does; trailing windows use `K` as is.
public enum SmoothingWindow: Hashable, Sendable, CustomStringConvertible {
  /// A window of this many samples (≥ 1).
  case samples(Int)
  /// A window spanning this many seconds (> 0), converted with the median sampling interval.
  case seconds(Double)

  /// Checks the value: a programmer error traps.
  func validate() {
    switch self {
    case .samples(let k): precondition(k >= 1, "a window needs at least 1 sample, got \(k)")
    case .seconds(let s): precondition(s > 0 && s.isFinite, "a window needs a positive finite duration, got \(s)")
    }
  }

  /// Whether converting this window needs the sampling interval.
  var needsInterval: Bool {
    if case .seconds = self { return true }
    return false
  }

  /// The window length in samples.
  ///
  /// - Parameters:
  ///   - centered: round an even length up to the next odd one.
  ///   - interval: the sampling interval, seconds; required for ``seconds(_:)``.
  /// - Precondition: `interval` is given (and positive) for a window in seconds.
  func length(centered: Bool, interval: Double?) -> Int {
    var k: Int
    switch self {
    case .samples(let n):
      k = n
    case .seconds(let s):
      guard let interval, interval > 0 else {
        preconditionFailure("a window in seconds needs a positive sampling interval")
      }
      let ratio = (s / interval).rounded(.toNearestOrAwayFromZero)
      // NaN and huge ratios take the cap; a whole ratio below it converts exactly.
      k = ratio < Double(Int.max / 4) ? (Int(exactly: ratio) ?? 0) + 1 : Int.max / 4
    }
    k = Swift.max(k, 1)
    if centered && k % 2 == 0 { k += 1 }
    return k
  }

  /// `7 samples` or `0.05 s`.
  public var description: String {
    switch self {
    case .samples(let n): "\(n) samples"
    case .seconds(let s): "\(s) s"
    }
  }
}

extension Trace {
  /// The median of the intervals between consecutive samples with different times, seconds;
  /// `nil` when the trace has fewer than two distinct times.
  ///
  /// Repeated timestamps (zero intervals) are left out, so a log that reports some samples
  /// twice still gives its real sampling interval.
  /// - Complexity: O(n log n) in the number of samples.
  public var medianInterval: Double? {
    var intervals: [Double] = []
    intervals.reserveCapacity(Swift.max(count - 1, 0))
    for i in t.indices.dropFirst() {
      let dt = t[i] - t[i - 1]
      if dt > 0 { intervals.append(dt) }
    }
    return Distribution(intervals).median
  }

  /// The sampling interval `window` needs, or `nil` when it needs none.
  func interval(for window: SmoothingWindow) throws(SignalError) -> Double? {
    guard window.needsInterval else { return nil }
    guard let interval = medianInterval else { throw .noSamplingInterval(trace: name) }
    return interval
  }
}
