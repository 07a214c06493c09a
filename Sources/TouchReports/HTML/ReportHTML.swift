package import TouchCore
package import TouchEvaluation
package import TouchRecognizers
package import TouchTuning

extension SweepReport {
  /// The HTML report of a sweep: one self-contained page (inline SVG and CSS, a few lines of
  /// inline script for toggling sections only, nothing loaded from elsewhere) with the figures
  /// of the TouchReports article "HTML reports", then the Markdown report's tables.
  ///
  /// - Parameters:
  ///   - result: the sweep.
  ///   - data: the outcomes and example replays (`SweepFigureData.gather(_:marked:threads:)`).
  ///   - appendix: Markdown added after the report's tables (the recorded configuration).
  ///   - verdict: the verdict section (``VerdictReport/markdown(_:configurations:metrics:f1Interval:)``),
  ///     shown first, before the figures.
  package static func html(_ result: SweepResult, _ data: SweepFigureData, appendix: String = "", verdict: String = "")
    -> [UInt8]
  {
    let page = HTMLPage.render(
      title: "touchtrace sweep", verdict: verdict, sections: SweepFigures.sections(result, data),
      markdown: markdown(result) + appendix)
    return Array(page.utf8)
  }
}

extension TuneReport {
  /// The HTML report of `touchtrace tune`: the sweep's figures with the chosen configuration
  /// marked (on its recognizer's plots and on the trade-off plot), then the Markdown report's
  /// tables.
  ///
  /// - Parameters:
  ///   - result: the tuning result.
  ///   - data: outcomes and examples gathered with the chosen configuration marked
  ///     (`SweepFigureData.gather(_:marked:threads:)` with ``markedConfigurations(_:)``).
  ///   - appendix: Markdown added after the report's tables (the recorded configuration).
  ///   - verdict: the verdict section (``VerdictReport/markdown(_:configurations:metrics:f1Interval:)``),
  ///     shown first, before the figures.
  package static func html(_ result: TuningResult, _ data: SweepFigureData, appendix: String = "", verdict: String = "")
    -> [UInt8]
  {
    var sections = SweepFigures.sections(result.sweep, data, chosen: result.chosen)
    if let figure = crossValidationFigure(result) {
      sections.insert(
        HTMLPage.Section(
          title: "Cross-validation",
          text:
            "Each fold chooses on its training part and is scored on the part it held out: the gap between the two is the optimism of choosing on the same traces.",
          figures: [figure]),
        at: 0)
    }
    let page = HTMLPage.render(
      title: "touchtrace tune", verdict: verdict, sections: sections, markdown: markdown(result) + appendix)
    return Array(page.utf8)
  }

  /// `fig-cv`: per fold, the objective's statistic of the fold's choice on its training part
  /// (in-sample) and on its held-out part, joined by a line; `nil` without cross-validation.
  static func crossValidationFigure(_ result: TuningResult) -> Figure? {
    guard let cv = result.crossValidation, !cv.folds.isEmpty else { return nil }
    let statistic = result.options.rule.objective.statistic
    let name = statistic == .f1 ? "F1" : statistic.isLatency ? "p90 |action − reference|" : statistic.description
    let scale = statistic.isLatency ? 1000.0 : 1
    let unit = statistic.isLatency ? "ms" : ""
    let training = SeriesStyle.series(0)
    let heldOut = SeriesStyle.series(1)
    var marks: [PlotMark] = []
    var inSample: [(x: Double, y: Double, label: String?)] = []
    var outOfSample: [(x: Double, y: Double, label: String?)] = []
    func text(_ value: Double) -> String {
      statistic.isLatency ? TextFormat.decimal(value, 0) + " ms" : TextFormat.decimal(value, 3)
    }
    for fold in cv.folds {
      let x = Double(fold.fold + 1)
      let chosen =
        fold.chosen.map { c in
          result.sweep.configurations[c].name + " " + Markdown.describe(result.sweep.configurations[c])
        } ?? "nothing chosen"
      let a = fold.training.flatMap { statistic.value(of: $0) }.map { $0 * scale }
      let b = fold.heldOut.flatMap { statistic.value(of: $0) }.map { $0 * scale }
      if let a {
        inSample.append(
          (x, a, "fold \(fold.fold + 1), \(chosen): in-sample \(name) \(text(a)) (\(fold.trainingTraces) traces)"))
      }
      if let b {
        outOfSample.append(
          (x, b, "fold \(fold.fold + 1), \(chosen): held-out \(name) \(text(b)) (\(fold.heldOutTraces) traces)"))
      }
      if let a, let b { marks.append(.line([(x, a), (x, b)], SeriesStyle(color: "#999999", width: 1))) }
    }
    guard !inSample.isEmpty || !outOfSample.isEmpty else { return nil }
    marks.append(.markers(inSample, .dot, training))
    marks.append(.markers(outOfSample, .diamond, heldOut))
    let k = cv.folds.count
    return Figure(
      id: "fig-cv", title: "Cross-validation: in-sample against held-out",
      plots: [
        Plot(
          title: "\(name) per fold: training part against held-out part",
          description:
            "For each of the \(k) folds, \(name) of the configuration the fold chose on its training traces, on those traces (in-sample) and on the traces it held out.",
          x: PlotAxis(
            label: "fold", domain: (0.5, Double(k) + 0.5),
            namedTicks: cv.folds.map { (Double($0.fold + 1), "\($0.fold + 1)") }),
          y: PlotAxis(label: name, unit: unit, domain: statistic.isLatency ? nil : (0, 1)),
          marks: marks,
          legend: [
            LegendEntry(label: "in-sample (training part)", style: training, marker: .dot, markerOnly: true),
            LegendEntry(label: "held-out", style: heldOut, marker: .diamond, markerOnly: true),
          ],
          width: 520, height: 240)
      ],
      caption:
        "\(name) of each fold's choice on its training part and on its held-out part (\(k) folds); the held-out values are the honest estimate, the gap is what choosing on the same traces flatters."
    )
  }

  /// The configuration to mark per recognizer: the chosen one for its recognizer (others get
  /// their best by F1).
  package static func markedConfigurations(_ result: TuningResult) -> [String: Int] {
    guard let chosen = result.chosen else { return [:] }
    return [result.sweep.configurations[chosen].name: chosen]
  }
}

/// The per-trace outcomes of both configurations of a comparison, for its HTML report.
package struct ComparisonFigureData: Sendable {
  /// A trace where exactly one of A and B is correct, drawn with both configurations' actions.
  package struct Disagreement: Sendable {
    /// The trace, with its samples.
    package var trace: Trace
    /// Its ground truth.
    package var truth: TraceTruth
    /// A's action times, seconds on the trace's clock.
    package var a: [Double]
    /// B's action times, seconds on the trace's clock.
    package var b: [Double]
  }

  /// The outcomes of configuration A, one per trace.
  package var a: OutcomeColumn
  /// The outcomes of configuration B, one per trace.
  package var b: OutcomeColumn
  /// Traces where exactly one of them is correct, first by name, at most ``examples`` of them.
  package var disagreements: [Disagreement]

  /// How many disagreeing traces are drawn.
  package static let examples = 4

  /// The traces a comparison's figures draw, chosen as the traces pass
  /// (`ScoredStream.Request.onReplays`, with A's and B's outcomes): the first ``examples`` by
  /// name of those where exactly one of A and B is correct, kept with their samples. Only those
  /// few traces are held, and they are the same whatever the batches.
  package struct Selector {
    private struct Candidate {
      var trace: Trace
      var truth: TraceTruth
    }
    private var candidates: [Candidate] = []

    /// An empty selection.
    package init() {}

    /// Adds a batch: its traces (with their samples), their truths and A's and B's outcomes on
    /// them (`outcomes[0]` and `outcomes[1]`, each outcome's `trace` indexing `traces`).
    package mutating func add(batch traces: [Trace], truths: [TraceTruth], outcomes: [[TraceOutcome]]) {
      guard outcomes.count == 2 else { return }
      for (a, b) in zip(outcomes[0], outcomes[1]) where a.isCorrect != b.isCorrect {
        let trace = traces[a.trace]
        let at = candidates.firstIndex { trace.name < $0.trace.name } ?? candidates.count
        guard at < examples else { continue }
        candidates.insert(Candidate(trace: trace, truth: truths[a.trace]), at: at)
        if candidates.count > examples { candidates.removeLast() }
      }
    }

    /// The figures' data: `a` and `b`, every trace's outcomes in trace order, and the chosen
    /// traces replayed through A and B for their action times.
    ///
    /// - Throws: `ReplayError` when an external recognizer fails.
    package func finish(_ run: ComparisonResult, a: OutcomeColumn, b: OutcomeColumn) throws(ReplayError)
      -> ComparisonFigureData
    {
      var disagreements: [Disagreement] = []
      for candidate in candidates {
        disagreements.append(
          Disagreement(
            trace: candidate.trace, truth: candidate.truth,
            a: try run.a.recognizer.replay(trace: candidate.trace).allActions.map(\.t),
            b: try run.b.recognizer.replay(trace: candidate.trace).allActions.map(\.t)))
      }
      return ComparisonFigureData(a: a, b: b, disagreements: disagreements)
    }
  }
}

extension CompareReport {
  /// The HTML report of `touchtrace compare`: latency distributions of A and B
  /// (`fig-latency-cdf`), the paired latency differences (`fig-latency-diff`), false positives by
  /// intent (`fig-fp-intent`), the two-stage confusion matrices where present (`fig-confusion`),
  /// traces where exactly one is correct (`fig-examples-disagreements`), then the Markdown
  /// report's tables.
  ///
  /// - Parameters:
  ///   - run: the comparison.
  ///   - data: both configurations' outcomes and the traces drawn (`ComparisonFigureData.Selector`).
  ///   - appendix: Markdown added after the report's tables (the recorded configuration).
  ///   - verdict: the verdict section (``VerdictReport/markdown(_:configurations:metrics:f1Interval:)``),
  ///     shown first, before the figures.
  package static func html(
    _ run: ComparisonResult, _ data: ComparisonFigureData, appendix: String = "", verdict: String = ""
  ) -> [UInt8] {
    let page = HTMLPage.render(
      title: "touchtrace compare", verdict: verdict, sections: CompareFigures.sections(run, data),
      markdown: markdown(run) + appendix)
    return Array(page.utf8)
  }
}

/// The figures of a comparison.
enum CompareFigures {
  static func sections(_ run: ComparisonResult, _ data: ComparisonFigureData) -> [HTMLPage.Section] {
    var ids = ElementIDs()
    let names = ["A: " + label(run.a), "B: " + label(run.b)]
    let metrics = [run.comparison.a, run.comparison.b]
    let outcomes = [data.a, data.b]
    // Latency CDFs.
    var cdfMarks: [PlotMark] = []
    var cdfLegend: [LegendEntry] = []
    for k in 0..<2 {
      let latencies = outcomes[k].flatMap { $0.stage1.matches.map { $0.latency * 1000 } }.sorted()
      guard !latencies.isEmpty else { continue }
      cdfMarks.append(.steps(Plot.cdfSteps(latencies), .series(k)))
      cdfLegend.append(LegendEntry(label: "\(names[k]) (n = \(latencies.count))", style: .series(k)))
    }
    let cdf = Figure(
      id: ids.unique("fig-latency-cdf"), title: "Latency distributions",
      plots: [
        .latencyCDF(
          description: "The share of true positives with latency at most x milliseconds, for A and B.",
          marks: cdfMarks, legend: cdfLegend, height: 300)
      ],
      caption:
        "Empirical cumulative distribution of stage-1 latency of each configuration (one step per true positive).")
    // Paired differences as sorted curves (quantile plots): who acts first (B − A) and who acts
    // nearer the press (|B| − |A|).
    func quantiles(_ values: [Double]) -> [(x: Double, y: Double)] {
      let sorted = values.map { $0 * 1000 }.sorted()
      let count = Double(max(sorted.count, 1))
      return sorted.enumerated().map { (x: (Double($0.offset) + 0.5) / count, y: $0.element) }
    }
    let signed = quantiles(run.comparison.latencyDifferences.values)
    let timing = quantiles(run.comparison.timingErrorDifferences.values)
    let difference = Figure(
      id: ids.unique("fig-latency-diff"), title: "Paired latency differences",
      plots: [
        Plot(
          title: "B − A and |B| − |A| on references both matched (sorted)",
          description:
            "The \(signed.count) paired differences in milliseconds, sorted, against their rank as a share: B − A (below zero B acts first) and |B| − |A| (below zero B acts nearer the press; acting first before the press is premature, not faster).",
          x: PlotAxis(label: "share of references (rank)", domain: (0, 1)),
          y: PlotAxis(label: "difference", unit: "ms"),
          marks: [
            .line(signed, .series(2)),
            .markers(
              signed.map { (x: $0.x, y: $0.y, label: "B − A \(TextFormat.decimal($0.y, 1)) ms") }, .dot, .series(2)),
            .line(timing, .series(0)),
            .markers(
              timing.map { (x: $0.x, y: $0.y, label: "|B| − |A| \(TextFormat.decimal($0.y, 1)) ms") }, .dot, .series(0)),
            .horizontalRule(0, "0", SeriesStyle(color: "#999999", dash: "4 4", width: 1)),
          ],
          legend: [
            LegendEntry(label: "B − A (who acts first)", style: .series(2), marker: .dot),
            LegendEntry(label: "|B| − |A| (who acts nearer the press)", style: .series(0), marker: .dot),
          ],
          width: 640, height: 260)
      ],
      caption:
        "Each reference both configurations matched gives one difference B − A and one |B| − |A| (seconds shown as milliseconds); sorted, so each curve is an empirical quantile function. Only |B| − |A| says which configuration is better timed."
    )
    let fp = Figure(
      id: ids.unique("fig-fp-intent"), title: "False positives by intent",
      plots: [
        .falsePositivesByIntent(
          title: "False positives by intent",
          description: "A heat map of false-positive counts of A and B by the trace's intent.",
          what: "configuration", names: ["A", "B"], rows: metrics.map(\.stage1))
      ],
      caption: "Stage-1 false positives of A (top) and B (bottom) by intent: \(names.joined(separator: "; ")).")
    var figures = [cdf, difference, fp]
    let matrices = (0..<2).compactMap { k in metrics[k].confusion.map { (k, $0) } }
    if !matrices.isEmpty {
      figures.append(
        Figure(
          id: ids.unique("fig-confusion"), title: "Two-stage confusion",
          plots: matrices.map { k, matrix in
            .confusion(
              matrix, title: names[k],
              description: "Confusion matrix of \(names[k]): rows intended, columns recognized.")
          },
          caption: "Traces by intended class (rows) and recognized class (columns) for each two-stage configuration."))
    }
    let examplePlots = data.disagreements.map { entry -> Plot in
      let (trace, truth) = (entry.trace, entry.truth)
      var marks: [PlotMark] = []
      for reference in truth.references {
        marks.append(.verticalRule(reference, "ref", SeriesStyle(color: SeriesStyle.palette[2], dash: "2 2")))
      }
      for t in entry.a { marks.append(.verticalRule(t, "A", .series(0))) }
      for t in entry.b { marks.append(.verticalRule(t, "B", SeriesStyle(color: SeriesStyle.palette[1], dash: "6 3"))) }
      return Plot.trace(
        trace, title: "\(trace.name) (\(truth.intent.rawValue))",
        description:
          "Force of trace \(trace.name) against time, with A's \(entry.a.count) and B's \(entry.b.count) actions and \(truth.references.count) reference times.",
        force: SeriesStyle(color: "#444444", width: 1.5), marks: marks,
        legend: [
          LegendEntry(label: "force", style: SeriesStyle(color: "#444444")),
          LegendEntry(label: "reference", style: SeriesStyle(color: SeriesStyle.palette[2], dash: "2 2")),
          LegendEntry(label: "A action", style: .series(0)),
          LegendEntry(label: "B action", style: SeriesStyle(color: SeriesStyle.palette[1], dash: "6 3")),
        ])
    }
    if !examplePlots.isEmpty {
      figures.append(
        Figure(
          id: ids.unique("fig-examples-disagreements"), title: "Traces where A and B disagree",
          plots: examplePlots,
          caption:
            "Up to \(ComparisonFigureData.examples) traces, first by name, where exactly one configuration is correct (no false positive and no miss)."
        ))
    }
    return [HTMLPage.Section(title: "A against B", text: names.joined(separator: "; "), figures: figures)]
  }

  /// `name parameters` of a configuration.
  static func label(_ configuration: Configuration) -> String {
    "\(configuration.name) \(Markdown.describe(configuration))"
  }
}
