/// A language an exported core is written in.
package enum ExportLanguage: String, Sendable, CaseIterable {
  case swift
  case kotlin
  case typescript

  /// The files written for `configuration` in this language: the core, the platform adapter and
  /// the conformance check that replays ``ConformanceVectors``.
  package func files(_ configuration: ExportConfiguration) -> [ExportFile] {
    switch self {
    case .swift: SwiftExport.files(configuration)
    case .kotlin: KotlinExport.files(configuration)
    case .typescript: TypeScriptExport.files(configuration)
    }
  }
}

/// One generated file: its path relative to the export directory and its text.
package struct ExportFile: Sendable, Hashable {
  /// The path under the export directory, `/`-separated (`swift/ForcePressCore.swift`).
  package var path: String
  /// The file's text (UTF-8).
  package var contents: String
  /// What the file is, for the listing `export` prints.
  package var role: Role

  /// What a generated file is for.
  package enum Role: String, Sendable {
    /// The recognizer core: standard library only.
    case core
    /// The platform adapter: the platform's API only.
    case adapter
    /// The conformance check: runs the core on `vectors.txt`.
    case check
    /// Compiled JavaScript of a TypeScript file.
    case compiled
    /// The conformance vectors (``ConformanceVectors``).
    case vectors
    /// The export's README: configuration, provenance, files, contract.
    case readme
  }

  package init(path: String, contents: String, role: Role) {
    self.path = path
    self.contents = contents
    self.role = role
  }
}
