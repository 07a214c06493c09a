public import TouchCore

/// Labelled traces ready for scoring: the dataset (traces that cannot be scored moved to its
/// skipped list, with reasons) and each remaining trace's ``TraceTruth``.
///
/// ```swift
/// let dataset = try TraceLoader.load(["samples/"])
/// let evaluation = Evaluation(dataset: dataset, options: EvaluationOptions(tolerance: 0.25))
/// let recognizer = try AnyForceRecognizer(variant: "deep-press")
/// let outcomes = evaluation.outcomes(of: recognizer)                  // one per analyzed trace
/// let metrics = evaluation.metrics(of: outcomes, shape: OutcomeShape(recognizer: recognizer))
/// print(metrics.stage1.f1 ?? .nan, metrics.stage1.latency.p90 ?? .nan)  // seconds
/// ```
public struct Evaluation: Sendable {
  /// The dataset: analyzed traces in `Dataset.traces`, every other input trace in
  /// `Dataset.skipped`.
  public let dataset: Dataset
  /// The ground truth of each analyzed trace (parallel to `dataset.traces`).
  public let truths: [TraceTruth]
  /// The options.
  public let options: EvaluationOptions

  /// Resolves the ground truth of every trace (the reference rule runs on `threads` threads),
  /// skipping traces that cannot be scored, with the reason (see
  /// ``TraceTruth/resolve(_:options:)``).
  public init(dataset: Dataset, options: EvaluationOptions = EvaluationOptions(), threads: Int = 1) {
    let traces = dataset.traces
    let results = Parallel.map(count: traces.count, chunk: 16, threads: threads) { range in
      range.map { TraceTruth.resolve(traces[$0], options: options) }
    }.flatMap { $0 }
    var kept = dataset
    var k = 0
    kept.skipTraces { _ in
      defer { k += 1 }
      if case .failure(let error) = results[k] { return error.description }
      return nil
    }
    self.dataset = kept
    self.truths = results.compactMap { try? $0.get() }
    self.options = options
  }

  /// An evaluation from parts resolved elsewhere: merged partials of shards or batches, whose
  /// traces may hold metadata only (reports read no samples).
  ///
  /// - Parameters:
  ///   - dataset: the analyzed traces (their skipped ones in its skipped list).
  ///   - truths: the ground truth of each analyzed trace.
  ///   - options: the options the truths were resolved with.
  public init(dataset: Dataset, truths: [TraceTruth], options: EvaluationOptions) {
    precondition(truths.count == dataset.traces.count, "one truth per analyzed trace")
    self.dataset = dataset
    self.truths = truths
    self.options = options
  }

  /// The analyzed traces.
  public var traces: [Trace] { dataset.traces }

  /// How many analyzed traces have references from `press_at` and how many from the rule
  /// (traces that need references: positives and pops).
  public var referenceSources: (pressAt: Int, rule: Int) {
    var counts = (pressAt: 0, rule: 0)
    for truth in truths {
      switch truth.referenceSource {
      case .pressAt: counts.pressAt += 1
      case .rule: counts.rule += 1
      case nil: break
      }
    }
    return counts
  }
}
