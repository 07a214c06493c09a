public import TouchEvaluation
public import TouchRecognizers
import TouchSignal

extension Configuration {
  /// Reads one configuration written `NAME` or `NAME:PARAM=VALUE,PARAM=VALUE,...`
  /// (`touchtrace compare --a/--b`): a variant or `DEPENDENT+REQUIRED` composition, then
  /// parameter values read as `--set` reads them (decimals or fractions such as `1/60`, `nan`,
  /// `true`/`false`; `required.NAME` for the required variant). A list parameter's values go on
  /// after its `=` (`zones:normalizedForceThreshholds=0.4,0.85`): a part without `=` continues the
  /// previous value. Unnamed parameters keep their defaults; the named ones are the
  /// configuration's ``Configuration/varied`` parameters.
  ///
  ///
  /// A name with a scheme (`exec:COMMAND`, whose command may hold `:`) runs to `::`, after which
  /// its parameters follow: `exec:python3 mine.py::threshold=0.5`.
  ///
  /// - Parameter catalog: the recognizers the name refers to.
  /// - Throws: `SweepPlanError` for an unknown recognizer or parameter, a value out of range or a
  ///   malformed text.
  public init(parsing text: String, catalog: RecognizerCatalog = .builtIn) throws(SweepPlanError) {
    let (name, rest) = Self.split(text, catalog: catalog)
    let spec = try RecognizerSpec(parsing: name, catalog: catalog)
    var settings: [(name: String, value: String)] = []
    if let rest, !rest.allSatisfy({ $0 == " " }) {
      for part in rest.split(separator: ",", omittingEmptySubsequences: false) {
        if let equals = part.firstIndex(of: "=") {
          let key = part[..<equals].filter { $0 != " " }
          guard !key.isEmpty else { throw .missingParameterName(configuration: text) }
          settings.append((String(key), String(part[part.index(after: equals)...])))
        } else if !settings.isEmpty {
          settings[settings.count - 1].value += "," + part
        } else {
          throw .malformedConfiguration(text)
        }
      }
    }
    var values: [String: ParameterValue] = [:]
    for (key, value) in settings {
      guard values[key] == nil else { throw .repeatedParameter(configuration: text, parameter: key) }
      do throws(ParameterError) {
        values[key] = try spec.value(value, of: key)
      } catch {
        throw .invalidConfiguration(configuration: text, error)
      }
    }
    do throws(ParameterError) {
      self.init(spec: spec, recognizer: try spec.makeRecognizer(values), varied: settings.map(\.name))
    } catch {
      throw .invalidConfiguration(configuration: text, error)
    }
  }

  /// What separates the name from the parameters in a configuration's text: `::` after a name
  /// with a scheme (`exec:COMMAND`), else `:` (the inverse of ``init(parsing:catalog:)``).
  public static func parameterSeparator(for name: String) -> String { name.contains(":") ? "::" : ":" }

  /// The name and the parameter text of `NAME:PARAMS`, or of `SCHEME:COMMAND::PARAMS` when the
  /// word before the first `:` (after any `DEPENDENT+` and `FILTER/`) is not a recognizer of
  /// `catalog` but a scheme such as `exec`.
  static func split(_ text: String, catalog: RecognizerCatalog) -> (name: String, rest: String?) {
    guard let colon = text.firstIndex(of: ":") else { return (text, nil) }
    let head = text[..<colon]
    let word = head.split(whereSeparator: { $0 == Composition.separator || $0 == "/" }).last.map(String.init) ?? ""
    let isScheme = !word.isEmpty && word.allSatisfy(\.isLetter) && catalog.entry(word) == nil
    guard isScheme else { return (String(head), String(text[text.index(after: colon)...])) }
    // The last `::` after the scheme's colon.
    var separator: String.Index?
    var i = text.index(after: colon)
    while i < text.endIndex {
      let next = text.index(after: i)
      if text[i] == ":", next < text.endIndex, text[next] == ":" { separator = i }
      i = next
    }
    guard let separator else { return (text, nil) }
    return (String(text[..<separator]), String(text[text.index(separator, offsetBy: 2)...]))
  }
}

/// Two configurations compared on the same traces (`touchtrace compare`): the run's context
/// and the ``PairedComparison``.
public struct ComparisonResult: Sendable {
  /// The traces and truths.
  public let evaluation: Evaluation
  /// Configuration A.
  public let a: Configuration
  /// Configuration B.
  public let b: Configuration
  /// The bootstrap's resampling units.
  public let groups: TraceGroups
  /// The bootstrap; `nil` for none.
  public let bootstrap: BootstrapOptions?
  /// The seed of the bootstrap's MT19937 stream.
  public let seed: UInt64
  /// Whether McNemar's chi-square statistic is continuity-corrected.
  public let continuityCorrection: Bool
  /// The comparison.
  public let comparison: PairedComparison
  /// With a grouping (`--group-by`), McNemar's test adjusted for the clusters (Durkalski's);
  /// `nil` without one, when the plain test's independence of traces is assumed.
  public let clustered: ClusteredMcNemarTest?

  /// Replays every trace through `a` and `b` once each and compares them.
  ///
  /// - Parameters:
  ///   - evaluation: the labelled traces (each needs the `groupBy` label).
  ///   - a: configuration A.
  ///   - b: configuration B.
  ///   - groupBy: the label whose groups the bootstrap resamples whole; `nil`: traces.
  ///   - bootstrap: resamples and confidence of the interval for the mean latency difference.
  ///   - seed: the seed of the bootstrap's stream.
  ///   - continuityCorrection: whether McNemar's chi-square statistic is continuity-corrected.
  ///   - threads: threads for the replays and the bootstrap; the result does not depend on it.
  ///   - outcomes: A's and B's per-trace outcomes in trace order, replayed elsewhere (merged
  ///     shards), instead of replaying `evaluation`'s traces, which may then hold metadata only.
  /// - Throws: ``TuningError``: no trace, a missing group label, a trace a configuration cannot
  ///   replay, a GSL failure.
  public init(
    evaluation: Evaluation, a: Configuration, b: Configuration, groupBy: GroupKey? = nil,
    bootstrap: BootstrapOptions? = BootstrapOptions(), seed: UInt64 = 1, continuityCorrection: Bool = true,
    threads: Int = 1,
    outcomes: (a: [TraceOutcome], b: [TraceOutcome])? = nil
  ) throws(TuningError) {
    guard !evaluation.traces.isEmpty else { throw .noTraces }
    for configuration in [a, b] where configuration.recognizer.requiresMaximumForce {
      if let trace = evaluation.traces.first(where: { $0.metadata.maxForce == nil }) {
        throw .replay(.missingMaximumForce(trace: trace.name, variant: configuration.name))
      }
    }
    let n = evaluation.traces.count
    let outcomesA: [TraceOutcome]
    let outcomesB: [TraceOutcome]
    if let outcomes {
      precondition(outcomes.a.count == n && outcomes.b.count == n, "one outcome per trace")
      (outcomesA, outcomesB) = outcomes
    } else {
      do throws(ReplayError) {
        outcomesA = Tuning.inTraceOrder(try evaluation.outcomes(of: a.recognizer, threads: threads), count: n)
        outcomesB = Tuning.inTraceOrder(try evaluation.outcomes(of: b.recognizer, threads: threads), count: n)
      } catch {
        throw .replay(error)
      }
    }
    try self.init(
      evaluation: evaluation, a: a, b: b, groupBy: groupBy, bootstrap: bootstrap, seed: seed,
      continuityCorrection: continuityCorrection, threads: threads, columns: (outcomesA, outcomesB))
  }

  /// Compares `a` and `b` from their per-trace outcomes replayed elsewhere (kept as the traces
  /// were read, or merged from shards), as arrays or TouchEvaluation's `OutcomeColumn`s, so they
  /// need not become `[TraceOutcome]` (about 120 bytes a trace each).
  ///
  /// - Parameters:
  ///   - evaluation: the labelled traces (each needs the `groupBy` label); their metadata only.
  ///   - a: configuration A.
  ///   - b: configuration B.
  ///   - groupBy: the label whose groups the bootstrap resamples whole; `nil`: traces.
  ///   - bootstrap: resamples and confidence of the interval for the mean latency difference.
  ///   - seed: the seed of the bootstrap's stream.
  ///   - continuityCorrection: whether McNemar's chi-square statistic is continuity-corrected.
  ///   - threads: threads for the bootstrap; the result does not depend on it.
  ///   - columns: A's and B's outcomes, one per trace in trace order.
  /// - Throws: ``TuningError``: no trace, a missing group label, a GSL failure.
  public init<Outcomes: RandomAccessCollection<TraceOutcome>>(
    evaluation: Evaluation, a: Configuration, b: Configuration, groupBy: GroupKey? = nil,
    bootstrap: BootstrapOptions? = BootstrapOptions(), seed: UInt64 = 1, continuityCorrection: Bool = true,
    threads: Int = 1, columns: (a: Outcomes, b: Outcomes)
  ) throws(TuningError) {
    guard !evaluation.traces.isEmpty else { throw .noTraces }
    try self.init(
      evaluation: evaluation, truths: evaluation.truths,
      groups: try TraceGroups(traces: evaluation.traces, key: groupBy),
      a: a, b: b, bootstrap: bootstrap, seed: seed, continuityCorrection: continuityCorrection, threads: threads,
      columns: columns)
  }

  /// Compares `a` and `b` from their per-trace outcomes, on traces known by their truths and
  /// resampling units alone (a read that kept only its traces' summary).
  ///
  /// - Parameters:
  ///   - evaluation: what the reports count of the traces (its summary).
  ///   - truths: every trace's truth, in trace order.
  ///   - groups: the resampling units (``TraceGroups/init(labels:key:)`` by the grouping label,
  ///     or ``TraceGroups/init(names:)``); with a key, the clustered test is made too.
  ///   - a: configuration A.
  ///   - b: configuration B.
  ///   - bootstrap: resamples and confidence of the interval for the mean latency difference.
  ///   - seed: the seed of the bootstrap's stream.
  ///   - continuityCorrection: whether McNemar's chi-square statistic is continuity-corrected.
  ///   - threads: threads for the bootstrap; the result does not depend on it.
  ///   - columns: A's and B's outcomes, one per trace in trace order.
  /// - Throws: ``TuningError``: no trace, a GSL failure.
  public init<Outcomes: RandomAccessCollection<TraceOutcome>>(
    evaluation: Evaluation, truths: [TraceTruth], groups: TraceGroups, a: Configuration, b: Configuration,
    bootstrap: BootstrapOptions? = BootstrapOptions(), seed: UInt64 = 1, continuityCorrection: Bool = true,
    threads: Int = 1, columns: (a: Outcomes, b: Outcomes)
  ) throws(TuningError) {
    let n = truths.count
    guard n > 0 else { throw .noTraces }
    precondition(columns.a.count == n && columns.b.count == n, "one outcome per trace")
    var random = try TuningError.randomSource(seed: seed)
    let (outcomesA, outcomesB) = columns
    if groups.key != nil {
      do throws(GSLError) {
        clustered = try ClusteredMcNemarTest(
          a: outcomesA.map(\.isCorrect), b: outcomesB.map(\.isCorrect), clusters: groups.members)
      } catch {
        throw .gsl(error)
      }
    } else {
      clustered = nil
    }
    comparison = try PairedComparison(
      a: outcomesA, shapeA: a.shape, b: outcomesB, shapeB: b.shape, truths: truths, units: groups.members,
      bootstrap: bootstrap, random: &random, continuityCorrection: continuityCorrection, threads: threads)
    self.evaluation = evaluation
    self.a = a
    self.b = b
    self.groups = groups
    self.bootstrap = bootstrap
    self.seed = seed
    self.continuityCorrection = continuityCorrection
  }
}
