internal import CGSL
import TouchCore

/// A filter that owns a GSL workspace for one window length (Gaussian, median, recursive median,
/// moving window, impulse rejection); not copyable, one per thread.
protocol WindowedFilter: ~Copyable {
  /// The window length in samples the workspace was allocated for.
  var length: Int { get }
  /// Filters `values`, one output per input.
  mutating func apply(to values: [Double]) throws(GSLError) -> [Double]
}

/// A smoothing configuration whose window becomes a length in samples per signal and whose
/// filter owns a GSL workspace. Its array, trace and batch entry points share the drivers below;
/// each configuration passes the function that allocates its filter for a window length.
protocol WindowedSmoothing {
  /// The window: samples, or seconds converted with the median interval.
  var window: SmoothingWindow { get }
  /// The window length in samples for a sampling interval (seconds; needed for windows in
  /// seconds).
  func length(interval: Double?) -> Int
}

extension WindowedSmoothing {
  /// Filters `values` with a filter made for their window length (empty in, empty out).
  func filtered<Filter: WindowedFilter & ~Copyable>(
    _ values: [Double], interval: Double?, using makeFilter: (_ length: Int) throws(GSLError) -> Filter
  ) throws(GSLError) -> [Double] {
    guard !values.isEmpty else { return [] }
    var filter = try makeFilter(length(interval: interval))
    return try filter.apply(to: values)
  }

  /// Filters the force column of `trace`; errors name the trace.
  func filteredForce<Filter: WindowedFilter & ~Copyable>(
    of trace: Trace, using makeFilter: (_ length: Int) throws(GSLError) -> Filter
  ) throws(SignalError) -> [Double] {
    guard !trace.isEmpty else { return [] }
    let interval = try trace.interval(for: window)
    do { return try filtered(trace.force, interval: interval, using: makeFilter) } catch { throw .gsl(error.inTrace(trace.name)) }
  }

  /// Filters the force column of every trace, reusing one filter (one GSL workspace) while
  /// consecutive traces need the same window length (always, for windows in samples); errors
  /// name the first trace that failed.
  func filteredForces<Filter: WindowedFilter & ~Copyable>(
    of traces: [Trace], using makeFilter: (_ length: Int) throws(GSLError) -> Filter
  ) throws(SignalError) -> [[Double]] {
    var results: [[Double]] = []
    results.reserveCapacity(traces.count)
    var current: Filter?
    for trace in traces {
      guard !trace.isEmpty else {
        results.append([])
        continue
      }
      let k = length(interval: try trace.interval(for: window))
      do {
        if current?.length != k { current = try makeFilter(k) }
        results.append(try current!.apply(to: trace.force))
      } catch {
        throw .gsl(error.inTrace(trace.name))
      }
    }
    return results
  }
}

extension GSL {
  /// Runs the GSL filter `body` from `input` into `output` (resized to `input.count`, reusing its
  /// storage; nothing runs for an empty input) and turns its status into a ``GSLError``.
  @inline(__always)
  static func filter(
    _ input: [Double], into output: inout [Double], _ function: StaticString,
    _ body: (UnsafePointer<gsl_vector>, UnsafeMutablePointer<gsl_vector>) -> Int32
  ) throws(GSLError) {
    resize(&output, to: input.count)
    guard !input.isEmpty else { return }
    try check(withVectors(input, &output, body), function)
  }
}
