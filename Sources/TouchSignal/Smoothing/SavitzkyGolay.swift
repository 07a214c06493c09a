internal import CGSL
public import TouchCore

/// Savitzky–Golay smoothing and differentiation, as a reusable configuration.
///
/// Each output is the value (or first derivative) at the centre of the least-squares polynomial
/// of degree ``order`` fitted to the centred window of `K` samples (odd, `K > order`). The fit is
/// linear in the samples, so it reduces to a fixed convolution; TouchSignal computes the weights
/// once per window length with `gsl_multifit_linear` on the Vandermonde matrix of the window
/// (see ``SavitzkyGolayFilter``), then convolves.
///
/// A polynomial of degree `p` passes through SG unchanged: constants stay constant, and with
/// `p ≥ 1` a linear ramp's derivative equals its slope exactly.
///
/// Ends:
/// - ``EndHandling/polynomialFit`` (default): the first and last `H` outputs evaluate the
///   polynomial fitted to the first and last full window at their own positions (SciPy's
///   `savgol_filter(mode="interp")`). It needs `K` samples; a shorter signal uses the largest odd
///   window that fits it (and is longer than ``order``), and a signal of at most ``order`` samples
///   cannot be fitted (``SignalError/tooFewSamples(trace:operation:needed:available:)``).
/// - ``EndHandling/padValue``: samples beyond the ends repeat the first / last sample (SciPy's
///   `mode="nearest"`).
/// - ``EndHandling/padZero``: samples beyond the ends are 0 (SciPy's `mode="constant"`).
///
/// Units: for ``derivative`` 1 the output is per second when the sampling interval is known
/// (traces: the median interval; arrays: the `interval` argument), per sample otherwise.
public struct SavitzkyGolay: SmoothingMethod {
  /// The window: `K` samples (odd; an even `K` becomes `K + 1`), or seconds.
  public var window: SmoothingWindow
  /// The polynomial degree, `0 ≤ order < K`.
  public var order: Int
  /// 0 for smoothing, 1 for the first derivative.
  public var derivative: Int
  /// What happens at the ends.
  public var ends: EndHandling

  /// The end rules this method supports.
  public static let supportedEnds: [EndHandling] = [.polynomialFit, .padValue, .padZero]

  /// Creates a configuration.
  /// - Precondition: `order ≥ 0`; `derivative` is 0 or 1 and at most `order`; a window given in
  ///   samples is longer than `order`; `ends` is one of ``supportedEnds``.
  public init(
    window: SmoothingWindow, order: Int, derivative: Int = 0, ends: EndHandling = .polynomialFit
  ) {
    window.validate()
    precondition(order >= 0, "polynomial order must be ≥ 0, got \(order)")
    precondition(derivative == 0 || derivative == 1, "derivative must be 0 or 1, got \(derivative)")
    precondition(derivative <= order, "a degree-\(order) polynomial has no useful derivative \(derivative)")
    if case .samples(let k) = window {
      precondition((k | 1) > order, "a window of \(k | 1) samples cannot fit a degree-\(order) polynomial")
    }
    ends.require(in: Self.supportedEnds, by: "Savitzky-Golay")
    self.window = window
    self.order = order
    self.derivative = derivative
    self.ends = ends
  }

  /// The window length in samples: odd, and for windows in seconds raised to the smallest odd
  /// length above ``order`` when the converted length is not.
  public func length(interval: Double?) -> Int {
    var k = window.length(centered: true, interval: interval)
    while k <= order { k += 2 }
    return k
  }

  /// The window length actually used on a signal of `count` samples (shorter signals shrink it
  /// with ``EndHandling/polynomialFit``); `nil` when the signal is too short to fit.
  func length(interval: Double?, count: Int) -> Int? {
    let k = length(interval: interval)
    guard ends == .polynomialFit, count < k else { return k }
    let shorter = count % 2 == 1 ? count : count - 1
    return shorter > order ? shorter : nil
  }

  /// Filters `values`.
  ///
  /// - Parameters:
  ///   - values: the signal, one value per sample.
  ///   - interval: the sampling interval, seconds. Required for a window in seconds;
  ///     when given, a derivative is per second, else per sample.
  /// - Throws: ``SignalError/tooFewSamples(trace:operation:needed:available:)`` for a signal too
  ///   short to fit with polynomial ends; ``SignalError/gsl(_:)`` from `gsl_multifit_linear`.
  /// - Complexity: O(n·K) plus O(K²·order) for the weights.
  public func apply(to values: [Double], interval: Double? = nil) throws(SignalError) -> [Double] {
    guard !values.isEmpty else { return [] }
    guard let k = length(interval: interval, count: values.count) else {
      throw .tooFewSamples(
        trace: nil, operation: "Savitzky-Golay (degree \(order))", needed: minimumLength, available: values.count)
    }
    let filter: SavitzkyGolayFilter
    do { filter = try SavitzkyGolayFilter(length: k, order: order, derivative: derivative) } catch { throw .gsl(error) }
    return filter.apply(to: values, ends: ends, interval: interval)
  }

  /// Filters every trace's force, computing the weights once per distinct window length: force
  /// units, or force units per second for the derivative (divided by the median interval).
  /// - Throws: ``SignalError`` naming the first trace that failed.
  public func apply(to traces: [Trace]) throws(SignalError) -> [[Double]] {
    var filters: [Int: SavitzkyGolayFilter] = [:]
    var results: [[Double]] = []
    results.reserveCapacity(traces.count)
    for trace in traces {
      guard !trace.isEmpty else {
        results.append([])
        continue
      }
      let interval = try interval(of: trace)
      guard let k = length(interval: interval, count: trace.count) else {
        throw SignalError.tooFewSamples(
          trace: nil, operation: "Savitzky-Golay (degree \(order))", needed: minimumLength, available: trace.count
        ).inTrace(trace.name)
      }
      if filters[k] == nil {
        do { filters[k] = try SavitzkyGolayFilter(length: k, order: order, derivative: derivative) } catch {
          throw .gsl(error.inTrace(trace.name))
        }
      }
      results.append(filters[k]!.apply(to: trace.force, ends: ends, interval: interval))
    }
    return results
  }

  /// The shortest window that can fit a polynomial of degree ``order``: the smallest odd number
  /// above it.
  public var minimumLength: Int { order % 2 == 0 ? order + 1 : order + 2 }

  /// The interval a trace needs: for seconds windows and for per-second derivatives.
  private func interval(of trace: Trace) throws(SignalError) -> Double? {
    guard window.needsInterval || derivative > 0 else { return nil }
    guard let interval = trace.medianInterval else { throw .noSamplingInterval(trace: trace.name) }
    return interval
  }
}

/// The convolution weights of one Savitzky–Golay filter (window length, degree, derivative),
/// computed once by least squares and reusable on any number of signals from any thread.
///
/// Weights come from fitting each unit vector `e_k` with `gsl_multifit_linear` against the
/// Vandermonde matrix `X[i][j] = u_iʲ` of the window (`u_i = (i − H)/H`, scaled for
/// conditioning): the fitted coefficients of `e_k` are the weights that sample `k` contributes to
/// each polynomial coefficient, so the value or slope of the fitted polynomial at any position of
/// the window is a fixed weighted sum of the samples.
public struct SavitzkyGolayFilter: Hashable, Sendable {
  /// The window length `K` (odd).
  public let length: Int
  /// The polynomial degree.
  public let order: Int
  /// 0 (value) or 1 (first derivative, per sample).
  public let derivative: Int
  /// The weights of the centre output: `y[i] = Σ_k coefficients[k] · x[i − H + k]`.
  public let coefficients: [Double]
  /// `edgeWeights[j]` gives output position `j` (0 ≤ j < K) of a full window evaluated from the
  /// window's polynomial; the centre row equals ``coefficients``.
  let edgeWeights: [[Double]]

  /// Computes the weights.
  /// - Precondition: `length` is odd and greater than `order`; `derivative` is 0 or 1.
  /// - Throws: ``GSLError`` from `gsl_multifit_linear_alloc` or `gsl_multifit_linear`.
  public init(length: Int, order: Int, derivative: Int = 0) throws(GSLError) {
    precondition(length % 2 == 1 && length > order && order >= 0, "need an odd window longer than the degree")
    precondition(derivative == 0 || derivative == 1, "derivative must be 0 or 1")
    GSL.prepare()
    let k = length
    let p = order + 1
    let h = k / 2
    let scale = Double(Swift.max(h, 1))
    // Vandermonde matrix, row-major K × p.
    var design = [Double](repeating: 0, count: k * p)
    for i in 0..<k {
      let u = Double(i - h) / scale
      var power = 1.0
      for j in 0..<p {
        design[i * p + j] = power
        power *= u
      }
    }
    // fitted[j * K + k]: coefficient j of the polynomial fitted to e_k.
    var fitted = [Double](repeating: 0, count: p * k)
    guard let workspace = gsl_multifit_linear_alloc(k, p) else {
      throw GSL.allocationFailed("gsl_multifit_linear_alloc")
    }
    defer { gsl_multifit_linear_free(workspace) }
    var unit = [Double](repeating: 0, count: k)
    var c = [Double](repeating: 0, count: p)
    var covariance = [Double](repeating: 0, count: p * p)
    for column in 0..<k {
      unit[column] = 1
      defer { unit[column] = 0 }
      var chisq = 0.0
      let status = design.withUnsafeMutableBufferPointer { x in
        unit.withUnsafeMutableBufferPointer { y in
          c.withUnsafeMutableBufferPointer { cp in
            covariance.withUnsafeMutableBufferPointer { cov in
              var xm = gsl_matrix_view_array(x.baseAddress, k, p)
              var yv = gsl_vector_view_array(y.baseAddress, k)
              var cv = gsl_vector_view_array(cp.baseAddress, p)
              var covm = gsl_matrix_view_array(cov.baseAddress, p, p)
              return gsl_multifit_linear(&xm.matrix, &yv.vector, &cv.vector, &covm.matrix, &chisq, workspace)
            }
          }
        }
      }
      try GSL.check(status, "gsl_multifit_linear")
      for j in 0..<p { fitted[j * k + column] = c[j] }
    }
    // Weights for the value (or slope) of the polynomial at each position of the window.
    var rows: [[Double]] = []
    rows.reserveCapacity(k)
    for position in 0..<k {
      let u = Double(position - h) / scale
      var row = [Double](repeating: 0, count: k)
      for j in 0..<p {
        let basis: Double
        if derivative == 0 {
          basis = Self.power(u, j)
        } else {
          basis = j == 0 ? 0 : Double(j) * Self.power(u, j - 1) / scale
        }
        guard basis != 0 else { continue }
        for column in 0..<k { row[column] += fitted[j * k + column] * basis }
      }
      rows.append(row)
    }
    self.length = k
    self.order = order
    self.derivative = derivative
    self.edgeWeights = rows
    self.coefficients = rows[h]
  }

  private static func power(_ u: Double, _ n: Int) -> Double {
    var result = 1.0
    for _ in 0..<n { result *= u }
    return result
  }

  /// Filters `values`: one output per input.
  ///
  /// - Parameters:
  ///   - values: the signal, one value per sample.
  ///   - ends: ``EndHandling/polynomialFit``, ``EndHandling/padValue`` or ``EndHandling/padZero``.
  ///   - interval: the sampling interval, seconds; a derivative is divided by it (per second).
  /// - Precondition: with ``EndHandling/polynomialFit``, `values` has at least ``length`` samples.
  /// - Complexity: O(n·K).
  public func apply(to values: [Double], ends: EndHandling = .polynomialFit, interval: Double? = nil) -> [Double] {
    let n = values.count
    guard n > 0 else { return [] }
    ends.require(in: SavitzkyGolay.supportedEnds, by: "Savitzky-Golay")
    precondition(ends != .polynomialFit || n >= length, "polynomial-fit ends need at least \(length) samples")
    let k = length
    let h = k / 2
    let gain = derivative > 0 ? 1 / (interval ?? 1) : 1
    var output = [Double](repeating: 0, count: n)
    values.withUnsafeBufferPointer { x in
      coefficients.withUnsafeBufferPointer { w in
        // Interior: full windows.
        if n >= k {
          for i in h..<(n - h) {
            var sum = 0.0
            let base = i - h
            for j in 0..<k { sum += w[j] * x[base + j] }
            output[i] = sum * gain
          }
        }
        // Ends: the first and last H outputs (all of them when the signal is shorter than K).
        let head = Swift.min(h, n)
        let tail = Swift.max(head, n - h)
        for i in Array(0..<head) + Array(tail..<n) {
          var sum = 0.0
          switch ends {
          case .polynomialFit:
            if i < h {
              let row = edgeWeights[i]
              for j in 0..<k { sum += row[j] * x[j] }
            } else {
              let row = edgeWeights[i - (n - k)]
              for j in 0..<k { sum += row[j] * x[n - k + j] }
            }
          case .padValue, .padZero, .truncate:
            for j in 0..<k {
              let index = i - h + j
              let sample: Double
              if index < 0 {
                sample = ends == .padValue ? x[0] : 0
              } else if index >= n {
                sample = ends == .padValue ? x[n - 1] : 0
              } else {
                sample = x[index]
              }
              sum += w[j] * sample
            }
          }
          output[i] = sum * gain
        }
      }
    }
    return output
  }
}
