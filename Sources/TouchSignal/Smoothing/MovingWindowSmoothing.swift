internal import CGSL

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
public struct MovingWindowSmoothing: WindowedSmoothing {
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
    ends.require(in: Self.supportedEnds, by: "moving \(statistic)")
    self.statistic = statistic
    self.window = window
    self.alignment = alignment
    self.ends = ends
  }

  /// The window length in samples (odd when centred).
  public func length(interval: Double?) -> Int {
    window.length(centered: alignment == .centered, interval: interval)
  }

  /// A ``MovingWindowSmoother`` for windows of `length` samples.
  /// - Throws: ``GSLError`` when `gsl_movstat_alloc2` returns NULL.
  public func makeSmoother(length: Int) throws(GSLError) -> any Smoother & ~Copyable {
    try MovingWindowSmoother(statistic, length: length, alignment: alignment, ends: ends)
  }
}

/// A moving mean or median that owns its GSL workspace (not copyable, not `Sendable`).
///
/// The corresponding C functions are `gsl_movstat_alloc2`, `gsl_movstat_mean`,
/// `gsl_movstat_median` and `gsl_movstat_free`.
public struct MovingWindowSmoother: ~Copyable, Smoother {
  /// The statistic.
  public let statistic: MovingWindowSmoothing.Statistic
  /// The window length in samples.
  public let length: Int
  /// Centred or trailing.
  public let alignment: WindowAlignment
  /// The end rule.
  public let ends: EndHandling
  private let workspace: GSLWorkspace<gsl_movstat_workspace>

  /// Allocates the workspace: a centred window of `length` samples (an even length becomes odd)
  /// or a trailing one of exactly `length` samples.
  /// - Throws: ``GSLError`` when `gsl_movstat_alloc2` returns NULL.
  public init(
    _ statistic: MovingWindowSmoothing.Statistic, length: Int, alignment: WindowAlignment,
    ends: EndHandling = .padValue
  ) throws(GSLError) {
    precondition(length >= 1, "window length must be at least 1, got \(length)")
    ends.require(in: MovingWindowSmoothing.supportedEnds, by: "a moving window")
    let k = alignment == .centered ? length | 1 : length
    let (before, after) = alignment == .centered ? (k / 2, k / 2) : (k - 1, 0)
    self.workspace = try GSLWorkspace(
      "gsl_movstat_alloc2", { gsl_movstat_alloc2(before, after) }, free: gsl_movstat_free)
    self.statistic = statistic
    self.length = k
    self.alignment = alignment
    self.ends = ends
  }

  /// Filters `values` into `output`, reusing its storage.
  /// - Throws: ``GSLError`` from `gsl_movstat_mean` or `gsl_movstat_median`.
  public func apply(to values: [Double], into output: inout [Double]) throws(GSLError) {
    let end = ends.movstatEnd
    switch statistic {
    case .mean:
      try GSL.filter(values, into: &output, "gsl_movstat_mean") { x, y in gsl_movstat_mean(end, x, y, workspace.pointer)
      }
    case .median:
      try GSL.filter(values, into: &output, "gsl_movstat_median") { x, y in
        gsl_movstat_median(end, x, y, workspace.pointer)
      }
    }
  }
}
