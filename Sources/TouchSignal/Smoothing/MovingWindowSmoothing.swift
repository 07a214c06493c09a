internal import CGSL
public import TouchCore

/// Where a moving window sits relative to the sample it produces.
public enum WindowAlignment: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
  /// `x[i−H] … x[i+H]`: zero phase, but looks `H` samples ahead (offline analysis).
  case centered
  /// `x[i−K+1] … x[i]`: causal, what a live recognizer could compute as samples arrive; delays
  /// a ramp by `(K − 1)/2` samples (mean) or about that (median).
  case trailing

  /// `centered` or `trailing`.
  public var description: String { rawValue }
}

/// A moving mean or moving median over a centred or trailing window, as a reusable
/// configuration.
///
/// Windows: `K` samples. Centred windows use an odd `K` (`H = J = (K − 1)/2` samples before and
/// after); trailing windows use `K` as given (`H = K − 1` before, none after) and are causal.
/// Ends: ``EndHandling/padValue`` (default; a trailing window starts from `K − 1` copies of the
/// first sample), ``EndHandling/padZero`` or ``EndHandling/truncate`` (the statistic of the
/// samples that exist, so a trailing window simply grows over the first `K − 1` samples).
///
/// The corresponding C functions are `gsl_movstat_alloc2`, `gsl_movstat_mean` and
/// `gsl_movstat_median`.
public struct MovingWindowSmoothing: Hashable, Sendable, WindowedSmoothing {
  /// The statistic computed over each window.
  public enum Statistic: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The arithmetic mean.
    case mean
    /// The median.
    case median

    /// `mean` or `median`.
    public var description: String { rawValue }
  }

  /// The statistic.
  public var statistic: Statistic
  /// The window: `K` samples, or seconds.
  public var window: SmoothingWindow
  /// Centred (offline) or trailing (causal).
  public var alignment: WindowAlignment
  /// What the window does past the ends.
  public var ends: EndHandling

  /// The end rules this method supports.
  public static let supportedEnds: [EndHandling] = [.padValue, .padZero, .truncate]

  /// Creates a configuration.
  /// - Precondition: `ends` is one of ``supportedEnds``.
  public init(
    _ statistic: Statistic, window: SmoothingWindow, alignment: WindowAlignment = .centered,
    ends: EndHandling = .padValue
  ) {
    window.validate()
    precondition(Self.supportedEnds.contains(ends), "moving \(statistic) does not support \(ends) ends")
    self.statistic = statistic
    self.window = window
    self.alignment = alignment
    self.ends = ends
  }

  /// The window length in samples (odd when centred).
  public func length(interval: Double?) -> Int {
    window.length(centered: alignment == .centered, interval: interval)
  }

  /// Filters `values` (empty in, empty out).
  /// - Parameters:
  ///   - values: the signal, one value per sample.
  ///   - interval: the sampling interval, seconds; required for a window in seconds.
  /// - Throws: ``GSLError`` from `gsl_movstat_alloc2` or the statistic.
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
  func filter(length: Int) throws(GSLError) -> MovingWindowSmoother {
    try MovingWindowSmoother(statistic, length: length, alignment: alignment, ends: ends)
  }
}

/// A moving mean or median that owns its GSL workspace (not copyable, not `Sendable`).
///
/// The corresponding C functions are `gsl_movstat_alloc2`, `gsl_movstat_mean`,
/// `gsl_movstat_median` and `gsl_movstat_free`.
public struct MovingWindowSmoother: ~Copyable, WindowedFilter {
  /// The statistic.
  public let statistic: MovingWindowSmoothing.Statistic
  /// The window length in samples.
  public let length: Int
  /// Centred or trailing.
  public let alignment: WindowAlignment
  /// The end rule.
  public let ends: EndHandling
  private let workspace: UnsafeMutablePointer<gsl_movstat_workspace>

  /// Allocates the workspace: a centred window of `length` samples (an even length becomes odd)
  /// or a trailing one of exactly `length` samples.
  /// - Throws: ``GSLError`` when `gsl_movstat_alloc2` returns NULL.
  public init(
    _ statistic: MovingWindowSmoothing.Statistic, length: Int, alignment: WindowAlignment,
    ends: EndHandling = .padValue
  ) throws(GSLError) {
    precondition(length >= 1, "window length must be at least 1, got \(length)")
    precondition(MovingWindowSmoothing.supportedEnds.contains(ends), "moving windows do not support \(ends) ends")
    GSL.prepare()
    let k = alignment == .centered ? length | 1 : length
    let (before, after) = alignment == .centered ? (k / 2, k / 2) : (k - 1, 0)
    guard let workspace = gsl_movstat_alloc2(before, after) else {
      throw GSL.allocationFailed("gsl_movstat_alloc2")
    }
    self.statistic = statistic
    self.length = k
    self.alignment = alignment
    self.ends = ends
    self.workspace = workspace
  }

  deinit { gsl_movstat_free(workspace) }

  /// Filters `values` into a new array.
  /// - Throws: ``GSLError`` from `gsl_movstat_mean` or `gsl_movstat_median`.
  public func apply(to values: [Double]) throws(GSLError) -> [Double] {
    var output: [Double] = []
    try apply(to: values, into: &output)
    return output
  }

  /// Filters `values` into `output`, reusing its storage.
  /// - Throws: ``GSLError`` from `gsl_movstat_mean` or `gsl_movstat_median`.
  public func apply(to values: [Double], into output: inout [Double]) throws(GSLError) {
    let end = ends.movstatEnd
    switch statistic {
    case .mean: try GSL.filter(values, into: &output, "gsl_movstat_mean") { x, y in gsl_movstat_mean(end, x, y, workspace) }
    case .median: try GSL.filter(values, into: &output, "gsl_movstat_median") { x, y in gsl_movstat_median(end, x, y, workspace) }
    }
  }
}
