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
public enum ForceKernels {
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
    guard offsets.count > 1 else { return 0 }
    for k in 0..<(offsets.count - 1) {
      var i = offsets[k]
      let end = offsets[k + 1]
      while i < end {
        if force[i] > threshold {
          emit(&count, events, trace: k, kind: Kind.crossing, index: i)
          break
        }
        i &+= 1
      }
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
    guard offsets.count > 1 else { return 0 }
    for k in 0..<(offsets.count - 1) {
      var state: UInt8 = 0  // 0 idle, 1 peeked, 2 popped
      var i = offsets[k]
      let end = offsets[k + 1]
      while i < end {
        let f = force[i]
        switch state {
        case 0:
          if f > peek {
            emit(&count, events, trace: k, kind: Kind.peek, index: i)
            state = 1
          }
        case 1:
          if f > pop {
            emit(&count, events, trace: k, kind: Kind.pop, index: i)
            state = 2
          } else if f < release {
            emit(&count, events, trace: k, kind: Kind.peekReleased, index: i)
            state = 0
          }
        default:
          if f < release {
            emit(&count, events, trace: k, kind: Kind.popReleased, index: i)
            state = 0
          }
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
    for k in 0..<(offsets.count - 1) {
      var s: F = 0
      var armed = true
      var i = offsets[k]
      let end = offsets[k + 1]
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
    }
    return count
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
    guard offsets.count > 1 else { return 0 }
    for k in 0..<(offsets.count - 1) {
      var inside = false
      var fired = false
      var start = 0.0
      var i = offsets[k]
      let end = offsets[k + 1]
      while i < end {
        if force[i] > level {
          if !inside {
            inside = true
            fired = false
            start = t[i]
          }
          if !fired && t[i] - start >= duration {
            emit(&count, events, trace: k, kind: Kind.dwell, index: i)
            fired = true
          }
        } else {
          inside = false
        }
        i &+= 1
      }
    }
    return count
  }
}
