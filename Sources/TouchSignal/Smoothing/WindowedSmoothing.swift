public import TouchCore

/// A smoothing method whose window becomes a length in samples per signal and whose filter owns
/// a GSL workspace (a ``Smoother``): Gaussian, median, recursive median, moving window and
/// impulse rejection.
///
/// The array, trace and batch entry points are written once, here; each method provides its
/// window, how the window becomes a length, and the smoother for a length.
public protocol WindowedSmoothing: SmoothingMethod {
  /// The window: samples, or seconds converted with the median sampling interval.
  var window: SmoothingWindow { get }

  /// The window length in samples for a sampling interval (seconds; needed for windows in
  /// seconds). Centred windows are odd.
  func length(interval: Double?) -> Int

  /// A smoother owning the GSL workspace for this configuration at windows of `length` samples.
  ///
  /// - Throws: ``GSLError`` when the GSL allocation fails.
  func makeSmoother(length: Int) throws(GSLError) -> any Smoother & ~Copyable
}

extension WindowedSmoothing {
  /// The length of a centred window in samples (odd) for a sampling interval (seconds; needed for
  /// windows in seconds).
  public func length(interval: Double?) -> Int { window.length(centered: true, interval: interval) }

  /// Filters `values`, one output per input in the units of `values` (empty in, empty out).
  ///
  /// - Parameters:
  ///   - values: the signal, one value per sample.
  ///   - interval: the sampling interval, seconds; required when ``window`` is in seconds.
  /// - Throws: ``GSLError`` from the GSL allocation or filter.
  public func apply(to values: [Double], interval: Double? = nil) throws(GSLError) -> [Double] {
    guard !values.isEmpty else { return [] }
    return try makeSmoother(length: length(interval: interval)).apply(to: values)
  }

  /// Filters the force column of every trace, reusing one smoother (one GSL workspace) while
  /// consecutive traces need the same window length (always, for windows in samples).
  ///
  /// - Throws: ``SignalError`` naming the first trace that failed.
  public func apply(to traces: [Trace]) throws(SignalError) -> [[Double]] {
    var results: [[Double]] = []
    results.reserveCapacity(traces.count)
    var current: (any Smoother & ~Copyable)?
    for trace in traces {
      guard !trace.isEmpty else {
        results.append([])
        continue
      }
      let k = length(interval: try trace.interval(for: window))
      var output: [Double] = []
      do {
        if current?.length != k { current = try makeSmoother(length: k) }
        switch current {
        case .some(let smoother): try smoother.apply(to: trace.force, into: &output)
        case .none: preconditionFailure("a smoother was just made")
        }
      } catch {
        throw .gsl(error.inTrace(trace.name))
      }
      results.append(output)
    }
    return results
  }
}
