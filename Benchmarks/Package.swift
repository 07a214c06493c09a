// swift-tools-version: 6.1
// The TouchTrace benchmarks: a package of their own, so that building or testing the toolkit
// never builds package-benchmark and its dependencies. Run from the repository root with
// `make bench` (everything, with a summary table) or `make bench-ci` (the deterministic gates);
// see README.md here.
import PackageDescription

// The root package is found by path. Its identity is given explicitly (`name:`), so the products
// below resolve whatever the clone's directory is called.
let toolkit = "TouchTrace"

let package = Package(
  name: "TouchTraceBenchmarks",
  dependencies: [
    .package(name: toolkit, path: ".."),
    // Only the malloc interposer: the default RuntimeInterposer trait needs a package that is
    // not available here (and is only for ARC metrics, which these benchmarks do not use).
    .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
  ],
  targets: [
    /// The C reference: the four recognizer kernels and the running-max merge sweep, -O2.
    .target(
      name: "CReference",
      cSettings: [.unsafeFlags(["-O2", "-ffp-contract=off"])]),
    /// Shared by every benchmark: deterministic data, kernel and variant runners, timing.
    .target(
      name: "BenchSupport",
      dependencies: [
        "CReference",
        .product(name: "TouchCore", package: toolkit),
        .product(name: "TouchRecognizers", package: toolkit),
        .product(name: "TouchIO", package: toolkit),
        .product(name: "TouchSignal", package: toolkit),
        .product(name: "TouchEvaluation", package: toolkit),
        .product(name: "TouchSynth", package: toolkit),
      ]),
    /// `make bench`'s summary table and `make bench-ci`'s Swift/C time-ratio gate.
    .executableTarget(
      name: "bench-report",
      dependencies: [
        "BenchSupport", .product(name: "TouchIO", package: toolkit),
        .product(name: "TouchRecognizers", package: toolkit), .product(name: "TouchSignal", package: toolkit),
      ]),
    /// One kernel, N passes over in-cache data: what the callgrind instruction gate runs.
    .executableTarget(
      name: "ir-probe",
      dependencies: ["BenchSupport", "CReference", .product(name: "TouchRecognizers", package: toolkit)]),

    // MARK: - package-benchmark suites (Benchmarks/<Suite>/)

    .executableTarget(
      name: "RecognizerBenchmarks",
      dependencies: [
        "BenchSupport", .product(name: "TouchRecognizers", package: toolkit), .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/RecognizerBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
    .executableTarget(
      name: "SweepBenchmarks",
      dependencies: ["BenchSupport", .product(name: "Benchmark", package: "benchmark")],
      path: "Benchmarks/SweepBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
    .executableTarget(
      name: "IngestBenchmarks",
      dependencies: [
        "BenchSupport", .product(name: "TouchCore", package: toolkit), .product(name: "TouchIO", package: toolkit),
        .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/IngestBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
    .executableTarget(
      name: "SmoothingBenchmarks",
      dependencies: [
        "BenchSupport", .product(name: "TouchSignal", package: toolkit), .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/SmoothingBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
  ]
)
