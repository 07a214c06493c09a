import CReference
@_spi(Benchmarks) public import TouchRecognizers

/// The four reference recognizer kernels, with the parameters of the performance study.
public enum Kernel: String, CaseIterable, Sendable {
  /// First crossing of 1.0 (early exit per trace).
  case threshold
  /// Peek 1.5 / pop 3.5 / release 1.0.
  case hysteresis
  /// EMA α = 0.25, fires above 1.5, re-arms below 1.2.
  case ema
  /// Force above 1.0 held for 250 ms.
  case dwell

  /// ``threshold``'s level, device units.
  public static let crossingLevel: Float = 1.0
  /// ``hysteresis`` levels, device units.
  public static let peek: Float = 1.5, pop: Float = 3.5, release: Float = 1.0
  /// ``ema`` parameters.
  public static let alpha: Float = 0.25, emaThreshold: Float = 1.5, rearm: Float = 1.2
  /// ``dwell`` parameters: level (device units) and duration (seconds).
  public static let level: Float = 1.0, duration = 0.25

  /// Whether the kernel reads the time column.
  public var readsTime: Bool { self == .dwell }
}

/// The two implementations of every ``Kernel``: the product's and the C reference.
public enum KernelImplementation: String, CaseIterable, Sendable {
  /// The product kernel, `TouchRecognizers.ForceKernels` (``Kernel/runSwift(_:into:)``).
  case swift = "Swift"
  /// The C reference (``Kernel/runC(_:into:)``).
  case c = "C"
}

/// Borrowed columns of a ``BenchData`` (valid while the data lives; see ``BenchData/withColumns(_:)``).
public struct Columns {
  /// Trace boundaries.
  public var offsets: UnsafeBufferPointer<Int>
  /// Times, seconds.
  public var t: UnsafeBufferPointer<Double>
  /// Forces.
  public var force: UnsafeBufferPointer<Float>
  /// The number of traces.
  public var traces: Int { offsets.count - 1 }
  /// The number of samples.
  public var samples: Int { t.count }
}

extension BenchData {
  /// Runs `body` with the columns borrowed.
  public func withColumns<R>(_ body: (Columns) throws -> R) rethrows -> R {
    try offsets.withUnsafeBufferPointer { o in
      try t.withUnsafeBufferPointer { t in
        try force.withUnsafeBufferPointer { f in try body(Columns(offsets: o, t: t, force: f)) }
      }
    }
  }
}

/// A preallocated event buffer for both implementations (never grows: kernels only count past
/// its capacity, and the runners below trap when that happens).
public final class EventBuffers: @unchecked Sendable {
  /// The Swift kernels' events.
  @_spi(Benchmarks) public let swift: UnsafeMutableBufferPointer<ForceKernels.Event>
  /// The C kernels' events.
  public let c: UnsafeMutableBufferPointer<ttc_event>

  /// Allocates room for `capacity` events each.
  public init(capacity: Int) {
    swift = .allocate(capacity: capacity)
    swift.initialize(repeating: ForceKernels.Event(trace: 0, kind: 0, index: 0))
    c = .allocate(capacity: capacity)
    c.initialize(repeating: ttc_event(trace: 0, kind: 0, index: 0))
  }

  /// Room for every event these data can produce (hysteresis emits at most 2 per sample pair).
  public convenience init(for data: BenchData) { self.init(capacity: data.samples / 2 + 16) }

  deinit {
    swift.deallocate()
    c.deallocate()
  }
}

/// An order-sensitive digest of an event sequence: equal digests mean (with overwhelming
/// probability) identical sequences of (trace, kind, index).
public struct EventDigest: Hashable, Sendable, CustomStringConvertible {
  /// The number of events.
  public var count: Int
  /// FNV-1a over the events' fields.
  public var hash: UInt64

  /// Digests `count` events given by `event(i)`.
  @inlinable
  public init(count: Int, event: (Int) -> (trace: Int32, kind: Int32, index: Int)) {
    self.count = count
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    for i in 0..<count {
      let e = event(i)
      h = (h ^ UInt64(UInt32(bitPattern: e.trace))) &* 0x100_0000_01B3
      h = (h ^ UInt64(UInt32(bitPattern: e.kind))) &* 0x100_0000_01B3
      h = (h ^ UInt64(bitPattern: Int64(e.index))) &* 0x100_0000_01B3
    }
    hash = h
  }

  /// `count events, digest xxxx`.
  public var description: String { "\(count) events, digest \(String(hash, radix: 16))" }
}

extension Kernel {
  /// Runs the product kernel (`TouchRecognizers.ForceKernels`) once over `data`; returns the
  /// number of events.
  @inlinable @inline(__always)
  @_spi(Benchmarks) public func runSwift(_ data: Columns, into events: UnsafeMutableBufferPointer<ForceKernels.Event>)
    -> Int
  {
    switch self {
    case .threshold:
      ForceKernels.firstCrossing(
        force: data.force, offsets: data.offsets, threshold: Kernel.crossingLevel, into: events)
    case .hysteresis:
      ForceKernels.hysteresis(
        force: data.force, offsets: data.offsets, peek: Kernel.peek, pop: Kernel.pop, release: Kernel.release,
        into: events)
    case .ema:
      ForceKernels.emaThreshold(
        force: data.force, offsets: data.offsets, alpha: Kernel.alpha, threshold: Kernel.emaThreshold,
        rearm: Kernel.rearm, into: events)
    case .dwell:
      ForceKernels.dwell(
        t: data.t, force: data.force, offsets: data.offsets, level: Kernel.level, duration: Kernel.duration,
        into: events)
    }
  }

  /// Runs the C reference once over `data`; returns the number of events.
  public func runC(_ data: Columns, into events: UnsafeMutableBufferPointer<ttc_event>) -> Int {
    let f = data.force.baseAddress!
    let o = data.offsets.baseAddress!
    let n = data.traces
    let e = events.baseAddress!
    let cap = events.count
    switch self {
    case .threshold:
      return ttc_first_crossing(f, o, n, Kernel.crossingLevel, e, cap)
    case .hysteresis:
      return ttc_hysteresis(f, o, n, Kernel.peek, Kernel.pop, Kernel.release, e, cap)
    case .ema:
      return ttc_ema_threshold(f, o, n, Kernel.alpha, Kernel.emaThreshold, Kernel.rearm, e, cap)
    case .dwell:
      return ttc_dwell(data.t.baseAddress!, f, o, n, Kernel.level, Kernel.duration, e, cap)
    }
  }

  /// Runs `implementation` once over `data`, into its buffer of `buffers`; returns the number of
  /// events.
  @inlinable @inline(__always)
  @_spi(Benchmarks) public func run(_ implementation: KernelImplementation, _ data: Columns, into buffers: EventBuffers)
    -> Int
  {
    switch implementation {
    case .swift: runSwift(data, into: buffers.swift)
    case .c: runC(data, into: buffers.c)
    }
  }

  /// Runs both implementations once and returns their digests (equal when they agree).
  public func digests(_ data: Columns, _ buffers: EventBuffers) -> (swift: EventDigest, c: EventDigest) {
    let ns = runSwift(data, into: buffers.swift)
    let nc = runC(data, into: buffers.c)
    precondition(ns <= buffers.swift.count && nc <= buffers.c.count, "event buffer too small")
    let s = EventDigest(count: ns) { i in
      let e = buffers.swift[i]
      return (e.trace, e.kind, e.index)
    }
    let c = EventDigest(count: nc) { i in
      let e = buffers.c[i]
      return (e.trace, e.kind, e.index)
    }
    return (s, c)
  }
}
