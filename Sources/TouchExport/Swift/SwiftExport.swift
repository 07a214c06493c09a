import TouchRecognizers

/// The Swift export: a core struct (standard library only), a `UIGestureRecognizer` subclass
/// (`#if canImport(UIKit)`) and a conformance check (`main.swift`).
enum SwiftExport {
  static func files(_ c: ExportConfiguration) -> [ExportFile] {
    [
      ExportFile(path: "swift/\(c.typeName).swift", contents: core(c), role: .core),
      ExportFile(path: "swift/\(c.typeName)GestureRecognizer.swift", contents: adapter(c), role: .adapter),
      ExportFile(path: "swift/check/main.swift", contents: check(c), role: .check),
    ]
  }

  static func literal(_ value: Double) -> String {
    ExportText.double(value, nan: "Double.nan", infinity: "Double.infinity")
  }
}
