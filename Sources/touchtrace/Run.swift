import ArgumentParser
import TouchCore
import TouchIO
import TouchRecognizers
import TouchReports

extension TouchTraceCommand {
  /// `touchtrace run`: replays traces through one recognizer variant and prints, per trace, the
  /// state transitions and the action event.
  struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Replay traces through a recognizer and print its state transitions and action event.",
      discussion: """
        Traces are delivered as UIKit would: the first sample is touchesBegan, later samples whose \
        force or position changed are touchesMoved, unchanged samples are dropped, the last sample \
        is touchesEnded (touchesCancelled when its phase is cancelled). Times are seconds; an \
        event's index is the sample index in its trace (for a timer: the last sample before it).

        A recognizer that compares normalized force needs each trace's maximum force: traces \
        without one stop the command (exit 65) unless --skip-invalid skips them, or --max-force \
        supplies it. See `touchtrace recognizers` for the variants and their parameters.
        """)

    @OptionGroup var input: InputOptions

    @Option(help: ArgumentHelp("The recognizer variant (see `touchtrace recognizers`).", valueName: "name"))
    var recognizer: String

    @Option(
      name: .customLong("set"),
      help: ArgumentHelp(
        "Set a parameter: NAME=VALUE (repeatable; `required.NAME=VALUE` for --require-failure-of).",
        valueName: "name=value"))
    var settings: [String] = []

    @Option(
      help: ArgumentHelp(
        "Make the recognizer (tap, long-press, long-press-android) wait for this one to fail.",
        valueName: "name"))
    var requireFailureOf: String?

    @Flag(
      help: """
        Replay consecutive traces through one recognizer instance (a new one whenever the \
        session changes), so state a library forgets to reset carries over.
        """)
    var carryState = false

    @Option(help: "Output format.")
    var format: Format = .json

    @Option(help: ArgumentHelp("Write the output to this file instead of standard output.", valueName: "file"))
    var output: String?

    enum Format: String, ExpressibleByArgument, CaseIterable {
      case json, csv
    }

    func validate() throws {
      _ = try makeRecognizer()
    }

    /// The recognizer the options describe.
    func makeRecognizer() throws(ValidationError) -> AnyForceRecognizer {
      var own: [(name: String, value: String)] = []
      var required: [(name: String, value: String)] = []
      for setting in settings {
        guard let (name, value) = PlanOptions.setting(setting) else {
          throw ValidationError("--set expects NAME=VALUE, got '\(setting)'")
        }
        if let base = Composition.unprefixed(name) {
          guard requireFailureOf != nil else {
            throw ValidationError("--set \(name): '\(Composition.requiredPrefix)' parameters need --require-failure-of")
          }
          required.append((base, value))
        } else {
          own.append((name, value))
        }
      }
      do throws(ParameterError) {
        let main = try AnyForceRecognizer(variant: recognizer, settings: own)
        guard let requireFailureOf else { return main }
        return try main.requiringFailure(of: AnyForceRecognizer(variant: requireFailureOf, settings: required))
      } catch {
        throw ValidationError(error.description)
      }
    }

    func run() throws {
      let recognizer = try makeRecognizer()
      try Console.run {
        var dataset = try input.load()
        let total = dataset.total
        try Scoring.requireMaximumForce(&dataset, for: [recognizer], skipInvalid: input.skipInvalid)
        let results = try replay(dataset.traces, through: recognizer)
        let bytes: [UInt8]
        switch format {
        case .json:
          bytes = Self.json(
            results, recognizer: recognizer, carryState: carryState, total: total, dataset: dataset
          ).encoded()
        case .csv:
          bytes = Self.csv(results)
        }
        try Console.emit(bytes, to: output)
      }
    }

    /// Replays every trace: each through a fresh instance, or per session through one.
    func replay(_ traces: [Trace], through recognizer: AnyForceRecognizer) throws -> [ReplayResult] {
      do throws(ReplayError) {
        guard carryState else { return try recognizer.replay(traces: traces) }
        var results: [ReplayResult] = []
        var start = 0
        while start < traces.count {
          var end = start + 1
          while end < traces.count && traces[end].metadata.session == traces[start].metadata.session { end += 1 }
          results += try recognizer.replay(traces: Array(traces[start..<end]), carryingState: true)
          start = end
        }
        return results
      } catch {
        throw DataError(description: "error: \(error.description)")
      }
    }

    static func number(_ value: Double?) -> JSONValue { .number(value) }

    static func transitions(_ list: [StateTransition]) -> JSONValue {
      .array(
        list.map { e in
          var members: [(String, JSONValue)] = [
            ("state", .string(e.state.name)), ("t", .number(e.t)), ("index", .int(e.index)),
          ]
          if e.implicit { members.append(("implicit", true)) }
          return .object(members)
        })
    }

    static func actions(_ list: [ActionEvent]) -> JSONValue {
      .array(
        list.map { a in
          var members: [(String, JSONValue)] = [
            ("kind", .string(a.kind.name)), ("t", .number(a.t)), ("index", .int(a.index)),
          ]
          if a.detail != 0 { members.append(("detail", .int(a.detail))) }
          return .object(members)
        })
    }

    /// The JSON document (format `touchtrace-run`, version 1).
    static func json(
      _ results: [ReplayResult], recognizer: AnyForceRecognizer, carryState: Bool, total: Int, dataset: Dataset
    ) -> JSONValue {
      let parameters: [(String, JSONValue)] = recognizer.parameters.map {
        ($0.name, CatalogReport.json(value: $0.value))
      }
      let composed = recognizer.isComposition
      let rows: [JSONValue] = results.map { r in
        var members: [(String, JSONValue)] = [
          ("trace", .string(r.trace)),
          ("action_t", number(r.action?.t)), ("action_index", .int(r.action?.index)),
          ("stage2_t", number(r.stage2?.t)), ("stage2_index", .int(r.stage2?.index)),
          ("flaps", .int(r.flaps)), ("final_state", .string(r.finalState.name)),
          ("events", transitions(r.transitions)), ("actions", actions(r.actions)),
        ]
        if composed {
          members.append(("held_t", number(r.held?.t)))
          members.append(("added_latency", number(r.addedLatency)))
          members.append(("required_events", transitions(r.requiredTransitions)))
          members.append(("required_actions", actions(r.requiredActions)))
        }
        return .object(members)
      }
      return .object([
        ("format", "touchtrace-run"), ("version", 1),
        (
          "recognizer",
          .object([("name", .string(recognizer.name)), ("parameters", .object(parameters))])
        ),
        ("carry_state", .bool(carryState)),
        ("traces", Accounting.traces(total: total, analyzed: dataset.traces.count, skipped: dataset.skipped.count)),
        ("skipped", Accounting.skipped(dataset.skipped)),
        ("results", .array(rows)),
      ])
    }

    /// One row per trace: `trace,action_t,action_index,stage2_t,stage2_index,actions,flaps,final_state,held_t,added_latency`.
    static func csv(_ results: [ReplayResult]) -> [UInt8] {
      var out = Array(
        "trace,action_t,action_index,stage2_t,stage2_index,actions,flaps,final_state,held_t,added_latency\n".utf8)
      func field(_ value: Double?) {
        out.append(UInt8(ascii: ","))
        if let value { NumberText.append(value, to: &out) }
      }
      func field(_ value: Int?) {
        out.append(UInt8(ascii: ","))
        if let value { out.append(contentsOf: String(value).utf8) }
      }
      for r in results {
        let name = r.trace
        if name.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) || name.hasPrefix(" ")
          || name.hasSuffix(" ") || name.hasPrefix("#")
        {
          out.append(contentsOf: ("\"" + name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\"").utf8)
        } else {
          out.append(contentsOf: name.utf8)
        }
        field(r.action?.t)
        field(r.action?.index)
        field(r.stage2?.t)
        field(r.stage2?.index)
        field(r.allActions.count)
        field(r.flaps)
        out.append(UInt8(ascii: ","))
        out.append(contentsOf: r.finalState.name.utf8)
        field(r.held?.t)
        field(r.held == nil ? nil : r.addedLatency)
        out.append(0x0A)
      }
      return out
    }
  }
}
