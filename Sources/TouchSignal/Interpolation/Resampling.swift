public import TouchCore

/// Resampling of a trace with irregular timestamps onto a uniform time grid, as a reusable
/// configuration.
///
/// Rules, in order:
/// 1. **Repeated timestamps are merged.** Consecutive samples with the same `t` become one sample
///    whose force, x, y and radius are the means of the group: the clock cannot order them, so
///    none is preferred. ``ResampledTrace/mergedSamples`` counts the samples merged away.
/// 2. **Gaps are kept, not bridged.** Where two consecutive (merged) samples are more than
///    ``maximumGap`` apart, nothing is interpolated between them: the trace is cut into segments
///    at such gaps, grid points that fall inside a gap are left out, and the output keeps the gap
///    (``ResampledTrace/segments`` lists the uniform runs). Splitting into separate traces would
///    break identity, phases and `press_at`; keeping one trace does not.
/// 3. **The grid** is `t₀ + k/rate` (k = 0, 1, …) anchored at the first sample, computed from
///    integers, so every segment lies on the same lattice; it ends at the last grid point not after
///    the last sample (up to one interval before lift-off).
/// 4. **Values** at grid points interpolate force (and x, y, radius when present) with
///    ``method`` inside each segment: ``InterpolationMethod/linear`` or the monotone
///    ``InterpolationMethod/steffen`` (a two-point segment falls back to linear; a one-point
///    segment contributes a sample only if it lies on the grid). Both keep force within the range
///    of the neighbouring samples; force is clamped to `[0, maxForce]` against rounding.
/// 5. **Phases**: the first output sample keeps the trace's first phase (`began`), the last keeps
///    the trace's last phase when it is `ended` or `cancelled`, and every other sample is `moved`
///    when its force or position differs from the previous output sample, else `stationary` (the
///    way UIKit labels them).
/// 6. **Metadata** (labels, `press_at`, max force) is kept unchanged.
public struct Resampling: Hashable, Sendable {
  /// Samples per second of the uniform grid, e.g. 240.
  public var rate: Double
  /// How values between samples are interpolated (`linear` or `steffen`).
  public var method: InterpolationMethod
  /// The longest interval (seconds) that is interpolated across; longer intervals are gaps.
  /// `nil` bridges every interval.
  public var maximumGap: Double?

  /// Creates a configuration.
  /// - Precondition: `rate > 0`; `method` is `linear` or `steffen`; `maximumGap > 0` when given.
  public init(rate: Double, method: InterpolationMethod = .linear, maximumGap: Double? = 0.1) {
    precondition(rate > 0 && rate.isFinite, "rate must be positive, got \(rate)")
    precondition(method == .linear || method == .steffen, "resampling uses linear or steffen interpolation")
    precondition(maximumGap.map { $0 > 0 } ?? true, "maximum gap must be positive")
    self.rate = rate
    self.method = method
    self.maximumGap = maximumGap
  }

  /// The most grid points one resampled trace may have: 2²⁴ (16 777 216). The grid grows with
  /// span × rate, not with the samples; the limit bounds the work for any trace (with the
  /// default 0.1 s maximum gap a trace needs over 690 000 samples at 240 Hz to reach it).
  public static var maximumPoints: Int { 1 << 24 }

  /// Resamples `trace`.
  /// - Throws: ``SignalError`` naming the trace: a GSL spline failure, or
  ///   ``SignalError/gridTooLarge(trace:rate:limit:)`` beyond ``maximumPoints``.
  /// - Complexity: O(n + m) for n input and m ≤ ``maximumPoints`` output samples.
  public func apply(to trace: Trace) throws(SignalError) -> ResampledTrace {
    do {
      return try resample(trace)
    } catch {
      throw error.inTrace(trace.name)
    }
  }

  private func resample(_ trace: Trace) throws(SignalError) -> ResampledTrace {
    guard !trace.isEmpty else { return ResampledTrace(trace: trace, segments: [], mergedSamples: 0) }
    let merged = MergedSamples(trace)
    let n = merged.t.count
    // Segments of merged samples, cut at gaps.
    var bounds: [Range<Int>] = []
    var start = 0
    for i in 1..<Swift.max(n, 1) where maximumGap.map({ merged.t[i] - merged.t[i - 1] > $0 }) ?? false {
      bounds.append(start..<i)
      start = i
    }
    bounds.append(start..<n)

    let t0 = merged.t[0]
    var t: [Double] = []
    var force: [Double] = []
    var x: [Double]? = merged.x == nil ? nil : []
    var y: [Double]? = merged.y == nil ? nil : []
    var radius: [Double]? = merged.radius == nil ? nil : []
    var segments: [Range<Int>] = []
    let upper = trace.metadata.maxForce ?? .infinity
    // Grid points left before the limit; checked before each segment's loop, so the loop runs
    // at most `maximumPoints` times in all, whatever the span and rate.
    var room = Double(Self.maximumPoints)
    for bound in bounds {
      let first = merged.t[bound.lowerBound]
      let last = merged.t[bound.upperBound - 1]
      // Grid indices inside [first, last], from integers.
      let low = Swift.max(0, ((first - t0) * rate - 1e-9).rounded(.up))
      let high = ((last - t0) * rate + 1e-9).rounded(.down) + 1  // past the last index, or one more
      guard high - low <= room, let lowIndex = Int(exactly: low), let end = Int(exactly: high) else {
        throw .gridTooLarge(trace: nil, rate: rate, limit: Self.maximumPoints)
      }
      room -= Swift.max(high - low, 0)
      var k = lowIndex
      // A billionth of an interval absorbs rounding in times that lie on the grid.
      let slack = 1e-9 / rate
      var grid: [Double] = []
      while k <= end {
        let time = t0 + Double(k) / rate
        if time > last + slack { break }
        if time >= first - slack { grid.append(time) }
        k += 1
      }
      guard !grid.isEmpty else { continue }
      let method: InterpolationMethod =
        bound.count >= self.method.minimumPoints ? self.method : .linear
      func interpolate(_ column: [Double]) throws(SignalError) -> [Double] {
        if bound.count == 1 { return grid.map { _ in column[bound.lowerBound] } }
        do throws(GSLError) {
          let spline = try Spline(method, x: Array(merged.t[bound]), y: Array(column[bound]))
          return try spline.values(at: grid.map { Swift.min(Swift.max($0, first), last) })
        } catch {
          throw .gsl(error)
        }
      }
      let begin = t.count
      t += grid
      force += try interpolate(merged.force).map { Swift.min(Swift.max($0, 0), upper) }
      if let column = merged.x { x! += try interpolate(column) }
      if let column = merged.y { y! += try interpolate(column) }
      if let column = merged.radius { radius! += try interpolate(column).map { Swift.max($0, 0) } }
      segments.append(begin..<t.count)
    }

    // Phases.
    var phase = [TouchPhase](repeating: .moved, count: t.count)
    for i in phase.indices.dropFirst() {
      let changed =
        force[i] != force[i - 1] || (x.map { $0[i] != $0[i - 1] } ?? false)
        || (y.map { $0[i] != $0[i - 1] } ?? false)
      phase[i] = changed ? .moved : .stationary
    }
    if !phase.isEmpty {
      phase[0] = trace.phase[0]
      if let last = trace.phase.last, last.isTerminal, phase.count > 1 { phase[phase.count - 1] = last }
    }
    let output = Trace(metadata: trace.metadata, t: t, force: force, phase: phase, x: x, y: y, radius: radius)
    return ResampledTrace(trace: output, segments: segments, mergedSamples: trace.count - n)
  }
}

/// A trace resampled onto a uniform grid.
public struct ResampledTrace: Hashable, Sendable {
  /// The resampled trace (same metadata, uniform times except across kept gaps).
  public var trace: Trace
  /// The runs of sample indices of ``trace`` that are uniformly spaced; consecutive runs are
  /// separated by a gap longer than ``Resampling/maximumGap``.
  public var segments: [Range<Int>]
  /// The number of input samples merged into others because they repeated a timestamp.
  public var mergedSamples: Int
}

/// A trace's samples with repeated timestamps merged (means of each group).
struct MergedSamples {
  var t: [Double] = []
  var force: [Double] = []
  var x: [Double]?
  var y: [Double]?
  var radius: [Double]?

  init(_ trace: Trace) {
    x = trace.x == nil ? nil : []
    y = trace.y == nil ? nil : []
    radius = trace.radius == nil ? nil : []
    var i = 0
    let n = trace.count
    while i < n {
      var j = i + 1
      while j < n && trace.t[j] == trace.t[i] { j += 1 }
      let count = Double(j - i)
      func mean(_ column: [Double]) -> Double {
        var sum = 0.0
        for k in i..<j { sum += column[k] }
        return sum / count
      }
      t.append(trace.t[i])
      force.append(mean(trace.force))
      if let column = trace.x { x!.append(mean(column)) }
      if let column = trace.y { y!.append(mean(column)) }
      if let column = trace.radius { radius!.append(mean(column)) }
      i = j
    }
  }
}
