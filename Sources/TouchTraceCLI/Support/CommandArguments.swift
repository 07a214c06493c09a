import ArgumentParser
import TouchIO

/// The arguments one subcommand declares, read from the argument parser's own description of
/// it (`_dumpHelp()`, the JSON behind `--experimental-dump-help`): names, kinds, whether they
/// repeat, defaults. Study files translate to these, and `--print-config` renders from them,
/// so both follow every option a command has without a list kept by hand.
struct CommandArguments {
  /// How an argument is written.
  enum Kind: Equatable {
    /// The trace paths (TOML key `paths`).
    case positional
    /// `--name VALUE`.
    case option
    /// `--name`, or `--name`/`--no-name` when ``Argument/inversion`` is set.
    case flag
  }

  /// One argument: its TOML key is its long name.
  struct Argument {
    /// The TOML key: the long name without dashes; `paths` for the positional arguments.
    var key: String
    var kind: Kind
    /// Whether it may be given more than once (each value its own `--name VALUE`).
    var repeating: Bool
    /// The default as the help shows it (a value the option parses), if any. For a flag:
    /// `"true"` or `"false"`.
    var defaultValue: String?
    /// For a flag with an inverse: the inverse's long name (`no-continuity-correction`).
    var inversion: String?
  }

  /// The subcommand's name (`sweep`).
  let command: String
  /// The arguments in help order (`help`, `version` and the study options left out).
  let arguments: [Argument]

  /// The keys a study file does not set: help, version and the study options themselves.
  static let excluded: Set<String> = ["help", "h", "version", "config", "print-config"]

  /// Reads `type`'s description.
  init(_ type: any ParsableCommand.Type) {
    command = type._commandName
    var arguments: [Argument] = []
    var inverses: [String: String] = [:]
    let node = try? JSONNode.parse(Array(type._dumpHelp().utf8), file: "dump-help")
    let items: [JSONNode] =
      if case .array(let items)? = node?.member("command")?.value.member("arguments")?.value.kind { items } else { [] }
    func string(_ node: JSONNode, _ key: String) -> String? {
      if case .string(let s)? = node.member(key)?.value.kind { s } else { nil }
    }
    func bool(_ node: JSONNode, _ key: String) -> Bool {
      if case .bool(let b)? = node.member(key)?.value.kind { b } else { false }
    }
    for item in items {
      var longNames: [String] = []
      if case .array(let names)? = item.member("names")?.value.kind {
        for name in names where string(name, "kind") == "long" { longNames += string(name, "name").map { [$0] } ?? [] }
      }
      let kind: Kind
      switch string(item, "kind") {
      case "positional": kind = .positional
      case "flag": kind = .flag
      default: kind = .option
      }
      let key = kind == .positional ? "paths" : (longNames.first ?? "")
      guard !key.isEmpty, !Self.excluded.contains(key) else { continue }
      if kind == .flag, key.hasPrefix("no-"),
        arguments.contains(where: { $0.key == String(key.dropFirst(3)) && $0.kind == .flag })
      {
        inverses[String(key.dropFirst(3))] = key
        continue
      }
      var defaultValue = string(item, "defaultValue")
      if kind == .flag { defaultValue = defaultValue == "--" + key ? "true" : "false" }
      arguments.append(Argument(key: key, kind: kind, repeating: bool(item, "isRepeating"), defaultValue: defaultValue))
    }
    for index in arguments.indices { arguments[index].inversion = inverses[arguments[index].key] }
    self.arguments = arguments
  }

  /// The argument with TOML key (or long name) `key`.
  func argument(_ key: String) -> Argument? {
    arguments.first { $0.key == key || $0.inversion == key }
  }

  /// Splits a command line (without the subcommand's name) into the values each argument got,
  /// in order: `--name VALUE`, `--name=VALUE`, flags (`"true"`/`"false"` for `--name`/`--no-name`),
  /// positional values under `paths` (everything after `--` included). Unknown names are kept
  /// in ``Split/unknown`` for the parser to report.
  func split(_ tokens: [String]) -> Split {
    var split = Split()
    var index = 0
    var positionalOnly = false
    while index < tokens.count {
      let token = tokens[index]
      index += 1
      if positionalOnly || token == "-" || !token.hasPrefix("-") {
        split.add("paths", token)
        continue
      }
      if token == "--" {
        positionalOnly = true
        continue
      }
      guard token.hasPrefix("--") else {
        split.unknown.append(token)
        continue
      }
      let body = token.dropFirst(2)
      let name = String(body.prefix { $0 != "=" })
      let inline = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
      guard let argument = argument(name) else {
        split.unknown.append(token)
        continue
      }
      switch argument.kind {
      case .flag:
        split.add(argument.key, name == argument.inversion ? "false" : "true")
      case .option, .positional:
        if let inline {
          split.add(argument.key, inline)
        } else if index < tokens.count {
          split.add(argument.key, tokens[index])
          index += 1
        } else {
          split.unknown.append(token)
        }
      }
    }
    return split
  }

  /// A command line split by argument.
  struct Split {
    /// Each key's values in the order given.
    var values: [String: [String]] = [:]
    /// Tokens that name no argument of the command (left for the parser's message).
    var unknown: [String] = []

    mutating func add(_ key: String, _ value: String) { values[key, default: []].append(value) }
  }

  /// The tokens that give `key` the `values` (`--key v`…, a flag as `--key`/`--no-key`, paths
  /// as they are, after the options).
  func tokens(_ key: String, _ values: [String]) -> [String] {
    guard let argument = argument(key) else { return [] }
    switch argument.kind {
    case .positional: return values
    case .flag:
      guard let last = values.last else { return [] }
      if last == "true" { return ["--" + key] }
      return argument.inversion.map { ["--" + $0] } ?? []
    case .option:
      return (argument.repeating ? values : Array(values.suffix(1))).flatMap { ["--" + key, $0] }
    }
  }
}
