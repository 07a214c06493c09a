package import TouchCore
package import TouchSignal

/// Renders per-trace force features (`touchtrace features`) as tidy CSV or versioned JSON.
///
/// Units: seconds (`_s`), device force units (`force`), force units per second (`_per_s`),
/// force units × seconds (`impulse_force_s`). Times ending in `_time_s`, `fit_midpoint_s` and
/// `reference_first_s` are on the trace's own clock; `duration_s`, `time_to_peak_s` and
/// `rise_time_s` are durations.
package enum FeaturesReport {
  /// One analyzed trace with its features.
  package struct Row: Sendable {
    /// The trace (metadata is reported).
    package var trace: Trace
    /// Its features.
    package var features: ForceFeatures

    /// Creates a row.
    package init(trace: Trace, features: ForceFeatures) {
      self.trace = trace
      self.features = features
    }
  }

  /// The CSV columns, in order. `labels` holds the trace's extra labels (`hand`, `gesture`, …)
  /// as `name=value` pairs in name order joined by `;` (`hand=left;posture=sitting`), empty
  /// without any: the columns stay the same whatever the traces carry, so the table can be
  /// written row by row.
  package static let columns = [
    "trace", "intent", "user", "session", "device", "labels", "samples", "duration_s", "max_force", "peak_force",
    "peak_force_normalized", "peak_time_s", "time_to_peak_s", "rise_time_s", "max_rate_per_s",
    "max_rate_time_s", "impulse_force_s", "level_force", "time_above_level_s", "peak_count",
    "saturated_samples", "quantization_step", "fit_status", "fit_iterations", "fit_base",
    "fit_amplitude", "fit_midpoint_s", "fit_slope_per_s", "fit_rms_residual", "reference_count",
    "reference_first_s",
  ]

  /// Tidy CSV: a header row, then one row per trace; an empty cell stands for a missing value
  /// (pandas reads it as NaN, R as NA). Fields holding a comma, quote or line break are quoted.
  package static func csv(_ rows: [Row]) -> [UInt8] {
    CSVWriter.table(header: columns, rows: rows.map(cells))
  }

  /// The JSON document (format `touchtrace-features`, version 1): files, trace accounting,
  /// skipped traces, the options used, one object per analyzed trace, warnings.
  package static func json(
    _ rows: [Row], dataset: Dataset, extraction: FeatureExtraction
  ) -> JSONValue {
    document(
      Accounting.header(format: "touchtrace-features", version: 1, dataset: dataset), extraction: extraction,
      features: .array(rows.map(jsonElement)), diagnostics: dataset.diagnostics)
  }

  /// The JSON document of ``json(_:dataset:extraction:)`` for a table written row by row,
  /// without its `features` array (left empty; see `JSONValue.encodedAround(member:)`).
  ///
  /// - Parameters:
  ///   - files: the files read.
  ///   - analyzed: how many traces have a row.
  ///   - skipped: the traces left out, with reasons.
  ///   - labelOverrides: label values `--labels-override` replaced.
  ///   - synthesizedTime: the analyzed traces whose times were synthesized.
  ///   - extraction: the feature settings.
  ///   - diagnostics: the loader's warnings.
  package static func jsonDocument(
    files: [String], analyzed: Int, skipped: [SkippedTrace], labelOverrides: Int, synthesizedTime: SynthesizedTime,
    extraction: FeatureExtraction, diagnostics: [Diagnostic]
  ) -> JSONValue {
    document(
      Accounting.header(
        format: "touchtrace-features", version: 1, files: files, analyzed: analyzed, skipped: skipped,
        labelOverrides: labelOverrides, synthesizedTime: synthesizedTime),
      extraction: extraction, features: .array([]), diagnostics: diagnostics)
  }

  /// The member of the `features` array for one row.
  ///
  /// - Parameter row: the trace and its features.
  package static func jsonElement(_ row: Row) -> JSONValue {
    var members = zip(columns, cells(row)).filter {
      !$0.0.hasPrefix("fit_") && !$0.0.hasPrefix("reference_") && $0.0 != "labels"
    }
    // In JSON the extra labels are an object.
    let labels = row.trace.metadata.labels
    if let k = members.firstIndex(where: { $0.0 == "device" }) {
      members.insert(("labels", .object(labels.keys.sorted().map { ($0, .string(labels[$0]!)) })), at: k + 1)
    }
    let f = row.features
    members.append(("quantization", .string(f.quantization?.text)))
    let fit = f.fit
    members.append(
      (
        "fit",
        .object([
          ("status", .string(fit.status.key)), ("converged", .bool(fit.isConverged)),
          ("message", .string(fit.status.description)), ("samples", .int(fit.samples)),
          ("iterations", .int(fit.iterations)), ("base", .number(fit.parameters?.base)),
          ("amplitude", .number(fit.parameters?.amplitude)), ("midpoint_s", .number(fit.parameters?.midpoint)),
          ("slope_per_s", .number(fit.parameters?.slope)), ("rms_residual", .number(fit.rmsResidual)),
        ])
      ))
    members.append(("reference_times_s", .array(f.referenceTimes.map { .number($0) })))
    return .object(members)
  }

  private static func document(
    _ header: [(String, JSONValue)], extraction: FeatureExtraction, features: JSONValue, diagnostics: [Diagnostic]
  ) -> JSONValue {
    .object(
      header + [
        ("options", options(extraction)),
        ("features", features),
        ("warnings", Accounting.diagnostics(diagnostics)),
      ])
  }

  /// The CSV header row.
  package static var csvHeader: [UInt8] { CSVWriter.table(header: columns, rows: []) }

  /// CSV rows (without the header), each ending in a line feed.
  ///
  /// - Parameter rows: the traces and their features.
  package static func csvRows(_ rows: [Row]) -> [UInt8] { CSVWriter.rows(rows.map(cells)) }

  /// The options in words and numbers.
  static func options(_ e: FeatureExtraction) -> JSONValue {
    .object([
      ("level", .string(e.level.description)),
      ("minimum_prominence", .string(e.minimumProminence.description)),
      (
        "resampling",
        .object([
          ("rate_hz", .number(e.resampling.rate)), ("method", .string(e.resampling.method.rawValue)),
          ("maximum_gap_s", .number(e.resampling.maximumGap)),
        ])
      ),
      ("rate", .string(e.rate.method.description)),
      ("fit_max_iterations", .int(e.fitting.maximumIterations)),
      ("reference_rule", .string(e.referenceRule.description)),
    ])
  }

  /// The cells of one row, in ``columns`` order.
  static func cells(_ row: Row) -> [JSONValue] {
    let m = row.trace.metadata
    let f = row.features
    let p = f.fit.parameters
    return [
      .string(m.name), .string(m.intent?.rawValue), .string(m.user), .string(m.session), .string(m.device),
      .string(m.labels.isEmpty ? nil : m.labels.keys.sorted().map { "\($0)=\(m.labels[$0]!)" }.joined(separator: ";")),
      .int(f.samples), .number(f.duration), .number(m.maxForce), .number(f.peakForce),
      .number(f.peakForceNormalized), .number(f.peakTime), .number(f.timeToPeak), .number(f.riseTime),
      .number(f.maxRate), .number(f.maxRateTime), .number(f.impulse), .number(f.level),
      .number(f.timeAboveLevel), .int(f.peakCount), .int(f.saturatedSamples),
      .number(f.quantization?.step), .string(f.fit.status.key), .int(f.fit.iterations),
      .number(p?.base), .number(p?.amplitude), .number(p?.midpoint), .number(p?.slope),
      .number(f.fit.rmsResidual), .int(f.referenceTimes.count), .number(f.referenceTimes.first),
    ]
  }
}
