import TouchRecognizers

/// The Swift export: a core struct (standard library only), a `UIGestureRecognizer` subclass
/// (`#if canImport(UIKit)`) and a conformance check (`main.swift`).
enum SwiftExport: SourceExport {
  static let folder = "swift"
  static let nonFinite = (nan: "Double.nan", infinity: "Double.infinity")

  static func paths(_ c: ExportConfiguration) -> (core: String, adapter: String, check: String) {
    ("\(c.typeName).swift", "\(c.typeName)GestureRecognizer.swift", "check/main.swift")
  }
}
