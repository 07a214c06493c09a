// swift-tools-version: 6.1
import PackageDescription

/// Debug builds (and therefore `swift test`) check internal invariants; release builds do not.
let checks: [SwiftSetting] = [
  .define("TOUCH_INTERNAL_CHECKS", .when(configuration: .debug)),
  // `import` is internal unless written `public import`: the compiler checks that a module's public
  // API names only modules it imports publicly (Scripts/check-imports.py checks the declared ones).
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
  name: "TouchTrace",
  products: [
    .executable(name: "touchtrace", targets: ["touchtrace"]),
    .library(name: "TouchCore", targets: ["TouchCore"]),
    .library(name: "TouchRecognizers", targets: ["TouchRecognizers"]),
    .library(name: "TouchIO", targets: ["TouchIO"]),
    .library(name: "TouchSignal", targets: ["TouchSignal"]),
    .library(name: "TouchSynth", targets: ["TouchSynth"]),
    .library(name: "TouchImport", targets: ["TouchImport"]),
    .library(name: "TouchEvaluation", targets: ["TouchEvaluation"]),
    .library(name: "TouchTuning", targets: ["TouchTuning"]),
    .library(name: "TouchCapture", targets: ["TouchCapture"]),
    .library(name: "TouchPartials", targets: ["TouchPartials"]),
    .library(name: "TouchStudy", targets: ["TouchStudy"]),
    .library(name: "TouchTraceCLI", targets: ["TouchTraceCLI"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    // The capture page's sockets and event loop (FlyingSocks, TouchCapture only; the HTTP/1.1
    // reading is TouchCapture's own, bounded): no SwiftNIO, a first debug build in well under a
    // minute (Hummingbird takes 2.5–4.5), and CI builds it anew on every run.
    .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    // Study files (`--config study.toml`): TOML read with toml++ through TOMLKit.
    .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
  ],
  targets: [
    // MARK: - Public API (dependencies flow downwards in this list)

    /// The trace model: samples stored column-wise, metadata, dataset accounting. Standard library only.
    .target(name: "TouchCore", swiftSettings: checks),
    /// UIKit-faithful replay of force-press recognizer variants. Standard library only.
    .target(name: "TouchRecognizers", dependencies: ["TouchCore"], swiftSettings: checks),
    /// Trace files: CSV, JSON and JSON Lines readers and writers with positioned errors.
    .target(name: "TouchIO", dependencies: ["TouchCore"], swiftSettings: checks),
    /// Numerics on force curves through GSL. The only module that imports `CGSL`.
    .target(name: "TouchSignal", dependencies: ["TouchCore", "CGSL"], swiftSettings: checks),
    /// Labelled trace synthesis: device profiles and a generative model of presses. Standard library only.
    .target(name: "TouchSynth", dependencies: ["TouchCore"], swiftSettings: checks),
    /// Importers for device recordings (evemu, getevent, force arrays, tablet logs, PointerEvents).
    .target(name: "TouchImport", dependencies: ["TouchCore", "TouchIO"], swiftSettings: checks),
    /// Scores recognizers against labelled traces: event matching, accuracy, latency, sweeps.
    .target(
      name: "TouchEvaluation", dependencies: ["TouchCore", "TouchRecognizers", "TouchSignal"],
      swiftSettings: checks),
    /// Operating points that generalize: objectives, Pareto fronts, grouped cross-validation,
    /// bootstrap intervals, paired comparisons.
    .target(
      name: "TouchTuning", dependencies: ["TouchCore", "TouchRecognizers", "TouchEvaluation", "TouchSignal"],
      swiftSettings: checks),
    /// Recognizers in other processes, in any language: `exec:COMMAND` over JSON Lines.
    .target(
      name: "TouchExec", dependencies: ["TouchCore", "TouchRecognizers", "TouchIO"], swiftSettings: checks),
    /// Renders summaries and results as text, Markdown, JSON and CSV.
    .target(
      name: "TouchReports",
      dependencies: ["TouchCore", "TouchRecognizers", "TouchIO", "TouchSignal", "TouchEvaluation", "TouchTuning"],
      swiftSettings: checks),
    /// Partial results: a study's state over part of the traces (a batch of a stream, a shard of
    /// a job array), stored as versioned files and merged exactly.
    .target(
      name: "TouchPartials",
      dependencies: ["TouchCore", "TouchIO", "TouchSignal", "TouchRecognizers", "TouchEvaluation"],
      swiftSettings: checks),
    /// Studies over trace files, streamed: batches read as they come, traces accounted for and
    /// scored, each configuration's sums kept and its latency lists spilled, shards and partials.
    /// Prints nothing; the command line reports what it returns.
    .target(
      name: "TouchStudy",
      dependencies: [
        "TouchCore", "TouchIO", "TouchSignal", "TouchRecognizers", "TouchEvaluation", "TouchTuning", "TouchReports",
        "TouchPartials",
      ],
      swiftSettings: checks),
    /// Labelled traces from a browser: the capture page, served over HTTP, writes each contact
    /// into a dataset. Nothing but the command line depends on it.
    .target(
      name: "TouchCapture",
      dependencies: [
        "TouchCore", "TouchIO", .product(name: "FlyingSocks", package: "FlyingFox"),
      ],
      swiftSettings: checks),
    /// Portable recognizer cores: a configuration written as Swift, Kotlin and TypeScript with
    /// platform adapters and conformance vectors from the replay.
    .target(
      name: "TouchExport", dependencies: ["TouchCore", "TouchRecognizers", "TouchSynth"], swiftSettings: checks),
    /// The `touchtrace` command line as a library: parses arguments, calls the libraries, prints;
    /// runs with any recognizer catalog (`TouchTraceTool.main(catalog:)`).
    .target(
      name: "TouchTraceCLI",
      dependencies: [
        "TouchCore", "TouchRecognizers", "TouchIO", "TouchSignal", "TouchSynth", "TouchImport",
        "TouchEvaluation", "TouchTuning", "TouchReports", "TouchExec", "TouchCapture", "TouchPartials", "TouchStudy",
        "TouchExport", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "TOMLKit", package: "TOMLKit"),
      ],
      swiftSettings: checks),
    /// The `touchtrace` executable: the command line with the built-in catalog.
    .executableTarget(name: "touchtrace", dependencies: ["TouchTraceCLI"], swiftSettings: checks),

    // MARK: - Implementation details

    .systemLibrary(
      name: "CGSL", pkgConfig: "gsl", providers: [.apt(["libgsl-dev"]), .brew(["gsl"])]),

    // MARK: - Tests

    .target(
      name: "TouchTestSupport", dependencies: ["TouchCore", "TouchIO", "TouchSynth"], path: "Tests/TouchTestSupport"),
    .testTarget(name: "TouchCoreTests", dependencies: ["TouchCore", "TouchTestSupport"]),
    .testTarget(
      name: "TouchRecognizersTests", dependencies: ["TouchRecognizers", "TouchCore", "TouchIO", "TouchTestSupport"],
      resources: [.copy("Fixtures")]),
    .testTarget(name: "TouchIOTests", dependencies: ["TouchIO", "TouchCore", "TouchTestSupport"]),
    .testTarget(
      name: "TouchSignalTests", dependencies: ["TouchSignal", "TouchCore", "TouchTestSupport"],
      resources: [.copy("Fixtures")]),
    .testTarget(
      name: "TouchSynthTests", dependencies: ["TouchSynth", "TouchCore", "TouchIO", "TouchTestSupport"]),
    .testTarget(
      name: "TouchImportTests", dependencies: ["TouchImport", "TouchCore", "TouchIO", "TouchTestSupport"]),
    .testTarget(
      name: "TouchEvaluationTests",
      dependencies: ["TouchEvaluation", "TouchRecognizers", "TouchCore", "TouchSignal", "TouchIO", "TouchTestSupport"],
      resources: [.copy("Fixtures")]),
    .testTarget(
      name: "TouchPartialsTests",
      dependencies: [
        "TouchPartials", "TouchEvaluation", "TouchCore", "TouchIO", "TouchRecognizers", "TouchTestSupport",
      ],
      resources: [.copy("Fixtures")]),
    .testTarget(
      name: "TouchStudyTests",
      dependencies: [
        "TouchStudy", "TouchEvaluation", "TouchRecognizers", "TouchIO", "TouchCore", "TouchReports", "TouchPartials",
        "TouchTestSupport",
      ]),
    .testTarget(
      name: "TouchTuningTests",
      dependencies: [
        "TouchTuning", "TouchEvaluation", "TouchRecognizers", "TouchCore", "TouchSignal", "TouchTestSupport",
      ],
      resources: [.copy("Fixtures")]),
    .testTarget(
      name: "TouchExportTests", dependencies: ["TouchExport", "TouchRecognizers", "TouchCore", "TouchTestSupport"]),
    .testTarget(name: "TouchCaptureTests", dependencies: ["TouchCapture", "TouchCore", "TouchIO", "TouchTestSupport"]),
    .testTarget(
      name: "touchtraceTests",
      dependencies: [
        "TouchTraceCLI", "TouchCapture", "TouchCore", "TouchEvaluation", "TouchIO", "TouchRecognizers", "TouchReports",
        "TouchSignal",
        "TouchPartials", "TouchStudy",
        "TouchTestSupport",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      resources: [.copy("Fixtures")]),
  ]
)
