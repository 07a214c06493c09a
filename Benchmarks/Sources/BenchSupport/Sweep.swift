import CReference
import TouchEvaluation

/// The threshold sweep of the performance study (perf.md §3): for each of K thresholds θ, the
/// number of traces whose force ever exceeds θ (strict `>`) and the sum over them of the latency
/// (t at the first such sample − t at the trace's first sample, seconds).
///
/// Implemented by the product's one-pass kernel (``SwiftSweep``, `TouchEvaluation`'s
/// `RunningMaxSweep`), the C reference (``CSweep``, running-max merge) and the numpy peer.
public struct SweepResult: Sendable, Equatable {
  /// Traces crossing each threshold.
  public var count: [Int64]
  /// Summed latency per threshold, seconds.
  public var latency: [Double]

  /// Zeros for `k` thresholds.
  public init(k: Int) {
    count = Array(repeating: 0, count: k)
    latency = Array(repeating: 0, count: k)
  }

  /// Creates a result from its columns.
  public init(count: [Int64], latency: [Double]) {
    self.count = count
    self.latency = latency
  }

  /// Whether counts are equal and latencies agree to a relative 1e-9.
  public func agrees(with other: SweepResult) -> Bool {
    guard count == other.count, latency.count == other.latency.count else { return false }
    for (a, b) in zip(latency, other.latency) where abs(a - b) > 1e-9 * max(abs(a), abs(b), 1e-300) {
      return false
    }
    return true
  }

  /// A one-line fingerprint: total count, summed latency, and threshold K/3's pair.
  public var summary: String {
    let j = count.count / 3
    return "Σcount \(count.reduce(0, +)), Σlatency \(latency.reduce(0, +)), [\(j)] = \(count[j]) / \(latency[j])"
  }
}

/// The sweep sizes measured.
public enum SweepSize {
  /// K = 1, 64, 1000.
  public static let all = [1, 64, 1000]
  /// Passes over the in-cache block per sweep timing.
  public static let hotPasses = 5

  /// The thresholds for `k`: `0.1 + 6.4·j/(K−1)` as Float32 (sorted), and for K = 1 the threshold
  /// recognizer's level 1.0 (so that K = 1 cross-checks the threshold kernel's event count).
  public static func thresholds(_ k: Int) -> [Float] {
    precondition(k >= 1)
    if k == 1 { return [Kernel.crossingLevel] }
    return (0..<k).map { j in Float(0.1 + 6.4 * Double(j) / Double(k - 1)) }
  }
}

/// The C reference sweep with its buffers, ready to run repeatedly without allocating.
public final class CSweep: @unchecked Sendable {
  /// The thresholds, ascending.
  public let thresholds: [Float]
  private let count: UnsafeMutableBufferPointer<Int64>
  private let latency: UnsafeMutableBufferPointer<Double>

  /// Prepares a sweep over `thresholds` (ascending).
  public init(thresholds: [Float]) {
    self.thresholds = thresholds
    count = .allocate(capacity: thresholds.count)
    latency = .allocate(capacity: thresholds.count)
    count.initialize(repeating: 0)
    latency.initialize(repeating: 0)
  }

  deinit {
    count.deallocate()
    latency.deallocate()
  }

  /// Sweeps `data` (zeroing the accumulators first); returns the total count (to keep the work
  /// observable).
  @discardableResult
  public func run(_ data: Columns) -> Int64 {
    count.update(repeating: 0)
    latency.update(repeating: 0)
    thresholds.withUnsafeBufferPointer { th in
      ttc_sweep_merge(
        data.t.baseAddress!, data.force.baseAddress!, data.offsets.baseAddress!, data.traces,
        th.baseAddress!, th.count, count.baseAddress!, latency.baseAddress!)
    }
    return count[0]
  }

  /// The result of the last run.
  public var result: SweepResult { SweepResult(count: Array(count), latency: Array(latency)) }
}

/// The product's sweep: `TouchEvaluation`'s one-pass kernel (`RunningMaxSweep`, strict `>`,
/// levels prepared once as `CrossingLevels`) per trace over the `Double` force column, gathering
/// the time of each step as it scans (so that cold time reads overlap the scan instead of
/// waiting for a cache miss after it), and its steps summed into difference arrays. A trace's
/// steps cover consecutive level ranges (0 ..< u₁, u₁ ..< u₂, …), so its count adds +1 at level
/// 0 and −1 past its last step, and its latency adds each step's latency minus the previous
/// step's at the step's first level: O(1) per step, one prefix sum over the K levels at the end. Every buffer is allocated in
/// `init`; `run` allocates nothing.
public final class SwiftSweep: @unchecked Sendable {
  /// The thresholds, ascending.
  public let thresholds: [Float]
  /// The levels the kernel compares with: the thresholds widened to `Double` (so `force > level`
  /// decides exactly as the C reference's Float comparison on the same Float-valued forces).
  private let levels: CrossingLevels
  private let steps: UnsafeMutableBufferPointer<CrossingStep>
  /// The time of each step (seconds), gathered by the kernel.
  private let times: UnsafeMutableBufferPointer<Double>
  private let count: UnsafeMutableBufferPointer<Int64>
  private let latency: UnsafeMutableBufferPointer<Double>

  /// Prepares a sweep over `thresholds` (ascending) for traces of at most `longestTrace` samples.
  public init(thresholds: [Float], longestTrace: Int = 4096) {
    self.thresholds = thresholds
    levels = CrossingLevels(thresholds.map(Double.init))
    let k = thresholds.count
    steps = .allocate(capacity: Swift.max(1, Swift.min(longestTrace, k)))
    steps.initialize(repeating: CrossingStep(lower: 0, upper: 0, position: 0))
    times = .allocate(capacity: steps.count)
    times.initialize(repeating: 0)
    count = .allocate(capacity: k + 1)
    latency = .allocate(capacity: k + 1)
    count.initialize(repeating: 0)
    latency.initialize(repeating: 0)
  }

  deinit {
    steps.deallocate()
    times.deallocate()
    count.deallocate()
    latency.deallocate()
  }

  /// Sweeps `data` (zeroing the accumulators first); returns the count of the first threshold
  /// (to keep the work observable), like ``CSweep/run(_:)``.
  @discardableResult
  public func run(_ data: ReplayColumns) -> Int64 {
    let k = thresholds.count
    count.update(repeating: 0)
    latency.update(repeating: 0)
    let offsets = data.offsets
    let t = data.t
    let force = data.force
    let dc = count.baseAddress!
    let dl = latency.baseAddress!
    let out = steps.baseAddress!
    let at = times.baseAddress!
    let time = t.baseAddress!
    let room = steps.count
    levels.withUnsafeLevels { levels in
      var j = 0
      while j &+ 1 < offsets.count {
        let start = offsets[j]
        let end = offsets[j &+ 1]
        precondition(Swift.min(end &- start, k) <= room, "trace longer than the sweep was prepared for")
        // The trace's first time is read before the scan: the time column is then read in
        // ascending order, which the hardware prefetcher follows.
        let t0 = start < end ? t[start] : 0
        let found = RunningMaxSweep.firstCrossings(
          StrictlyAbove.self, quantities: force, range: start..<end, levels: levels, into: out,
          gathering: time, gatheredInto: at)
        if found > 0 {
          var previous = 0.0
          for s in 0..<found {
            let step = out[s]
            let l = at[s] - t0
            dl[Int(step.lower)] += l - previous
            previous = l
          }
          let last = Int(out[found &- 1].upper)
          dc[0] &+= 1
          dc[last] &-= 1
          dl[last] -= previous
        }
        j &+= 1
      }
    }
    // Prefix sums; a level no trace crossed has exactly zero latency (the difference array's
    // terms need not cancel exactly in floating point).
    var c: Int64 = 0
    var l = 0.0
    for level in 0..<k {
      c &+= dc[level]
      l += dl[level]
      dc[level] = c
      dl[level] = c == 0 ? 0 : l
    }
    return dc[0]
  }

  /// The result of the last run.
  public var result: SweepResult {
    let k = thresholds.count
    return SweepResult(count: Array(count[0..<k]), latency: Array(latency[0..<k]))
  }
}
