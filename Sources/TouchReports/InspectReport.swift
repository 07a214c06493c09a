package import TouchCore
package import TouchSignal

/// Renders the `touchtrace inspect` summary of a dataset.
package enum InspectReport {
  /// The JSON document (format `touchtrace-inspect`, version 1). Units: seconds, device force units.
  package static func json(_ s: DatasetSummary, diagnostics: [Diagnostic]) -> JSONValue {
    func stats(_ x: SummaryStatistics) -> JSONValue {
      .object([
        ("n", .int(x.count)), ("min", .number(x.min)), ("p5", .number(x.p5)),
        ("p50", .number(x.median)), ("p95", .number(x.p95)), ("max", .number(x.max)),
        ("mean", .number(x.mean)), ("sd", .number(x.standardDeviation)),
      ])
    }
    func counts(_ items: [DatasetSummary.Count<String>], key: String) -> JSONValue {
      .array(items.map { .object([(key, .string($0.value)), ("traces", .int($0.traces))]) })
    }
    var intents: [(String, JSONValue)] = Intent.allCases.map { intent in
      (intent.rawValue, .int(s.intents.first { $0.value == intent }?.traces ?? 0))
    }
    intents.append(("unlabeled", .int(s.intents.first { $0.value == nil }?.traces ?? 0)))
    var interval = stats(s.interval)
    if case .object(var members) = interval {
      members.append(("jitter", .number(s.intervalJitter)))
      members.append(("repeated_timestamps", .int(s.repeatedTimestamps)))
      interval = .object(members)
    }
    return .object([
      ("format", "touchtrace-inspect"), ("version", 1),
      ("files", .array(s.files.map { .string($0) })),
      (
        "traces",
        Accounting.traces(
          total: s.total, analyzed: s.analyzed, skipped: s.skipped.count, labelOverrides: s.labelOverrides)
      ),
      ("samples", .int(s.samples)),
      ("skipped", Accounting.skipped(s.skipped)),
      ("users", counts(s.tracesPerUser, key: "user")),
      ("devices", counts(s.tracesPerDevice, key: "device")),
      ("sessions", counts(s.tracesPerSession, key: "session")),
      ("labels", .object(s.extraLabels.map { ($0.name, counts($0.counts, key: "value")) })),
      ("intents", .object(intents)),
      ("traces_with_press_at", .int(s.tracesWithPressAt)),
      s.synthesizedTime.member,
      ("duration_s", stats(s.duration)),
      ("samples_per_trace", stats(s.samplesPerTrace)),
      ("interval_s", interval),
      (
        "force",
        .object([
          ("min", .number(s.forceMin)), ("max", .number(s.forceMax)),
          ("quantization_step", .number(s.quantization?.step)),
          ("quantization", .string(s.quantization?.text)),
          ("on_grid_share", .number(s.quantization?.fit)),
          (
            "quantization_per_device",
            .array(
              s.quantizationPerDevice.map {
                .object([
                  ("device", .string($0.device)), ("quantization_step", .number($0.step?.step)),
                  ("quantization", .string($0.step?.text)),
                ])
              })
          ),
        ])
      ),
      (
        "max_force",
        .array(s.maxForces.map { .object([("value", .number($0.value)), ("traces", .int($0.traces))]) })
      ),
      (
        "saturated",
        .object([
          ("samples", .int(s.saturatedSamples)), ("of_samples", .int(s.samplesWithKnownMaximum)),
          ("share", .number(s.saturatedShare)),
        ])
      ),
      (
        "phases",
        .object([("cancelled", .int(s.cancelledTraces)), ("unterminated", .int(s.unterminatedTraces))])
      ),
      ("traces_with_position", .int(s.tracesWithPosition)),
      ("warnings", Accounting.diagnostics(diagnostics)),
    ])
  }

  /// Aligned text for a terminal.
  package static func text(_ s: DatasetSummary) -> String {
    let rows = self.rows(s)
    let width = rows.map(\.0.count).max() ?? 0
    var out = rows.map { $0.0 + String(repeating: " ", count: width - $0.0.count + 2) + $0.1 + "\n" }.joined()
    if !s.skipped.isEmpty {
      out += "\nSkipped traces:\n"
      for skip in s.skipped {
        out += "  \(skip.trace ?? "(unnamed)")  \(location(skip))  \(skip.reason)\n"
      }
    }
    return out
  }

  /// Markdown: a table of the same rows as ``text(_:)``, then a table of the skipped traces.
  package static func markdown(_ s: DatasetSummary) -> String {
    var out = "# Dataset\n\n" + CatalogReport.row(["", "value"]) + "| --- | --- |\n"
    for (label, value) in rows(s) { out += CatalogReport.row([label, value]) }
    if !s.skipped.isEmpty {
      out += "\n## Skipped traces\n\n" + CatalogReport.row(["trace", "location", "reason"]) + "| --- | --- | --- |\n"
      for skip in s.skipped { out += CatalogReport.row([skip.trace ?? "(unnamed)", location(skip), skip.reason]) }
    }
    return out
  }

  /// Where a skipped trace is: `FILE:LINE:COL`, or the file.
  static func location(_ skip: SkippedTrace) -> String {
    skip.origin.file + (skip.reportedPosition.map { ":\($0.line):\($0.column)" } ?? "")
  }

  /// The summary's rows: label and value.
  static func rows(_ s: DatasetSummary) -> [(String, String)] {
    var rows: [(String, String)] = []
    let fileList =
      s.files.count <= 3 ? s.files.joined(separator: ", ") : "\(s.files[0]), … (\(s.files.count - 1) more)"
    rows.append(("Files", "\(s.files.count) (\(fileList))"))
    rows.append(
      (
        "Traces",
        "\(TextFormat.grouped(s.total)) total, \(TextFormat.grouped(s.analyzed)) analyzed, "
          + "\(TextFormat.grouped(s.skipped.count)) skipped"
      ))
    rows.append(("Samples", TextFormat.grouped(s.samples)))
    func countList(_ items: [DatasetSummary.Count<String>], limit: Int = 8) -> String {
      guard !items.isEmpty else { return "none" }
      var parts = items.prefix(limit).map { "\($0.value ?? "(none)") \($0.traces)" }
      if items.count > limit { parts.append("… (\(items.count) in all)") }
      return parts.joined(separator: ", ")
    }
    rows.append(("Users", countList(s.tracesPerUser)))
    rows.append(("Devices", countList(s.tracesPerDevice)))
    if s.tracesPerSession.contains(where: { $0.value != nil }) {
      rows.append(("Sessions", countList(s.tracesPerSession)))
    }
    for label in s.extraLabels { rows.append(("Label \(label.name)", countList(label.counts))) }
    let intents = s.intents.map { "\($0.value?.rawValue ?? "unlabeled") \($0.traces)" }
    rows.append(
      (
        "Intents",
        (intents.isEmpty ? "none" : intents.joined(separator: ", "))
          + "; press_at on \(s.tracesWithPressAt)"
      ))
    if let min = s.duration.min, let median = s.duration.median, let max = s.duration.max {
      rows.append(
        (
          "Duration",
          "min \(TextFormat.duration(min)), median \(TextFormat.duration(median)), max \(TextFormat.duration(max))"
        ))
    }
    if let min = s.samplesPerTrace.min, let median = s.samplesPerTrace.median, let max = s.samplesPerTrace.max {
      rows.append(
        (
          "Samples/trace",
          "min \(TextFormat.compact(min)), median \(TextFormat.compact(median)), max \(TextFormat.compact(max))"
        ))
    }
    if let sentence = s.synthesizedTime.sentence(dependents: "durations, intervals and latencies") {
      rows.append(("Time", "warning: " + sentence))
    }
    if let median = s.interval.median, let p5 = s.interval.p5, let p95 = s.interval.p95 {
      var text =
        "median \(TextFormat.duration(median)) (\(TextFormat.decimal(1 / median, 1)) Hz), "
        + "p5 \(TextFormat.duration(p5)), p95 \(TextFormat.duration(p95))"
      if let jitter = s.intervalJitter { text += ", jitter \(TextFormat.duration(jitter)) (IQR/1.349)" }
      if s.repeatedTimestamps > 0 { text += ", \(s.repeatedTimestamps) repeated timestamps" }
      rows.append(("Interval", text))
    }
    if let min = s.forceMin, let max = s.forceMax {
      var text = "\(TextFormat.compact(min)) to \(TextFormat.compact(max))"
      if !s.quantizationPerDevice.isEmpty {
        text +=
          ", step per device: "
          + s.quantizationPerDevice.map { "\($0.device ?? "(none)") \($0.step?.text ?? "none")" }.joined(
            separator: ", ")
      } else if let q = s.quantization {
        text += ", step \(q.text) (\(TextFormat.percent(q.fit)) of samples on the grid)"
      } else {
        text += ", no quantization grid"
      }
      rows.append(("Force", text))
    }
    let maxForces = s.maxForces.map {
      "\($0.value.map { TextFormat.compact($0, significant: 7) } ?? "unknown") (\($0.traces) traces)"
    }
    rows.append(("Max force", maxForces.isEmpty ? "none" : maxForces.joined(separator: ", ")))
    if let share = s.saturatedShare {
      rows.append(
        (
          "Saturated",
          "\(TextFormat.percent(share)) of samples (\(TextFormat.grouped(s.saturatedSamples)) of "
            + "\(TextFormat.grouped(s.samplesWithKnownMaximum)))"
        ))
    }
    rows.append(("Endings", "\(s.cancelledTraces) cancelled, \(s.unterminatedTraces) without end sample"))
    rows.append(("Positions", "\(s.tracesWithPosition) of \(s.analyzed) traces have x/y"))
    return rows
  }
}
