// swift-tools-version: 6.1
// The full `touchtrace` command with one recognizer of your own added to the catalog.
// Build and run from this folder: `swift build`, then `.build/debug/custom-touchtrace recognizers`.
import PackageDescription

let package = Package(
  name: "CustomRecognizer",
  products: [
    .executable(name: "custom-touchtrace", targets: ["custom-touchtrace"]),
    // The recognizer alone, for other packages (TouchTrace's Benchmarks/ measures it from here).
    .library(name: "ExampleRecognizers", targets: ["ExampleRecognizers"]),
  ],
  dependencies: [
    // TouchTrace itself, by relative path (in your project: its URL and a version).
    .package(name: "TouchTrace", path: "../..")
  ],
  targets: [
    /// The recognizer: ExampleFirstCrossing.swift.
    .target(
      name: "ExampleRecognizers",
      dependencies: [.product(name: "TouchRecognizers", package: "TouchTrace")]),
    /// The command: `touchtrace` with the recognizer in its catalog (main.swift).
    .executableTarget(
      name: "custom-touchtrace",
      dependencies: [
        "ExampleRecognizers",
        .product(name: "TouchRecognizers", package: "TouchTrace"),
        .product(name: "TouchTraceCLI", package: "TouchTrace"),
      ]),
  ]
)
