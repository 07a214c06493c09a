package import TouchCore
import TouchIO

/// What a capture run did: the session summary (`--output`, `--format json|md`).
package struct CaptureSummary: Sendable, Hashable {
  /// One trace file of the run.
  package struct File: Sendable, Hashable {
    /// The file's path.
    package var file: String
    /// The trace id in it.
    package var id: String
    /// The prompt (index from 0) it answered.
    package var prompt: Int
    /// The prompted intent.
    package var intent: Intent
    /// Samples in the trace.
    package var samples: Int

    /// A file entry.
    /// - Parameters:
    ///   - file: the file's path.
    ///   - id: the trace id.
    ///   - prompt: the prompt's index, from 0.
    ///   - intent: the prompted intent.
    ///   - samples: samples in the trace.
    package init(file: String, id: String, prompt: Int, intent: Intent, samples: Int) {
      self.file = file
      self.id = id
      self.prompt = prompt
      self.intent = intent
      self.samples = samples
    }
  }

  /// A summary.
  /// - Parameters:
  ///   - session: the session's name.
  ///   - participant: who recorded.
  ///   - seed: the prompt order's seed.
  ///   - dataset: the dataset directory.
  ///   - intents: the intents prompted for, as listed.
  ///   - prompts: the prompts in order.
  ///   - written: the files written and kept.
  ///   - redone: the files removed by redo.
  ///   - interrupted: whether the run ended early.
  package init(
    session: String, participant: String, seed: UInt64, dataset: String, intents: [Intent], prompts: [Intent],
    written: [File], redone: [File], interrupted: Bool
  ) {
    self.session = session
    self.participant = participant
    self.seed = seed
    self.dataset = dataset
    self.intents = intents
    self.prompts = prompts
    self.written = written
    self.redone = redone
    self.interrupted = interrupted
  }

  /// The recording session's name (every trace's `session`).
  package var session: String
  /// Who recorded (every trace's `user`).
  package var participant: String
  /// The seed of the prompt order.
  package var seed: UInt64
  /// The dataset directory.
  package var dataset: String
  /// The intents prompted for, as listed.
  package var intents: [Intent]
  /// The prompts in the order shown.
  package var prompts: [Intent]
  /// The files written and kept, in prompt order.
  package var written: [File]
  /// The files written and then removed by redo.
  package var redone: [File]
  /// Whether the run ended before every prompt was done (Ctrl-C).
  package var interrupted: Bool

  /// Traces written per intent, in the order of ``intents``.
  package var counts: [(intent: Intent, count: Int)] {
    intents.map { intent in (intent, written.count { $0.intent == intent }) }
  }

  /// The summary as one JSON object: `session`, `participant`, `seed`, `dataset`, `prompts`
  /// (intents in order), `completed`, `total`, `interrupted`, `counts` (intent → traces),
  /// `files` and `redone` (each `file`, `id`, `prompt`, `intent`, `samples`).
  package func json() -> [UInt8] {
    var out: [UInt8] = Array("{\n  \"session\": ".utf8)
    JSONTraceWriter.appendString(session, to: &out)
    out += Array(",\n  \"participant\": ".utf8)
    JSONTraceWriter.appendString(participant, to: &out)
    out += Array(",\n  \"seed\": \(seed),\n  \"dataset\": ".utf8)
    JSONTraceWriter.appendString(dataset, to: &out)
    out += Array(",\n  \"prompts\": [".utf8)
    for (k, intent) in prompts.enumerated() {
      if k > 0 { out += Array(", ".utf8) }
      JSONTraceWriter.appendString(intent.rawValue, to: &out)
    }
    out += Array(
      "],\n  \"completed\": \(written.count),\n  \"total\": \(prompts.count),\n  \"interrupted\": \(interrupted),\n  \"counts\": {"
        .utf8)
    for (k, entry) in counts.enumerated() {
      if k > 0 { out += Array(", ".utf8) }
      JSONTraceWriter.appendString(entry.intent.rawValue, to: &out)
      out += Array(": \(entry.count)".utf8)
    }
    out += Array("},\n  \"files\": ".utf8)
    append(written, to: &out)
    out += Array(",\n  \"redone\": ".utf8)
    append(redone, to: &out)
    out += Array("\n}\n".utf8)
    return out
  }

  private func append(_ files: [File], to out: inout [UInt8]) {
    guard !files.isEmpty else {
      out += Array("[]".utf8)
      return
    }
    out += Array("[".utf8)
    for (k, file) in files.enumerated() {
      out += Array((k > 0 ? ",\n    {\"file\": " : "\n    {\"file\": ").utf8)
      JSONTraceWriter.appendString(file.file, to: &out)
      out += Array(", \"id\": ".utf8)
      JSONTraceWriter.appendString(file.id, to: &out)
      out += Array(", \"prompt\": \(file.prompt), \"intent\": \"\(file.intent)\", \"samples\": \(file.samples)}".utf8)
    }
    out += Array("\n  ]".utf8)
  }

  /// The summary as Markdown: the session, the counts per intent, the prompt order, the files
  /// and the redone contacts.
  package func markdown() -> [UInt8] {
    func cell(_ text: String) -> String {
      text.replacingAll("|", with: "\\|")
    }
    var lines = ["# Capture session \(cell(session))", ""]
    lines.append("- Participant: \(cell(participant)); seed \(seed); dataset \(cell(dataset)).")
    lines.append(
      "- Traces: \(written.count) of \(prompts.count) prompts"
        + (interrupted ? " (interrupted)." : ".") + " Redone: \(redone.count).")
    lines.append("- Prompt order: " + prompts.map(\.rawValue).joined(separator: ", ") + ".")
    lines += ["", "| intent | traces |", "|---|--:|"]
    for entry in counts { lines.append("| \(entry.intent) | \(entry.count) |") }
    lines += ["", "| prompt | intent | samples | file |", "|--:|---|--:|---|"]
    for file in written {
      lines.append("| \(file.prompt + 1) | \(file.intent) | \(file.samples) | \(cell(file.file)) |")
    }
    if !redone.isEmpty {
      lines += ["", "Redone (removed):", ""]
      for file in redone { lines.append("- prompt \(file.prompt + 1) (\(file.intent)): \(cell(file.file))") }
    }
    return Array((lines.joined(separator: "\n") + "\n").utf8)
  }
}

extension String {
  /// `self` with every `target` replaced (standard library only).
  fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
    var out = ""
    for character in self {
      if character == target { out += replacement } else { out.append(character) }
    }
    return out
  }
}
