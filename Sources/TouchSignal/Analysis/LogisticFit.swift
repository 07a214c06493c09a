internal import CGSL
public import TouchCore

/// The result of fitting the logistic ramp `f(t) = base + amplitude / (1 + exp(−slope·(t − midpoint)))`
/// to force samples.
///
/// Parameters are reported only when the solver converged; a fit that did not converge carries
/// its reason in ``status`` and no numbers.
public struct LogisticFit: Hashable, Sendable {
  /// The fitted curve.
  public struct Parameters: Hashable, Sendable {
    /// The force before the ramp, force units.
    public var base: Double
    /// The rise from ``base`` to the upper plateau, force units.
    public var amplitude: Double
    /// The time of half the rise, seconds on the trace's clock: the onset estimate.
    public var midpoint: Double
    /// The steepness, 1/s; the 10–90 % rise of the curve takes `2·ln 9 / slope` seconds and its
    /// steepest rate is `amplitude·slope/4` force units per second.
    public var slope: Double

    /// Creates parameters.
    public init(base: Double, amplitude: Double, midpoint: Double, slope: Double) {
      self.base = base
      self.amplitude = amplitude
      self.midpoint = midpoint
      self.slope = slope
    }

    /// The curve's value at `t` (seconds), force units.
    public func value(at t: Double) -> Double {
      base + amplitude / (1 + exp(-slope * (t - midpoint)))
    }
  }

  /// Why the solver stopped after converging.
  public enum Criterion: String, Hashable, Sendable {
    /// The step became small relative to the parameters (GSL `info` 1).
    case smallStep = "small_step"
    /// The gradient became small (GSL `info` 2).
    case smallGradient = "small_gradient"
  }

  /// How the fit ended.
  public enum Status: Hashable, Sendable, CustomStringConvertible {
    /// The trust-region solver converged.
    case converged(Criterion)
    /// The solver stopped without converging (for example `GSL_EMAXITER` after the iteration
    /// limit, `GSL_ENOPROG` when no step improves the fit, or parameters that are not finite),
    /// or a GSL call failed.
    case didNotConverge(GSLError)
    /// Fewer samples than the fit needs (at least 5 for 4 parameters).
    case tooFewSamples(Int)
    /// The force does not rise in the fitted samples: there is no ramp to fit.
    case flat
    /// The solver converged, but to a curve that does not describe the trace: its midpoint lies
    /// outside the trace's time span, or its amplitude exceeds the force range (see
    /// ``LogisticFitting/implausibility(of:span:forceLimit:)``). The reason names the value and
    /// the range it left.
    case outOfRange(String)

    /// A short machine-readable key: `converged`, `max_iterations`, `no_progress`, `failed`,
    /// `too_few_samples`, `flat`, `out_of_range`.
    public var key: String {
      switch self {
      case .converged: "converged"
      case .didNotConverge(let error):
        switch Int(error.status) {
        case Int(GSL_EMAXITER): "max_iterations"
        case Int(GSL_ENOPROG), Int(GSL_ENOPROGJ): "no_progress"
        default: "failed"
        }
      case .tooFewSamples: "too_few_samples"
      case .flat: "flat"
      case .outOfRange: "out_of_range"
      }
    }

    /// A sentence for reports.
    public var description: String {
      switch self {
      case .converged(let criterion): "converged (\(criterion.rawValue.replacingUnderscores))"
      case .didNotConverge(let error): "did not converge: \(error)"
      case .tooFewSamples(let n): "too few samples to fit (\(n), need 5)"
      case .flat: "no rise to fit"
      case .outOfRange(let reason): "not converged: \(reason)"
      }
    }
  }

  /// How the fit ended.
  public var status: Status
  /// The fitted parameters; `nil` unless ``status`` is ``Status/converged(_:)``.
  public var parameters: Parameters?
  /// The root-mean-square residual, force units; `nil` unless converged.
  public var rmsResidual: Double?
  /// The solver iterations used (0 when the solver did not run).
  public var iterations: Int
  /// The samples fitted.
  public var samples: Int

  /// Whether the fit converged.
  public var isConverged: Bool {
    if case .converged = status { return true }
    return false
  }
}

extension String {
  fileprivate var replacingUnderscores: String { String(map { $0 == "_" ? " " : $0 }) }
}

/// Fits a logistic ramp by nonlinear least squares with GSL's trust-region solver
/// (`gsl_multifit_nlinear_trust`, Levenberg–Marquardt steps, Moré scaling, analytic Jacobian).
///
/// ``fit(t:force:initial:)`` fits given samples; ``fitRamp(of:)`` fits the rise of a trace: the
/// samples from the first one through the first peak and on while the force stays at or above
/// 90 % of the peak (so the upper plateau, which pins down the amplitude, is included but the
/// release is not). Times are shifted to start at 0 inside the solver for conditioning.
///
/// Starting values: `base` = the first fitted sample, `amplitude` = peak − base, `midpoint` =
/// the first time the force reaches half the rise, `slope` = `2·ln 9 / (t90 − t10)` from the
/// 10 % and 90 % crossings (or 4 / duration when those coincide).
///
/// The corresponding C functions are `gsl_multifit_nlinear_alloc`, `gsl_multifit_nlinear_init`,
/// `gsl_multifit_nlinear_driver` and `gsl_multifit_nlinear_free`.
public struct LogisticFitting: Hashable, Sendable {
  /// The iteration limit.
  public var maximumIterations: Int
  /// GSL's `xtol`: converged when every step is below `xtol·(|x| + xtol)`.
  public var stepTolerance: Double
  /// GSL's `gtol`: converged when the scaled gradient is below it.
  public var gradientTolerance: Double

  /// Creates settings.
  /// - Precondition: positive values.
  public init(maximumIterations: Int = 200, stepTolerance: Double = 1e-10, gradientTolerance: Double = 1e-12) {
    precondition(maximumIterations > 0 && stepTolerance > 0 && gradientTolerance > 0, "settings must be positive")
    self.maximumIterations = maximumIterations
    self.stepTolerance = stepTolerance
    self.gradientTolerance = gradientTolerance
  }

  /// The samples ``fitRamp(of:)`` uses: from 0 through the end of the run of samples at or above
  /// 90 % of the peak that starts at the first peak.
  public static func rampRange(of force: [Double]) -> Range<Int> {
    guard let peak = force.max(), let first = force.firstIndex(of: peak) else { return 0..<0 }
    var end = first + 1
    while end < force.count && force[end] >= 0.9 * peak { end += 1 }
    return 0..<end
  }

  /// How far above the trace's peak force a fitted amplitude may reach when the trace has no
  /// maximum possible force: 1.5, so an amplitude above 1.5 × the peak is out of range.
  public static let peakMargin = 1.5

  /// Fits the rise of `trace` (see ``rampRange(of:)``). A converged fit that leaves the trace
  /// is reported as ``LogisticFit/Status/outOfRange(_:)`` without parameters: its midpoint
  /// outside the trace's time span (first to last sample), or its amplitude above the trace's
  /// maximum possible force (above ``peakMargin`` × the peak force when the maximum is unknown).
  public func fitRamp(of trace: Trace) -> LogisticFit {
    let range = Self.rampRange(of: trace.force)
    let result = fit(t: Array(trace.t[range]), force: Array(trace.force[range]))
    guard let parameters = result.parameters, let first = trace.t.first, let last = trace.t.last,
      let peak = trace.force.max()
    else { return result }
    let limit =
      trace.metadata.maxForce.map { (value: $0, name: "the maximum force") }
      ?? (Self.peakMargin * peak, "\(Self.peakMargin) × the peak force \(Self.short(peak))")
    guard let reason = Self.implausibility(of: parameters, span: first...last, forceLimit: limit) else { return result }
    return LogisticFit(status: .outOfRange(reason), iterations: result.iterations, samples: result.samples)
  }

  /// Why `parameters` do not describe a trace spanning `span` (seconds) whose force stays at or
  /// below `forceLimit.value` (force units; `forceLimit.name` says what the limit is): the
  /// midpoint outside `span`, or an amplitude above the limit. `nil` when they do.
  public static func implausibility(
    of parameters: LogisticFit.Parameters, span: ClosedRange<Double>, forceLimit: (value: Double, name: String)
  ) -> String? {
    var reasons: [String] = []
    if !span.contains(parameters.midpoint) {
      reasons.append(
        "the midpoint \(time(parameters.midpoint)) s lies outside the trace (\(time(span.lowerBound))–\(time(span.upperBound)) s)"
      )
    }
    if parameters.amplitude > forceLimit.value {
      reasons.append(
        "the amplitude \(short(parameters.amplitude)) is \(short(parameters.amplitude / forceLimit.value)) × the limit "
          + "\(short(forceLimit.value)) (\(forceLimit.name))")
    }
    return reasons.isEmpty ? nil : reasons.joined(separator: "; ")
  }

  /// A time in seconds rounded to 0.1 ms, for messages.
  private static func time(_ value: Double) -> String {
    guard value.isFinite else { return "\(value)" }
    var text = "\((value * 10_000).rounded() / 10_000)"
    if text.hasSuffix(".0") { text.removeLast(2) }
    return text
  }

  /// `value` with 4 significant digits, for messages.
  private static func short(_ value: Double) -> String {
    guard value.isFinite, value != 0 else { return "\(value)" }
    let digits = Swift.max(0, 3 - Int(log10(Swift.abs(value)).rounded(.down)))
    let scale = pow(10.0, Double(digits))
    let rounded = (value * scale).rounded() / scale
    var text = "\(rounded)"
    if text.hasSuffix(".0") { text.removeLast(2) }
    return text
  }

  /// Fits `force(t)` with the logistic ramp.
  ///
  /// - Parameters:
  ///   - t: sample times, seconds, non-decreasing.
  ///   - force: force per sample.
  ///   - initial: starting parameters; `nil` estimates them from the data.
  /// - Precondition: `t.count == force.count`.
  public func fit(t: [Double], force: [Double], initial: LogisticFit.Parameters? = nil) -> LogisticFit {
    precondition(t.count == force.count, "one time per force value")
    let n = t.count
    guard n >= 5 else { return LogisticFit(status: .tooFewSamples(n), iterations: 0, samples: n) }
    let origin = t[0]
    let shifted = t.map { $0 - origin }
    guard let start = initial.map({ Self.shift($0, by: -origin) }) ?? Self.estimate(t: shifted, force: force) else {
      return LogisticFit(status: .flat, iterations: 0, samples: n)
    }
    GSL.prepare()
    do {
      let (solution, residual, iterations, info) = try solve(t: shifted, y: force, start: start)
      let values = [solution.base, solution.amplitude, solution.midpoint, solution.slope]
      guard values.allSatisfy(\.isFinite), residual.isFinite else {
        let error = GSL.error(Int32(GSL_ERANGE), "gsl_multifit_nlinear_driver", reason: "parameters are not finite")
        return LogisticFit(status: .didNotConverge(error), iterations: iterations, samples: n)
      }
      return LogisticFit(
        status: .converged(info == 1 ? .smallStep : .smallGradient),
        parameters: Self.shift(solution, by: origin), rmsResidual: residual,
        iterations: iterations, samples: n)
    } catch {
      return LogisticFit(status: .didNotConverge(error.error), iterations: error.iterations, samples: n)
    }
  }

  private static func shift(_ p: LogisticFit.Parameters, by offset: Double) -> LogisticFit.Parameters {
    var copy = p
    copy.midpoint += offset
    return copy
  }

  /// Starting values from the data; `nil` when the force does not rise.
  static func estimate(t: [Double], force: [Double]) -> LogisticFit.Parameters? {
    let base = force[0]
    guard let peak = force.max(), peak > base else { return nil }
    let rise = peak - base
    let mid = PiecewiseLinear.firstTime(atOrAbove: base + 0.5 * rise, t: t, f: force) ?? t[t.count / 2]
    let t10 = PiecewiseLinear.firstTime(atOrAbove: base + 0.1 * rise, t: t, f: force) ?? t[0]
    let t90 = PiecewiseLinear.firstTime(atOrAbove: base + 0.9 * rise, t: t, f: force) ?? t[t.count - 1]
    let duration = Swift.max(t[t.count - 1] - t[0], 1e-6)
    let slope = t90 > t10 ? 2 * log(9.0) / (t90 - t10) : 4 / duration
    return LogisticFit.Parameters(base: base, amplitude: rise, midpoint: mid, slope: slope)
  }

  /// A failed solve with the iterations it used.
  private struct Failure: Error {
    var error: GSLError
    var iterations: Int
  }

  /// Data the residual callbacks read through `params`.
  private struct Samples {
    var t: UnsafePointer<Double>
    var y: UnsafePointer<Double>
  }

  private func solve(t: [Double], y: [Double], start: LogisticFit.Parameters) throws(Failure)
    -> (LogisticFit.Parameters, Double, Int, Int32)
  {
    let n = t.count
    let p = 4
    var parameters = gsl_multifit_nlinear_default_parameters()
    guard let workspace = gsl_multifit_nlinear_alloc(cgsl_multifit_nlinear_trust(), &parameters, n, p) else {
      throw Failure(error: GSL.allocationFailed("gsl_multifit_nlinear_alloc"), iterations: 0)
    }
    defer { gsl_multifit_nlinear_free(workspace) }
    var x0 = [start.base, start.amplitude, start.midpoint, start.slope]
    var info: Int32 = 0
    let result: (status: Int32, function: StaticString) = t.withUnsafeBufferPointer { tp in
      y.withUnsafeBufferPointer { yp in
        var samples = Samples(t: tp.baseAddress!, y: yp.baseAddress!)
        return withUnsafeMutablePointer(to: &samples) { samplesPointer in
          x0.withUnsafeMutableBufferPointer { xp in
            var fdf = gsl_multifit_nlinear_fdf()
            fdf.f = { x, params, f in
              guard let x, let params, let f else { return Int32(GSL_EFAULT) }
              let data = params.assumingMemoryBound(to: Samples.self).pointee
              let (b, a, m, k) = LogisticFitting.read(x)
              for i in 0..<f.pointee.size {
                let s = 1 / (1 + exp(-k * (data.t[i] - m)))
                f.pointee.data[i * f.pointee.stride] = b + a * s - data.y[i]
              }
              return Int32(GSL_SUCCESS)
            }
            fdf.df = { x, params, jacobian in
              guard let x, let params, let jacobian else { return Int32(GSL_EFAULT) }
              let data = params.assumingMemoryBound(to: Samples.self).pointee
              let (_, a, m, k) = LogisticFitting.read(x)
              let tda = jacobian.pointee.tda
              let row = jacobian.pointee.data!
              for i in 0..<jacobian.pointee.size1 {
                let d = data.t[i] - m
                let s = 1 / (1 + exp(-k * d))
                let ds = s * (1 - s)
                row[i * tda + 0] = 1
                row[i * tda + 1] = s
                row[i * tda + 2] = -a * k * ds
                row[i * tda + 3] = a * d * ds
              }
              return Int32(GSL_SUCCESS)
            }
            fdf.fvv = nil
            fdf.n = n
            fdf.p = p
            fdf.params = UnsafeMutableRawPointer(samplesPointer)
            var view = gsl_vector_view_array(xp.baseAddress, p)
            let initStatus = gsl_multifit_nlinear_init(&view.vector, &fdf, workspace)
            guard initStatus == GSL_SUCCESS else { return (initStatus, "gsl_multifit_nlinear_init") }
            let status = gsl_multifit_nlinear_driver(
              maximumIterations, stepTolerance, gradientTolerance, 0, nil, nil, &info, workspace)
            return (status, "gsl_multifit_nlinear_driver")
          }
        }
      }
    }
    let iterations = Int(gsl_multifit_nlinear_niter(workspace))
    guard result.status == GSL_SUCCESS else {
      throw Failure(error: GSL.error(result.status, result.function), iterations: iterations)
    }
    let (b, a, m, k) = Self.read(gsl_multifit_nlinear_position(workspace))
    let f = gsl_multifit_nlinear_residual(workspace)!.pointee
    var sum = 0.0
    for i in 0..<f.size {
      let r = f.data[i * f.stride]
      sum += r * r
    }
    let solution = LogisticFit.Parameters(base: b, amplitude: a, midpoint: m, slope: k)
    return (solution, (sum / Double(n)).squareRoot(), iterations, info)
  }

  /// The four parameters from a GSL vector.
  private static func read(_ x: UnsafePointer<gsl_vector>!) -> (Double, Double, Double, Double) {
    let v = x.pointee
    return (v.data[0], v.data[v.stride], v.data[2 * v.stride], v.data[3 * v.stride])
  }
}
