internal import CGSL
public import TouchCore

/// Standard median filtering of a signal, as a reusable configuration.
///
/// The output at sample `i` is the median of the centred window `x[i−H] … x[i+H]`, `K = 2H + 1`
/// samples. It removes spikes shorter than `H + 1` samples and keeps steps sharp. It is not
/// causal (it looks `H` samples ahead). Ends: ``EndHandling/padValue`` (default),
/// ``EndHandling/padZero`` (as `scipy.signal.medfilt`) or ``EndHandling/truncate`` (the median of
/// the samples that exist).
///
/// The corresponding C function is `gsl_filter_median`.
public struct MedianSmoothing: Hashable, Sendable, WindowedSmoothing {
  /// The window: `K` samples (rounded up to odd), or seconds.
  public var window: SmoothingWindow
  /// What the window does past the ends.
  public var ends: EndHandling

  /// The end rules this method supports.
  public static let supportedEnds: [EndHandling] = [.padValue, .padZero, .truncate]

  /// Creates a configuration.
  /// - Precondition: `ends` is one of ``supportedEnds``.
  public init(window: SmoothingWindow, ends: EndHandling = .padValue) {
    window.validate()
    precondition(Self.supportedEnds.contains(ends), "median smoothing does not support \(ends) ends")
    self.window = window
    self.ends = ends
  }

  /// The window length in samples (odd).
  public func length(interval: Double?) -> Int { window.length(centered: true, interval: interval) }

  /// Filters `values` (empty in, empty out).
  /// - Parameters:
  ///   - values: the signal, one value per sample.
  ///   - interval: the sampling interval, seconds; required for a window in seconds.
  /// - Throws: ``GSLError`` from `gsl_filter_median_alloc` or `gsl_filter_median`.
  /// - Complexity: O(n·log K).
  public func apply(to values: [Double], interval: Double? = nil) throws(GSLError) -> [Double] {
    try filtered(values, interval: interval, using: filter(length:))
  }

  /// Filters the force column of `trace`, force units.
  /// - Throws: ``SignalError`` naming the trace.
  public func apply(to trace: Trace) throws(SignalError) -> [Double] {
    try filteredForce(of: trace, using: filter(length:))
  }

  /// Filters every trace's force, reusing one workspace while the window length stays the same.
  /// - Throws: ``SignalError`` naming the first trace that failed.
  public func apply(to traces: [Trace]) throws(SignalError) -> [[Double]] {
    try filteredForces(of: traces, using: filter(length:))
  }

  /// A filter owning the GSL workspace for windows of `length` samples.
  func filter(length: Int) throws(GSLError) -> MedianSmoother { try MedianSmoother(length: length, ends: ends) }
}

/// A standard median filter that owns its GSL workspace (not copyable, not `Sendable`: one per
/// thread).
///
/// The corresponding C functions are `gsl_filter_median_alloc`, `gsl_filter_median` and
/// `gsl_filter_median_free`.
public struct MedianSmoother: ~Copyable, WindowedFilter {
  /// The window length in samples (odd).
  public let length: Int
  /// The end rule.
  public let ends: EndHandling
  private let workspace: UnsafeMutablePointer<gsl_filter_median_workspace>

  /// Allocates the workspace for windows of `length` samples (an even length becomes odd).
  /// - Throws: ``GSLError`` when `gsl_filter_median_alloc` returns NULL.
  public init(length: Int, ends: EndHandling = .padValue) throws(GSLError) {
    precondition(length >= 1, "window length must be at least 1, got \(length)")
    precondition(MedianSmoothing.supportedEnds.contains(ends), "median smoothing does not support \(ends) ends")
    GSL.prepare()
    guard let workspace = gsl_filter_median_alloc(length | 1) else {
      throw GSL.allocationFailed("gsl_filter_median_alloc")
    }
    self.length = length | 1
    self.ends = ends
    self.workspace = workspace
  }

  deinit { gsl_filter_median_free(workspace) }

  /// Filters `values` into a new array.
  /// - Throws: ``GSLError`` from `gsl_filter_median`.
  public func apply(to values: [Double]) throws(GSLError) -> [Double] {
    var output: [Double] = []
    try apply(to: values, into: &output)
    return output
  }

  /// Filters `values` into `output`, reusing its storage.
  /// - Throws: ``GSLError`` from `gsl_filter_median`.
  public func apply(to values: [Double], into output: inout [Double]) throws(GSLError) {
    try GSL.filter(values, into: &output, "gsl_filter_median") { x, y in gsl_filter_median(ends.filterEnd, x, y, workspace) }
  }
}

/// Recursive median filtering, as a reusable configuration.
///
/// The output is `y[i] = median(y[i−H], …, y[i−1], x[i], …, x[i+H])`: earlier *outputs* replace
/// earlier inputs, so one pass reaches a root signal (applying it again changes nothing). It
/// removes longer bursts than the standard median with the same window. Not causal. Ends:
/// ``EndHandling/padValue`` (default), ``EndHandling/padZero`` or ``EndHandling/truncate``.
///
/// The corresponding C function is `gsl_filter_rmedian`.
public struct RecursiveMedianSmoothing: Hashable, Sendable, WindowedSmoothing {
  /// The window: `K` samples (rounded up to odd), or seconds.
  public var window: SmoothingWindow
  /// What the window does past the ends.
  public var ends: EndHandling

  /// The end rules this method supports.
  public static let supportedEnds: [EndHandling] = [.padValue, .padZero, .truncate]

  /// Creates a configuration.
  /// - Precondition: `ends` is one of ``supportedEnds``.
  public init(window: SmoothingWindow, ends: EndHandling = .padValue) {
    window.validate()
    precondition(Self.supportedEnds.contains(ends), "recursive median smoothing does not support \(ends) ends")
    self.window = window
    self.ends = ends
  }

  /// The window length in samples (odd).
  public func length(interval: Double?) -> Int { window.length(centered: true, interval: interval) }

  /// Filters `values` (empty in, empty out).
  /// - Throws: ``GSLError`` from `gsl_filter_rmedian_alloc` or `gsl_filter_rmedian`.
  public func apply(to values: [Double], interval: Double? = nil) throws(GSLError) -> [Double] {
    try filtered(values, interval: interval, using: filter(length:))
  }

  /// Filters the force column of `trace`, force units.
  /// - Throws: ``SignalError`` naming the trace.
  public func apply(to trace: Trace) throws(SignalError) -> [Double] {
    try filteredForce(of: trace, using: filter(length:))
  }

  /// Filters every trace's force, reusing one workspace while the window length stays the same.
  /// - Throws: ``SignalError`` naming the first trace that failed.
  public func apply(to traces: [Trace]) throws(SignalError) -> [[Double]] {
    try filteredForces(of: traces, using: filter(length:))
  }

  /// A filter owning the GSL workspace for windows of `length` samples.
  func filter(length: Int) throws(GSLError) -> RecursiveMedianSmoother { try RecursiveMedianSmoother(length: length, ends: ends) }
}

/// A recursive median filter that owns its GSL workspace (not copyable, not `Sendable`).
///
/// The corresponding C functions are `gsl_filter_rmedian_alloc`, `gsl_filter_rmedian` and
/// `gsl_filter_rmedian_free`.
public struct RecursiveMedianSmoother: ~Copyable, WindowedFilter {
  /// The window length in samples (odd).
  public let length: Int
  /// The end rule.
  public let ends: EndHandling
  private let workspace: UnsafeMutablePointer<gsl_filter_rmedian_workspace>

  /// Allocates the workspace for windows of `length` samples (an even length becomes odd).
  /// - Throws: ``GSLError`` when `gsl_filter_rmedian_alloc` returns NULL.
  public init(length: Int, ends: EndHandling = .padValue) throws(GSLError) {
    precondition(length >= 1, "window length must be at least 1, got \(length)")
    precondition(RecursiveMedianSmoothing.supportedEnds.contains(ends), "recursive median smoothing does not support \(ends) ends")
    GSL.prepare()
    guard let workspace = gsl_filter_rmedian_alloc(length | 1) else {
      throw GSL.allocationFailed("gsl_filter_rmedian_alloc")
    }
    self.length = length | 1
    self.ends = ends
    self.workspace = workspace
  }

  deinit { gsl_filter_rmedian_free(workspace) }

  /// Filters `values` into a new array.
  /// - Throws: ``GSLError`` from `gsl_filter_rmedian`.
  public func apply(to values: [Double]) throws(GSLError) -> [Double] {
    var output: [Double] = []
    try apply(to: values, into: &output)
    return output
  }

  /// Filters `values` into `output`, reusing its storage.
  /// - Throws: ``GSLError`` from `gsl_filter_rmedian`.
  public func apply(to values: [Double], into output: inout [Double]) throws(GSLError) {
    try GSL.filter(values, into: &output, "gsl_filter_rmedian") { x, y in gsl_filter_rmedian(ends.filterEnd, x, y, workspace) }
  }
}
