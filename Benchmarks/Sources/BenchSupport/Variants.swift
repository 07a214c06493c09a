import ExampleRecognizers
public import TouchCore
public import TouchRecognizers

/// Borrowed columns for the replay harness (force as `Double`, as `Replay` reads it).
public struct ReplayColumns {
  /// Trace boundaries.
  public var offsets: UnsafeBufferPointer<Int>
  /// Times, seconds.
  public var t: UnsafeBufferPointer<Double>
  /// Forces, device units.
  public var force: UnsafeBufferPointer<Double>
  /// The number of samples.
  public var samples: Int { t.count }

  /// Borrows columns (valid while the arrays are not mutated or freed).
  public init(offsets: UnsafeBufferPointer<Int>, t: UnsafeBufferPointer<Double>, force: UnsafeBufferPointer<Double>) {
    self.offsets = offsets
    self.t = t
    self.force = force
  }
}

/// The data the replay benchmarks run on: a ``BenchData`` with its force column as `Double`, kept
/// in stable heap storage so that borrowed pointers stay valid for the life of the process.
public final class ReplayData: @unchecked Sendable {
  /// The generated data.
  public let data: BenchData
  private let offsets: UnsafeMutableBufferPointer<Int>
  private let t: UnsafeMutableBufferPointer<Double>
  private let force: UnsafeMutableBufferPointer<Double>

  /// Copies `data`'s columns.
  public init(_ data: BenchData) {
    self.data = data
    offsets = .allocate(capacity: data.offsets.count)
    _ = offsets.initialize(from: data.offsets)
    t = .allocate(capacity: data.samples)
    _ = t.initialize(from: data.t)
    force = .allocate(capacity: data.samples)
    _ = force.initialize(from: data.force.lazy.map(Double.init))
  }

  deinit {
    offsets.deallocate()
    t.deallocate()
    force.deallocate()
  }

  /// The same contacts as `Trace` values (each ends by a lift, no positions, maximum force
  /// ``BenchData/maxForce``): what the tool replays (`touchtrace sweep`, `run`).
  public lazy var traces: [Trace] = {
    let phases = { (n: Int) in TouchPhase.defaultSequence(count: n) }
    return (0..<(offsets.count - 1)).map { k in
      let range = offsets[k]..<offsets[k + 1]
      return Trace(
        metadata: TraceMetadata(id: "b\(k)", maxForce: BenchData.maxForce), t: Array(t[range]),
        force: Array(force[range]), phase: phases(range.count))
    }
  }()

  /// The columns.
  public var columns: ReplayColumns {
    ReplayColumns(offsets: UnsafeBufferPointer(offsets), t: UnsafeBufferPointer(t), force: UnsafeBufferPointer(force))
  }
}

/// One recognizer of the catalog, at its default parameters, replayed through the full
/// UIKit-faithful harness (`Replay.replay(t:force:offsets:maxForce:using:into:)`). The call goes
/// through the catalog's `AnyForceRecognizer` — one dynamic call per pass into the conformance's
/// replay entry point, which is specialized for the concrete type (static dispatch per sample).
public struct VariantReplay: Sendable {
  /// The recognizer's name (`touchtrace recognizers`).
  public let name: String
  /// The recognizer at its defaults.
  public let recognizer: AnyForceRecognizer

  /// Every recognizer of the built-in catalog, in listing order.
  public static let all: [VariantReplay] = RecognizerCatalog.builtIn.entries.map {
    VariantReplay(name: $0.name, recognizer: $0.standard)
  }

  /// A recognizer of a user's own package, in the catalog as that package's tool builds it
  /// (`custom-touchtrace`: `RecognizerCatalog.builtIn.adding(ExampleFirstCrossing.self)`), at its
  /// defaults: Examples/CustomRecognizer's `example-first-crossing` (library `ExampleRecognizers`),
  /// the logic of the built-in ``userPackageBuiltIn`` written outside TouchTrace.
  public static let userPackage: VariantReplay = {
    do throws(RecognizerCatalog.CatalogError) {
      let catalog = try RecognizerCatalog.builtIn.adding(ExampleFirstCrossing.self)
      let entry = catalog.entry(ExampleFirstCrossing.descriptor.name)!
      return VariantReplay(name: entry.name, recognizer: entry.standard)
    } catch {
      preconditionFailure("the example recognizer joins the built-in catalog: \(error)")
    }
  }()

  /// The built-in recognizer with the same logic as ``userPackage`` (same rule, same default level
  /// 0.5): `deep-press-alg-squeeze`.
  public static let userPackageBuiltIn: VariantReplay = all.first { $0.name == "deep-press-alg-squeeze" }!

  /// The variant's name as a benchmark name part (letters, digits, `-` only).
  public var benchmarkName: String { String(name.map { $0.isLetter || $0.isNumber ? $0 : "-" }) }

  /// Replays `traces` into `log` as the tool does (`AnyForceRecognizer.replay(traces:into:)`:
  /// one dynamic call into the conformance's specialized loop), appending; clear it first.
  @inline(__always)
  public func run(traces: [Trace], _ log: inout ReplayLog) {
    do throws(ReplayError) {
      try recognizer.replay(traces: traces, into: &log)
    } catch {
      preconditionFailure("benchmark traces carry their maximum force: \(error)")
    }
  }

  /// Replays every trace of `columns` into `log` (appending; clear it first).
  @inline(__always)
  public func run(_ columns: ReplayColumns, _ log: inout ReplayLog) {
    recognizer.replay(
      t: columns.t, force: columns.force, offsets: columns.offsets, maxForce: BenchData.maxForce, into: &log)
  }
}
