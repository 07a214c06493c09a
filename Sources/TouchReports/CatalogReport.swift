package import TouchRecognizers

/// The recognizer catalog as a report (`touchtrace recognizers`): Markdown for people, JSON for
/// tools.
package enum CatalogReport {
  /// A sweep's comparison in words, e.g. `force/max >= θ`.
  package static func formula(_ sweep: ThresholdSweep) -> String {
    let op = sweep.comparison.rawValue
    return switch sweep.scale {
    case .raw: "force \(op) θ"
    case .clampedRaw: "force \(op) min(θ, max)"
    case .normalized: "force/max \(op) θ"
    case .scaledThreshold: "force \(op) max·θ"
    case .clampedNormalized: "clamp(force/max, 0, 1) \(op) θ"
    }
  }

  /// How a sweep treats the recognizer, in words: `one pass over NAME (rule)` for each one-pass
  /// parameter, `by threshold classes over NAME, …` for its comparison thresholds, else `replay`.
  static func sweepSummary(_ entry: RecognizerCatalog.Entry) -> String {
    let sweeps = entry.onePassSweeps
    let compared = comparedParameters(entry.descriptor)
    var parts = sweeps.map { "one pass over \($0.parameter) (\($0.rule))" }
    if !compared.isEmpty {
      parts.append(
        "by threshold classes over \(compared.map(\.name).joined(separator: ", ")) (one replay per trace and class of values between two of its distinct forces)"
      )
    }
    return parts.isEmpty ? "replay (every setting is replayed)" : parts.joined(separator: "; ")
  }

  /// The parameters a recognizer uses only in order comparisons with a per-sample quantity.
  static func comparedParameters(_ d: RecognizerDescription) -> [ParameterSpec] {
    d.parameters.filter { $0.comparison != nil }
  }

  /// A table row with `|` in cells escaped.
  static func row(_ cells: [String]) -> String {
    Markdown.row(cells.map { $0.replacingPipes })
  }

  /// The catalog in Markdown: an index table, then one section per recognizer with its source,
  /// stages, rules, parameter table and sweep.
  package static func markdown(_ catalog: RecognizerCatalog) -> String {
    var out = "# Recognizers\n\n"
    out += row(["name", "code", "summary", "default sweep"])
    out += row(["---", "---", "---", "---"])
    for entry in catalog.entries {
      let d = entry.descriptor
      out += row(["`\(d.name)`", d.code, d.summary, d.sweptByDefault.map { "`\($0)`" } ?? "–"])
    }
    for entry in catalog.entries {
      let d = entry.descriptor
      out += "\n## `\(d.name)` — \(d.title)\n\n"
      out += "\(d.summary)\n\n"
      let version = d.sourceInfo.version.map { " @ \($0)" } ?? ""
      let link = d.sourceInfo.link.map { " <\($0)>" } ?? ""
      out += "- **Source:** \(d.sourceInfo.library)\(version)\(link) — \(d.source)\n"
      out += "- **Style:** \(d.style.rawValue)\n"
      for stage in d.stages {
        let label =
          switch stage.kind {
          case .action: "Action"
          case .stage2: "Stage 2"
          case .release: "Release"
          }
        let flaps = stage.kind == .release ? " (flaps are counted)" : ""
        out += "- **\(label):** \(stage.meaning)\(flaps)\n"
      }
      out += "- **Rules:** \(d.rules)\n"
      out += "- **Sweep:** \(sweepSummary(entry))\n"
      if d.canWaitForFailure {
        out += "- **Composition:** can wait for another recognizer to fail (`\(d.name)+OTHER`)\n"
      }
      out += "\n"
      if !d.parameters.isEmpty {
        out += row(["parameter", "unit", "default", "range", "default grid", "meaning"])
        out += row(["---", "---", "---", "---", "---", "---"])
        for p in d.parameters {
          let grid = p.name == d.sweptByDefault ? "**\(p.grid.summary)**" : p.grid.summary
          out += row(["`\(p.name)`", p.unit.rawValue, "\(p.defaultValue)", p.rangeText, grid, p.meaning])
        }
      }
      for sweep in entry.onePassSweeps {
        out +=
          "\nOne pass: \(sweep.parameter) = θ → \(sweep.event.rawValue) at the first candidate with "
          + "\(formula(sweep)); candidates: \(sweep.eligibleSamples).\n"
      }
    }
    let dependents = catalog.descriptions.filter(\.canWaitForFailure).map { "`\($0.name)`" }
    out += "\n## Compositions\n\n"
    out += "\(dependents.joined(separator: ", ")) can wait for another recognizer to fail: "
    out += "`NAME\(Composition.separator)OTHER` in `sweep`/`tune`/`compare`, `--require-failure-of OTHER` in `run`; "
    out +=
      "the other's parameters are named `\(Composition.requiredPrefix)NAME`, and the wait is reported as added latency.\n"
    out += "\n## Causal filters\n\n"
    out +=
      "Any recognizer can be preceded by a causal filter on force, `FILTER/NAME` (`ema/deep-press`): it restarts at "
    out += "touch-down, sees every sample, keeps force within [0, max], and its parameters are named `FILTER.NAME` "
    out +=
      "(`--vary ema.alpha=0.1:0.9:0.1`). Zero-phase smoothers (those of `touchtrace smooth`) read later samples and "
    out += "are refused here.\n\n"
    out += row(["filter", "rule", "parameter", "unit", "default", "range", "meaning"])
    out += row(["---", "---", "---", "---", "---", "---", "---"])
    for kind in CausalFilterKind.allCases {
      for p in kind.parameters {
        out += row([
          "`\(kind.rawValue)`", kind.rule, "`\(kind.prefixed(p.name))`", p.unit.rawValue, "\(p.defaultValue)",
          p.rangeText, p.meaning,
        ])
      }
    }
    out += "\n## Recognizers in other processes\n\n"
    out +=
      "`exec:COMMAND` (in `run`, `sweep`, `tune`, `compare`, and `NAME+exec:COMMAND`) starts COMMAND through /bin/sh "
    out +=
      "and asks it, contact by contact, when it acts (JSON Lines; the protocol is the article \"The exec protocol\" of the "
    out +=
      "TouchExec module, Sources/TouchExec/Documentation.docc/TheExecProtocol.md). It takes parameters of any name; "
    out += "`--exec-timeout` bounds its silence.\n"
    return out
  }

  /// The grid as JSON: its rule, whether it follows the data's maximum force, and its points
  /// (for a grid relative to the maximum force, the fractions of it).
  static func json(grid p: ParameterSpec) -> JSONValue {
    let points: [Double]
    switch p.grid {
    case .fractionsOfMaximumForce: points = p.gridValues(maximumForce: 1)
    default: points = p.gridValues(maximumForce: nil)
    }
    var members: [(String, JSONValue)] = [
      ("rule", .string(p.grid.summary)),
      ("relative_to_max_force", .bool(p.grid.followsMaximumForce)),
    ]
    if p.grid == .bothFlags {
      members.append(("values", [false, true]))
    } else {
      members.append(("values", .array(points.map { .number($0) })))
    }
    return .object(members)
  }

  /// The catalog as JSON: an array with one object per recognizer (`name`, `code`, `title`,
  /// `summary`, `source`, `style`, `stages`, `rules`, `sweep`, `parameters` — each with `name`,
  /// `kind`, `unit`, `default`, `range` `[min, max]`, `grid` — and `composition`).
  package static func json(_ catalog: RecognizerCatalog) -> JSONValue {
    .array(
      catalog.entries.map { entry in
        let d = entry.descriptor
        let parameters: [JSONValue] = d.parameters.map { p in
          .object([
            ("name", .string(p.name)), ("kind", .string(p.kind.rawValue)), ("unit", .string(p.unit.rawValue)),
            ("default", EvaluationJSON.parameter(p.defaultValue, infinityAsNull: true)),
            ("range", p.kind == .flag ? [false, true] : [.number(p.minimum), .number(p.maximum)]),
            ("minimum_inclusive", .bool(p.minimumInclusive)), ("maximum_inclusive", .bool(p.maximumInclusive)),
            ("nan_meaning", .string(p.notANumberMeaning)), ("range_text", .string(p.rangeText)),
            ("grid", json(grid: p)), ("meaning", .string(p.meaning)),
            ("compared_as", .string(p.comparison?.rawValue)),
          ])
        }
        let onePass: [JSONValue] = entry.onePassSweeps.map { s in
          .object([
            ("parameter", .string(s.parameter)), ("event", .string(s.event.rawValue)),
            ("rule", .string(s.rule.description)), ("comparison", .string(s.comparison.rawValue)),
            ("scale", .string(s.scale.rawValue)), ("formula", .string(formula(s))),
            ("eligible_samples", .string(s.eligibleSamples)), ("conditions", .string(s.conditions)),
          ])
        }
        let stages: [JSONValue] = d.stages.map {
          .object([("event", .string($0.kind.rawValue)), ("meaning", .string($0.meaning))])
        }
        return .object([
          ("name", .string(d.name)), ("code", .string(d.code)), ("title", .string(d.title)),
          ("summary", .string(d.summary)),
          (
            "source",
            .object([
              ("library", .string(d.sourceInfo.library)), ("version", .string(d.sourceInfo.version)),
              ("link", .string(d.sourceInfo.link)), ("reference", .string(d.source)),
            ])
          ),
          ("style", .string(d.style.rawValue)), ("stages", .array(stages)), ("rules", .string(d.rules)),
          (
            "sweep",
            .object([
              ("method", .string(!onePass.isEmpty ? "one-pass" : comparedParameters(d).isEmpty ? "replay" : "classes")),
              ("default_parameter", .string(d.sweptByDefault)), ("one_pass", .array(onePass)),
              ("classes", .array(comparedParameters(d).map { .string($0.name) })),
            ])
          ),
          ("requires_max_force", .bool(entry.standard.requiresMaximumForce)),
          ("parameters", .array(parameters)),
          (
            "composition",
            .object([
              ("can_wait_for_failure", .bool(d.canWaitForFailure)),
              ("syntax", .string(d.canWaitForFailure ? Composition.name(dependent: d.name, required: "OTHER") : nil)),
              ("parameter_prefix", .string(Composition.requiredPrefix)),
            ])
          ),
        ])
      })
  }
}

extension String {
  /// The text with `|` escaped for a Markdown table cell.
  fileprivate var replacingPipes: String {
    var out = ""
    for c in self {
      if c == "|" { out += "\\|" } else { out.append(c) }
    }
    return out
  }
}
