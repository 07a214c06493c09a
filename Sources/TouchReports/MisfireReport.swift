package import TouchEvaluation
package import TouchSignal

/// Misfire mode: a sweep of data without any positive trace (people drawing, scrolling, typing;
/// or `--negatives-only`) has no press to find, only false alarms to count. Per configuration:
///
/// - the **misfire rate per contact**: negative contacts with any action / negative contacts,
///   with its 95 % Wilson interval (`ProportionInterval.wilson(_:of:)` of TouchEvaluation);
/// - the **misfires per minute of contact**: actions / total contact time (lift-off − touch-down
///   summed over the negative contacts, minutes), with its exact 95 % Poisson interval
///   (`RateInterval.poisson(_:exposure:)` of TouchEvaluation). A recognizer that can act several times in one
///   contact counts each action.
package struct MisfireRates: Sendable {
  /// One configuration's figures.
  package struct Row: Sendable {
    /// The configuration's index in the sweep plan.
    package var configuration: Int
    /// Negative contacts with at least one action.
    package var misfiring: Int
    /// Actions on negative contacts.
    package var actions: Int
    /// ``misfiring`` / ``MisfireRates/contacts``; `nil` without contacts.
    package var rate: Double?
    /// Its 95 % Wilson interval.
    package var rateInterval: ProportionInterval?
    /// ``actions`` per minute of contact; `nil` when the contacts last no time.
    package var perMinute: Double?
    /// Its exact 95 % Poisson interval.
    package var perMinuteInterval: RateInterval?
  }

  /// The negative contacts scored.
  package let contacts: Int
  /// Their total duration, minutes.
  package let minutes: Double
  /// One row per configuration, in plan order.
  package let rows: [Row]

  /// The misfire figures of `result` when it is a misfire-mode sweep (analyzed traces, none of
  /// them positive); `nil` otherwise.
  ///
  /// - Throws: `GSLError` when the chi-square quantile fails.
  package init?(_ result: SweepResult) throws(GSLError) {
    let summary = result.evaluation.summary
    guard summary.analyzed > 0, summary.positives == 0 else { return nil }
    contacts = summary.analyzed
    minutes = summary.contactTime / 60
    var rows: [Row] = []
    for c in result.configurations.indices {
      let m = result.metrics[c].stage1
      rows.append(
        Row(
          configuration: c, misfiring: m.falsePositiveTraces, actions: m.falsePositives, rate: m.falsePositiveRate,
          rateInterval: ProportionInterval.wilson(m.falsePositiveTraces, of: m.negativeTraces),
          perMinute: minutes > 0 ? Double(m.falsePositives) / minutes : nil,
          perMinuteInterval: try RateInterval.poisson(m.falsePositives, exposure: minutes)))
    }
    self.rows = rows
  }
}

/// Renders ``MisfireRates``.
package enum MisfireReport {
  /// The Markdown section `## Misfires (negatives only)`: one row per configuration.
  package static func markdown(_ rates: MisfireRates, configurations: [Configuration]) -> String {
    var out = "## Misfires (negatives only)\n\n"
    out += "No trace is a positive, so there is no press to find: this sweep counts false alarms. "
    out +=
      "\(TextFormat.count(rates.contacts, "contact")), \(TextFormat.decimal(rates.minutes, 2)) minutes of contact. "
    out += "Rate: contacts with any action / contacts (95 % Wilson interval); per minute: actions / minutes of contact "
    out += "(exact 95 % Poisson interval).\n\n"
    out +=
      "| recognizer | parameters | misfiring contacts | misfire rate (95 % CI) | actions | per minute (95 % CI) |\n"
    out += "|---|---|--:|--:|--:|--:|\n"
    for row in rates.rows {
      let configuration = configurations[row.configuration]
      out += Markdown.row([
        configuration.name, Markdown.describe(configuration), "\(row.misfiring)/\(rates.contacts)",
        rateText(row.rate, row.rateInterval), "\(row.actions)", perMinuteText(row.perMinute, row.perMinuteInterval),
      ])
    }
    return out
  }

  /// `0.482 (0.429–0.535)`, or `–`.
  static func rateText(_ rate: Double?, _ interval: ProportionInterval?) -> String {
    rate.map { Markdown.ratio($0) + (interval.map { " (\(Markdown.ratio($0.low))–\(Markdown.ratio($0.high)))" } ?? "") }
      ?? "–"
  }

  /// `2.62 (2.23–3.06)`, or `–`.
  static func perMinuteText(_ value: Double?, _ interval: RateInterval?) -> String {
    value.map {
      TextFormat.decimal($0, 2)
        + (interval.map { " (\(TextFormat.decimal($0.low, 2))–\(TextFormat.decimal($0.high, 2)))" } ?? "")
    } ?? "–"
  }

  /// The JSON object `misfires`: `contacts`, `contact_minutes`, and per configuration (plan
  /// order) `recognizer`, `params`, `misfiring_contacts`, `rate`, `rate_ci`, `actions`,
  /// `per_minute`, `per_minute_ci` (`[low, high]` or `null`).
  package static func json(_ rates: MisfireRates, configurations: [Configuration]) -> JSONValue {
    .object([
      ("contacts", .int(rates.contacts)),
      ("contact_minutes", .number(rates.minutes)),
      (
        "configurations",
        .array(
          rates.rows.map { row in
            let configuration = configurations[row.configuration]
            return .object([
              ("recognizer", .string(configuration.name)),
              ("params", .object(EvaluationJSON.parameters(configuration))),
              ("misfiring_contacts", .int(row.misfiring)),
              ("rate", .number(row.rate)),
              ("rate_ci", row.rateInterval.map { .array([.number($0.low), .number($0.high)]) } ?? .null),
              ("actions", .int(row.actions)),
              ("per_minute", .number(row.perMinute)),
              ("per_minute_ci", row.perMinuteInterval.map { .array([.number($0.low), .number($0.high)]) } ?? .null),
            ])
          })
      ),
    ])
  }

  /// One group's misfire figures for one configuration (`--by`).
  struct GroupRow {
    var configuration: Int
    var group: String
    var contacts: Int
    var misfiring: Int
    var actions: Int
    var minutes: Double
    var rateInterval: ProportionInterval?
    var perMinuteInterval: RateInterval?
  }

  /// Each broken-down configuration per group: contacts, misfires, minutes of contact, with the
  /// same intervals as the totals.
  static func groupRows(_ grouped: GroupedMetrics) throws(GSLError) -> [GroupRow] {
    let b = grouped.breakdown
    let minutes = b.contactTime.map { $0 / 60 }
    var rows: [GroupRow] = []
    for (k, c) in grouped.configurations.enumerated() {
      for g in b.names.indices where b.traceCounts[g] > 0 {
        let m = grouped.metrics[k][g].stage1
        rows.append(
          GroupRow(
            configuration: c, group: b.names[g] ?? "(none)", contacts: m.negativeTraces,
            misfiring: m.falsePositiveTraces,
            actions: m.falsePositives, minutes: minutes[g],
            rateInterval: ProportionInterval.wilson(m.falsePositiveTraces, of: m.negativeTraces),
            perMinuteInterval: try RateInterval.poisson(m.falsePositives, exposure: minutes[g])))
      }
    }
    return rows
  }

  /// The Markdown section `## Misfires by COLUMN`: each broken-down configuration per group.
  ///
  /// - Throws: `GSLError` when the chi-square quantile fails.
  package static func markdown(
    by grouped: GroupedMetrics, configurations: [Configuration]
  ) throws(GSLError) -> String {
    var out = "\n## Misfires by \(grouped.breakdown.column.rawValue)\n\n"
    out += "Each group's contacts alone, with the same intervals as above.\n\n"
    out +=
      "| recognizer | parameters | \(grouped.breakdown.column.rawValue) | misfiring contacts | misfire rate (95 % CI) | actions | minutes | per minute (95 % CI) |\n"
    out += "|---|---|---|--:|--:|--:|--:|--:|\n"
    for row in try groupRows(grouped) {
      let configuration = configurations[row.configuration]
      let rate = row.contacts == 0 ? nil : Double(row.misfiring) / Double(row.contacts)
      let perMinute = row.minutes > 0 ? Double(row.actions) / row.minutes : nil
      out += Markdown.row([
        configuration.name, Markdown.describe(configuration), row.group, "\(row.misfiring)/\(row.contacts)",
        rateText(rate, row.rateInterval), "\(row.actions)", TextFormat.decimal(row.minutes, 2),
        perMinuteText(perMinute, row.perMinuteInterval),
      ])
    }
    return out
  }

  /// The JSON array `misfires.by`: per broken-down configuration and group, `column`, `group`,
  /// `recognizer`, `params`, `contacts`, `misfiring_contacts`, `rate`, `rate_ci`, `actions`,
  /// `contact_minutes`, `per_minute`, `per_minute_ci`.
  ///
  /// - Throws: `GSLError` when the chi-square quantile fails.
  package static func json(
    by grouped: GroupedMetrics, configurations: [Configuration]
  ) throws(GSLError) -> JSONValue {
    .array(
      try groupRows(grouped).map { row in
        let configuration = configurations[row.configuration]
        return .object([
          ("column", .string(grouped.breakdown.column.rawValue)), ("group", .string(row.group)),
          ("recognizer", .string(configuration.name)), ("params", .object(EvaluationJSON.parameters(configuration))),
          ("contacts", .int(row.contacts)), ("misfiring_contacts", .int(row.misfiring)),
          ("rate", .number(row.contacts == 0 ? nil : Double(row.misfiring) / Double(row.contacts))),
          ("rate_ci", row.rateInterval.map { .array([.number($0.low), .number($0.high)]) } ?? .null),
          ("actions", .int(row.actions)), ("contact_minutes", .number(row.minutes)),
          ("per_minute", .number(row.minutes > 0 ? Double(row.actions) / row.minutes : nil)),
          ("per_minute_ci", row.perMinuteInterval.map { .array([.number($0.low), .number($0.high)]) } ?? .null),
        ])
      })
  }

  /// `misfires` with `("by", by)` added.
  package static func adding(by: JSONValue, to misfires: JSONValue) -> JSONValue {
    misfires.inserting(("by", by), before: nil)
  }

  /// `document` with `("misfires", misfires)` before its `options`.
  package static func inserting(_ misfires: JSONValue, into document: JSONValue) -> JSONValue {
    document.inserting(("misfires", misfires), before: "options")
  }
}
