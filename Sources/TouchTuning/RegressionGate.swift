import TouchCore
public import TouchEvaluation
import TouchSignal

/// A regression gate for continuous integration (`touchtrace check`): a configuration's
/// per-trace decisions and p90 timing error against a baseline recorded earlier on the same data.
///
/// Two checks:
/// - **accuracy**: McNemar's test (``McNemarTest``) on the paired per-trace decisions (correct:
///   no false positive and no false negative at any stage, `TraceOutcome.isCorrect`); it fails
///   when p < α and the baseline gets more traces right than the current configuration. Given
///   clusters (the traces of one user or device, `--group-by`), the decision reads the
///   cluster-adjusted test (``ClusteredMcNemarTest``) instead, since traces of one person or
///   device are not independent and the plain test's p is then too small.
/// - **latency**: the p90 of `|action − reference|` over true positives (an action before the
///   intended press counts by its distance, like a late one, so a change that fires early cannot
///   pass as faster); it fails when it grew by more than the allowed increase (seconds), or when
///   the current configuration has no true positive while the baseline had.
public enum RegressionGate {
  /// What a baseline records, and what the current run is compared with.
  public struct Snapshot: Sendable, Hashable {
    /// The tool and version that scored it (`touchtrace 0.1.0`).
    public var tool: String
    /// The configuration's text (`deep-press:threshold=0.35`).
    public var configuration: String
    /// The positive intents, in order.
    public var positives: [String]
    /// The matching window, seconds.
    public var tolerance: Double
    /// The content hash of the scored contacts (``contentHash(_:)``).
    public var dataHash: String
    /// Each scored contact's name, in trace order.
    public var traces: [String]
    /// Whether the configuration got each contact right (parallel to ``traces``).
    public var correct: [Bool]
    /// Stage-1 counts: TP, FP, FN, TN.
    public var truePositives, falsePositives, falseNegatives, trueNegatives: Int
    /// The p90 of `|action − reference|` over true positives, seconds; `nil` without any.
    public var absoluteLatencyP90: Double?
    /// How many true positives acted before their reference.
    public var early: Int
    /// The number of true positives the p90 is over.
    public var latencyCount: Int

    /// Creates a snapshot from its parts.
    ///
    /// - Parameters:
    ///   - tool: the tool and version.
    ///   - configuration: the configuration's text.
    ///   - positives: the positive intents.
    ///   - tolerance: the matching window, seconds.
    ///   - dataHash: the content hash of the contacts.
    ///   - traces: the contacts' names.
    ///   - correct: per contact, whether it was decided correctly.
    ///   - counts: stage-1 TP, FP, FN, TN.
    ///   - absoluteLatencyP90: the p90 of `|action − reference|`, seconds.
    ///   - latencyCount: the true positives it is over.
    ///   - early: the true positives that acted before their reference.
    public init(
      tool: String, configuration: String, positives: [String], tolerance: Double, dataHash: String, traces: [String],
      correct: [Bool], counts: (tp: Int, fp: Int, fn: Int, tn: Int), absoluteLatencyP90: Double?, latencyCount: Int,
      early: Int
    ) {
      self.tool = tool
      self.configuration = configuration
      self.positives = positives
      self.tolerance = tolerance
      self.dataHash = dataHash
      self.traces = traces
      self.correct = correct
      (truePositives, falsePositives, falseNegatives, trueNegatives) = counts
      self.absoluteLatencyP90 = absoluteLatencyP90
      self.latencyCount = latencyCount
      self.early = early
    }

    /// The snapshot of `outcomes` (one per analyzed trace of `evaluation`, in order).
    ///
    /// - Parameters:
    ///   - outcomes: the configuration's outcomes.
    ///   - evaluation: the traces and options scored.
    ///   - configuration: the configuration's text.
    ///   - tool: the tool and version.
    public init(outcomes: [TraceOutcome], evaluation: Evaluation, configuration: String, tool: String) {
      let shape = OutcomeShape(
        twoStage: outcomes.contains { $0.stage2 != nil }, reportsFlaps: false, isComposition: false)
      let m = evaluation.metrics(of: outcomes, shape: shape).stage1
      self.init(
        tool: tool, configuration: configuration, positives: evaluation.options.positives.map(\.rawValue),
        tolerance: evaluation.options.tolerance, dataHash: RegressionGate.contentHash(evaluation),
        traces: evaluation.traces.map(\.name), correct: outcomes.map(\.isCorrect),
        counts: (m.truePositives, m.falsePositives, m.falseNegatives, m.trueNegatives),
        absoluteLatencyP90: m.latency.absoluteP90,
        latencyCount: m.latency.count, early: m.latency.early)
    }

    /// The number of contacts decided correctly.
    public var correctCount: Int { correct.filter { $0 }.count }
  }

  /// Why a baseline cannot be compared with this run: it was written by another tool version, on
  /// other data, or with other scoring options.
  public struct Mismatch: Error, Sendable, Hashable, CustomStringConvertible {
    /// What differs, for the message.
    public var description: String
  }

  /// The content hash of the scored contacts: 64-bit FNV-1a (16 hex digits) over, per analyzed
  /// trace in order, its name, intent, reference times, and every sample's time, force, phase
  /// and position (bit patterns). It detects changed, added, removed or reordered contacts; it
  /// is not a cryptographic hash.
  public static func contentHash(_ evaluation: Evaluation) -> String {
    var hash = FNV1a()
    for (trace, truth) in zip(evaluation.traces, evaluation.truths) {
      hash.add(trace.name)
      hash.add(truth.intent.rawValue)
      hash.add(truth.references)
      hash.add(truth.stage2References)
      hash.add(trace.t)
      hash.add(trace.force)
      hash.add(trace.phase.map { Double($0.rawValue) })
      hash.add(trace.x ?? [])
      hash.add(trace.y ?? [])
    }
    return hash.hex
  }

  /// Checks that `baseline` can be compared with `current`: the same tool, data and options.
  ///
  /// - Throws: ``Mismatch`` naming what differs.
  public static func requireComparable(_ baseline: Snapshot, _ current: Snapshot) throws(Mismatch) {
    if baseline.tool != current.tool {
      throw Mismatch(
        description:
          "the baseline was written by \(baseline.tool), this is \(current.tool); write a new baseline with --write-baseline"
      )
    }
    if baseline.dataHash != current.dataHash || baseline.traces != current.traces {
      throw Mismatch(
        description:
          "the baseline was written from other data (content hash \(baseline.dataHash), \(baseline.traces.count) contacts; these inputs: \(current.dataHash), \(current.traces.count) contacts)"
      )
    }
    if baseline.positives != current.positives || baseline.tolerance != current.tolerance {
      throw Mismatch(
        description:
          "the baseline was scored with --positive \(baseline.positives.joined(separator: ",")) --tolerance \(baseline.tolerance), this run with --positive \(current.positives.joined(separator: ",")) --tolerance \(current.tolerance)"
      )
    }
  }

  /// The outcome of the checks.
  public struct Result: Sendable {
    /// The baseline.
    public let baseline: Snapshot
    /// The current run.
    public let current: Snapshot
    /// McNemar's test with A the baseline and B the current configuration.
    public let mcnemar: McNemarTest
    /// The cluster-adjusted test when the check was given clusters; the accuracy decision reads
    /// it instead of ``mcnemar``.
    public let clustered: ClusteredMcNemarTest?
    /// What a cluster is (`user`, `device`, …); `nil` without clusters.
    public let clusterUnit: String?
    /// The significance level.
    public let alpha: Double
    /// The largest allowed growth of the p90 of `|action − reference|`, seconds.
    public let maxLatencyIncrease: Double

    /// The p-value the accuracy decision reads: the clustered test's when there is one.
    public var decisivePValue: Double { clustered?.pValue ?? mcnemar.pValue }

    /// Whether accuracy dropped significantly: p < α (the clustered test's p with clusters)
    /// and more contacts only the baseline gets right than only the current configuration.
    public var accuracyRegressed: Bool { decisivePValue < alpha && mcnemar.onlyA > mcnemar.onlyB }

    /// The change of the p90 of `|action − reference|`, seconds (current − baseline); `nil`
    /// unless both are defined.
    public var latencyIncrease: Double? {
      guard let b = baseline.absoluteLatencyP90, let c = current.absoluteLatencyP90 else { return nil }
      return c - b
    }

    /// Whether the p90 of `|action − reference|` grew by more than allowed, or is undefined now
    /// while it was not.
    public var latencyRegressed: Bool {
      if let increase = latencyIncrease { return increase > maxLatencyIncrease }
      return baseline.absoluteLatencyP90 != nil && current.absoluteLatencyP90 == nil
    }

    /// Whether every check holds.
    public var passed: Bool { !accuracyRegressed && !latencyRegressed }
  }

  /// Compares `current` with `baseline`.
  ///
  /// - Parameters:
  ///   - baseline: the recorded snapshot.
  ///   - current: this run's snapshot.
  ///   - alpha: the significance level of McNemar's test, strictly between 0 and 1.
  ///   - maxLatencyIncrease: the largest allowed p90 growth, seconds, ≥ 0.
  ///   - clusters: the contacts of each cluster (positions in the snapshots' order), named by
  ///     `clusterUnit`; `nil`: every contact independent.
  ///   - clusterUnit: what a cluster is (`user`, `device`, …).
  /// - Throws: ``Mismatch`` when the two cannot be compared (``requireComparable(_:_:)``).
  public static func check(
    _ current: Snapshot, against baseline: Snapshot, alpha: Double, maxLatencyIncrease: Double,
    clusters: [[Int]]? = nil, clusterUnit: String? = nil
  ) throws(Mismatch) -> Result {
    try requireComparable(baseline, current)
    var both = 0
    var onlyBaseline = 0
    var onlyCurrent = 0
    var neither = 0
    for (b, c) in zip(baseline.correct, current.correct) {
      switch (b, c) {
      case (true, true): both += 1
      case (true, false): onlyBaseline += 1
      case (false, true): onlyCurrent += 1
      case (false, false): neither += 1
      }
    }
    let test: McNemarTest
    var clustered: ClusteredMcNemarTest?
    do throws(GSLError) {
      test = try McNemarTest(bothCorrect: both, onlyA: onlyBaseline, onlyB: onlyCurrent, neither: neither)
      if let clusters {
        clustered = try ClusteredMcNemarTest(a: baseline.correct, b: current.correct, clusters: clusters)
      }
    } catch {
      throw Mismatch(description: "McNemar's test failed: \(error)")
    }
    return Result(
      baseline: baseline, current: current, mcnemar: test, clustered: clustered,
      clusterUnit: clusters == nil ? nil : clusterUnit ?? "cluster", alpha: alpha,
      maxLatencyIncrease: maxLatencyIncrease)
  }
}

/// The content hash's encodings of words, texts and numbers, over TouchCore's FNV-1a.
extension FNV1a {
  mutating func add(_ word: UInt64) {
    for k in 0..<8 { add(UInt8(truncatingIfNeeded: word >> (8 * UInt64(k)))) }
  }

  /// A text with its length first, so concatenations stay distinct.
  mutating func add(_ text: String) {
    add(UInt64(text.utf8.count))
    for byte in text.utf8 { add(byte) }
  }

  /// Numbers by bit pattern, with their count first.
  mutating func add(_ values: [Double]) {
    add(UInt64(values.count))
    for x in values { add(x.bitPattern) }
  }

  /// 16 lowercase hex digits.
  var hex: String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
