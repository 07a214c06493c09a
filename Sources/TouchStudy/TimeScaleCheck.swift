public import TouchCore
import TouchReports
import TouchSignal
public import TouchTuning

/// Times that are not in seconds: TouchTrace reads every time in seconds, and a file written in
/// milliseconds or nanoseconds loads without an error but means nothing (a 60 Hz recording in
/// milliseconds has a "16 s" sampling interval). A trace whose median sampling interval is over
/// 1 s, or under 1 µs, gets a warning at its first sample, with the unit it looks like.
public enum TimeScaleCheck {
  /// Above this median interval (seconds) the times look like milliseconds: 1 s.
  public static let longestInterval = 1.0
  /// Below this median interval (seconds) the times look like nanoseconds: 1 µs.
  public static let shortestInterval = 1e-6

  /// The warnings for the traces of `dataset` whose median sampling interval is out of range:
  /// one per file and unit, at its first such trace, saying how many traces and their median
  /// interval.
  public static func diagnostics(_ dataset: Dataset) -> [Diagnostic] {
    struct Finding {
      var file: String
      var position: TextPosition?
      var milliseconds: Bool
      var intervals: [Double]
    }
    var findings: [Finding] = []
    for (trace, origin) in zip(dataset.traces, dataset.origins)
    where !trace.metadata.timeSynthesized && mayBeOutOfRange(trace.t) {
      guard let interval = trace.medianInterval, interval > 0,
        interval > longestInterval || interval < shortestInterval
      else { continue }
      let milliseconds = interval > longestInterval
      if let k = findings.firstIndex(where: { $0.file == origin.file && $0.milliseconds == milliseconds }) {
        findings[k].intervals.append(interval)
      } else {
        findings.append(
          Finding(file: origin.file, position: origin.position, milliseconds: milliseconds, intervals: [interval]))
      }
    }
    return findings.map { f in
      let sorted = f.intervals.sorted()
      let median = sorted[sorted.count / 2]
      let traces = sorted.count == 1 ? "1 trace" : "\(sorted.count) traces"
      let figures =
        "median sampling interval \(TextFormat.compact(median, significant: 3)) s (\(rate(1 / median))) in \(traces) here"
      let message =
        f.milliseconds
        ? "times look like milliseconds: \(figures); times are read in seconds: divide them by 1000"
        : "times look like nanoseconds: \(figures); times are read in seconds: divide them by 10⁹ (by 10⁶ for microseconds)"
      return Diagnostic(.warning, message, file: f.file, position: f.position)
    }
  }

  /// Whether the median of the positive intervals of `t` can lie out of range: at least half of
  /// them are over ``longestInterval`` or under ``shortestInterval``. One pass, no allocation,
  /// so every trace of every batch is screened at the cost of a subtraction per sample; only the
  /// traces that pass (rare) have their median computed.
  public static func mayBeOutOfRange(_ t: [Double]) -> Bool {
    var positive = 0
    var long = 0
    var short = 0
    for i in t.indices.dropFirst() {
      let dt = t[i] - t[i - 1]
      guard dt > 0 else { continue }
      positive += 1
      if dt > longestInterval { long += 1 } else if dt < shortestInterval { short += 1 }
    }
    return positive > 0 && (2 * long >= positive || 2 * short >= positive)
  }

  /// A sampling rate with three significant digits: `0.0599 Hz`, `59.9 MHz`.
  public static func rate(_ hertz: Double) -> String {
    if hertz >= 1e6 { return TextFormat.compact(hertz / 1e6, significant: 3) + " MHz" }
    if hertz >= 1e3 { return TextFormat.compact(hertz / 1e3, significant: 3) + " kHz" }
    return TextFormat.compact(hertz, significant: 3) + " Hz"
  }

  /// `dataset` with the warnings of ``diagnostics(_:)`` added to its own.
  public static func checked(_ dataset: Dataset) -> Dataset {
    var dataset = dataset
    dataset.diagnostics += diagnostics(dataset)
    return dataset
  }

  /// The verdict's caveats for the time-scale warnings among `diagnostics` (code `time_scale`),
  /// one per warning, naming its file.
  public static func caveats(_ diagnostics: [Diagnostic]) -> [Verdict.Caveat] {
    diagnostics.filter { $0.severity == .warning && messagePrefixes.contains(where: $0.message.hasPrefix) }.map {
      Verdict.Caveat(code: "time_scale", text: "\($0.file ?? "the input"): \($0.message).")
    }
  }

  /// How the warnings of ``diagnostics(_:)`` begin.
  public static let messagePrefixes = ["times look like milliseconds", "times look like nanoseconds"]
}
