import ArgumentParser
import TouchRecognizers
import TouchReports

extension TouchTraceCommand {
  /// `touchtrace recognizers`: every recognizer variant with its parameters and action event.
  struct Recognizers: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List the recognizer variants: parameters, units, defaults, ranges, action events.",
      discussion: """
        Use a name with `touchtrace run --recognizer NAME` and change parameters with \
        `--set NAME=VALUE`. A tap or long press can wait for another recognizer to fail with \
        `--require-failure-of NAME` (its parameters are then set as `--set required.NAME=VALUE`).
        """)

    @Option(help: "Output format.")
    var format: Format = .text

    enum Format: String, ExpressibleByArgument, CaseIterable {
      case text, json
    }

    func run() throws {
      switch format {
      case .text: Console.print(Self.text())
      case .json: Console.write(Self.json().encoded())
      }
    }

    /// One block per variant.
    static func text() -> String {
      var out = ""
      for v in AnyForceRecognizer.variants {
        out += "\(v.name)  [\(v.code), \(v.style.rawValue)]  \(v.title)\n"
        out += "  source:  \(v.source)\n"
        out += "  action:  \(v.actionEvent)\n"
        if let stage2 = v.stage2Event { out += "  stage 2: \(stage2)\n" }
        if let release = v.releaseEvent { out += "  release: \(release) (flaps are counted)\n" }
        out += "  rules:   \(v.rules)\n"
        let rows = v.parameters.map { p in
          [p.name, p.unit.rawValue, "default \(p.defaultValue)", p.rangeText, p.meaning]
        }
        var widths = [Int](repeating: 0, count: 4)
        for row in rows { for k in 0..<4 { widths[k] = max(widths[k], row[k].count) } }
        out += "  parameters:\n"
        for row in rows {
          var line = "    "
          for k in 0..<4 { line += row[k] + String(repeating: " ", count: widths[k] - row[k].count + 2) }
          out += line + row[4] + "\n"
        }
        if let recognizer = try? AnyForceRecognizer(variant: v.name) {
          for sweep in recognizer.thresholdSweeps {
            out +=
              "  sweep:   \(sweep.parameter) = θ → \(sweep.event.rawValue) at the first candidate with "
              + "\(formula(sweep)); candidates: \(sweep.eligibleSamples)\n"
          }
        }
        out += "\n"
      }
      out += "Compositions: \(AnyForceRecognizer.dependentNames.joined(separator: ", ")) "
      out += "--require-failure-of NAME (waits for NAME to fail; the wait is reported as added latency).\n"
      return out
    }

    /// A sweep's comparison in words, e.g. `force/max >= θ`.
    static func formula(_ sweep: ThresholdSweep) -> String {
      let op = sweep.comparison.rawValue
      return switch sweep.scale {
      case .raw: "force \(op) θ"
      case .clampedRaw: "force \(op) min(θ, max)"
      case .normalized: "force/max \(op) θ"
      case .scaledThreshold: "force \(op) max·θ"
      case .clampedNormalized: "clamp(force/max, 0, 1) \(op) θ"
      }
    }

    /// A parameter value as JSON: numbers (NaN as the string "nan"), booleans, arrays.
    static func json(_ value: ParameterValue) -> JSONValue {
      switch value {
      case .number(let x): x.isNaN ? "nan" : .number(x)
      case .flag(let b): .bool(b)
      case .list(let xs): .array(xs.map { .number($0) })
      }
    }

    /// The JSON document (format `touchtrace-recognizers`, version 1).
    static func json() -> JSONValue {
      let variants: [JSONValue] = AnyForceRecognizer.variants.map { v in
        let recognizer = try? AnyForceRecognizer(variant: v.name)
        let parameters: [JSONValue] = v.parameters.map { p in
          .object([
            ("name", .string(p.name)), ("kind", .string(p.kind.rawValue)), ("unit", .string(p.unit.rawValue)),
            ("default", json(p.defaultValue)), ("minimum", .number(p.minimum)),
            ("minimum_inclusive", .bool(p.minimumInclusive)), ("maximum", .number(p.maximum)),
            ("maximum_inclusive", .bool(p.maximumInclusive)), ("nan_meaning", .string(p.notANumberMeaning)),
            ("range", .string(p.rangeText)), ("meaning", .string(p.meaning)),
          ])
        }
        let sweeps: [JSONValue] = (recognizer?.thresholdSweeps ?? []).map { s in
          .object([
            ("parameter", .string(s.parameter)), ("event", .string(s.event.rawValue)),
            ("comparison", .string(s.comparison.rawValue)), ("scale", .string(s.scale.rawValue)),
            ("eligible_samples", .string(s.eligibleSamples)), ("conditions", .string(s.conditions)),
          ])
        }
        return .object([
          ("name", .string(v.name)), ("code", .string(v.code)), ("title", .string(v.title)),
          ("source", .string(v.source)), ("style", .string(v.style.rawValue)),
          ("action_event", .string(v.actionEvent)), ("stage2_event", .string(v.stage2Event)),
          ("release_event", .string(v.releaseEvent)), ("rules", .string(v.rules)),
          ("requires_max_force", .bool(recognizer?.requiresMaximumForce ?? true)),
          ("parameters", .array(parameters)), ("threshold_sweeps", .array(sweeps)),
        ])
      }
      return .object([
        ("format", "touchtrace-recognizers"), ("version", 1), ("variants", .array(variants)),
        (
          "compositions",
          .object([
            ("dependents", .array(AnyForceRecognizer.dependentNames.map { .string($0) })),
            ("option", "--require-failure-of"), ("parameter_prefix", "required."),
          ])
        ),
      ])
    }
  }
}
