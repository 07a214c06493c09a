internal import CGSL
public import TouchCore

/// The rate of force change, force units per second, from a smoothed derivative.
///
/// - ``Method/gaussian(window:alpha:)``: the derivative-of-Gaussian filter (`gsl_filter_gaussian`
///   with order 1, ends padded with the first / last value), divided by the sampling interval and
///   by the discrete kernel's gain. GSL's kernel is the sampled derivative of a truncated
///   Gaussian; its response to a unit ramp is `c = Σ k·g′(k)`, slightly below 1 (0.924 for
///   `K = 5`, `α = 2`). Dividing by `c` makes the rate of a linear ramp exactly its slope.
/// - ``Method/savitzkyGolay(window:order:)``: the first derivative of the Savitzky–Golay
///   polynomial (polynomial-fit ends), exact for polynomials up to the order.
///
/// Both assume uniform sampling with the trace's median interval. For traces with irregular
/// timestamps, resample first (``Resampling``); ``FeatureExtraction`` does.
public struct ForceRate: Hashable, Sendable {
  /// How the derivative is computed.
  public enum Method: Hashable, Sendable, CustomStringConvertible {
    /// Derivative of Gaussian over a window (at least 3 samples) with GSL's `alpha`.
    case gaussian(window: SmoothingWindow, alpha: Double)
    /// Savitzky–Golay first derivative, polynomial of degree `order ≥ 1`.
    case savitzkyGolay(window: SmoothingWindow, order: Int)

    /// `gaussian 0.1 s alpha 3`, `savitzky-golay 7 samples order 2`.
    public var description: String {
      switch self {
      case .gaussian(let window, let alpha): "gaussian \(window) alpha \(alpha)"
      case .savitzkyGolay(let window, let order): "savitzky-golay \(window) order \(order)"
      }
    }
  }

  /// The derivative method.
  public var method: Method

  /// Creates a configuration.
  /// - Precondition: `alpha > 0`; Savitzky–Golay `order ≥ 1`.
  public init(_ method: Method) {
    switch method {
    case .gaussian(let window, let alpha):
      window.validate()
      precondition(alpha > 0 && alpha.isFinite, "alpha must be positive")
    case .savitzkyGolay(let window, let order):
      window.validate()
      precondition(order >= 1, "a derivative needs a polynomial of degree ≥ 1")
    }
    self.method = method
  }

  /// Gaussian derivative over 0.1 s with `α = 3` (σ ≈ 16.7 ms, one 60 Hz frame).
  public static let standard = ForceRate(.gaussian(window: .seconds(0.1), alpha: 3))

  /// The rate of change of uniformly sampled `values`, units per second.
  ///
  /// - Parameters:
  ///   - values: the signal, one value per sample.
  ///   - interval: the sampling interval, seconds (> 0).
  /// - Throws: ``SignalError`` (a GSL failure, or a signal too short for Savitzky–Golay).
  public func apply(to values: [Double], interval: Double) throws(SignalError) -> [Double] {
    precondition(interval > 0 && interval.isFinite, "interval must be positive")
    guard !values.isEmpty else { return [] }
    switch method {
    case .gaussian(let window, let alpha):
      let k = Swift.max(window.length(centered: true, interval: interval), 3)
      do {
        let smoother = try GaussianSmoother(length: k, alpha: alpha, derivative: 1, ends: .padValue)
        var rate = try smoother.apply(to: values)
        let scale = 1 / (try Self.rampGain(length: k, alpha: alpha) * interval)
        for i in rate.indices { rate[i] *= scale }
        return rate
      } catch {
        throw .gsl(error)
      }
    case .savitzkyGolay(let window, let order):
      let sg = SavitzkyGolay(
        window: Self.odd(window, above: order, interval: interval), order: order, derivative: 1,
        ends: .polynomialFit)
      return try sg.apply(to: values, interval: interval)
    }
  }

  /// The rate of force change of `trace`, force units per second, one value per sample.
  /// - Throws: ``SignalError`` naming the trace; ``SignalError/noSamplingInterval(trace:)`` for a
  ///   trace with fewer than two distinct times.
  public func apply(to trace: Trace) throws(SignalError) -> [Double] {
    guard !trace.isEmpty else { return [] }
    guard let interval = trace.medianInterval else { throw .noSamplingInterval(trace: trace.name) }
    do { return try apply(to: trace.force, interval: interval) } catch { throw error.inTrace(trace.name) }
  }

  /// A window in samples long enough for a degree-`order` fit.
  private static func odd(_ window: SmoothingWindow, above order: Int, interval: Double) -> SmoothingWindow {
    var k = window.length(centered: true, interval: interval)
    while k <= order { k += 2 }
    return .samples(k)
  }

  /// The response `c = Σ k·g′(k)` of GSL's order-1 Gaussian filter to the ramp `x[i] = i`.
  static func rampGain(length: Int, alpha: Double) throws(GSLError) -> Double {
    GSL.prepare()
    var kernel = [Double](repeating: 0, count: length)
    let status = kernel.withUnsafeMutableBufferPointer { k in
      var view = gsl_vector_view_array(k.baseAddress, length)
      return gsl_filter_gaussian_kernel(alpha, 1, 1, &view.vector)
    }
    try GSL.check(status, "gsl_filter_gaussian_kernel")
    // gsl_filter_gaussian convolves: y[i] = Σ_j x[i − H + j] · kernel[K − 1 − j].
    let h = length / 2
    var gain = 0.0
    for j in 0..<length { gain += Double(j - h) * kernel[length - 1 - j] }
    return gain
  }
}
