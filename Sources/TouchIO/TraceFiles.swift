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
  }

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
  /// - Throws: ``TraceLoadError`` with `.fileNotFound` for a missing path, `.noTraceFiles` for a
  ///   directory without matching files.
  public static func expand(_ paths: [String], extensions: [String] = directoryExtensions)
    throws(TraceLoadError) -> [String]
  {
    var files: [String] = []
    for path in paths {
      switch FileSystem.kind(of: path) {
      case .missing:
        throw TraceLoadError(.fileNotFound, file: path)
      case .directory:
        var found: [String] = []
        try collect(directory: path, extensions: extensions.map { $0.lowercased() }, into: &found)
        guard !found.isEmpty else { throw TraceLoadError(.noTraceFiles, file: path) }
        files += found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
      case .file, .other:
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
      switch FileSystem.kind(of: path) {
      case .directory:
        try collect(directory: path, extensions: extensions, into: &found)
      case .file:
        let lower = name.lowercased()
        if extensions.contains(where: { lower.hasSuffix($0) }) { found.append(path) }
      case .missing, .other:
        continue
      }
    }
  }
}
