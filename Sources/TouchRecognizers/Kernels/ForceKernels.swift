/// Bare per-sample kernels over structure-of-arrays columns of many traces, for benchmarks and
/// bulk scans: the four reference recognizers of the performance study (threshold, hysteresis
/// peek/pop, EMA threshold with re-arm, dwell), with the same semantics as its C reference so
/// results can be compared one to one.
///
/// Layout: the samples of trace `k` are `offsets[k] ..< offsets[k + 1]` in every column
/// (`offsets.count` = traces + 1). Each kernel resets its state at every trace start and writes
/// ``Event``s — trace number, kind, **global** sample index — into a preallocated buffer; times
/// are looked up afterwards from the index (`t[event.index]`), so the force-only kernels never
/// read the time column. Each returns the number of events found; when that exceeds the buffer's
/// capacity the extra events were counted but not written.
///
/// Force columns are generic over `Float` or `Double` (the study used `Float`); thresholds have
/// the column's type. The per-sample loops allocate nothing and call nothing.
///
/// System programming interface for the benchmarks and tests (`@_spi(Benchmarks) import
/// TouchRecognizers`), not public API.
@_spi(Benchmarks) public enum ForceKernels {
  /// One kernel event.
  public struct Event: Sendable, Hashable {
    /// The trace number (position in `offsets`).
    public var trace: Int32
    /// What happened: see ``Kind``.
    public var kind: Int32
    /// The global sample index (into the columns).
    public var index: Int

    /// Creates an event.
    @inlinable public init(trace: Int32, kind: Int32, index: Int) {
      self.trace = trace
      self.kind = kind
      self.index = index
    }
  }

  /// Event kinds.
  public enum Kind {
    /// ``firstCrossing(force:offsets:threshold:into:)``: the first sample with force > threshold.
    public static let crossing: Int32 = 0
    /// ``hysteresis(force:offsets:peek:pop:release:into:)``: idle → peeked (force > peek).
    public static let peek: Int32 = 1
    /// Peeked → popped (force > pop).
    public static let pop: Int32 = 2
    /// Peeked → idle (force < release): a cancelled peek, a flap.
    public static let peekReleased: Int32 = 3
    /// Popped → idle (force < release): the end of a pop, a flap.
    public static let popReleased: Int32 = 4
    /// ``emaThreshold(force:offsets:alpha:threshold:rearm:into:)``: the smoothed force exceeded
    /// the threshold while armed.
    public static let smoothedCrossing: Int32 = 5
    /// ``dwell(t:force:offsets:level:duration:into:)``: force above the level held long enough.
    public static let dwell: Int32 = 6
  }

  @inlinable @inline(__always)
  static func emit(
    _ count: inout Int, _ events: UnsafeMutableBufferPointer<Event>, trace k: Int, kind: Int32,
    index: Int
  ) {
    if count < events.count {
      events[count] = Event(trace: Int32(truncatingIfNeeded: k), kind: kind, index: index)
    }
    count &+= 1
  }

  /// The traces of an `offsets` column, in order: each trace's number `k` and its samples
  /// `start ..< end` (`offsets[k] ..< offsets[k + 1]`); none when `offsets` has fewer than two
  /// elements.
  @usableFromInline
  struct Traces: Sequence, IteratorProtocol {
    @usableFromInline let offsets: UnsafeBufferPointer<Int>
    @usableFromInline var k = 0

    @inlinable init(_ offsets: UnsafeBufferPointer<Int>) { self.offsets = offsets }

    @inlinable @inline(__always)
    mutating func next() -> (k: Int, start: Int, end: Int)? {
      guard k &+ 1 < offsets.count else { return nil }
      defer { k &+= 1 }
      return (k, offsets[k], offsets[k &+ 1])
    }
  }

  // MARK: Scans (the per-sample loops)
  //
  // Each state of a kernel waits for one condition; these find the first sample meeting it, four
  // samples per branch (the comparisons are combined without branching), then one at a time. The
  // comparisons are exactly the kernels' own, so NaN behaves as in a sample-by-sample loop.

  /// What a scan waits for: `hit` is 1 for a sample meeting the condition, else 0 (a number, so
  /// that four samples combine without branching).
  @usableFromInline
  protocol ScanCondition {
    associatedtype F: BinaryFloatingPoint
    func hit(_ f: F) -> UInt8
  }

  /// One comparison with a level (the test is a constant at every call site, so it folds away).
  @usableFromInline
  struct Level<F: BinaryFloatingPoint>: ScanCondition {
    @usableFromInline
    enum Test {
      /// `force > level`.
      case above
      /// `force < level`.
      case below
      /// `!(force > level)` (NaN included).
      case notAbove
    }
    @usableFromInline let test: Test
    @usableFromInline let level: F
    @inlinable init(_ test: Test, _ level: F) {
      self.test = test
      self.level = level
    }
    @inlinable @inline(__always) func hit(_ f: F) -> UInt8 {
      switch test {
      case .above: UInt8(f > level ? 1 : 0)
      case .below: UInt8(f < level ? 1 : 0)
      case .notAbove: UInt8(f > level ? 0 : 1)
      }
    }
  }

  /// `force > high || force < low`.
  @usableFromInline
  struct Outside<F: BinaryFloatingPoint>: ScanCondition {
    @usableFromInline let low: F
    @usableFromInline let high: F
    @inlinable init(low: F, high: F) {
      self.low = low
      self.high = high
    }
    @inlinable @inline(__always) func hit(_ f: F) -> UInt8 { UInt8(f > high ? 1 : 0) | UInt8(f < low ? 1 : 0) }
  }

  /// The first index in `i..<end` whose force meets `condition`, or `end`.
  @inlinable @inline(__always)
  static func first<C: ScanCondition>(
    _ force: UnsafeBufferPointer<C.F>, _ condition: C, from i: Int, to end: Int
  ) -> Int {
    var i = i
    while i &+ 4 <= end {
      let hit =
        condition.hit(force[i]) | condition.hit(force[i &+ 1]) | condition.hit(force[i &+ 2])
        | condition.hit(force[i &+ 3])
      if hit != 0 { break }
      i &+= 4
    }
    while i < end && condition.hit(force[i]) == 0 { i &+= 1 }
    return i
  }

  /// Threshold: per trace, the first sample with `force > threshold`; then the trace is left
  /// (early exit). At most one event per trace.
  ///
  /// - Returns: the number of events found.
  /// - Complexity: O(samples up to each trace's crossing).
  @inlinable
  public static func firstCrossing<F: BinaryFloatingPoint>(
    force: UnsafeBufferPointer<F>, offsets: UnsafeBufferPointer<Int>, threshold: F,
    into events: UnsafeMutableBufferPointer<Event>
  ) -> Int {
    var count = 0
    for (k, start, end) in Traces(offsets) {
      let i = first(force, Level(.above, threshold), from: start, to: end)
      if i < end { emit(&count, events, trace: k, kind: Kind.crossing, index: i) }
    }
    return count
  }

  /// Hysteresis with two stages (peek/pop): idle → peeked when `force > peek`; peeked → popped
  /// when `force > pop`, else → idle when `force < release` (a cancelled peek); popped → idle
  /// when `force < release`. A single sample moves one state at most. With `pop` = `.infinity`
  /// this is a plain press/release latch; flaps are the release events.
  ///
  /// - Returns: the number of events found.
  /// - Complexity: O(samples).
  @inlinable
  public static func hysteresis<F: BinaryFloatingPoint>(
    force: UnsafeBufferPointer<F>, offsets: UnsafeBufferPointer<Int>, peek: F, pop: F, release: F,
    into events: UnsafeMutableBufferPointer<Event>
  ) -> Int {
    var count = 0
    for (k, start, end) in Traces(offsets) {
      var i = start
      // One scan per state, each for the sample that leaves it.
      while true {
        i = first(force, Level(.above, peek), from: i, to: end)  // idle
        guard i < end else { break }
        emit(&count, events, trace: k, kind: Kind.peek, index: i)
        i = first(force, Outside(low: release, high: pop), from: i &+ 1, to: end)  // peeked
        guard i < end else { break }
        if force[i] > pop {
          emit(&count, events, trace: k, kind: Kind.pop, index: i)
          i = first(force, Level(.below, release), from: i &+ 1, to: end)  // popped
          guard i < end else { break }
          emit(&count, events, trace: k, kind: Kind.popReleased, index: i)
        } else {
          emit(&count, events, trace: k, kind: Kind.peekReleased, index: i)
        }
        i &+= 1
      }
    }
    return count
  }

  /// EMA threshold with re-arm: per trace `s = 0`, armed; each sample `s += alpha * (force − s)`;
  /// armed and `s > threshold` → event, disarmed; disarmed and `s < rearm` → armed again.
  ///
  /// - Returns: the number of events found.
  /// - Complexity: O(samples).
  @inlinable
  public static func emaThreshold<F: BinaryFloatingPoint>(
    force: UnsafeBufferPointer<F>, offsets: UnsafeBufferPointer<Int>, alpha: F, threshold: F,
    rearm: F, into events: UnsafeMutableBufferPointer<Event>
  ) -> Int {
    var count = 0
    guard offsets.count > 1 else { return 0 }
    let traces = offsets.count - 1
    // The smoothing is a chain of dependent operations per trace, so one trace at a time is
    // bound by their latency. Two traces are smoothed side by side (each with exactly its own
    // arithmetic) so that the chains overlap. Events of the second trace wait in `pending` until
    // the first is done, so events come out in trace order; a second trace with more than
    // `PendingIndices.capacity` events while paired is simply redone alone.
    var k = 0
    while k &+ 1 < traces {
      let a0 = offsets[k]
      let b0 = offsets[k &+ 1]
      let b1 = offsets[k &+ 2]
      let paired = min(b0 &- a0, b1 &- b0)
      var a = EMAState<F>()
      var b = EMAState<F>()
      var pending = PendingIndices()
      var overflow = false
      var j = 0
      while j < paired {
        let ia = a0 &+ j
        let ib = b0 &+ j
        a.s += alpha * (force[ia] - a.s)
        b.s += alpha * (force[ib] - b.s)
        if a.armed {
          if a.s > threshold {
            emit(&count, events, trace: k, kind: Kind.smoothedCrossing, index: ia)
            a.armed = false
          }
        } else if a.s < rearm {
          a.armed = true
        }
        if b.armed {
          if b.s > threshold {
            overflow = overflow || !pending.append(ib)
            b.armed = false
          }
        } else if b.s < rearm {
          b.armed = true
        }
        j &+= 1
      }
      ema(&a, force, from: a0 &+ paired, to: b0, alpha, threshold, rearm, trace: k, &count, events)
      if overflow {
        b = EMAState()
        ema(&b, force, from: b0, to: b1, alpha, threshold, rearm, trace: k &+ 1, &count, events)
      } else {
        for n in 0..<pending.count {
          emit(&count, events, trace: k &+ 1, kind: Kind.smoothedCrossing, index: pending[n])
        }
        ema(&b, force, from: b0 &+ paired, to: b1, alpha, threshold, rearm, trace: k &+ 1, &count, events)
      }
      k &+= 2
    }
    if k < traces {
      var a = EMAState<F>()
      ema(&a, force, from: offsets[k], to: offsets[k &+ 1], alpha, threshold, rearm, trace: k, &count, events)
    }
    return count
  }

  /// The state of ``emaThreshold(force:offsets:alpha:threshold:rearm:into:)`` for one trace.
  @usableFromInline
  struct EMAState<F: BinaryFloatingPoint> {
    @usableFromInline var s: F = 0
    @usableFromInline var armed = true
    @inlinable init() {}
  }

  /// Continues one trace's EMA over `i..<end`.
  @inlinable @inline(__always)
  static func ema<F: BinaryFloatingPoint>(
    _ state: inout EMAState<F>, _ force: UnsafeBufferPointer<F>, from i: Int, to end: Int, _ alpha: F,
    _ threshold: F, _ rearm: F, trace k: Int, _ count: inout Int, _ events: UnsafeMutableBufferPointer<Event>
  ) {
    var s = state.s
    var armed = state.armed
    var i = i
    while i < end {
      s += alpha * (force[i] - s)
      if armed {
        if s > threshold {
          emit(&count, events, trace: k, kind: Kind.smoothedCrossing, index: i)
          armed = false
        }
      } else if s < rearm {
        armed = true
      }
      i &+= 1
    }
    state.s = s
    state.armed = armed
  }

  /// A few sample indices held without allocating.
  @usableFromInline
  struct PendingIndices {
    @usableFromInline static var capacity: Int { 4 }
    @usableFromInline var count = 0
    @usableFromInline var i0 = 0, i1 = 0, i2 = 0, i3 = 0
    @inlinable init() {}

    /// Appends `index`; `false` when full (nothing appended).
    @inlinable
    mutating func append(_ index: Int) -> Bool {
      switch count {
      case 0: i0 = index
      case 1: i1 = index
      case 2: i2 = index
      case 3: i3 = index
      default: return false
      }
      count &+= 1
      return true
    }

    @inlinable
    subscript(n: Int) -> Int {
      switch n {
      case 0: i0
      case 1: i1
      case 2: i2
      default: i3
      }
    }
  }

  /// Dwell: an episode starts at a sample with `force > level` and lasts while the force stays
  /// above the level; the first sample of the episode with `t − t_start >= duration` gives one
  /// event. A sample with `force <= level` ends the episode.
  ///
  /// - Parameters:
  ///   - t: sample times, seconds.
  ///   - force: forces, device units.
  ///   - offsets: trace boundaries (traces + 1 elements).
  ///   - level: the force to stay above (strict `>`).
  ///   - duration: seconds.
  ///   - events: the output buffer.
  /// - Returns: the number of events found.
  /// - Complexity: O(samples).
  @inlinable
  public static func dwell<F: BinaryFloatingPoint>(
    t: UnsafeBufferPointer<Double>, force: UnsafeBufferPointer<F>, offsets: UnsafeBufferPointer<Int>,
    level: F, duration: Double, into events: UnsafeMutableBufferPointer<Event>
  ) -> Int {
    var count = 0
    for (k, start, end) in Traces(offsets) {
      var i = start
      while true {
        i = first(force, Level(.above, level), from: i, to: end)  // outside an episode
        guard i < end else { break }
        let start = t[i]  // an episode starts; it fires at most once
        while i < end && force[i] > level && !(t[i] - start >= duration) { i &+= 1 }
        guard i < end else { break }
        if force[i] > level {
          emit(&count, events, trace: k, kind: Kind.dwell, index: i)
          i = first(force, Level(.notAbove, level), from: i &+ 1, to: end)  // fired: wait for the end
          guard i < end else { break }
        }
        i &+= 1  // force[i] is not above the level: the episode is over
      }
    }
    return count
  }
}
