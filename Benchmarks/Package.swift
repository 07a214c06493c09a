// swift-tools-version: 6.1
// The TouchTrace benchmarks: a package of their own, so that building or testing the toolkit
// never builds package-benchmark and its dependencies. Run from the repository root with
// `make bench` (everything, with a summary table) or `make bench-ci` (the deterministic gates);
// see README.md here.
import PackageDescription

// The root package is found by path. Its identity is given explicitly (`name:`), so the products
// below resolve whatever the clone's directory is called.
let toolkit = "TouchTrace"
/// Examples/CustomRecognizer: `example-first-crossing` in its library product `ExampleRecognizers`.
let userPackage = "CustomRecognizer"

let package = Package(
  name: "TouchTraceBenchmarks",
  dependencies: [
    .package(name: toolkit, path: ".."),
    // A recognizer of a user's own package (issue 13: its throughput against the built-in of the
    // same logic). That package depends on the toolkit by the same path (`../..` from there), so
    // SwiftPM sees one toolkit package.
    .package(name: userPackage, path: "../Examples/CustomRecognizer"),
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
      dependencies: ["CReference"]
        + toolkitProducts([
          "TouchCore", "TouchRecognizers", "TouchIO", "TouchSignal", "TouchEvaluation", "TouchSynth", "TouchTuning",
        ]) + [.product(name: "ExampleRecognizers", package: userPackage)]),
    /// `make bench`'s summary table and `make bench-ci`'s Swift/C time-ratio gate.
    .executableTarget(
      name: "bench-report",
      dependencies: ["BenchSupport"] + toolkitProducts(["TouchIO", "TouchRecognizers", "TouchSignal"])),
    /// Callgrind's client requests (valgrind's header when installed, else no-ops), for ir-probe.
    .target(name: "CallgrindControl"),
    /// One kernel, N passes over in-cache data: what the callgrind instruction gate runs.
    .executableTarget(
      name: "ir-probe",
      dependencies: ["BenchSupport", "CReference", "CallgrindControl"] + toolkitProducts(["TouchRecognizers"])),

    // MARK: - package-benchmark suites (Benchmarks/<Suite>/)

    /// What every suite shares: the per-sample metrics and the measured-interval timing.
    .target(
      name: "SuiteSupport",
      dependencies: ["BenchSupport", .product(name: "Benchmark", package: "benchmark")]),
    suite("RecognizerBenchmarks", toolkitProducts: ["TouchRecognizers"]),
    suite("SweepBenchmarks", toolkitProducts: []),
    suite("IngestBenchmarks", toolkitProducts: ["TouchCore", "TouchIO"]),
    suite("SmoothingBenchmarks", toolkitProducts: ["TouchSignal"]),
  ]
)

/// One package-benchmark suite: the executable in Benchmarks/`name`/, run by the benchmark plugin,
/// with the shared support targets and the toolkit products it imports.
func suite(_ name: String, toolkitProducts products: [String]) -> Target {
  .executableTarget(
    name: name,
    dependencies: ["BenchSupport", "SuiteSupport", .product(name: "Benchmark", package: "benchmark")]
      + toolkitProducts(products),
    path: "Benchmarks/\(name)",
    plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")])
}

/// The toolkit's library products `names`, as target dependencies.
func toolkitProducts(_ names: [String]) -> [Target.Dependency] {
  names.map { .product(name: $0, package: toolkit) }
}
