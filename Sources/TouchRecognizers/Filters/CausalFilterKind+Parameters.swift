extension CausalFilterKind {
  /// The weight of each new sample (`ema.alpha`).
  static let alpha = Parameter<Double>.number(
    "alpha", .none, default: 0.5, minimum: 0, inclusive: false, maximum: 1,
    "weight of each new sample: y = alpha*x + (1-alpha)*y_prev (1 = no filtering)")
  /// The window (`movmean.window`).
  static let window = Parameter<Double>.number(
    "window", .none, default: 3, minimum: 1, maximum: Double(MovingWindow.capacity),
    "samples averaged: the current one and up to window-1 before it (a whole number)")
  /// The 1€ filter's minimum cutoff (`one-euro.mincutoff`).
  static let minCutoff = Parameter<Double>.number(
    "mincutoff", .hertz, default: 1, minimum: 0, inclusive: false,
    "cutoff frequency when force is still: lower smooths more and lags more")
  /// The 1€ filter's speed coefficient (`one-euro.beta`).
  static let beta = Parameter<Double>.number(
    "beta", .none, default: 0, minimum: 0,
    "cutoff increase per force unit per second of (filtered) speed, Hz*s/force unit: higher lags less when force moves")
  /// The 1€ filter's derivative cutoff (`one-euro.dcutoff`).
  static let derivativeCutoff = Parameter<Double>.number(
    "dcutoff", .hertz, default: 1, minimum: 0, inclusive: false,
    "cutoff frequency of the speed estimate")

  /// A short title.
  public var title: String {
    switch self {
    case .ema: "exponential moving average"
    case .movingMean: "trailing moving mean"
    case .oneEuro: "1€ filter (Casiez, Roussel & Vogel, CHI 2012)"
    }
  }

  /// The filter's parameters, unprefixed.
  public var parameters: [ParameterSpec] {
    switch self {
    case .ema: [Self.alpha.spec]
    case .movingMean: [Self.window.spec]
    case .oneEuro: [Self.minCutoff.spec, Self.beta.spec, Self.derivativeCutoff.spec]
    }
  }

  /// What the filter computes, in one line.
  public var rule: String {
    switch self {
    case .ema: "y0 = x0; yk = alpha*xk + (1-alpha)*y(k-1)"
    case .movingMean: "yk = mean of the last min(k+1, window) samples"
    case .oneEuro:
      "low-pass at mincutoff + beta*|dx/dt| Hz, dx/dt low-passed at dcutoff Hz, on the samples' own time steps"
    }
  }

  /// `PREFIX.NAME`: how a parameter of this filter is named in front of a recognizer.
  public func prefixed(_ name: String) -> String { "\(rawValue).\(name)" }

  /// The filter at `values` (resolved against ``parameters``, unprefixed).
  ///
  /// - Throws: ``ParameterError`` when a window is not a whole number.
  func make(_ values: ParameterValues, recognizer: String) throws(ParameterError) -> CausalFilter {
    switch self {
    case .ema:
      return .ema(alpha: values[Self.alpha])
    case .movingMean:
      let w = values[Self.window]
      guard let window = Int(exactly: w) else {  // w lies in 1…capacity here
        throw ParameterError(
          variant: recognizer, parameter: prefixed(Self.window.name),
          .invalid("a window is a whole number of samples, got \(ParameterValue.text(w))"))
      }
      return .movingMean(window: window)
    case .oneEuro:
      return .oneEuro(
        minCutoff: values[Self.minCutoff], beta: values[Self.beta], derivativeCutoff: values[Self.derivativeCutoff])
    }
  }
}
