/// A language whose export is three source files, each the header comment
/// (``ExportText/header(_:file:)`` as `//` lines) followed by what its emitter writes: the core,
/// the platform adapter and the conformance check. Swift and Kotlin; TypeScript writes most of
/// its files in two dialects and lists them itself.
///
/// A file's path under ``folder`` is the name its header gives, so the two cannot disagree.
protocol SourceExport {
  /// The folder of the language's files in an export (`swift`).
  static var folder: String { get }
  /// How the language writes a `Double` NaN and positive infinity (`Double.nan`, `Double.infinity`).
  static var nonFinite: (nan: String, infinity: String) { get }
  /// The paths under ``folder`` of the core, the adapter and the check for `c`.
  static func paths(_ c: ExportConfiguration) -> (core: String, adapter: String, check: String)
  /// The core's text after the header: the recognizer, standard library only.
  static func core(_ c: ExportConfiguration) -> String
  /// The adapter's text after the header: the platform's API only.
  static func adapter(_ c: ExportConfiguration) -> String
  /// The conformance check's text after the header: runs the core on `vectors.txt`.
  static func check(_ c: ExportConfiguration) -> String
}

extension SourceExport {
  /// The core, the adapter and the check for `c`, in that order, under ``folder``.
  static func files(_ c: ExportConfiguration) -> [ExportFile] {
    let paths = paths(c)
    func file(_ path: String, _ role: ExportFile.Role, _ text: String) -> ExportFile {
      let header = ExportText.comment(ExportText.header(c, file: path), prefix: "//")
      return ExportFile(path: folder + "/" + path, contents: header + text, role: role)
    }
    return [
      file(paths.core, .core, core(c)), file(paths.adapter, .adapter, adapter(c)), file(paths.check, .check, check(c)),
    ]
  }

  /// `value` as a `Double` expression of the language: the shortest round-trip decimal, always
  /// with a `.` or an exponent (so it is typed `Double`), or the language's NaN or infinity.
  static func literal(_ value: Double) -> String {
    ExportText.double(value, nan: nonFinite.nan, infinity: nonFinite.infinity)
  }
}
