internal import CGSL

/// An interpolation method for ``Spline``.
public enum InterpolationMethod: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
  /// Piecewise linear (at least 2 points).
  case linear
  /// Steffen's monotone cubic (at least 3 points): no overshoot and no spurious extrema between
  /// the data points, continuous first derivative. The safe cubic for force ramps.
  case steffen
  /// Natural cubic spline, second derivative 0 at both ends (at least 3 points); can overshoot.
  case cubic
  /// Akima's non-rounded corner algorithm (at least 5 points).
  case akima

  /// `linear`, `steffen`, `cubic`, `akima`.
  public var description: String { rawValue }

  var type: UnsafePointer<gsl_interp_type> {
    switch self {
    case .linear: cgsl_interp_linear()
    case .steffen: cgsl_interp_steffen()
    case .cubic: cgsl_interp_cspline()
    case .akima: cgsl_interp_akima()
    }
  }

  /// The fewest points the method accepts (`gsl_interp_type_min_size`).
  public var minimumPoints: Int {
    GSL.prepare()
    return Int(gsl_interp_type_min_size(type))
  }
}

/// An interpolating function through points `(x[i], y[i])` that owns its GSL spline and lookup
/// accelerator.
///
/// It is not copyable and not `Sendable` (the accelerator caches the last lookup): each thread
/// makes its own. There is no extrapolation: evaluating outside `x[0]…x[n−1]` throws.
///
/// ```swift
/// let spline = try Spline(.steffen, x: t, y: force)
/// let f = try spline.value(at: 0.125)        // force units
/// let rate = try spline.derivative(at: 0.125) // force units per second
/// ```
///
/// The corresponding C functions are `gsl_spline_alloc`, `gsl_spline_init`,
/// `gsl_spline_eval_e`, `gsl_spline_eval_deriv_e`, `gsl_spline_eval_integ_e` and
/// `gsl_spline_free`.
public struct Spline: ~Copyable {
  /// The interpolation method.
  public let method: InterpolationMethod
  /// The number of points.
  public let count: Int
  /// The first and last `x`.
  public let domain: ClosedRange<Double>
  private let spline: UnsafeMutablePointer<gsl_spline>
  private let accelerator: UnsafeMutablePointer<gsl_interp_accel>

  /// Builds the interpolant. GSL copies the points.
  ///
  /// - Parameters:
  ///   - method: the interpolation method.
  ///   - x: strictly increasing, finite abscissae (for traces: times, seconds).
  ///   - y: the values, one per `x`.
  /// - Precondition: `x.count == y.count`; no `x` is NaN.
  /// - Throws: ``GSLError`` — `gsl_spline_alloc` with `GSL_EINVAL` for fewer points than the
  ///   method needs (including none); `gsl_spline_init` with `GSL_EINVAL` for repeated or
  ///   decreasing `x`; `gsl_interp_accel_alloc` on allocation failure.
  public init(_ method: InterpolationMethod, x: [Double], y: [Double]) throws(GSLError) {
    precondition(x.count == y.count, "x has \(x.count) points, y has \(y.count)")
    precondition(!x.contains(where: \.isNaN), "x must not contain NaN")
    GSL.prepare()
    let n = x.count
    guard let spline = gsl_spline_alloc(method.type, n) else {
      let minimum = Int(gsl_interp_type_min_size(method.type))
      if n < minimum {
        throw GSL.error(
          Int32(GSL_EINVAL), "gsl_spline_alloc",
          reason: "insufficient number of points: \(method) interpolation needs at least \(minimum), got \(n)")
      }
      throw GSL.allocationFailed("gsl_spline_alloc")
    }
    let status = x.withUnsafeBufferPointer { xp in
      y.withUnsafeBufferPointer { yp in gsl_spline_init(spline, xp.baseAddress, yp.baseAddress, n) }
    }
    guard status == GSL_SUCCESS else {
      gsl_spline_free(spline)
      let reason = status == GSL_EINVAL ? "x values must be strictly increasing" : nil
      throw GSL.error(status, "gsl_spline_init", reason: reason)
    }
    guard let accelerator = gsl_interp_accel_alloc() else {
      gsl_spline_free(spline)
      throw GSL.allocationFailed("gsl_interp_accel_alloc")
    }
    self.method = method
    self.count = n
    self.domain = x[0]...x[n - 1]
    self.spline = spline
    self.accelerator = accelerator
  }

  deinit {
    gsl_interp_accel_free(accelerator)
    gsl_spline_free(spline)
  }

  /// The interpolated value at `x`.
  /// - Throws: ``GSLError`` from `gsl_spline_eval_e`, `GSL_EDOM` when `x` is outside ``domain``.
  public func value(at x: Double) throws(GSLError) -> Double {
    var y = 0.0
    try GSL.check(gsl_spline_eval_e(spline, x, accelerator, &y), "gsl_spline_eval_e")
    return y
  }

  /// The interpolant's first derivative at `x` (units of `y` per unit of `x`).
  /// - Throws: ``GSLError`` from `gsl_spline_eval_deriv_e`, `GSL_EDOM` outside ``domain``.
  public func derivative(at x: Double) throws(GSLError) -> Double {
    var y = 0.0
    try GSL.check(gsl_spline_eval_deriv_e(spline, x, accelerator, &y), "gsl_spline_eval_deriv_e")
    return y
  }

  /// The integral of the interpolant from `a` to `b` (units of `y` times units of `x`).
  /// - Throws: ``GSLError`` from `gsl_spline_eval_integ_e`, `GSL_EDOM` when a bound is outside
  ///   ``domain`` or `a > b`.
  public func integral(from a: Double, to b: Double) throws(GSLError) -> Double {
    var y = 0.0
    try GSL.check(gsl_spline_eval_integ_e(spline, a, b, accelerator, &y), "gsl_spline_eval_integ_e")
    return y
  }

  /// The interpolated values at each of `xs` (ascending order is fastest).
  /// - Throws: ``GSLError`` for the first `x` outside ``domain``.
  public func values(at xs: [Double]) throws(GSLError) -> [Double] {
    var output = [Double](repeating: 0, count: xs.count)
    for i in xs.indices { output[i] = try value(at: xs[i]) }
    return output
  }
}
