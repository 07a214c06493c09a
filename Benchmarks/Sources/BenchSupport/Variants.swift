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

  /// The columns.
  public var columns: ReplayColumns {
    ReplayColumns(offsets: UnsafeBufferPointer(offsets), t: UnsafeBufferPointer(t), force: UnsafeBufferPointer(force))
  }
}

/// One variant of `AnyForceRecognizer`, at its default parameters, replayed through the full
/// UIKit-faithful harness (`Replay.replay(t:force:offsets:maxForce:using:into:)`) specialized for
/// its concrete type (one closure call per pass over the data, static dispatch per sample).
public struct VariantReplay: Sendable {
  /// The variant's name (`touchtrace recognizers`).
  public let name: String
  /// Replays every trace of `columns` into `log` (appending; clear it first).
  public let run: @Sendable (ReplayColumns, inout ReplayLog) -> Void

  /// Every variant, in listing order.
  public static let all: [VariantReplay] = AnyForceRecognizer.names.map { name in
    do {
      return VariantReplay(name: name, recognizer: try AnyForceRecognizer(variant: name))
    } catch {
      preconditionFailure("variant \(name): \(error)")
    }
  }

  /// The variant's name as a benchmark name part (letters, digits, `-` only).
  public var benchmarkName: String { String(name.map { $0.isLetter || $0.isNumber ? $0 : "-" }) }

  init(name: String, recognizer: AnyForceRecognizer) {
    self.name = name
    // Switch here, in this module, so that each closure is specialized for the concrete type.
    switch recognizer {
    case .shunkit(let r): run = Self.runner(r)
    case .deepPress(let r): run = Self.runner(r)
    case .yusuga(let r): run = Self.runner(r)
    case .algSqueeze(let r): run = Self.runner(r)
    case .frosty(let r): run = Self.runner(r)
    case .ps(let r): run = Self.runner(r)
    case .gtDeepPress(let r): run = Self.runner(r)
    case .flutterForcePress(let r): run = Self.runner(r)
    case .rnghForce(let r): run = Self.runner(r)
    case .dfContinuous(let r): run = Self.runner(r)
    case .hysteresis(let r): run = Self.runner(r)
    case .pressureJS(let r): run = Self.runner(r)
    case .longPress(let r): run = Self.runner(r)
    case .longPressAndroid(let r): run = Self.runner(r)
    case .peakRelease(let r): run = Self.runner(r)
    case .zones(let r): run = Self.runner(r)
    case .peekPop(let r): run = Self.runner(r)
    case .tap(let r): run = Self.runner(r)
    case .stablePress(let r): run = Self.runner(r)
    case .requiringFailure:
      preconditionFailure("compositions are not listed variants")
    }
  }

  @inline(__always)
  static func runner<R: ForceRecognizer>(_ recognizer: R) -> @Sendable (ReplayColumns, inout ReplayLog) -> Void {
    { columns, log in
      Replay.replay(
        t: columns.t, force: columns.force, offsets: columns.offsets, maxForce: BenchData.maxForce,
        using: recognizer, into: &log)
    }
  }
}
