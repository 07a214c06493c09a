internal import CGSL

/// Gaussian smoothing (and Gaussian derivatives) of a signal, as a reusable configuration.
///
/// The kernel is GSL's: for a window of `K` samples (odd), `G(k) = exp(−½·(α·k/H)²)` for
/// `|k| ≤ H = (K − 1)/2`, normalized to sum 1, so the standard deviation is `σ = H/α` samples.
/// A larger ``alpha`` gives a narrower kernel and less smoothing. With ``derivative`` `d > 0`
/// the kernel is the `d`-th derivative of that Gaussian, so the output is the derivative of the
/// smoothed signal **per sample** (divide by the sampling interval for per-second values; for
/// force rates use ``ForceRate``, which also removes the discrete kernel's gain).
///
/// The window is centred: the output at sample `i` looks `H` samples ahead, so the filter is not
/// causal. Ends: ``EndHandling/padValue`` (default) or ``EndHandling/padZero``. GSL's truncating
/// end rule is not offered: in GSL 2.7 it neither renormalizes the shortened kernel nor keeps it
/// centred at the last `H` samples (a ramp 0, 1, …, 11 smoothed with `K = 5` ends in 8.6, 6.7).
///
/// ```swift
/// let smoothing = GaussianSmoothing(window: .seconds(0.05), alpha: 3)
/// let smooth = try smoothing.apply(to: trace)   // one value per sample, force units
/// ```
///
/// The corresponding C function is `gsl_filter_gaussian`.
public struct GaussianSmoothing: WindowedSmoothing {
  /// The window: `K` samples, or seconds converted with the median interval.
  public var window: SmoothingWindow
  /// The number of standard deviations the half window spans (`σ = H/α` samples), > 0.
  public var alpha: Double
  /// The derivative order: 0 smooths, 1 gives the first derivative per sample, … (at most 10).
  public var derivative: Int
  /// What the window does past the ends (``EndHandling/padValue`` or ``EndHandling/padZero``).
  public var ends: EndHandling

  /// The end rules this method supports.
  public static let supportedEnds: [EndHandling] = [.padValue, .padZero]

  /// Creates a configuration.
  ///
  /// - Parameters:
  ///   - window: the window (`K` samples, rounded up to odd, or seconds).
  ///   - alpha: the half window in standard deviations, > 0. The default 3 puts ±3σ in the window.
  ///   - derivative: 0 (smoothing) to 10.
  ///   - ends: ``EndHandling/padValue`` (default) or ``EndHandling/padZero``.
  /// - Precondition: the values are in range; a bad value is a programmer error and traps.
  public init(
    window: SmoothingWindow, alpha: Double = 3, derivative: Int = 0, ends: EndHandling = .padValue
  ) {
    window.validate()
    precondition(alpha > 0 && alpha.isFinite, "alpha must be positive, got \(alpha)")
    precondition((0...10).contains(derivative), "derivative order must be 0...10, got \(derivative)")
    ends.require(in: Self.supportedEnds, by: "Gaussian smoothing")
    self.window = window
    self.alpha = alpha
    self.derivative = derivative
    self.ends = ends
  }

  /// A smoother owning the GSL workspace for this configuration at windows of `length` samples.
  /// - Throws: ``GSLError`` when `gsl_filter_gaussian_alloc` returns NULL.
  public func makeSmoother(length: Int) throws(GSLError) -> any Smoother & ~Copyable {
    try smoother(length: length)
  }

  /// A smoother owning the GSL workspace for this configuration at one window length.
  /// - Parameter interval: the sampling interval, seconds; required when ``window`` is in seconds.
  /// - Throws: ``GSLError`` when `gsl_filter_gaussian_alloc` returns NULL.
  public func smoother(interval: Double? = nil) throws(GSLError) -> GaussianSmoother {
    try smoother(length: length(interval: interval))
  }

  func smoother(length: Int) throws(GSLError) -> GaussianSmoother {
    try GaussianSmoother(length: length, alpha: alpha, derivative: derivative, ends: ends)
  }
}

/// A Gaussian filter that owns its GSL workspace, for smoothing many signals with one
/// allocation.
///
/// It is not copyable and not `Sendable`: each thread (or task) makes its own. Because it is
/// `~Copyable` it cannot be stored in an `Array` or returned from generic APIs that need copyable
/// values (such as a benchmark `setup:` closure); use ``GaussianSmoothing`` there.
///
/// The corresponding C functions are `gsl_filter_gaussian_alloc`, `gsl_filter_gaussian` and
/// `gsl_filter_gaussian_free`.
public struct GaussianSmoother: ~Copyable, Smoother {
  /// The window length in samples (odd).
  public let length: Int
  /// The half window in standard deviations.
  public let alpha: Double
  /// The derivative order.
  public let derivative: Int
  /// The end rule.
  public let ends: EndHandling
  private let workspace: GSLWorkspace<gsl_filter_gaussian_workspace>

  /// Allocates the workspace.
  ///
  /// - Parameters:
  ///   - length: window length `K` in samples, ≥ 1; an even `K` becomes `K + 1`.
  ///   - alpha: the half window in standard deviations, > 0.
  ///   - derivative: the derivative order, 0...10.
  ///   - ends: ``EndHandling/padValue`` or ``EndHandling/padZero``.
  /// - Throws: ``GSLError`` when `gsl_filter_gaussian_alloc` returns NULL.
  public init(length: Int, alpha: Double = 3, derivative: Int = 0, ends: EndHandling = .padValue) throws(GSLError) {
    precondition(length >= 1, "window length must be at least 1, got \(length)")
    precondition(alpha > 0 && alpha.isFinite, "alpha must be positive, got \(alpha)")
    precondition((0...10).contains(derivative), "derivative order must be 0...10, got \(derivative)")
    ends.require(in: GaussianSmoothing.supportedEnds, by: "Gaussian smoothing")
    let k = length | 1
    self.workspace = try GSLWorkspace(
      "gsl_filter_gaussian_alloc", { gsl_filter_gaussian_alloc(k) }, free: gsl_filter_gaussian_free)
    self.length = k
    self.alpha = alpha
    self.derivative = derivative
    self.ends = ends
  }

  /// Filters `values` into `output`, reusing `output`'s storage: no allocation when it already
  /// has room for `values.count` elements.
  /// - Throws: ``GSLError`` from `gsl_filter_gaussian`.
  public func apply(to values: [Double], into output: inout [Double]) throws(GSLError) {
    try GSL.filter(values, into: &output, "gsl_filter_gaussian") { x, y in
      gsl_filter_gaussian(ends.filterEnd, alpha, derivative, x, y, workspace.pointer)
    }
  }
}
