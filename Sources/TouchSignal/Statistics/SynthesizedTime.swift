public import TouchCore

/// The traces whose sample times were synthesized rather than recorded (`time_synthesized`:
/// `import --interval` places force values at equal steps), which every report that depends on
/// time states: latencies, durations and rates of such traces follow from the assumed interval.
public struct SynthesizedTime: Sendable, Hashable {
  /// How many traces have synthesized time.
  public var traces: Int
  /// The sampling interval they share, seconds (the median interval of each, when all agree to
  /// 1 ns); `nil` when they differ or none has two distinct times.
  public var interval: Double?

  /// Counts the traces of `traces` with synthesized time and the interval they share.
  public init(_ traces: some Sequence<Trace>) {
    var tally = Tally()
    for trace in traces { tally.add(trace) }
    self = tally.result
  }

  /// The count of ``SynthesizedTime/init(_:)`` taken trace by trace, keeping no samples: for traces read in
  /// batches.
  public struct Tally: Sendable {
    private var count = 0
    private var shared: Double?
    private var agree = true

    /// No traces yet.
    public init() {}

    /// Counts `trace` (if its times were synthesized) after those added before.
    ///
    /// - Parameter trace: the next trace.
    public mutating func add(_ trace: Trace) {
      guard trace.metadata.timeSynthesized else { return }
      count += 1
      guard agree, let interval = trace.medianInterval else { return }
      if let shared, Swift.abs(shared - interval) > 1e-9 {
        agree = false
      } else if shared == nil {
        shared = interval
      }
    }

    /// The count so far.
    public var result: SynthesizedTime { SynthesizedTime(traces: count, interval: agree ? shared : nil) }
  }

  /// Creates a count directly.
  /// - Parameters:
  ///   - traces: how many traces have synthesized time.
  ///   - interval: the sampling interval they share, seconds, if any.
  public init(traces: Int, interval: Double?) {
    self.traces = traces
    self.interval = interval
  }
}
