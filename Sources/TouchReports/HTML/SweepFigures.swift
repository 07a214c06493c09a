package import TouchCore
package import TouchEvaluation
package import TouchRecognizers
import TouchTuning

/// What the figures of a sweep need beyond its metrics: the latencies of each recognizer's
/// marked configuration, and the replays of the example traces drawn.
///
/// Gathering replays configurations (`gather(_:marked:threads:)`, or a ``Selector`` fed as the
/// traces are read); everything after is pure rendering, so the same data give the same bytes.
package struct SweepFigureData: Sendable {
  /// One example trace of a marked configuration.
  package struct Example: Sendable {
    /// The trace, with its samples.
    package var trace: Trace
    /// Its ground truth.
    package var truth: TraceTruth
    /// Why it was chosen: `false positive`, `miss` or `correct`.
    package var kind: String
    /// The configuration's action times on the trace, seconds on the trace's clock.
    package var actions: [Double]
    /// The configuration's stage-2 time, seconds; `nil` for none.
    package var stage2: Double?
  }

  /// Per recognizer (plan order): its marked configuration, the latencies of its true positives
  /// (milliseconds, ascending), and the examples drawn.
  package var marked: [(recognizer: RecognizerSpec, configuration: Int, latencies: [Double], examples: [Example])]

  /// How many false positives and how many misses each recognizer's example figure draws.
  package static let examplesPerKind = 2

  /// Replays each recognizer's marked configuration (`marked`, else its best by F1) over every
  /// trace of the sweep's evaluation (which keeps its traces), and chooses its examples as
  /// ``Selector`` does.
  ///
  /// - Parameters:
  ///   - result: the sweep.
  ///   - marked: the configuration to mark per recognizer, by recognizer name; others get their
  ///     best configuration.
  ///   - threads: threads for the replays; the data do not depend on it.
  /// - Throws: `ReplayError` when an external recognizer fails.
  package static func gather(_ result: SweepResult, marked: [String: Int] = [:], threads: Int = 1) throws(ReplayError)
    -> SweepFigureData
  {
    let traces = result.evaluation.traces
    let truths = result.evaluation.truths
    var selector = Selector(result, marked: marked)
    for (entry, c) in selector.configurations.enumerated() {
      for outcome in try result.outcomes(configuration: c, threads: threads) {
        selector.add(entry: entry, trace: traces[outcome.trace], truth: truths[outcome.trace], outcome: outcome)
      }
    }
    return try selector.finish(result)
  }

  /// The figures' data gathered trace by trace, keeping a bounded number of traces: for each
  /// recognizer's marked configuration its true positives' latencies and the candidates for its
  /// examples, which are the first ``examplesPerKind`` traces by name with a stage-1 false
  /// positive, then the first ones with a miss (a false negative), each trace once, and when it
  /// has neither, its first correct detection. The traces may come in any order: the choice
  /// depends on their names only.
  package struct Selector {
    /// Per recognizer (plan order), its spec and marked configuration.
    package let entries: [(recognizer: RecognizerSpec, configuration: Int)]
    private var candidates: [Candidates]

    /// The marked configurations, in entry order.
    package var configurations: [Int] { entries.map(\.configuration) }

    private struct Candidate {
      var name: String
      var trace: Trace
      var truth: TraceTruth
    }

    private struct Candidates {
      var falsePositives: [Candidate] = []
      /// Twice as many: the chosen false positives may hide up to ``examplesPerKind`` of them.
      var misses: [Candidate] = []
      var correct: Candidate?
      var latencies: [Double] = []
    }

    /// A selection for `result`'s recognizers: each marks `marked[name]`, else its best
    /// configuration by F1.
    package init(_ result: SweepResult, marked: [String: Int] = [:]) {
      entries = result.bestConfigurations().map { spec, best in (spec, marked[spec.name] ?? best) }
      candidates = Array(repeating: Candidates(), count: entries.count)
    }

    /// Adds `trace` (with its samples), its truth and the outcome of entry `entry`'s
    /// configuration on it.
    package mutating func add(entry: Int, trace: Trace, truth: TraceTruth, outcome: TraceOutcome) {
      for match in outcome.stage1.matches { candidates[entry].latencies.append(match.latency * 1000) }
      let s = outcome.stage1
      guard s.falsePositives > 0 || s.falseNegatives > 0 || s.truePositives > 0 else { return }
      let name = trace.name
      let k = SweepFigureData.examplesPerKind
      func candidate() -> Candidate { Candidate(name: name, trace: trace, truth: truth) }
      if s.falsePositives > 0 { Self.insert(candidate(), into: &candidates[entry].falsePositives, keeping: k) }
      if s.falseNegatives > 0 { Self.insert(candidate(), into: &candidates[entry].misses, keeping: 2 * k) }
      if s.truePositives > 0, candidates[entry].correct.map({ name < $0.name }) ?? true {
        candidates[entry].correct = candidate()
      }
    }

    /// Adds a batch of traces as `ScoredStream.Request.onReplays` hands it over: the traces
    /// (with their samples), their truths and, per entry, the outcomes of its configuration on
    /// them (each outcome's `trace` indexing `traces`).
    package mutating func add(batch traces: [Trace], truths: [TraceTruth], outcomes: [[TraceOutcome]]) {
      for (entry, list) in outcomes.enumerated() {
        for outcome in list {
          add(entry: entry, trace: traces[outcome.trace], truth: truths[outcome.trace], outcome: outcome)
        }
      }
    }

    private static func insert(_ candidate: Candidate, into list: inout [Candidate], keeping limit: Int) {
      let at = list.firstIndex { candidate.name < $0.name } ?? list.count
      guard at < limit else { return }
      list.insert(candidate, at: at)
      if list.count > limit { list.removeLast() }
    }

    /// The figures' data: each entry's latencies sorted and its examples replayed.
    ///
    /// - Throws: `ReplayError` when an external recognizer fails.
    package func finish(_ result: SweepResult) throws(ReplayError) -> SweepFigureData {
      var data = SweepFigureData(marked: [])
      for (entry, (spec, c)) in entries.enumerated() {
        let found = candidates[entry]
        var chosen = found.falsePositives.map { ($0, "false positive") }
        let falsePositiveNames = Set(found.falsePositives.map(\.name))
        chosen += found.misses.filter { !falsePositiveNames.contains($0.name) }.prefix(examplesPerKind).map {
          ($0, "miss")
        }
        if chosen.isEmpty, let correct = found.correct { chosen.append((correct, "correct")) }
        let recognizer = result.configurations[c].recognizer
        var examples: [Example] = []
        for (candidate, kind) in chosen {
          let replay = try recognizer.replay(trace: candidate.trace)
          examples.append(
            Example(
              trace: candidate.trace, truth: candidate.truth, kind: kind, actions: replay.allActions.map(\.t),
              stage2: replay.stage2?.t))
        }
        data.marked.append((spec, c, found.latencies.sorted(), examples))
      }
      return data
    }
  }
}

/// The figures of a sweep (also drawn by the tune report), built from the plot toolkit.
enum SweepFigures {
  /// The figure sections: per-recognizer accuracy, threshold curves, latency, trade-off,
  /// errors, example traces. `chosen` is a configuration marked on the trade-off plot (tune's
  /// choice).
  static func sections(_ result: SweepResult, _ data: SweepFigureData, chosen: Int? = nil) -> [HTMLPage.Section] {
    var ids = ElementIDs()
    // Misfire mode (no positive trace): only false alarms were counted, so only the misfire
    // rates apply; accuracy, threshold curves, latency and the chosen configuration's errors and
    // examples have nothing to show (no configuration is chosen).
    if result.evaluation.summary.analyzed > 0, result.evaluation.summary.positives == 0 {
      return [
        HTMLPage.Section(
          title: "Misfires against each swept parameter",
          text:
            "No trace is a positive: the share of contacts with any action (the misfire rate) of every configuration of each recognizer, with its 95 % Wilson interval as a band.",
          figures: misfires(result, &ids), grid: true)
      ]
    }
    let curves = ThresholdCurve.curves(result)
    let best = bestF1(result)
    return [
      HTMLPage.Section(
        title: "Accuracy against each swept parameter",
        text:
          "Precision, recall and F1 (stage 1) of every configuration of each recognizer; bands are 95 % Wilson score intervals for precision and recall. The ring marks the configuration chosen (the best by F1 unless the report says otherwise).",
        figures: metrics(result, data, &ids), grid: true),
      HTMLPage.Section(
        title: "Threshold curves",
        text:
          "ROC (false-positive rate against recall) and precision–recall over each recognizer's swept threshold, through its best configuration.",
        figures: [roc(curves, bestF1: best, &ids), precisionRecall(curves, bestF1: best, &ids)]),
      HTMLPage.Section(
        title: "Latency",
        text: "Latency is action − reference time of true positives, in milliseconds.",
        figures: [latencyCDF(result, data, &ids), latencyByParameter(result, data, &ids)]),
      HTMLPage.Section(
        title: "Accuracy against latency",
        text: "",
        figures: [tradeoff(result, chosen: chosen, &ids)]),
      HTMLPage.Section(
        title: "Errors",
        text: "",
        figures: [falsePositivesByIntent(result, data, &ids)] + (confusion(result, data, &ids).map { [$0] } ?? [])),
      HTMLPage.Section(
        title: "Example traces",
        text:
          "Force against time for a few false positives and misses of each recognizer's chosen configuration (the first by trace name).",
        figures: examples(result, data, &ids)),
    ]
  }

  /// The values of `configuration`'s parameter `name` as a number (`nil` for flags, lists, NaN).
  static func number(_ configuration: Configuration, _ name: String) -> Double? {
    guard case .number(let value)? = configuration.parameters[name], value.isFinite else { return nil }
    return value
  }

  /// The axis of a swept parameter: its name, its declared unit, logarithmic when every value
  /// is positive and they span a ratio of 50 or more (default grids of raw force run 0.05 to
  /// 255).
  static func parameterAxis(_ spec: RecognizerSpec, _ parameter: String, values: [Double]) -> PlotAxis {
    let unit = spec.parameter(parameter)?.unit ?? .none
    let positive = values.allSatisfy { $0 > 0 }
    let spread = (values.max() ?? 1) / (values.min() ?? 1)
    return PlotAxis(label: parameter, unit: unit == .none ? "" : unit.rawValue, logarithmic: positive && spread >= 50)
  }

  /// `fig-misfires-<recognizer>` (misfire mode): per recognizer, the misfire rate per contact
  /// against each swept parameter (other swept parameters at its first configuration's values),
  /// the 95 % Wilson interval as a band; the rate of its one configuration when nothing was swept.
  static func misfires(_ result: SweepResult, _ ids: inout ElementIDs) -> [Figure] {
    let axes = Dictionary(
      result.plan.axesByRecognizer.map { ($0.recognizer.name, $0.axes) }, uniquingKeysWith: { a, _ in a })
    var figures: [Figure] = []
    var seen = Set<String>()
    for (first, configuration) in result.configurations.enumerated() where seen.insert(configuration.name).inserted {
      let name = configuration.name
      let style = SeriesStyle.series(0)
      var plots: [Plot] = []
      for parameter in axes[name]?.map(\.parameter) ?? [] {
        let slice = ThresholdCurve.slice(result, through: first, along: parameter)
        guard !slice.isEmpty else { continue }
        let points = slice.map { (value: $0.value, m: result.metrics[$0.configuration].stage1) }
        let band = points.compactMap { p -> (x: Double, low: Double, high: Double)? in
          ProportionInterval.wilson(p.m.falsePositiveTraces, of: p.m.negativeTraces).map { (p.value, $0.low, $0.high) }
        }
        let rates = points.map { (x: $0.value, y: $0.m.falsePositiveRate ?? .nan) }
        plots.append(
          Plot(
            title: "\(name): misfire rate against \(parameter)",
            description:
              "The share of contacts with any action of \(name) at \(slice.count) values of \(parameter) from \(TextFormat.compact(slice[0].value)) to \(TextFormat.compact(slice[slice.count - 1].value)).",
            x: parameterAxis(configuration.spec, parameter, values: slice.map(\.value)),
            y: PlotAxis(label: "misfire rate", domain: (0, 1)),
            marks: [
              .band(band, style), .line(rates, style),
              .markers(
                points.map { p in
                  (
                    x: p.value, y: p.m.falsePositiveRate ?? .nan,
                    label:
                      "\(parameter)=\(TextFormat.compact(p.value)): \(p.m.falsePositiveTraces) of \(p.m.negativeTraces) contacts misfire"
                  )
                }, .dot, style),
            ],
            legend: [LegendEntry(label: "misfire rate (band: 95 % Wilson)", style: style, marker: .dot)],
            width: 520, height: 220))
      }
      if plots.isEmpty {
        let m = result.metrics[first].stage1
        var marks: [PlotMark] = []
        if let interval = ProportionInterval.wilson(m.falsePositiveTraces, of: m.negativeTraces) {
          marks.append(.line([(1, interval.low), (1, interval.high)], SeriesStyle(color: style.color, width: 2)))
        }
        marks.append(
          .markers(
            [(1, m.falsePositiveRate ?? .nan, "\(m.falsePositiveTraces) of \(m.negativeTraces) contacts misfire")],
            .diamond, style))
        plots.append(
          Plot(
            title: "\(name): misfire rate (no swept parameter)",
            description:
              "\(name) at one configuration: \(m.falsePositiveTraces) of \(m.negativeTraces) contacts misfire.",
            x: PlotAxis(
              label: "configuration", domain: (0.5, 1.5), namedTicks: [(1, Markdown.describe(configuration))]),
            y: PlotAxis(label: "misfire rate", domain: (0, 1)),
            marks: marks,
            legend: [LegendEntry(label: "misfire rate (whisker: 95 % Wilson)", style: style, marker: .diamond)],
            width: 420, height: 220))
      }
      figures.append(
        Figure(
          id: ids.unique("fig-misfires-" + HTMLText.idPart(name)), title: "\(name): misfire rate", plots: plots,
          caption:
            "\(name): the share of the \(result.evaluation.summary.analyzed) contacts (none a press) on which it acted at least once, against its swept parameters; bands are 95 % Wilson intervals."
        ))
    }
    return figures
  }

  /// `fig-metrics-<recognizer>`: per recognizer, one plot per swept parameter.
  static func metrics(_ result: SweepResult, _ data: SweepFigureData, _ ids: inout ElementIDs) -> [Figure] {
    let axes = Dictionary(
      result.plan.axesByRecognizer.map { ($0.recognizer.name, $0.axes) }, uniquingKeysWith: { a, _ in a })
    return data.marked.map { entry in
      let name = entry.recognizer.name
      let best = entry.configuration
      let parameters = axes[name]?.map(\.parameter) ?? []
      var plots: [Plot] = []
      for parameter in parameters {
        let slice = ThresholdCurve.slice(result, through: best, along: parameter)
        guard !slice.isEmpty else { continue }
        let stages = slice.map { (value: $0.value, m: result.metrics[$0.configuration].stage1) }
        func series(_ f: (StageMetrics) -> Double?) -> [(x: Double, y: Double)] {
          stages.map { (x: $0.value, y: f($0.m) ?? .nan) }
        }
        let precisionBand = stages.compactMap { s -> (x: Double, low: Double, high: Double)? in
          ProportionInterval.wilson(s.m.truePositives, of: s.m.truePositives + s.m.falsePositives).map {
            (s.value, $0.low, $0.high)
          }
        }
        let recallBand = stages.compactMap { s -> (x: Double, low: Double, high: Double)? in
          ProportionInterval.wilson(s.m.truePositives, of: s.m.truePositives + s.m.falseNegatives).map {
            (s.value, $0.low, $0.high)
          }
        }
        let styles = (0..<3).map(SeriesStyle.series)
        var marks: [PlotMark] = [
          .band(precisionBand, styles[0]), .band(recallBand, styles[1]),
          .line(series(\.precision), styles[0]), .line(series(\.recall), styles[1]), .line(series(\.f1), styles[2]),
          .markers(
            stages.map {
              (
                x: $0.value, y: $0.m.f1 ?? .nan,
                label: "\(parameter)=\(TextFormat.compact($0.value)): F1 \(Markdown.ratio($0.m.f1))"
              )
            }, .dot, styles[2]),
        ]
        let bestValue = number(result.configurations[best], parameter)
        let bestF1 = result.metrics[best].stage1.f1
        if let bestValue {
          marks.append(.verticalRule(bestValue, nil, SeriesStyle(color: "#888888", dash: "2 2", width: 1)))
          if let bestF1 {
            marks.append(
              .markers(
                [
                  (
                    bestValue, bestF1,
                    "chosen: \(parameter)=\(TextFormat.compact(bestValue)), F1 \(Markdown.ratio(bestF1))"
                  )
                ], .ring, .reference))
          }
        }
        plots.append(
          Plot(
            title: "\(name): accuracy against \(parameter)",
            description:
              "Precision, recall and F1 of \(name) at \(slice.count) values of \(parameter) from \(TextFormat.compact(slice[0].value)) to \(TextFormat.compact(slice[slice.count - 1].value)); the chosen configuration \(Markdown.describe(result.configurations[best])) has F1 \(Markdown.ratio(bestF1)).",
            x: parameterAxis(entry.recognizer, parameter, values: slice.map(\.value)),
            y: PlotAxis(label: "proportion", domain: (0, 1)),
            marks: marks,
            legend: [
              LegendEntry(label: "precision (band: 95 % Wilson)", style: styles[0]),
              LegendEntry(label: "recall (band: 95 % Wilson)", style: styles[1]),
              LegendEntry(label: "F1 (no interval)", style: styles[2], marker: .dot),
              LegendEntry(label: "chosen configuration", style: .reference, marker: .ring),
            ],
            width: 520, height: 220))
      }
      if plots.isEmpty {
        // No swept parameter: the one configuration's three values on a categorical axis, with
        // the Wilson intervals of precision and recall as whiskers (F1 has none).
        let m = result.metrics[best].stage1
        let styles = (0..<3).map(SeriesStyle.series)
        var marks: [PlotMark] = []
        let precision = ProportionInterval.wilson(m.truePositives, of: m.truePositives + m.falsePositives)
        let recall = ProportionInterval.wilson(m.truePositives, of: m.truePositives + m.falseNegatives)
        for (x, interval, style) in [(1.0, precision, styles[0]), (2.0, recall, styles[1])] {
          guard let interval else { continue }
          marks.append(.line([(x, interval.low), (x, interval.high)], SeriesStyle(color: style.color, width: 2)))
          marks.append(
            .line([(x - 0.08, interval.low), (x + 0.08, interval.low)], SeriesStyle(color: style.color, width: 2)))
          marks.append(
            .line([(x - 0.08, interval.high), (x + 0.08, interval.high)], SeriesStyle(color: style.color, width: 2)))
        }
        func text(_ what: String, _ value: Double?, _ interval: ProportionInterval?) -> String {
          "\(what) \(Markdown.ratio(value))"
            + (interval.map { " (95 % Wilson \(Markdown.ratio($0.low))–\(Markdown.ratio($0.high)))" } ?? "")
        }
        marks += [
          .markers([(1, m.precision ?? .nan, text("precision", m.precision, precision))], .diamond, styles[0]),
          .markers([(2, m.recall ?? .nan, text("recall", m.recall, recall))], .diamond, styles[1]),
          .markers([(3, m.f1 ?? .nan, "F1 \(Markdown.ratio(m.f1))")], .diamond, styles[2]),
        ]
        plots.append(
          Plot(
            title: "\(name): accuracy (no swept parameter)",
            description:
              "\(name) was scored at one configuration: \(text("precision", m.precision, precision)), \(text("recall", m.recall, recall)), F1 \(Markdown.ratio(m.f1)).",
            x: PlotAxis(label: "metric", domain: (0.5, 3.5), namedTicks: [(1, "precision"), (2, "recall"), (3, "F1")]),
            y: PlotAxis(label: "proportion", domain: (0, 1)),
            marks: marks,
            legend: [
              LegendEntry(label: "precision (whiskers: 95 % Wilson)", style: styles[0], marker: .diamond),
              LegendEntry(label: "recall (whiskers: 95 % Wilson)", style: styles[1], marker: .diamond),
              LegendEntry(label: "F1 (no interval)", style: styles[2], marker: .diamond),
            ],
            width: 420, height: 220))
      }
      return Figure(
        id: ids.unique("fig-metrics-" + HTMLText.idPart(name)),
        title: "\(name): precision, recall and F1",
        plots: plots,
        caption: "\(name): stage-1 precision, recall and F1 "
          + (parameters.isEmpty
            ? "of its one configuration (no swept parameter)."
            : "against \(parameters.joined(separator: ", ")) (other swept parameters at the chosen configuration's values).")
          + " Chosen: \(Markdown.describe(result.configurations[best])), F1 \(Markdown.ratio(result.metrics[best].stage1.f1))."
      )
    }
  }

  /// The most series one plot draws: beyond eight, colours repeat and lines hide each other.
  static let maximumSeries = 8

  /// Series to draw: items with identical content (`key`) grouped and drawn once, the groups
  /// ranked by `rank` (higher first; `nil` last; ties in item order) and the first
  /// ``maximumSeries`` kept. Returns the kept groups (item indices, in item order within a
  /// group) and the names of the items left out.
  static func seriesGroups<Key: Hashable>(
    _ count: Int, key: (Int) -> Key, rank: (Int) -> Double?, name: (Int) -> String
  ) -> (kept: [[Int]], omitted: [String]) {
    var order: [Key] = []
    var members: [Key: [Int]] = [:]
    for k in 0..<count {
      let group = key(k)
      if members[group] == nil { order.append(group) }
      members[group, default: []].append(k)
    }
    let groups = order.map { members[$0]! }
    let ranked = groups.indices.sorted { a, b in
      let ra = rank(groups[a][0]) ?? -.infinity
      let rb = rank(groups[b][0]) ?? -.infinity
      return ra != rb ? ra > rb : a < b
    }
    let kept = ranked.prefix(maximumSeries).map { groups[$0] }
    let omitted = ranked.dropFirst(maximumSeries).flatMap { groups[$0].map(name) }
    return (kept, omitted)
  }

  /// The legend name of a group of series drawn as one: `a`, or `a = b = c`, or
  /// `a = b = c + 4 more` (every name is in the plot's description).
  static func groupName(_ names: [String]) -> String {
    names.count <= 3
      ? names.joined(separator: " = ") : names.prefix(3).joined(separator: " = ") + " + \(names.count - 3) more"
  }

  /// The sentence naming groups drawn as one and series left out, for a plot's description and
  /// caption; empty when every series is drawn on its own.
  static func groupingNote(_ groups: [[String]], omitted: [String]) -> String {
    var out = ""
    let merged = groups.filter { $0.count > 1 }
    if !merged.isEmpty {
      out +=
        " Identical curves are drawn once: " + merged.map { $0.joined(separator: " = ") }.joined(separator: "; ") + "."
    }
    if !omitted.isEmpty {
      out +=
        " Drawn: the \(maximumSeries) best by F1; left out (see the tables): " + omitted.joined(separator: ", ") + "."
    }
    return out
  }

  /// Each recognizer's best stage-1 F1 over its configurations (``StageMetrics/f1``), by name;
  /// absent where no configuration has one. Plots with many recognizers draw the best of them.
  static func bestF1(_ result: SweepResult) -> [String: Double] {
    var best: [String: Double] = [:]
    for (c, configuration) in result.configurations.enumerated() {
      guard let f1 = result.metrics[c].stage1.f1 else { continue }
      best[configuration.spec.name] = max(best[configuration.spec.name] ?? f1, f1)
    }
    return best
  }

  /// One line with markers and a legend entry per group of identical curves (a style per
  /// group), at most ``maximumSeries`` groups, the best by F1: each point's (x, y) where both
  /// are defined, ordered by x, ties by y in `tiesByY` order. Also returns the grouping note.
  static func curveSeries(
    _ curves: [ThresholdCurve], bestF1: [String: Double], x: String, y: String, tiesByY: (Double, Double) -> Bool,
    point: (ThresholdCurve.Point) -> (Double, Double)?, legend entry: (ThresholdCurve, String) -> String
  ) -> (marks: [PlotMark], legend: [LegendEntry], note: String) {
    var marks: [PlotMark] = []
    var legend: [LegendEntry] = []
    let lines: [[(x: Double, y: Double)]] = curves.map { curve in
      var points: [(x: Double, y: Double)] = curve.points.compactMap(point).map { (x: $0.0, y: $0.1) }
      points.sort { a, b in a.x != b.x ? a.x < b.x : tiesByY(a.y, b.y) }
      return points
    }
    let (kept, omitted) = seriesGroups(
      curves.count, key: { lines[$0].flatMap { [$0.x, $0.y] } }, rank: { bestF1[curves[$0].recognizer] },
      name: { curves[$0].recognizer })
    for (k, group) in kept.enumerated() {
      let style = SeriesStyle.series(k)
      let points = lines[group[0]]
      let name = groupName(group.map { curves[$0].recognizer })
      marks.append(.line(points, style))
      marks.append(
        .markers(
          points.map {
            (x: $0.x, y: $0.y, label: "\(name): \(x) \(Markdown.ratio($0.x)), \(y) \(Markdown.ratio($0.y))")
          }, .dot, style))
      legend.append(LegendEntry(label: entry(curves[group[0]], name), style: style, marker: .dot))
    }
    return (marks, legend, groupingNote(kept.map { $0.map { curves[$0].recognizer } }, omitted: omitted))
  }

  /// `fig-roc`: FPR against recall, one line per recognizer.
  static func roc(_ curves: [ThresholdCurve], bestF1: [String: Double], _ ids: inout ElementIDs) -> Figure {
    var (marks, legend, note) = curveSeries(
      curves, bestF1: bestF1, x: "FPR", y: "recall", tiesByY: <,
      point: { p in p.falsePositiveRate.flatMap { f in p.recall.map { (f, $0) } } },
      legend: { "\($1) (AUC \(Markdown.ratio($0.rocAUC)))" })
    marks.append(.line([(0, 0), (1, 1)], SeriesStyle(color: "#999999", dash: "4 4", width: 1)))
    let spanned = curves.filter(\.spans).count
    return Figure(
      id: ids.unique("fig-roc"), title: "ROC: false-positive rate against recall",
      plots: [
        Plot(
          title: "ROC over the swept thresholds",
          description:
            "For \(curves.count) recognizers, the false-positive rate (negative traces with an action) against recall (events matched) at each swept threshold; \(spanned) sweeps span the threshold range and have an area.\(note)",
          x: PlotAxis(label: "false-positive rate", domain: (0, 1)), y: PlotAxis(label: "recall", domain: (0, 1)),
          marks: marks, legend: legend, width: 640, height: 360)
      ],
      caption:
        "One line per recognizer (identical ones drawn once), points ordered by false-positive rate. AUC (trapezoids) only where the sweep spans the threshold range (some value with FPR 0 and some with FPR 1); – otherwise. The dashed diagonal is chance.\(note)"
    )
  }

  /// `fig-pr`: recall against precision, one line per recognizer.
  static func precisionRecall(_ curves: [ThresholdCurve], bestF1: [String: Double], _ ids: inout ElementIDs) -> Figure {
    let (marks, legend, note) = curveSeries(
      curves, bestF1: bestF1, x: "recall", y: "precision", tiesByY: >,
      point: { p in p.recall.flatMap { r in p.precision.map { (r, $0) } } },
      legend: { "\($1) (AP \(Markdown.ratio($0.averagePrecisionThresholdOrder)))" })
    return Figure(
      id: ids.unique("fig-pr"), title: "Precision against recall",
      plots: [
        Plot(
          title: "Precision–recall over the swept thresholds",
          description:
            "For \(curves.count) recognizers, stage-1 precision against recall at each swept threshold (thresholds where nothing fired have no precision and are left out).\(note)",
          x: PlotAxis(label: "recall", domain: (0, 1)), y: PlotAxis(label: "precision", domain: (0, 1)),
          marks: marks, legend: legend, width: 640, height: 360)
      ],
      caption:
        "One line per recognizer (identical ones drawn once), points ordered by recall. AP is the step sum Σ (Rₙ − Rₙ₋₁) Pₙ with the thresholds walked from strictest to loosest (scikit-learn's average_precision_score), only where the sweep spans the threshold range.\(note)"
    )
  }

  /// `fig-latency-cdf`: empirical CDFs of latency at each recognizer's chosen configuration.
  static func latencyCDF(_ result: SweepResult, _ data: SweepFigureData, _ ids: inout ElementIDs) -> Figure {
    var marks: [PlotMark] = []
    var legend: [LegendEntry] = []
    let entries = data.marked.filter { !$0.latencies.isEmpty }
    let samples = entries.map(\.latencies)
    let (kept, omitted) = seriesGroups(
      entries.count, key: { samples[$0] }, rank: { result.metrics[entries[$0].configuration].stage1.f1 },
      name: { entries[$0].recognizer.name })
    for (k, group) in kept.enumerated() {
      let latencies = samples[group[0]]
      let style = SeriesStyle.series(k)
      marks.append(.steps(Plot.cdfSteps(latencies), style))
      legend.append(
        LegendEntry(
          label: "\(groupName(group.map { entries[$0].recognizer.name })) (n = \(latencies.count))", style: style))
    }
    let note = groupingNote(kept.map { $0.map { entries[$0].recognizer.name } }, omitted: omitted)
    return Figure(
      id: ids.unique("fig-latency-cdf"), title: "Latency distribution at the chosen configurations",
      plots: [
        .latencyCDF(
          description:
            "The share of true positives with latency at most x milliseconds, for \(legend.count) recognizers at their chosen configurations; negative latency is an action before the reference time.\(note)",
          marks: marks + [.verticalRule(0, nil, SeriesStyle(color: "#999999", dash: "4 4", width: 1))], legend: legend,
          height: 320)
      ],
      caption:
        "Empirical cumulative distribution of stage-1 latency (one step per true positive) of each recognizer at its chosen configuration (identical distributions drawn once); recognizers without true positives are left out.\(note)"
    )
  }

  /// `fig-latency-param`: p50 and p90 latency against the threshold, one small plot per recognizer.
  /// Quantile points over fewer true positives than this are drawn open.
  static let fewForQuantiles = 5

  static func latencyByParameter(_ result: SweepResult, _ data: SweepFigureData, _ ids: inout ElementIDs) -> Figure {
    var plots: [Plot] = []
    let curves = Dictionary(ThresholdCurve.curves(result).map { ($0.recognizer, $0) }, uniquingKeysWith: { a, _ in a })
    for entry in data.marked {
      guard let curve = curves[entry.recognizer.name] else { continue }
      let rows = curve.points.map { (value: $0.value, latency: result.metrics[$0.configuration].stage1.latency) }
      guard rows.contains(where: { $0.latency.p50 != nil }) else { continue }
      let p50 = rows.map { (x: $0.value, y: ($0.latency.p50 ?? .nan) * 1000, n: $0.latency.count) }
      let p90 = rows.map { (x: $0.value, y: ($0.latency.p90 ?? .nan) * 1000, n: $0.latency.count) }
      let a = SeriesStyle.series(0)
      let b = SeriesStyle(color: SeriesStyle.palette[1], dash: "6 3")
      var marks: [PlotMark] = []
      // Every point carries its n (hover text); points over fewer than 5 true positives are open.
      for (name, points, style) in [("p50", p50, a), ("p90", p90, b)] {
        marks.append(.line(points.map { (x: $0.x, y: $0.y) }, style))
        func labelled(_ kept: [(x: Double, y: Double, n: Int)]) -> [(x: Double, y: Double, label: String?)] {
          kept.map {
            (
              x: $0.x, y: $0.y,
              label:
                "\(curve.parameter)=\(TextFormat.compact($0.x)): \(name) \(TextFormat.decimal($0.y, 0)) ms, n = \($0.n)"
            )
          }
        }
        marks.append(.markers(labelled(points.filter { $0.n >= Self.fewForQuantiles }), .dot, style))
        marks.append(.markers(labelled(points.filter { $0.n < Self.fewForQuantiles }), .hollow, style))
      }
      let few = rows.contains { $0.latency.p50 != nil && $0.latency.count < Self.fewForQuantiles }
      if let chosen = number(result.configurations[entry.configuration], curve.parameter) {
        marks.append(.verticalRule(chosen, "chosen", SeriesStyle(color: "#888888", dash: "2 2", width: 1)))
      }
      plots.append(
        Plot(
          title: "\(entry.recognizer.name)",
          description:
            "Median and 90th-percentile latency of \(entry.recognizer.name) against \(curve.parameter), milliseconds.",
          x: parameterAxis(entry.recognizer, curve.parameter, values: curve.points.map(\.value)),
          y: PlotAxis(label: "latency", unit: "ms"),
          marks: marks,
          legend: [
            LegendEntry(label: "p50", style: a, marker: .dot), LegendEntry(label: "p90", style: b, marker: .dot),
          ]
            + (few
              ? [
                LegendEntry(
                  label: "n < \(Self.fewForQuantiles)", style: SeriesStyle(color: "#555555"), marker: .hollow,
                  markerOnly: true)
              ] : []),
          width: 300, height: 180))
    }
    return Figure(
      id: ids.unique("fig-latency-param"), title: "Latency against the swept threshold",
      plots: plots,
      caption:
        "p50 and p90 of action − reference (true positives, milliseconds) at each swept threshold value, one plot per recognizer with a threshold curve and any true positive; a gap is a value without true positives. Each point's n (true positives) is in its hover text; open points rest on fewer than \(fewForQuantiles)."
    )
  }

  /// `fig-tradeoff`: F1 against p90 timing error `|action − reference|` of every configuration,
  /// with the Pareto front (an early action moves a point right, never left).
  static func tradeoff(_ result: SweepResult, chosen: Int?, _ ids: inout ElementIDs) -> Figure {
    var marks: [PlotMark] = []
    var legend: [LegendEntry] = []
    // The best eight recognizers by their best F1 (the Pareto front is drawn over all of them).
    let specs = result.plan.recognizers
    let best = bestF1(result)
    let (kept, omitted) = seriesGroups(
      specs.count, key: { $0 }, rank: { best[specs[$0].name] }, name: { specs[$0].name })
    let note = groupingNote([], omitted: omitted)
    for (k, group) in kept.enumerated() {
      let spec = specs[group[0]]
      let style = SeriesStyle.series(k)
      let points = result.configurations.indices.filter { result.configurations[$0].spec == spec }.compactMap {
        c -> (x: Double, y: Double, label: String?)? in
        let m = result.metrics[c].stage1
        guard let f1 = m.f1, let p90 = m.latency.absoluteP90 else { return nil }
        let early = m.latency.earlyRate.map { ", early \(TextFormat.decimal($0 * 100, 0)) %" } ?? ""
        return (
          p90 * 1000, f1,
          "\(spec.name) \(Markdown.describe(result.configurations[c])): F1 \(Markdown.ratio(f1)), p90 |latency| \(TextFormat.decimal(p90 * 1000, 0)) ms\(early)"
        )
      }
      guard !points.isEmpty else { continue }
      marks.append(.markers(points, .dot, style))
      legend.append(LegendEntry(label: spec.name, style: style, marker: .dot, markerOnly: true))
    }
    let front = ParetoFront.front(
      of: result.configurations.indices.map {
        (
          configuration: $0, f1: result.metrics[$0].stage1.f1,
          absoluteLatencyP90: result.metrics[$0].stage1.latency.absoluteP90
        )
      })
    var frontLine: [(x: Double, y: Double)] = []
    for (k, point) in front.enumerated() {
      if k > 0 { frontLine.append((point.absoluteLatencyP90 * 1000, front[k - 1].f1)) }
      frontLine.append((point.absoluteLatencyP90 * 1000, point.f1))
    }
    marks.append(.line(frontLine, SeriesStyle(color: "#000000", dash: "", width: 2)))
    marks.append(
      .markers(
        front.map {
          (
            x: $0.absoluteLatencyP90 * 1000, y: $0.f1,
            label:
              "Pareto: \(result.configurations[$0.configuration].name) \(Markdown.describe(result.configurations[$0.configuration]))"
          )
        }, .diamond, .reference))
    // Direct labels: recognizer and its varied values (the hover text has the names).
    marks.append(
      .labels(
        front.map { point in
          let configuration = result.configurations[point.configuration]
          let values = configuration.varied.compactMap { configuration.parameters[$0].map { "\($0)" } }
          return (
            x: point.absoluteLatencyP90 * 1000, y: point.f1,
            text: ([configuration.name] + values).joined(separator: " ")
          )
        }))
    legend.append(LegendEntry(label: "Pareto front", style: SeriesStyle(color: "#000000", width: 2), marker: .diamond))
    if let chosen, let f1 = result.metrics[chosen].stage1.f1,
      let p90 = result.metrics[chosen].stage1.latency.absoluteP90
    {
      marks.append(
        .markers(
          [
            (
              p90 * 1000, f1,
              "chosen: \(result.configurations[chosen].name) \(Markdown.describe(result.configurations[chosen]))"
            )
          ], .ring, .reference))
      legend.append(LegendEntry(label: "chosen configuration", style: .reference, marker: .ring))
    }
    return Figure(
      id: ids.unique("fig-tradeoff"), title: "Accuracy–latency trade-off",
      plots: [
        Plot(
          title: "F1 against p90 |latency|, every configuration",
          description:
            "Each configuration with an F1 and a p90 timing error |action − reference| as a point (an action before the reference counts by its distance, like a late one); the black staircase joins the \(front.count) configurations that no other beats on both F1 (higher) and p90 |latency| (lower).\(note)",
          x: PlotAxis(label: "p90 |latency|, |action − reference|", unit: "ms"),
          y: PlotAxis(label: "F1", domain: (0, 1)),
          marks: marks, legend: legend, width: 640, height: 360)
      ],
      caption:
        "Stage-1 F1 against p90 |action − reference| of every configuration (\(result.configurations.count) configurations; those without true positives are left out). The Pareto front is drawn as a staircase through its diamonds.\(note)"
    )
  }

  /// `fig-fp-intent`: false positives by intent of each recognizer's chosen configuration.
  static func falsePositivesByIntent(_ result: SweepResult, _ data: SweepFigureData, _ ids: inout ElementIDs) -> Figure
  {
    let names = data.marked.map(\.recognizer.name)
    return Figure(
      id: ids.unique("fig-fp-intent"), title: "False positives by intent",
      plots: [
        .falsePositivesByIntent(
          title: "False positives by intent (chosen configurations)",
          description:
            "A heat map of false-positive counts: one row per recognizer (\(names.count)), one column per intent (\(Intent.allCases.map(\.rawValue).joined(separator: ", "))); darker is more.",
          what: "recognizer", names: names, rows: data.marked.map { result.metrics[$0.configuration].stage1 })
      ],
      caption:
        "Counts of stage-1 false positives by the trace's intent at each recognizer's chosen configuration: negative traces with any action, plus each unmatched action on a positive trace."
    )
  }

  /// `fig-confusion`: the two-stage confusion matrices, when any recognizer has two stages.
  static func confusion(_ result: SweepResult, _ data: SweepFigureData, _ ids: inout ElementIDs) -> Figure? {
    let twoStage = data.marked.filter { result.metrics[$0.configuration].confusion != nil }
    guard !twoStage.isEmpty else { return nil }
    let classes = PressClass.allCases.map(\.description)
    let plots = twoStage.map { entry in
      Plot.confusion(
        result.metrics[entry.configuration].confusion!, title: entry.recognizer.name,
        description:
          "Confusion matrix of \(entry.recognizer.name): rows are the intended class, columns the recognized one (\(classes.joined(separator: ", ")))."
      )
    }
    return Figure(
      id: ids.unique("fig-confusion"), title: "Two-stage confusion",
      plots: plots,
      caption:
        "Per two-stage recognizer at its chosen configuration: traces by intended class (rows: none, press, pop) and recognized class (columns: pop when stage 2 fired, press when only stage 1 did, none otherwise)."
    )
  }

  /// The force levels a configuration's thresholds stand for on `trace`, with labels.
  static func thresholdLevels(_ configuration: Configuration, _ trace: Trace) -> [(level: Double, label: String)] {
    let sweeps = configuration.recognizer.thresholdSweeps
    if sweeps.isEmpty {
      // Replayed recognizers: every force parameter of the description (stable-press's press and
      // release thresholds), normalized ones scaled by the trace's maximum force.
      let descriptor = configuration.spec.catalog.entry(configuration.spec.variant)?.descriptor
      return (descriptor?.parameters ?? []).compactMap { parameter -> (level: Double, label: String)? in
        guard parameter.unit == .force || parameter.unit == .normalizedForce,
          let value = number(configuration, parameter.name), value.isFinite
        else { return nil }
        let label = "\(parameter.name)=\(TextFormat.compact(value))"
        if parameter.unit == .force { return (value, label) }
        guard let maxForce = trace.metadata.maxForce else { return nil }
        return (value * maxForce, label)
      }
    }
    return sweeps.compactMap { sweep in
      guard let value = number(configuration, sweep.parameter) else { return nil }
      let maxForce = trace.metadata.maxForce
      let level: Double
      switch sweep.scale {
      case .raw: level = value
      case .clampedRaw: level = maxForce.map { min(value, $0) } ?? value
      case .normalized, .clampedNormalized, .scaledThreshold:
        guard let maxForce else { return nil }
        level = value * maxForce
      }
      let label = "\(sweep.parameter)=\(TextFormat.compact(value))"
      return (level, level == value || sweep.scale != .clampedRaw ? label : label + ", clamped to the maximum force")
    }
  }

  /// `fig-examples-<recognizer>`: the example traces of each recognizer's chosen configuration.
  static func examples(_ result: SweepResult, _ data: SweepFigureData, _ ids: inout ElementIDs) -> [Figure] {
    return data.marked.compactMap { entry in
      guard !entry.examples.isEmpty else { return nil }
      let configuration = result.configurations[entry.configuration]
      let plots = entry.examples.map { example -> Plot in
        let trace = example.trace
        let truth = example.truth
        let force = SeriesStyle.series(0)
        var marks: [PlotMark] = []
        var legend = [LegendEntry(label: "force", style: force)]
        let levels = thresholdLevels(configuration, trace)
        for level in levels {
          marks.append(.horizontalRule(level.level, level.label, SeriesStyle(color: "#555555", dash: "6 3", width: 1)))
        }
        if !levels.isEmpty {
          legend.append(LegendEntry(label: "threshold", style: SeriesStyle(color: "#555555", dash: "6 3", width: 1)))
        }
        let referenceStyle = SeriesStyle(color: SeriesStyle.palette[2], dash: "2 2", width: 1.5)
        for reference in truth.references { marks.append(.verticalRule(reference, "ref", referenceStyle)) }
        if !truth.references.isEmpty { legend.append(LegendEntry(label: "reference time", style: referenceStyle)) }
        let actionStyle = SeriesStyle(color: SeriesStyle.palette[1], width: 1.5)
        for action in example.actions { marks.append(.verticalRule(action, "action", actionStyle)) }
        if !example.actions.isEmpty { legend.append(LegendEntry(label: "action", style: actionStyle)) }
        if let stage2 = example.stage2 {
          let style = SeriesStyle(color: SeriesStyle.palette[3], dash: "6 3", width: 1.5)
          marks.append(.verticalRule(stage2, "stage 2", style))
          legend.append(LegendEntry(label: "stage 2", style: style))
        }
        let actions =
          example.actions.isEmpty
          ? "no action" : example.actions.map { TextFormat.compact($0, significant: 4) + " s" }.joined(separator: ", ")
        let references =
          truth.references.isEmpty
          ? "no reference time"
          : truth.references.map { TextFormat.compact($0, significant: 4) + " s" }.joined(separator: ", ")
        return Plot.trace(
          trace, title: "\(example.kind): \(trace.name) (\(truth.intent.rawValue))",
          description:
            "Force of trace \(trace.name), intent \(truth.intent.rawValue), against time; actions at \(actions); references at \(references).",
          force: force, levels: levels.map(\.level), marks: marks, legend: legend)
      }
      return Figure(
        id: ids.unique("fig-examples-" + HTMLText.idPart(entry.recognizer.name)),
        title: "\(entry.recognizer.name): example traces",
        plots: plots,
        caption:
          "\(entry.recognizer.name) at \(Markdown.describe(configuration)): up to \(SweepFigureData.examplesPerKind) false positives and \(SweepFigureData.examplesPerKind) misses, the first by trace name (a correct detection when there are none), with the threshold level(s), the reference time(s) and the action(s)."
      )
    }
  }
}
