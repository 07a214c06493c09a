// swift-tools-version: 6.1
// The TouchTrace fuzz harnesses: a package of their own, so that building or testing the toolkit
// never builds them. Each harness is an executable linked with libFuzzer (Linux; `make fuzz`,
// Fuzz/run.sh, builds them with libFuzzer and AddressSanitizer, makes the seed corpora and runs
// each for a fixed number of executions). See README.md here.
import PackageDescription

// The root package is found by path. Its identity is given explicitly (`name:`), so the products
// below resolve whatever the clone's directory is called (see Benchmarks/Package.swift).
let toolkit = "TouchTrace"

let package = Package(
  name: "TouchTraceFuzz",
  dependencies: [
    .package(name: toolkit, path: "..")
  ],
  targets: [
    /// The harness bodies: bytes in, the toolkit's readers (and a small sweep) over them.
    .target(
      name: "FuzzTargets",
      dependencies: [
        "TouchCore", "TouchIO", "TouchImport", "TouchRecognizers", "TouchEvaluation", "TouchPartials", "TouchCapture",
      ].map { .product(name: $0, package: toolkit) })
  ] + FuzzTarget.allCases.map(\.executable)
)

/// One libFuzzer executable per harness, in `Sources/fuzz-NAME/`, each a single
/// `LLVMFuzzerTestOneInput` calling `FuzzTargets`. libFuzzer supplies `main`, hence
/// `-parse-as-library`.
enum FuzzTarget: String, CaseIterable {
  case csv, json, labels, evemu, getevent
  case forceValues = "force-values"
  case tabletCSV = "tablet-csv"
  case pointerEvents = "pointer-events"
  case libinputRecord = "libinput-record"
  case sweep, stream, partial
  case captureRequest = "capture-request"

  var executable: Target {
    .executableTarget(
      name: "fuzz-\(rawValue)", dependencies: ["FuzzTargets", .product(name: "TouchImport", package: toolkit)],
      swiftSettings: [.unsafeFlags(["-parse-as-library"])])
  }
}
