// swift-tools-version: 6.1
// The full `touchtrace` command with one recognizer of your own added to the catalog.
// Build and run from this folder: `swift build`, then `.build/debug/custom-touchtrace recognizers`.
import PackageDescription

let package = Package(
  name: "CustomRecognizer",
  products: [.executable(name: "custom-touchtrace", targets: ["custom-touchtrace"])],
  dependencies: [
    // TouchTrace itself, by relative path (in your project: its URL and a version).
    .package(name: "TouchTrace", path: "../..")
  ],
  targets: [
    .executableTarget(
      name: "custom-touchtrace",
      dependencies: [
        .product(name: "TouchRecognizers", package: "TouchTrace"),
        .product(name: "TouchTraceCLI", package: "TouchTrace"),
      ])
  ]
)
