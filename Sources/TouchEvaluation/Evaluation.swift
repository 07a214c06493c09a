import Synchronization
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
  ///
  /// - Precondition: the evaluation keeps its traces (``keepsTraces``).
  public var truths: [TraceTruth] {
    precondition(keepsTraces, "an evaluation made from a summary keeps no truths: read its summary")
    return storedTruths
  }
  private let storedTruths: [TraceTruth]
  /// The options.
  public let options: EvaluationOptions
  /// Whether the analyzed traces and their truths are kept (`false`: only their ``summary``,
  /// made as they were read; ``traces`` and ``truths`` are then not available).
  public let keepsTraces: Bool
  private let summaryCache: SummaryCache

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
    self.storedTruths = results.compactMap { try? $0.get() }
    self.options = options
    keepsTraces = true
    summaryCache = SummaryCache(nil)
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
    self.storedTruths = truths
    self.options = options
    keepsTraces = true
    summaryCache = SummaryCache(nil)
  }

  /// An evaluation of traces read elsewhere and not kept: what the reports count of them
  /// (`summary`), the accounting of `dataset` (files, skipped traces, warnings; its analyzed
  /// traces are not read) and the options. Reports that list or replay traces need an
  /// evaluation that keeps them.
  ///
  /// - Parameters:
  ///   - summary: the analyzed traces' summary.
  ///   - dataset: the files, skipped traces and warnings of the input.
  ///   - options: the options the traces were scored with.
  public init(summary: EvaluationSummary, dataset: Dataset, options: EvaluationOptions) {
    var accounting = dataset
    accounting.traces = []
    accounting.origins = []
    self.dataset = accounting
    storedTruths = []
    self.options = options
    keepsTraces = false
    summaryCache = SummaryCache(summary)
  }

  /// The analyzed traces.
  ///
  /// - Precondition: the evaluation keeps its traces (``keepsTraces``).
  public var traces: [Trace] {
    precondition(keepsTraces, "an evaluation made from a summary keeps no traces: read its summary")
    return dataset.traces
  }

  /// What the reports count of the analyzed traces (made from them once, when first asked, or
  /// given).
  public var summary: EvaluationSummary {
    summaryCache.value { EvaluationSummary(traces: dataset.traces, truths: storedTruths) }
  }

  /// The number of analyzed traces.
  public var analyzedCount: Int { keepsTraces ? dataset.traces.count : summary.analyzed }

  /// The total number of input traces: analyzed and skipped.
  public var totalCount: Int { analyzedCount + dataset.skipped.count }

  /// How many analyzed traces have references from `press_at` and how many from the rule
  /// (traces that need references: positives and pops).
  public var referenceSources: (pressAt: Int, rule: Int) {
    let summary = summary
    return (summary.pressAtTraces, summary.ruleTraces)
  }
}

/// An evaluation's summary, made once when first asked (evaluations are values shared across
/// threads, so the cache is locked).
private final class SummaryCache: Sendable {
  private let state: Mutex<EvaluationSummary?>

  init(_ summary: EvaluationSummary?) { state = Mutex(summary) }

  func value(_ make: () -> EvaluationSummary) -> EvaluationSummary {
    state.withLock { stored in
      if let stored { return stored }
      let made = make()
      stored = made
      return made
    }
  }
}
