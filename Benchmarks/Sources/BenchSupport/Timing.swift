#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Monotonic time in nanoseconds.
@inline(__always)
public func monotonicNanoseconds() -> UInt64 {
  var ts = timespec()
  clock_gettime(CLOCK_MONOTONIC, &ts)
  return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Times `body` once, nanoseconds.
@inline(__always)
public func timeNanoseconds(_ body: () -> Void) -> Double {
  let start = monotonicNanoseconds()
  body()
  return Double(monotonicNanoseconds() - start)
}

/// The median of `values` (the mean of the middle two for an even count).
public func median(_ values: [Double]) -> Double {
  precondition(!values.isEmpty)
  let s = values.sorted()
  return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// Evicts the benchmark data from every cache level by writing a buffer larger than the last
/// level cache (512 MiB by default; the machine reports 300 MiB of L3).
public final class CacheFlusher: @unchecked Sendable {
  private let buffer: UnsafeMutableBufferPointer<UInt64>
  private var round: UInt64 = 0

  /// Allocates (and touches) the buffer.
  public init(bytes: Int = 512 << 20) {
    buffer = .allocate(capacity: bytes / 8)
    buffer.initialize(repeating: 0)
  }

  deinit { buffer.deallocate() }

  /// Writes one word per 64-byte line of the whole buffer.
  public func flush() {
    round &+= 1
    var i = 0
    let n = buffer.count
    while i < n {
      buffer[i] = round
      i &+= 8
    }
  }
}

/// Writes `message` and a newline to standard error.
public func printError(_ message: String) {
  let line = Array((message + "\n").utf8)
  line.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
}
