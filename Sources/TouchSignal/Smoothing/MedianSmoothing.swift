internal import CGSL

/// Standard median filtering of a signal, as a reusable configuration.
///
/// The output at sample `i` is the median of the centred window `x[i−H] … x[i+H]`, `K = 2H + 1`
/// samples. It removes spikes shorter than `H + 1` samples and keeps steps sharp. It is not
/// causal (it looks `H` samples ahead). Ends: ``EndHandling/padValue`` (default),
/// ``EndHandling/padZero`` (as `scipy.signal.medfilt`) or ``EndHandling/truncate`` (the median of
/// the samples that exist).
///
/// The corresponding C function is `gsl_filter_median`.
public typealias MedianSmoothing = MedianFilterSmoothing<StandardMedian>

/// Recursive median filtering, as a reusable configuration.
///
/// The output is `y[i] = median(y[i−H], …, y[i−1], x[i], …, x[i+H])`: earlier *outputs* replace
/// earlier inputs, so one pass reaches a root signal (applying it again changes nothing). It
/// removes longer bursts than the standard median with the same window. Not causal. Ends:
/// ``EndHandling/padValue`` (default), ``EndHandling/padZero`` or ``EndHandling/truncate``.
///
/// The corresponding C function is `gsl_filter_rmedian`.
public typealias RecursiveMedianSmoothing = MedianFilterSmoothing<RecursiveMedian>

/// A standard median filter that owns its GSL workspace (not copyable, not `Sendable`: one per
/// thread).
///
/// The corresponding C functions are `gsl_filter_median_alloc`, `gsl_filter_median` and
/// `gsl_filter_median_free`.
public typealias MedianSmoother = MedianFilterSmoother<StandardMedian>

/// A recursive median filter that owns its GSL workspace (not copyable, not `Sendable`).
///
/// The corresponding C functions are `gsl_filter_rmedian_alloc`, `gsl_filter_rmedian` and
/// `gsl_filter_rmedian_free`.
public typealias RecursiveMedianSmoother = MedianFilterSmoother<RecursiveMedian>

/// Which of GSL's two median filters a ``MedianFilterSmoothing`` configuration or a
/// ``MedianFilterSmoother`` runs: ``StandardMedian`` or ``RecursiveMedian``.
public protocol MedianVariant: Sendable {
  /// Whether earlier outputs replace earlier inputs in each window (`gsl_filter_rmedian`).
  static var isRecursive: Bool { get }
}

/// The standard median, `gsl_filter_median` (see ``MedianSmoothing``).
public enum StandardMedian: MedianVariant {
  /// `false`.
  public static var isRecursive: Bool { false }
}

/// The recursive median, `gsl_filter_rmedian` (see ``RecursiveMedianSmoothing``).
public enum RecursiveMedian: MedianVariant {
  /// `true`.
  public static var isRecursive: Bool { true }
}

/// Median filtering with a centred window of `K` samples (odd), as a reusable configuration: the
/// one implementation of ``MedianSmoothing`` (standard) and ``RecursiveMedianSmoothing``
/// (recursive), which differ only in the GSL filter ``MedianVariant`` selects.
///
/// Not causal (the window looks `H = (K − 1)/2` samples ahead). Ends: ``EndHandling/padValue``
/// (default), ``EndHandling/padZero`` or ``EndHandling/truncate``. Outputs are in the units of the
/// input (force units for traces).
public struct MedianFilterSmoothing<Variant: MedianVariant>: WindowedSmoothing {
  /// The window: `K` samples (rounded up to odd), or seconds.
  public var window: SmoothingWindow
  /// What the window does past the ends.
  public var ends: EndHandling

  /// The end rules this method supports: pad-value, pad-zero and truncate.
  public static var supportedEnds: [EndHandling] { [.padValue, .padZero, .truncate] }

  /// Creates a configuration.
  /// - Precondition: `ends` is one of ``supportedEnds``.
  public init(window: SmoothingWindow, ends: EndHandling = .padValue) {
    window.validate()
    ends.require(in: Self.supportedEnds, by: MedianFilterSmoother<Variant>.name)
    self.window = window
    self.ends = ends
  }

  /// A ``MedianFilterSmoother`` of the same variant for windows of `length` samples.
  /// - Throws: ``GSLError`` when `gsl_filter_median_alloc` or `gsl_filter_rmedian_alloc`
  ///   returns NULL.
  public func makeSmoother(length: Int) throws(GSLError) -> any Smoother & ~Copyable {
    try MedianFilterSmoother<Variant>(length: length, ends: ends)
  }
}

/// A median filter that owns its GSL workspace (not copyable, not `Sendable`: one per thread):
/// the one implementation of ``MedianSmoother`` and ``RecursiveMedianSmoother``.
///
/// The corresponding C functions are `gsl_filter_median_alloc`, `gsl_filter_median` and
/// `gsl_filter_median_free`, or their `rmedian` counterparts for ``RecursiveMedian``.
public struct MedianFilterSmoother<Variant: MedianVariant>: ~Copyable, Smoother {
  /// The workspace of one of the two filters.
  private enum Workspace: ~Copyable {
    case standard(GSLWorkspace<gsl_filter_median_workspace>)
    case recursive(GSLWorkspace<gsl_filter_rmedian_workspace>)
  }

  /// The window length in samples (odd).
  public let length: Int
  /// The end rule.
  public let ends: EndHandling
  private let workspace: Workspace

  /// The method's name in messages.
  static var name: String { Variant.isRecursive ? "recursive median smoothing" : "median smoothing" }

  /// Allocates the workspace for windows of `length` samples (an even length becomes odd).
  /// - Throws: ``GSLError`` when `gsl_filter_median_alloc` (`gsl_filter_rmedian_alloc`) returns
  ///   NULL.
  public init(length: Int, ends: EndHandling = .padValue) throws(GSLError) {
    precondition(length >= 1, "window length must be at least 1, got \(length)")
    ends.require(in: MedianFilterSmoothing<Variant>.supportedEnds, by: Self.name)
    let k = length | 1
    workspace =
      Variant.isRecursive
      ? .recursive(
        try GSLWorkspace("gsl_filter_rmedian_alloc", { gsl_filter_rmedian_alloc(k) }, free: gsl_filter_rmedian_free))
      : .standard(
        try GSLWorkspace("gsl_filter_median_alloc", { gsl_filter_median_alloc(k) }, free: gsl_filter_median_free))
    self.length = k
    self.ends = ends
  }

  /// Filters `values` into `output`, reusing its storage.
  /// - Throws: ``GSLError`` from `gsl_filter_median` (`gsl_filter_rmedian`).
  public func apply(to values: [Double], into output: inout [Double]) throws(GSLError) {
    let end = ends.filterEnd
    switch workspace {
    case .standard(let w):
      try GSL.filter(values, into: &output, "gsl_filter_median") { x, y in gsl_filter_median(end, x, y, w.pointer) }
    case .recursive(let w):
      try GSL.filter(values, into: &output, "gsl_filter_rmedian") { x, y in gsl_filter_rmedian(end, x, y, w.pointer) }
    }
  }
}
