import CReference

/// The threshold sweep of the performance study (perf.md §3): for each of K thresholds θ, the
/// number of traces whose force ever exceeds θ (strict `>`) and the sum over them of the latency
/// (t at the first such sample − t at the trace's first sample, seconds).
///
/// Implemented here by the C reference (running-max merge, one pass per trace) and by the numpy
/// peer. The product's Swift sweep kernel lives in `TouchEvaluation` (issue 5) and is wired in
/// where the suites say `PRODUCT SWEEP KERNEL`.
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
