import ArgumentParser
import TOMLKit
import TouchCapture
import TouchCore
import TouchIO
import TouchReports

/// A study file: `--config study.toml` holds what a study repeats (data paths, labels, filters,
/// positives, recognizers and grids, objective, outputs) as TOML, with flags overriding it.
///
/// Keys are the commands' long option names without the dashes (`max-force`, `vary`,
/// `positive`), and `paths` for the trace files. Top-level keys apply to every command that has
/// the option (others ignore them); a table named after a command (`[sweep]`) applies to that
/// command only and wins over the top level. Values: a string, an integer or a decimal for an
/// option, `true`/`false` for a flag, an array for a repeatable option (`vary = ["a=1:3:1",
/// "b=2,4"]`) or for a comma list (`positive = ["press", "pop"]`, the same as `"press,pop"`).
///
/// The file becomes command-line arguments before parsing, so a study file run and the same run
/// given as flags are the same run, checked by the same parser. A flag given on the command
/// line replaces the file's value for that option (every value of a repeatable one).
/// `--print-config` prints the TOML of the effective options (defaults included), which
/// reproduces the run.
struct StudyFile {
  /// The running command and its effective arguments.
  struct Effective {
    /// The command's arguments.
    let arguments: CommandArguments
    /// The study file read (`--config`), if any: an input of the run, which no output may replace.
    var file: String? = nil
    /// Each argument's values: given (study file, then flags) or the default, in help order.
    let values: [(argument: CommandArguments.Argument, values: [String])]
    /// The options whose values came from the study file (the command line did not replace
    /// them), by argument key: the key as the file writes it and its table (`nil`: top level).
    var fromFile: [String: (written: String, section: String?)] = [:]
    /// The study file's text, to point at the line of a value the parser refuses.
    var text: String = ""

    /// The keys a report leaves out of the configuration it records: the global options
    /// (``GlobalOptions/keys``: quietness and threads), where the outputs go and their format,
    /// none of which changes a figure.
    static let presentation: Set<String> = GlobalOptions.keys.union([
      "output", "format", "json-output", "csv-output", "csv-dir", "outcomes", "outcomes-filter", "junit", "export",
      "export-json", "export-swift", "write-baseline", "shard", "partial", "batch-traces",
    ])

    /// The options a report records: all but the presentation ones.
    var recorded: [(argument: CommandArguments.Argument, values: [String])] {
      values.filter { !Self.presentation.contains($0.argument.key) }
    }

    /// A `[COMMAND]` TOML table of `entries`, one `key = value` line each.
    func table(_ entries: [(argument: CommandArguments.Argument, values: [String])]) -> String {
      "[\(arguments.command)]\n"
        + entries.map { $0.argument.key + " = " + StudyFile.tomlValue($0.values, argument: $0.argument) + "\n" }
        .joined()
    }

    /// The TOML that reproduces the run (a `[COMMAND]` table).
    var toml: String {
      "# touchtrace \(TouchTraceVersion.current): `touchtrace \(arguments.command) --config FILE` reruns this.\n"
        + table(values)
    }

    /// The recorded configuration: the command, the tool and the effective options but the
    /// presentation ones, as a JSON object.
    var json: JSONValue {
      let members = recorded.map { entry -> (String, JSONValue) in
        let value: JSONValue =
          if entry.argument.kind == .flag { .bool(entry.values.last == "true") } else if entry.argument.repeating {
            .array(entry.values.map { .string($0) })
          } else { .string(entry.values.last ?? "") }
        return (entry.argument.key, value)
      }
      return .object([
        ("tool", .string("touchtrace \(TouchTraceVersion.current)")), ("command", .string(arguments.command)),
        ("options", .object(members)),
      ])
    }

    /// The recorded configuration as a Markdown section: a TOML block without the
    /// presentation options.
    var markdown: String {
      "\n## Configuration\n\nTool: touchtrace \(TouchTraceVersion.current). The study file of this report, as `--print-config` prints it but for the options that change no number (outputs, format, quiet, threads, batch size, shards):\n\n~~~toml\n"
        + table(recorded) + "~~~\n"
    }
  }

  /// The effective configuration of the command being run, bound by `TouchTraceTool` (reports
  /// record it).
  @TaskLocal static var current: Effective?

  /// A study file that cannot be used: printed as `FILE:LINE:COL: error: …`, exit 65 (66 when
  /// it cannot be read).
  struct Failure: Error, CustomStringConvertible {
    var description: String
    var code: ExitCode
  }

  /// The files the running command read besides its data: its study file (`--config`). Outputs
  /// are checked against them as against every input.
  static var inputs: [String] { current?.file.map { [$0] } ?? [] }

  /// The subcommand type named `name`.
  static func subcommand(_ name: String) -> (any ParsableCommand.Type)? {
    TouchTraceCommand.configuration.subcommands.first { $0._commandName == name }
  }

  /// The running command's arguments that decide its results (no outputs, format, threads or
  /// shard options; defaults spelled out), options first, then `--` and the paths: what a
  /// partial records so that `touchtrace merge` runs the same command.
  static func replayArguments() -> [String] {
    guard let effective = current else { return [] }
    var options: [String] = []
    var paths: [String] = []
    for (argument, values) in effective.recorded where argument.key != "config" && argument.key != "print-config" {
      if argument.kind == .positional {
        paths += values
      } else {
        options += effective.arguments.tokens(argument.key, values)
      }
    }
    return options + ["--"] + paths
  }

  /// `arguments` with `--config FILE` replaced by the file's options (before the command line's,
  /// which win), and the effective configuration. Arguments without a known subcommand come
  /// back unchanged (the parser reports them).
  static func expand(_ arguments: [String]) throws(Failure) -> (arguments: [String], effective: Effective?) {
    guard let name = arguments.first, let type = subcommand(name) else { return (arguments, nil) }
    let command = CommandArguments(type)
    var tokens = Array(arguments.dropFirst())
    var file: String?
    var index = 0
    while index < tokens.count {
      if tokens[index] == "--" { break }
      if tokens[index] == "--config", index + 1 < tokens.count {
        file = tokens[index + 1]
        tokens.removeSubrange(index...(index + 1))
      } else if tokens[index].hasPrefix("--config=") {
        file = String(tokens[index].dropFirst("--config=".count))
        tokens.remove(at: index)
      } else {
        index += 1
      }
    }
    let given = command.split(tokens)
    var fromFile: [String: [String]] = [:]
    var origins: [String: (written: String, section: String?)] = [:]
    var text = ""
    if let file { (fromFile, origins, text) = try readWithOrigins(file, for: command) }
    // The command line wins, option by option.
    var merged = fromFile.filter { given.values[$0.key] == nil }
    for (key, values) in given.values { merged[key] = values }
    var prefix: [String] = []
    for argument in command.arguments where argument.kind != .positional {
      if let values = fromFile[argument.key], given.values[argument.key] == nil {
        prefix += command.tokens(argument.key, values)
      }
    }
    if let paths = fromFile["paths"], given.values["paths"] == nil {
      // Paths after the options; `--` keeps a path that starts with a dash a path.
      tokens += paths.contains { $0.hasPrefix("-") && $0 != "-" } && !tokens.contains("--") ? ["--"] + paths : paths
    }
    var effective: [(argument: CommandArguments.Argument, values: [String])] = []
    for argument in command.arguments {
      if let values = merged[argument.key] {
        effective.append(
          (
            argument,
            argument.kind == .flag || !argument.repeating && argument.kind == .option
              ? Array(values.suffix(1)) : values
          ))
      } else if let value = argument.defaultValue, !argument.repeating {
        effective.append((argument, [value]))
      }
    }
    return (
      [name] + prefix + tokens,
      Effective(
        arguments: command, file: file, values: effective,
        fromFile: origins.filter { given.values[$0.key] == nil && $0.key != "paths" }, text: text)
    )
  }

  /// A parse or validation error about an option whose value came from the study file, said
  /// at that value's line: `FILE:LINE:COL: error: tolerance: MESSAGE`, exit 65 (bad input
  /// data, as every other study-file problem); `nil` when the error is not about such a value.
  static func attribute(_ message: String, effective: Effective?) -> Failure? {
    guard let effective, let file = effective.file, !effective.fromFile.isEmpty else { return nil }
    let firstLine = message.split(separator: "\n").first.map(String.init) ?? message
    // The longest option named in the message (`--max-early` before `--max`).
    let named = effective.fromFile.keys.sorted { $0.count > $1.count }.first { key in
      var rest = Substring(firstLine)
      while let range = rest.range(of: "--" + key) {
        let after = rest[range.upperBound...].first
        if after == nil || !(after!.isLetter || after!.isNumber || after == "-") { return true }
        rest = rest[range.upperBound...]
      }
      return false
    }
    guard let key = named, let origin = effective.fromFile[key] else { return nil }
    return failure(
      file, effective.text, key: origin.written, section: origin.section, "\(origin.written): \(firstLine)")
  }

  /// The options `file` sets for `command`: top-level keys the command has, then its own table.
  static func read(_ file: String, for command: CommandArguments) throws(Failure) -> [String: [String]] {
    try readWithOrigins(file, for: command).values
  }

  /// ``read(_:for:)`` with where each option is written (its key in the file and its table) and
  /// the file's text.
  static func readWithOrigins(_ file: String, for command: CommandArguments) throws(Failure) -> (
    values: [String: [String]], origins: [String: (written: String, section: String?)], text: String
  ) {
    let bytes: [UInt8]
    do throws(TraceLoadError) {
      bytes = try TraceFiles.read(file)
    } catch {
      throw Failure(description: error.description, code: error.isFileAccessError ? ExitCode(66) : ExitCode(65))
    }
    try checkText(bytes, file: file)
    let text = String(decoding: bytes, as: UTF8.self)
    let table: TOMLTable
    do {
      table = try TOMLTable(string: text)
    } catch let error as TOMLParseError {
      throw Failure(
        description: "\(file):\(error.source.begin.line):\(error.source.begin.column): error: \(error.description)",
        code: ExitCode(65))
    } catch {
      throw Failure(description: "\(file): error: \(error)", code: ExitCode(65))
    }
    let commands = TouchTraceCommand.configuration.subcommands.map { CommandArguments($0) }
    var shared: [String: [String]] = [:]
    var own: [String: [String]] = [:]
    var origins: [String: (written: String, section: String?)] = [:]
    for key in table.keys {
      guard let value = table[key] else { continue }
      if let section = value.table {
        guard commands.contains(where: { $0.command == key }) else {
          throw failure(
            file, text, key: key, section: nil,
            "unknown table [\(key)]: a table is named after a command (\(commands.map(\.command).joined(separator: ", ")))"
          )
        }
        guard key == command.command else { continue }
        for inner in section.keys {
          if key == "capture", inner == "intents", let intents = section[inner]?.table {
            for (argumentName, values) in try intentTexts(intents, file: file, text: text) {
              guard let argument = command.argument(argumentName) else { continue }
              own[argument.key] = values
              origins[argument.key] = ("intents", key)
            }
            continue
          }
          guard let argument = command.argument(inner), let innerValue = section[inner] else {
            throw failure(
              file, text, key: inner, section: key,
              "unknown key '\(inner)': `touchtrace \(key)` has no option --\(inner)\(suggestion(inner, command))")
          }
          own[argument.key] = try values(innerValue, for: argument, key: inner, section: key, file: file, text: text)
          origins[argument.key] = (inner, key)
        }
      } else {
        guard commands.contains(where: { $0.argument(key) != nil }) else {
          throw failure(
            file, text, key: key, section: nil,
            "unknown key '\(key)': no command has an option --\(key)\(suggestion(key, command))")
        }
        guard let argument = command.argument(key) else { continue }
        shared[argument.key] = try values(value, for: argument, key: key, section: nil, file: file, text: text)
        if origins[argument.key] == nil { origins[argument.key] = (key, nil) }
      }
    }
    return (shared.merging(own) { _, own in own }, origins, text)
  }

  /// The `[capture.intents.INTENT]` tables (`prompt = "…"`, `instructions = "…"`) as the
  /// options they stand for: `intents` (the tables' intents, in capture's standard order),
  /// `intent-prompt` and `intent-instructions` (`INTENT=TEXT` each).
  static func intentTexts(_ table: TOMLTable, file: String, text: String) throws(Failure) -> [(String, [String])] {
    var intents: [Intent] = []
    var prompts: [String] = []
    var instructions: [String] = []
    for name in table.keys {
      guard let intent = Intent(rawValue: name), let entry = table[name]?.table else {
        throw failure(
          file, text, key: name, section: "capture.intents",
          "[capture.intents.\(name)]: expected a table named after an intent (press, tap, hold, drag, pop) with prompt and instructions"
        )
      }
      intents.append(intent)
      for field in entry.keys {
        guard field == "prompt" || field == "instructions", let value = entry[field]?.string else {
          throw failure(
            file, text, key: field, section: "capture.intents.\(name)",
            "[capture.intents.\(name)]: '\(field)' is not a text field here (prompt = \"...\", instructions = \"...\")")
        }
        if field == "prompt" { prompts.append("\(name)=\(value)") } else { instructions.append("\(name)=\(value)") }
      }
    }
    let order =
      CaptureConfiguration.promptableIntents
      + Intent.allCases.filter { !CaptureConfiguration.promptableIntents.contains($0) }
    let ordered = order.filter { intents.contains($0) }.map(\.rawValue).joined(separator: ",")
    return [
      ("intents", [ordered]), ("intent-prompt", prompts.sorted()), ("intent-instructions", instructions.sorted()),
    ]
  }

  /// Refuses a study file that is not text: a NUL byte (the TOML parser, given a C string, would
  /// silently stop there and drop the rest of the file) or bytes that are not UTF-8 (TOML files
  /// are UTF-8); `FILE:LINE:COL: error: …` at the offending byte, columns in Unicode scalars.
  static func checkText(_ bytes: [UInt8], file: String) throws(Failure) {
    var line = 1
    var column = 1
    var offset = 0
    func fail(_ message: String) -> Failure {
      Failure(description: "\(file):\(line):\(column): error: \(message)", code: ExitCode(65))
    }
    // The standard library's UTF-8 parser: it refuses overlong forms, surrogates and values over
    // U+10FFFF as Unicode requires.
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let encoded):
        if encoded.count == 1, let byte = encoded.first {
          if byte == 0 {
            throw fail("a NUL byte: a study file is UTF-8 text (TOML), and the rest of the file would be ignored")
          }
          if byte == UInt8(ascii: "\n") {
            line += 1
            column = 0
          }
        }
        column += 1
        offset += encoded.count
      case .error:
        throw fail(
          "invalid UTF-8 (byte 0x\(String(bytes[offset], radix: 16, uppercase: true))): a study file is UTF-8 text (TOML)"
        )
      case .emptyInput:
        return
      }
    }
  }

  /// A TOML value as the argument's values.
  static func values(
    _ value: any TOMLValueConvertible, for argument: CommandArguments.Argument, key: String, section: String?,
    file: String,
    text: String
  ) throws(Failure) -> [String] {
    func scalar(_ value: any TOMLValueConvertible) -> String? {
      if let s = value.string { return s }
      if let i = value.int { return String(i) }
      if let d = value.double { return d.isFinite ? "\(d)" : nil }
      return nil
    }
    if argument.kind == .flag {
      guard let flag = value.bool else {
        throw failure(file, text, key: key, section: section, "'\(key)' is a flag: give true or false")
      }
      return [flag ? "true" : "false"]
    }
    if let array = value.array {
      var items: [String] = []
      for item in array {
        guard let text = scalar(item) else {
          throw failure(file, text, key: key, section: section, "'\(key)' takes strings or numbers")
        }
        items.append(text)
      }
      return argument.repeating || argument.kind == .positional ? items : [items.joined(separator: ",")]
    }
    guard let single = scalar(value) else {
      throw failure(
        file, text, key: key, section: section,
        "'\(key)' takes a string or a number\(argument.repeating ? " (or an array of them)" : "")")
    }
    return [single]
  }

  /// ` (did you mean --NAME?)` for a key close to one of `command`'s, else empty.
  static func suggestion(_ key: String, _ command: CommandArguments) -> String {
    let close = command.arguments.map(\.key).filter { $0.hasPrefix(key.prefix(3)) || key.hasPrefix($0.prefix(3)) }
    return close.first.map { " (did you mean '\($0)'?)" } ?? ""
  }

  /// `FILE:LINE:COL: error: MESSAGE` at the line that sets `key` (in `[section]`, or before any
  /// table); the file's first line when it cannot be found.
  static func failure(_ file: String, _ text: String, key: String, section: String?, _ message: String) -> Failure {
    var current: String? = nil
    var found: (line: Int, column: Int)?
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      if trimmed.hasPrefix("[") {
        let name = trimmed.dropFirst().prefix { $0 != "]" }.trimmingSpaces
        if section == nil && name == key {
          found = (number + 1, line.count - trimmed.count + 1)
          break
        }
        current = name
        continue
      }
      let bare = trimmed.prefix { $0 != "=" }.trimmingSpaces
      if current == section, bare == key || bare == "\"\(key)\"" {
        found = (number + 1, line.count - trimmed.count + 1)
        break
      }
    }
    let (line, column) = found ?? (1, 1)
    return Failure(description: "\(file):\(line):\(column): error: \(message)", code: ExitCode(65))
  }

  /// A TOML rendering of an argument's values: a boolean for a flag, an array for a repeatable
  /// option or the paths, else a number when the text is one as written, else a string.
  static func tomlValue(_ values: [String], argument: CommandArguments.Argument) -> String {
    if argument.kind == .flag { return values.last == "true" ? "true" : "false" }
    if argument.repeating || argument.kind == .positional {
      return "[" + values.map(quoted).joined(separator: ", ") + "]"
    }
    let value = values.last ?? ""
    if let integer = Int64(value), String(integer) == value { return value }
    if value.contains("."), !value.contains("e"), let double = Double(value), "\(double)" == value { return value }
    return quoted(value)
  }

  /// A TOML basic string: TOML's escapes are JSON's (the JSON writer's), and TOML also wants
  /// DEL escaped, which JSON leaves as it is (its byte never occurs inside a UTF-8 sequence).
  static func quoted(_ text: String) -> String {
    var json: [UInt8] = []
    JSONValue.appendString(text, to: &json)
    return String(decoding: json.flatMap { $0 == 0x7F ? Array("\\u007F".utf8) : [$0] }, as: UTF8.self)
  }
}

extension StudyFile {
  /// `report` (a JSON object) with the recorded configuration of the running command as its
  /// last member, `configuration` (tool, command, effective options); unchanged outside a
  /// command run.
  static func recorded(_ report: JSONValue) -> JSONValue {
    guard let current, case .object(let members) = report else { return report }
    return .object(members + [("configuration", current.json)])
  }

  /// The `## Configuration` section to end a Markdown report with; empty outside a command run.
  static var recordedMarkdown: String { current?.markdown ?? "" }
}
