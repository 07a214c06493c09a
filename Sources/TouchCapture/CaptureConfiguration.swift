package import TouchCore

/// What one capture run asks for: where traces go, where the page is served, which prompts in
/// which order, and who is recording.
package struct CaptureConfiguration: Sendable {
  /// The intents a run may prompt for, in this order by default.
  package static let promptableIntents: [Intent] = [.press, .tap, .hold, .drag, .pop]

  /// The largest request body accepted, bytes (4 MiB); a larger one is answered 413.
  package static let defaultMaximumBodySize = CaptureLimits.defaultMaximumBodySize

  /// The dataset directory the traces are added to (created when missing).
  package var dataset: String
  /// The address the server binds: an IPv4 or IPv6 address, or `localhost`.
  package var host: String
  /// The TCP port; 0 picks a free one (the printed URL names it).
  package var port: UInt16
  /// The intents prompted for, each ``count`` times.
  package var intents: [Intent]
  /// How many prompts of each intent.
  package var count: Int
  /// Who records: the `user` of every trace.
  package var participant: String
  /// The seed of the prompt order.
  package var seed: UInt64
  /// The token every request must carry (`?token=`); required for a non-loopback ``host``.
  package var token: String?
  /// The largest request body accepted, bytes.
  package var maximumBodySize: Int
  /// The device name every trace gets (`--device`); `nil`: the browser's description.
  package var device: String?
  /// What the page says for an intent (`--intent-prompt`, `--intent-instructions`, or a study
  /// file's `[capture.intents.INTENT]` table); intents left out use ``IntentText/standard(for:)``.
  package var texts: [Intent: IntentText] = [:]
  /// A welcome text shown before the first prompt (`--welcome`), or `nil`.
  package var welcome: String?
  /// A consent text the participant must agree to before the first prompt (`--consent`), or
  /// `nil`.
  package var consent: String?
  /// Practice contacts before the first prompt (`--practice`), cycling through ``intents``;
  /// the page runs them and never sends them: they are not saved.
  package var practice = 0

  /// The largest welcome, consent, prompt or instructions text, UTF-8 bytes.
  package static let maximumTextSize = 4000

  /// What the page says for `intent`: the configured text, else the standard one.
  package func text(for intent: Intent) -> IntentText { texts[intent] ?? IntentText.standard(for: intent) }

  /// Whether the page opens on a welcome or consent screen that must be left with Start
  /// (`POST /start`) before any contact is accepted.
  package var needsStart: Bool { welcome != nil || consent != nil }

  /// The practice intents, in order: ``intents`` cycled, ``practice`` of them.
  package var practiceIntents: [Intent] { (0..<max(practice, 0)).map { intents[$0 % intents.count] } }

  /// A configuration; ``seed`` defaults to ``defaultSeed(participant:)``.
  ///
  /// - Parameters:
  ///   - dataset: the dataset directory.
  ///   - host: the address to bind (loopback by default).
  ///   - port: the TCP port (0: any free port).
  ///   - intents: the intents to prompt for.
  ///   - count: prompts per intent.
  ///   - participant: who records.
  ///   - seed: the prompt order's seed; `nil` for ``defaultSeed(participant:)``.
  ///   - token: the access token, or `nil`.
  ///   - maximumBodySize: the largest request body, bytes.
  ///   - device: the device name of every trace; `nil` for the browser's description.
  package init(
    dataset: String, host: String = "127.0.0.1", port: UInt16 = 8080,
    intents: [Intent] = CaptureConfiguration.promptableIntents, count: Int = 3,
    participant: String = "anonymous", seed: UInt64? = nil, token: String? = nil,
    maximumBodySize: Int = CaptureConfiguration.defaultMaximumBodySize, device: String? = nil
  ) {
    self.device = device
    self.dataset = dataset
    self.host = host
    self.port = port
    self.intents = intents
    self.count = count
    self.participant = participant
    self.seed = seed ?? Self.defaultSeed(participant: participant)
    self.token = token
    self.maximumBodySize = maximumBodySize
  }

  /// The seed used without `--seed`: the 64-bit FNV-1a hash of the participant's name (UTF-8),
  /// so each participant gets an order of their own, the same one on every run.
  package static func defaultSeed(participant: String) -> UInt64 {
    FNV1a.hash(participant.utf8)
  }

  /// Checks the configuration before anything is bound or written.
  ///
  /// - Throws: ``CaptureError``: `.usage` for an empty intent list, a repeated or unpromptable
  ///   intent, a count outside 1...1000, an empty participant, a malformed token, an address
  ///   that is not an IP address, or a non-loopback address without a token.
  package func validate() throws(CaptureError) {
    guard !intents.isEmpty else { throw .usage("--intents names no intent") }
    for intent in intents where !Self.promptableIntents.contains(intent) {
      throw .usage("--intents: \(intent) cannot be prompted for (use press, tap, hold, drag, pop)")
    }
    guard Set(intents).count == intents.count else { throw .usage("--intents names an intent twice") }
    guard (1...1000).contains(count) else { throw .usage("--count must be between 1 and 1000, not \(count)") }
    if let device,
      device.isEmpty || device.utf8.count > 200
        || device.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
    {
      throw .usage("--device must be 1 to 200 bytes long, without control characters")
    }
    guard (0...20).contains(practice) else { throw .usage("--practice must be between 0 and 20, not \(practice)") }
    for (name, text) in [("--welcome", welcome), ("--consent", consent)] {
      if let text { try Self.checkText(text, name) }
    }
    for (intent, text) in texts {
      guard intents.contains(intent) else {
        throw .usage(
          "--intent-prompt/--intent-instructions: \(intent) is not one of --intents (\(intents.map(\.rawValue).joined(separator: ",")))"
        )
      }
      try Self.checkText(text.prompt, "the prompt of \(intent)")
      try Self.checkText(text.instructions, "the instructions of \(intent)")
    }
    guard !participant.isEmpty, participant.utf8.count <= 200 else {
      throw .usage("--participant must be 1 to 200 bytes long")
    }
    if let token {
      guard !token.isEmpty, token.utf8.count <= 200,
        token.utf8.allSatisfy({ CaptureNames.isUnreserved($0) })
      else {
        throw .usage("the token must be 1 to 200 characters from A-Z a-z 0-9 - . _ ~ (it travels in the URL)")
      }
    }
    let address = try CaptureAddress(host)
    if !address.isLoopback && token == nil {
      throw .usage(
        "--host \(host) is not a loopback address: every device on the network could send traces; "
          + "give a token as well: --token-file FILE or TOUCHTRACE_CAPTURE_TOKEN (the printed URL carries it, and requests without it are refused)"
      )
    }
  }

  /// Refuses an empty text, one over ``maximumTextSize`` bytes, or one with control characters
  /// other than line breaks and tabs.
  static func checkText(_ text: String, _ name: String) throws(CaptureError) {
    guard !text.isEmpty, text.utf8.count <= maximumTextSize,
      !text.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || $0.value == 0x7F })
    else {
      throw .usage(
        "\(name) must be 1 to \(maximumTextSize) bytes of text (no control characters but line breaks and tabs)")
    }
  }

  /// The prompts of the run: each intent ``count`` times, shuffled with ``seed``.
  package var prompts: [Intent] { PromptOrder.shuffled(intents, count: count, seed: seed) }
}

/// What the page says for one intent: a short prompt (the heading) and instructions (a sentence
/// or two telling a participant what to do).
package struct IntentText: Sendable, Hashable {
  /// The heading, e.g. "Press firmly".
  package var prompt: String
  /// What to do, in plain words.
  package var instructions: String

  /// A text.
  package init(prompt: String, instructions: String) {
    self.prompt = prompt
    self.instructions = instructions
  }

  /// The standard text of `intent`, for a participant who knows nothing of force touch.
  package static func standard(for intent: Intent) -> IntentText {
    switch intent {
    case .press:
      IntentText(
        prompt: "Press firmly",
        instructions:
          "Put your finger or pen on the box and press down hard, as you would to open a preview. Then lift.")
    case .tap:
      IntentText(prompt: "Tap", instructions: "Touch the box briefly and lift, as you would tap a button.")
    case .hold:
      IntentText(
        prompt: "Touch and hold",
        instructions:
          "Rest your finger or pen on the box without pressing hard and keep it still for about a second. Then lift.")
    case .drag:
      IntentText(
        prompt: "Drag",
        instructions: "Touch the box and slide across it without pressing hard, as you would scroll. Then lift.")
    case .pop:
      IntentText(
        prompt: "Press, then press harder",
        instructions: "Press down firmly, pause for a moment, then press even harder before you lift.")
    case .none:
      IntentText(
        prompt: "Rest your hand",
        instructions: "Rest your hand or finger on the box as you would when you do not mean to do anything. Then lift."
      )
    }
  }
}

/// The prompt order: a Fisher–Yates shuffle driven by SplitMix64.
package enum PromptOrder {
  /// `intents`, each repeated `count` times in the given order, then shuffled: for i from the
  /// last index down to 1, swap element i with element `next() % (i + 1)` of a TouchCore `SplitMix64`
  /// generator started at `seed`.
  ///
  /// - Parameters:
  ///   - intents: the intents, in their listed order.
  ///   - count: repetitions of each.
  ///   - seed: the generator's start.
  package static func shuffled(_ intents: [Intent], count: Int, seed: UInt64) -> [Intent] {
    var order: [Intent] = []
    for intent in intents { order += Array(repeating: intent, count: max(count, 0)) }
    var random = SplitMix64(seed: seed)
    var i = order.count - 1
    while i > 0 {
      let j = Int(random.next() % UInt64(i + 1))
      order.swapAt(i, j)
      i -= 1
    }
    return order
  }
}

/// File-name-safe and URL-safe text.
enum CaptureNames {
  /// RFC 3986 unreserved characters.
  static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
      UInt8(ascii: "~"):
      true
    default: false
    }
  }

  /// `text` with every byte outside A-Z a-z 0-9 - _ replaced by `_`, at most 40 bytes, never
  /// empty and never starting with `.`, `-` or `_`: a piece of a file name the client cannot steer.
  static func slug(_ text: String) -> String {
    var bytes: [UInt8] = []
    for byte in text.utf8.prefix(40) {
      switch byte {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
        bytes.append(byte)
      default: bytes.append(UInt8(ascii: "_"))
      }
    }
    while let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "_") { bytes.removeFirst() }
    return bytes.isEmpty ? "p" : String(decoding: bytes, as: UTF8.self)
  }
}
