public import TouchCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The trace schema: the one place that names a trace's fields in the CSV, JSON and JSON Lines
/// formats, the keys of the JSON document around the traces, and the phase words.
///
/// The CSV and JSON readers, ``TraceWriter``, ``JSONTraceWriter`` and ``LabelsFile`` take every
/// column name, key and phase word from here; see <doc:TraceFileFormats> for what the fields mean
/// and their units.
public enum TraceSchema {
  /// A field of a trace: its identity, its trace-level metadata, and its per-sample columns.
  ///
  /// The cases are in the order ``JSONTraceWriter`` writes the keys of a trace object.
  public enum Field: Int, CaseIterable, Sendable {
    /// The trace (or recording) id: column `trace` in CSV, key `id` in JSON.
    case id
    /// The contact number inside the recording (an integer ≥ 0; 0 when absent).
    case touch
    /// The ground-truth intent word (`tap`, `press`, `pop`, `hold`, `drag`, `none`).
    case intent
    /// The reference press times, seconds.
    case pressAt
    /// Provenance: the user.
    case user
    /// Provenance: the session.
    case session
    /// Provenance: the device.
    case device
    /// The device's maximum possible force, device force units.
    case maxForce
    /// Whether the times were synthesized rather than recorded.
    case timeSynthesized
    /// Per-sample time, seconds.
    case t
    /// Per-sample force, device force units.
    case force
    /// Per-sample phase word (see ``TraceSchema/word(for:)``).
    case phase
    /// Per-sample horizontal position, points.
    case x
    /// Per-sample vertical position, points.
    case y
    /// Per-sample touch radius, points.
    case radius

    /// The key in a JSON trace object (`id`, `press_at`, `max_force`, …).
    public var jsonName: String { Self.jsonNames[rawValue] }

    /// The CSV column name: the JSON key, except that the id's column is `trace`.
    public var csvName: String { self == .id ? "trace" : jsonName }

    /// The fields every trace must have, in the order their absence is reported.
    public static let required: [Field] = [.id, .t, .force]

    /// The JSON keys, by `rawValue`.
    private static let jsonNames = [
      "id", "touch", "intent", "press_at", "user", "session", "device", "max_force", "time_synthesized",
      "t", "force", "phase", "x", "y", "radius",
    ]
    /// The JSON keys as UTF-8, by `rawValue`.
    private static let jsonNamesUTF8: [[UInt8]] = jsonNames.map { Array($0.utf8) }
    /// The CSV column names, by `rawValue`.
    private static let csvNames: [String] = allCases.map(\.csvName)

    /// The field whose JSON key is exactly `bytes`, if any.
    init?(jsonName bytes: UnsafeBufferPointer<UInt8>) {
      for (k, name) in Self.jsonNamesUTF8.enumerated() where name.count == bytes.count {
        if name.elementsEqual(bytes) {
          self = Self.allCases[k]
          return
        }
      }
      return nil
    }

    /// The field whose CSV column name is exactly `name` (already lowercased), if any.
    init?(csvName name: String) {
      guard let k = Self.csvNames.firstIndex(of: name) else { return nil }
      self = Self.allCases[k]
    }
  }

  /// The keys and values of the JSON document around the traces:
  /// `{"format": "touchtrace", "version": 1, "traces": [...]}`.
  public enum Document {
    /// The key naming the format.
    public static let formatKey: StaticString = "format"
    /// The only value of ``formatKey``.
    public static let format: StaticString = "touchtrace"
    /// The key of the format version.
    public static let versionKey: StaticString = "version"
    /// The format version this package reads and writes.
    public static let version = 1
    /// The key of the array of trace objects.
    public static let tracesKey: StaticString = "traces"
    /// The document's shape, for messages: `{"format": "touchtrace", "version": 1, "traces": [...]}`.
    static var example: String {
      "{\"\(formatKey)\": \"\(format)\", \"\(versionKey)\": \(version), \"\(tracesKey)\": [...]}"
    }
  }

  /// The word a phase is written as in trace files: `TouchPhase.name`
  /// (`began`, `moved`, `stationary`, `ended`, `cancelled`).
  public static func word(for phase: TouchPhase) -> String { phase.name }

  /// Reads the phase word of `n` bytes at `start`: exactly one of the words of
  /// ``word(for:)``, case-sensitive; `nil` for anything else. (The readers' hot path: the words
  /// are compile-time constants here; a test checks they are ``word(for:)`` of every phase.)
  @inline(__always)
  static func phase(_ start: UnsafePointer<UInt8>, count n: Int) -> TouchPhase? {
    @inline(__always) func matches(_ word: StaticString) -> Bool {
      n == word.utf8CodeUnitCount && memcmp(start, word.utf8Start, n) == 0
    }
    switch n {
    case 5: return matches("moved") ? .moved : matches("began") ? .began : matches("ended") ? .ended : nil
    case 9: return matches("cancelled") ? .cancelled : nil
    case 10: return matches("stationary") ? .stationary : nil
    default: return nil
    }
  }

  /// ``phase(_:count:)`` of the bytes in `bytes`.
  @inline(__always)
  static func phase(_ bytes: UnsafeBufferPointer<UInt8>) -> TouchPhase? {
    guard let start = bytes.baseAddress else { return nil }
    return phase(start, count: bytes.count)
  }
}

extension TraceSchema {
  /// Reads a CSV `time_synthesized` value: `true`/`1` or `false`/`0`, without regard to case.
  static func boolean(_ text: String) -> Bool? {
    switch text.lowercased() {
    case "true", "1": true
    case "false", "0": false
    default: nil
    }
  }

  /// The separator of the times in a CSV `press_at` field (`0.21;0.48`).
  static let pressAtSeparator = UInt8(ascii: ";")

  /// Reads a CSV `press_at` field of `n` bytes at `start`: times in seconds separated by
  /// ``pressAtSeparator``, spaces around each removed. Returns the times, or the problem with
  /// the first time that is empty or not a finite number.
  static func pressAtTimes(_ start: UnsafePointer<UInt8>, count n: Int) -> Result<[Double], PressAtProblem> {
    let name = Field.pressAt.csvName
    var times: [Double] = []
    var s = 0
    while s <= n {
      var e = s
      while e < n, start[e] != pressAtSeparator { e += 1 }
      var a = s
      var b = e
      while a < b, start[a] == 0x20 { a += 1 }
      while b > a, start[b - 1] == 0x20 { b -= 1 }
      let text = { String(decoding: UnsafeBufferPointer(start: start + a, count: b - a), as: UTF8.self) }
      switch DecimalParser.parse(start + a, count: b - a) {
      case .value(let value): times.append(value)
      case .invalid:
        return .failure(PressAtProblem(b == a ? .emptyField(name) : .notANumber(field: name, text: text())))
      case .nan: return .failure(PressAtProblem(.notANumberValue(field: name, text: text())))
      case .infinity: return .failure(PressAtProblem(.infinite(field: name, text: text())))
      }
      s = e + 1
    }
    return .success(times)
  }

  /// Why a `press_at` field could not be read.
  struct PressAtProblem: Error {
    var problem: TraceProblem
    init(_ problem: TraceProblem) { self.problem = problem }
  }
}
