public import ArgumentParser
import TouchCore
import TouchIO
import TouchSignal
import TouchStudy

extension TouchTraceCommand {
  /// `touchtrace smooth`: writes the traces with smoothed force.
  struct Smooth: ParsableCommand, GlobalCommand {
    static let configuration = CommandConfiguration(
      abstract: "Smooth the force of every trace and write the traces in the same format.",
      discussion: """
        All other columns and all metadata are kept. The smoothed force is clamped to \
        [0, max_force] ([0, ∞) when the maximum is unknown), so the output is valid trace data. \
        The output format is --format, else the --output file's ending (.csv, .json, .jsonl), else JSON. \
        Windows in seconds become K = round(S / median interval) + 1 samples per trace, odd for \
        centred filters. Methods: gaussian (centred, GSL), median, rmedian (recursive median), \
        impulse (Hampel), movmean and movmedian (centred, or trailing with --causal), savgol \
        (Savitzky-Golay), ema (exponential moving average, causal). --window is taken as \
        given: centred windows (every method but ema, and movmean/movmedian without --causal) \
        must be odd and savgol's longer than --order, else the command stops (exit 64) naming \
        the nearest valid lengths. A trace too short for the method (savgol with fewer samples \
        than its order needs; a trace with one sample time under --window-seconds) is skipped \
        with its reason, and the rest are smoothed. Every input trace is accounted for on \
        standard error: total = smoothed + skipped.

        Streams: traces are read, smoothed and written --batch-traces at a time; memory holds \
        one batch's samples and the skipped traces' reasons. JSON and JSON Lines output is \
        written as each batch is smoothed; CSV output, whose header names the columns any \
        trace uses, waits in a temporary file beside the output until the last trace. \
        Standard output is written in one piece at the end (nothing on error), so it is held \
        in memory.

        Examples (from the repository root):
          touchtrace smooth samples/synth-iphone6s.csv --method savgol --window 7 \\
            --output smoothed.csv
          touchtrace smooth samples/ --method ema --alpha 0.5 --format jsonl \\
            --output -
        """)

    @OptionGroup var input: InputOptions

    @Option(help: "Smoothing method.")
    var method: Method

    @Option(help: ArgumentHelp("Window length in samples.", valueName: "n"))
    var window: Int?

    @Option(
      help: ArgumentHelp(
        "Window length in seconds (converted with each trace's median sampling interval).", valueName: "s"))
    var windowSeconds: Double?

    @Option(
      help: ArgumentHelp(
        "gaussian: standard deviations in the half window (default: 3). ema: weight of each new sample, 0 < a ≤ 1, instead of a window.",
        valueName: "a"))
    var alpha: Double?

    @Option(help: ArgumentHelp("savgol: polynomial order (default: 2).", valueName: "p"))
    var order: Int?

    @Option(help: ArgumentHelp("impulse: outlier threshold in scale units (default: 3).", valueName: "t"))
    var threshold: Double?

    @Option(help: "impulse: robust scale estimate (default: mad).")
    var scale: ImpulseRejection.Scale?

    @Option(
      help: ArgumentHelp(
        "impulse: smallest scale used, force units (default: 0 = GSL's rule; e.g. 0.0166667 = 1/60 keeps quantization steps on flat stretches).",
        valueName: "force"))
    var minScale: Double?

    @Option(
      help: ArgumentHelp(
        "End handling: pad-value, pad-zero, truncate, polynomial-fit (default: pad-value; savgol: polynomial-fit).",
        valueName: "rule"))
    var ends: EndHandling?

    @Flag(
      help:
        "Use a trailing (causal) window: what a live recognizer could compute. movmean, movmedian (and ema, which always is)."
    )
    var causal = false

    @OptionGroup var output: OutputOptions<TraceFormat>

    @OptionGroup var batch: BatchOptions

    @OptionGroup var global: GlobalOptions

    enum Method: String, ExpressibleByArgument, CaseIterable {
      case gaussian, median, rmedian, impulse, movmean, movmedian, savgol, ema
    }

    func validate() throws {
      if window != nil && windowSeconds != nil {
        throw ValidationError("give either --window or --window-seconds, not both")
      }
      if let window, window < 1 { throw ValidationError("--window must be at least 1 sample, got \(window)") }
      if let windowSeconds, !(windowSeconds > 0) || !windowSeconds.isFinite {
        throw ValidationError("--window-seconds must be a positive number, got \(windowSeconds)")
      }
      let hasWindow = window != nil || windowSeconds != nil
      switch method {
      case .ema:
        if let alpha {
          if hasWindow { throw ValidationError("ema takes either --alpha or a window, not both") }
          if !(alpha > 0 && alpha <= 1) { throw ValidationError("ema --alpha must be in (0, 1], got \(alpha)") }
        } else if !hasWindow {
          throw ValidationError("ema needs --window, --window-seconds or --alpha")
        }
        if ends != nil {
          throw ValidationError("ema has no end handling: it starts at the first sample and never looks ahead")
        }
      default:
        if !hasWindow { throw ValidationError("--method \(method.rawValue) needs --window or --window-seconds") }
        if let alpha, method == .gaussian, !(alpha > 0 && alpha.isFinite) {
          throw ValidationError("--alpha must be positive, got \(alpha)")
        }
      }
      let allowed: [(Method, String, Bool)] = [
        (.gaussian, "--alpha", alpha != nil && method != .ema), (.savgol, "--order", order != nil),
        (.impulse, "--threshold", threshold != nil), (.impulse, "--scale", scale != nil),
        (.impulse, "--min-scale", minScale != nil),
      ]
      for (owner, flag, given) in allowed where given && owner != method {
        throw ValidationError("\(flag) applies to --method \(owner.rawValue), not \(method.rawValue)")
      }
      if let order, order < 0 { throw ValidationError("--order must be ≥ 0, got \(order)") }
      if let window, let problem = Self.windowProblem(window, method: method, causal: causal, order: order ?? 2) {
        throw ValidationError(problem)
      }
      if let threshold, !(threshold >= 0) { throw ValidationError("--threshold must be ≥ 0, got \(threshold)") }
      if let minScale, !(minScale >= 0) { throw ValidationError("--min-scale must be ≥ 0, got \(minScale)") }
      if causal && ![.movmean, .movmedian, .ema].contains(method) {
        throw ValidationError(
          "--method \(method.rawValue) uses a centred window and cannot be causal; use movmean, movmedian or ema")
      }
      if let ends {
        let supported = supportedEnds
        if !supported.contains(ends) {
          throw ValidationError(
            "--method \(method.rawValue) supports --ends \(supported.map(\.rawValue).joined(separator: ", ")), not \(ends)"
          )
        }
      }
    }

    /// Why `window` samples is not a window `method` takes, naming the nearest valid windows;
    /// `nil` when it is one. Centred windows (every method but ema, and movmean/movmedian with
    /// --causal) are odd, as they look the same number of samples back and ahead; savgol's is
    /// also longer than the polynomial order. Nothing is rounded silently.
    static func windowProblem(_ window: Int, method: Method, causal: Bool, order: Int) -> String? {
      let centred = method != .ema && !causal
      let shortest = method == .savgol ? (order % 2 == 0 ? order + 1 : order + 2) : 1
      func valid(_ k: Int) -> Bool { k >= shortest && (!centred || k % 2 == 1) }
      guard !valid(window) else { return nil }
      if method == .savgol, window < shortest {
        return
          "--window \(window) is too short for savgol of order \(order): a polynomial of order \(order) needs at least \(shortest) samples (use --window \(shortest), or a lower --order)"
      }
      let nearest = [window - 1, window + 1].filter(valid).map(String.init)
      return
        "--window must be odd for \(method.rawValue)\(method == .movmean || method == .movmedian ? " (centred; --causal takes any length)" : ""): use \(nearest.joined(separator: " or "))"
    }

    private var supportedEnds: [EndHandling] {
      switch method {
      case .gaussian: GaussianSmoothing.supportedEnds
      case .median: MedianSmoothing.supportedEnds
      case .rmedian: RecursiveMedianSmoothing.supportedEnds
      case .impulse: ImpulseRejection.supportedEnds
      case .movmean, .movmedian: MovingWindowSmoothing.supportedEnds
      case .savgol: SavitzkyGolay.supportedEnds
      case .ema: []
      }
    }

    /// The smoothing the options describe (after `validate()`).
    var smoothing: Smoothing {
      let window: SmoothingWindow = self.window.map { .samples($0) } ?? .seconds(windowSeconds ?? 1)
      let ends = self.ends ?? .padValue
      switch method {
      case .gaussian: return .gaussian(GaussianSmoothing(window: window, alpha: alpha ?? 3, ends: ends))
      case .median: return .median(MedianSmoothing(window: window, ends: ends))
      case .rmedian: return .recursiveMedian(RecursiveMedianSmoothing(window: window, ends: ends))
      case .impulse:
        return .impulse(
          ImpulseRejection(
            window: window, threshold: threshold ?? 3, scale: scale ?? .mad, minimumScale: minScale ?? 0, ends: ends))
      case .movmean, .movmedian:
        return .moving(
          MovingWindowSmoothing(
            method == .movmean ? .mean : .median, window: window, alignment: causal ? .trailing : .centered, ends: ends)
        )
      case .savgol:
        return .savitzkyGolay(SavitzkyGolay(window: window, order: order ?? 2, ends: self.ends ?? .polynomialFit))
      case .ema:
        if let alpha { return .exponential(ExponentialMovingAverage(.alpha(alpha))) }
        return .exponential(ExponentialMovingAverage(window: window))
      }
    }

    func run() throws {
      try Console.run {
        try Console.checkOutputs([output.file], inputs: input.inputPaths)
        let smoothing = self.smoothing
        var source = try InputBatches(input, batchTraces: batch.count())
        let out = try TraceOutput(output, inputs: input.inputPaths)
        defer { out.discard() }
        var selected = 0
        var skipped: [SkippedTrace] = []
        while let batch = try source.next() {
          selected += batch.traces.count
          // A trace too short for the window (or, for a window in seconds, without a sampling
          // interval) is skipped with its reason, not an error: the rest of the file is smoothed.
          let part = try PerTrace.batch(batch, skipInvalid: input.skipInvalid, skipping: \.isTooShort) {
            trace throws(SignalError) in
            try trace.smoothed(with: smoothing)
          }
          skipped += part.skipped
          try out.write(part.results)
        }
        try source.finish(selected: selected)
        Console.report(skipped: skipped)
        try out.commit()
        let total = selected + source.skipped.count
        Console.diagnose(
          "touchtrace smooth: \(total) traces: \(out.count) smoothed, \(source.skipped.count + skipped.count) skipped; wrote \(output.target)"
        )
      }
    }
  }
}

extension ImpulseRejection.Scale: ExpressibleByArgument {}

extension SignalError {
  /// Whether the error says the trace is too short for the operation: too few samples, or no
  /// sampling interval to convert a window in seconds.
  var isTooShort: Bool {
    switch self {
    case .tooFewSamples, .noSamplingInterval: true
    default: false
    }
  }
}
extension EndHandling: ExpressibleByArgument {}

/// Runs a per-trace analysis with the foundation's accounting: in strict mode the first trace it
/// cannot handle stops the command (`path:line:col: error: …`, exit 65); with --skip-invalid such
/// traces move to the dataset's skipped list with the reason and are reported on standard error.
enum PerTrace {}
