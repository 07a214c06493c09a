/// Trace file formats and the discovery of trace files in directories.
public enum TraceFiles {
  /// A trace file format.
  public enum Format: String, Hashable, Sendable, CaseIterable {
    /// One row per sample (see the TraceFileFormats article).
    case csv
    /// A `{"format": "touchtrace", "version": 1, "traces": [...]}` document.
    case json
    /// One trace object per line.
    case jsonl

    /// The format a file name implies: `.json` → JSON, `.jsonl`/`.ndjson` → JSON Lines,
    /// anything else (`.csv`, `.tsv`, `.txt`, …) → CSV.
    public init(path: String) {
      let lower = path.lowercased()
      if lower.hasSuffix(".json") {
        self = .json
      } else if lower.hasSuffix(".jsonl") || lower.hasSuffix(".ndjson") {
        self = .jsonl
      } else {
        self = .csv
      }
    }

    /// The format of content without a file name (standard input): after an optional UTF-8
    /// byte order mark and white space, `{` followed (after white space) by `"format"` is a
    /// JSON document, any other `{` starts JSON Lines, anything else is CSV.
    public init(sniffing bytes: [UInt8]) {
      var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
      func skipSpace() {
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
      }
      skipSpace()
      guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else {
        self = .csv
        return
      }
      i += 1
      skipSpace()
      self = bytes[i...].starts(with: Array(#""format""#.utf8)) ? .json : .jsonl
    }
  }

  /// The path that names standard input: `-`. Its format is sniffed (see
  /// ``Format/init(sniffing:)``).
  public static let standardInput = "-"

  /// The name messages give standard input: `<stdin>`.
  public static let standardInputName = "<stdin>"

  /// File name endings picked up when a directory is given.
  public static let directoryExtensions = [".csv", ".tsv", ".json", ".jsonl", ".ndjson"]

  /// Expands the paths a user gave into files: files as given, directories searched
  /// recursively for names ending in one of `extensions` (case-insensitive; hidden entries
  /// skipped), each directory's files in byte order of their paths, so the result is the same on
  /// every machine.
  ///
  /// - Parameters:
  ///   - paths: files and directories.
  ///   - extensions: the endings to pick up in directories; trace files by default.
  /// `-` (standard input) is kept as given, once: naming it twice is an error.
  ///
  /// - Throws: ``TraceLoadError`` with `.fileNotFound` for a missing path, `.unreadable` for a
  ///   path that cannot be looked up (a symbolic link loop), `.noTraceFiles` for a directory
  ///   without matching files.
  public static func expand(_ paths: [String], extensions: [String] = directoryExtensions)
    throws(TraceLoadError) -> [String]
  {
    var files: [String] = []
    for path in paths {
      switch try FileSystem.kind(of: path) {
      case .directory:
        var found: [String] = []
        try collect(directory: path, extensions: extensions.map { $0.lowercased() }, into: &found)
        guard !found.isEmpty else { throw TraceLoadError(.noTraceFiles(extensions: extensions), file: path) }
        files += found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
      case .file, .fifo, .other:  // special files are refused when read, with the reason
        if path == standardInput, files.contains(standardInput) {
          throw TraceLoadError(.unreadable("standard input ('-') is named more than once"), file: path)
        }
        files.append(path)
      }
    }
    return files
  }

  private static func collect(directory: String, extensions: [String], into found: inout [String])
    throws(TraceLoadError)
  {
    let base = directory.hasSuffix("/") ? directory : directory + "/"
    for name in try FileSystem.entries(of: directory) where !name.hasPrefix(".") {
      let path = base + name
      // Entries that vanish or cannot be looked up (a dangling link) are not trace files.
      guard let kind = try? FileSystem.kind(of: path) else { continue }
      switch kind {
      case .directory:
        try collect(directory: path, extensions: extensions, into: &found)
      case .file:
        let lower = name.lowercased()
        if extensions.contains(where: { lower.hasSuffix($0) }) { found.append(path) }
      case .fifo, .other:
        continue
      }
    }
  }
}
