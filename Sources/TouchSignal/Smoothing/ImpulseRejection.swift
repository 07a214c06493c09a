internal import CGSL
public import TouchCore

/// Impulse (spike) rejection with a Hampel-type filter, as a reusable configuration.
///
/// For each sample the centred window `x[i−H] … x[i+H]` gives a median `m[i]` and a robust
/// scale `S[i]` (an estimate of the local standard deviation). A sample is an *outlier* and is
/// replaced by `m[i]` when `|x[i] − m[i]| > t · max(S[i], minimumScale)`; otherwise it is kept.
/// `t = 0` gives the standard median filter, a very large `t` the identity.
///
/// ## Implosion on flat stretches
/// When at least `H + 1` samples of a window are equal (a force trace at rest, or a plateau of
/// quantized force), the median absolute deviation is 0 and `S[i] = 0`. GSL then flags *every*
/// sample that differs from that majority at all, however little, and the filter acts as a plain
/// median filter there: a one-step (1/60) quantization wobble on a plateau, a light touch shorter
/// than `H + 1` samples in a resting stretch, or the last sample of a release, is replaced
/// although it is no spike. ``minimumScale`` makes the rule explicit: the scale never drops below
/// it, so a deviation counts as an outlier only if it exceeds `t · minimumScale`. With
/// `minimumScale = 0` (the default) the result is exactly GSL's; one quantization step (1/60 on
/// an iPhone 6s) keeps such small genuine changes while still removing large isolated spikes.
/// ``Result/zeroScaleWindows`` counts the windows whose scale was 0.
///
/// Ends: ``EndHandling/padValue`` (default), ``EndHandling/padZero`` or ``EndHandling/truncate``.
///
/// The corresponding C function is `gsl_filter_impulse`; scales are GSL's (`gsl_movstat_mad`
/// ×1.4826, interquartile range ×0.7413, Croux–Rousseeuw `S_n` and `Q_n`).
public struct ImpulseRejection: WindowedSmoothing {
  /// The robust scale estimate of each window.
  public enum Scale: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// Median absolute deviation ×1.4826 (the classic Hampel filter).
    case mad
    /// Interquartile range ×0.7413.
    case iqr
    /// Croux–Rousseeuw `S_n`.
    case sn
    /// Croux–Rousseeuw `Q_n`.
    case qn

    /// `mad`, `iqr`, `sn`, `qn`.
    public var description: String { rawValue }

    var gsl: gsl_filter_scale_t {
      switch self {
      case .mad: GSL_FILTER_SCALE_MAD
      case .iqr: GSL_FILTER_SCALE_IQR
      case .sn: GSL_FILTER_SCALE_SN
      case .qn: GSL_FILTER_SCALE_QN
      }
    }
  }

  /// What the filter found in one signal.
  public struct Result: Hashable, Sendable {
    /// The filtered values: outliers replaced by their window median.
    public var values: [Double]
    /// The indices of the samples that were replaced, ascending.
    public var outliers: [Int]
    /// The number of windows whose scale estimate was exactly 0 (flat stretches).
    public var zeroScaleWindows: Int
  }

  /// The window: `K` samples (rounded up to odd), or seconds.
  public var window: SmoothingWindow
  /// The threshold `t` in scale units (≥ 0); 3 is the usual Hampel choice.
  public var threshold: Double
  /// The scale estimate.
  public var scale: Scale
  /// The smallest scale used in the test, in the signal's units (force units), ≥ 0.
  public var minimumScale: Double
  /// What the window does past the ends.
  public var ends: EndHandling

  /// The end rules this method supports.
  public static let supportedEnds: [EndHandling] = [.padValue, .padZero, .truncate]

  /// Creates a configuration.
  /// - Precondition: `threshold ≥ 0`, `minimumScale ≥ 0`, `ends` one of ``supportedEnds``.
  public init(
    window: SmoothingWindow, threshold: Double = 3, scale: Scale = .mad, minimumScale: Double = 0,
    ends: EndHandling = .padValue
  ) {
    window.validate()
    precondition(threshold >= 0 && threshold.isFinite, "threshold must be ≥ 0, got \(threshold)")
    precondition(minimumScale >= 0 && minimumScale.isFinite, "minimum scale must be ≥ 0, got \(minimumScale)")
    ends.require(in: Self.supportedEnds, by: "impulse rejection")
    self.window = window
    self.threshold = threshold
    self.scale = scale
    self.minimumScale = minimumScale
    self.ends = ends
  }

  /// Filters `values` and reports the outliers (empty in, empty out).
  /// - Parameters:
  ///   - values: the signal, one value per sample.
  ///   - interval: the sampling interval, seconds; required for a window in seconds.
  /// - Throws: ``GSLError`` from `gsl_filter_impulse_alloc` or `gsl_filter_impulse`.
  public func detect(in values: [Double], interval: Double? = nil) throws(GSLError) -> Result {
    guard !values.isEmpty else { return Result(values: [], outliers: [], zeroScaleWindows: 0) }
    return try ImpulseFilter(self, length: length(interval: interval)).detect(in: values)
  }

  /// Filters the force column of `trace` and reports the outliers.
  /// - Throws: ``SignalError`` naming the trace.
  public func detect(in trace: Trace) throws(SignalError) -> Result {
    let interval = trace.isEmpty ? nil : try trace.interval(for: window)
    do { return try detect(in: trace.force, interval: interval) } catch { throw .gsl(error.inTrace(trace.name)) }
  }

  /// A smoother for windows of `length` samples that replaces outliers by their window median.
  /// - Throws: ``GSLError`` when `gsl_filter_impulse_alloc` returns NULL.
  public func makeSmoother(length: Int) throws(GSLError) -> any Smoother & ~Copyable {
    try ImpulseFilter(self, length: length)
  }
}

/// The GSL impulse workspace for one configuration; one per thread.
struct ImpulseFilter: ~Copyable, Smoother {
  let configuration: ImpulseRejection
  let length: Int
  private let workspace: GSLWorkspace<gsl_filter_impulse_workspace>

  init(_ configuration: ImpulseRejection, length: Int) throws(GSLError) {
    precondition(length >= 1, "window length must be at least 1")
    let k = length | 1
    self.workspace = try GSLWorkspace(
      "gsl_filter_impulse_alloc", { gsl_filter_impulse_alloc(k) }, free: gsl_filter_impulse_free)
    self.configuration = configuration
    self.length = k
  }

  /// Filters `values` into `output`: outliers replaced by their window median.
  func apply(to values: [Double], into output: inout [Double]) throws(GSLError) {
    output = try detect(in: values).values
  }

  /// Filters `values` and reports the outliers.
  func detect(in values: [Double]) throws(GSLError) -> ImpulseRejection.Result {
    let n = values.count
    guard n > 0 else { return ImpulseRejection.Result(values: [], outliers: [], zeroScaleWindows: 0) }
    // Scratch for GSL's filtered values, window medians and scales.
    var filtered = [Double](repeating: 0, count: n)
    var medians = [Double](repeating: 0, count: n)
    var scales = [Double](repeating: 0, count: n)
    var outlierCount = 0
    let workspace = self.workspace.pointer
    let status = values.withUnsafeBufferPointer { x in
      filtered.withUnsafeMutableBufferPointer { y in
        medians.withUnsafeMutableBufferPointer { m in
          scales.withUnsafeMutableBufferPointer { s in
            var xv = gsl_vector_const_view_array(x.baseAddress, n)
            var yv = gsl_vector_view_array(y.baseAddress, n)
            var mv = gsl_vector_view_array(m.baseAddress, n)
            var sv = gsl_vector_view_array(s.baseAddress, n)
            return gsl_filter_impulse(
              configuration.ends.filterEnd, configuration.scale.gsl, configuration.threshold,
              &xv.vector, &yv.vector, &mv.vector, &sv.vector, &outlierCount, nil, workspace)
          }
        }
      }
    }
    try GSL.check(status, "gsl_filter_impulse")
    // GSL's own decision uses S[i] as is; redo it with the documented scale floor (identical
    // to GSL's output when the floor is 0).
    var output = values
    var outliers: [Int] = []
    var zeroScale = 0
    let t = configuration.threshold
    let floor = configuration.minimumScale
    for i in 0..<n {
      let s = scales[i]
      if s == 0 { zeroScale += 1 }
      if abs(values[i] - medians[i]) > t * Swift.max(s, floor) {
        output[i] = medians[i]
        outliers.append(i)
      }
    }
    return ImpulseRejection.Result(values: output, outliers: outliers, zeroScaleWindows: zeroScale)
  }
}
