/// The data every suite uses, generated once per process on first use.
public enum Shared {
  /// ≥ 20 M samples (about 100 000 traces): the cold set.
  public static let cold = BenchData(atLeast: 20_000_000)
  /// The first 1000 traces (≈ 200 000 samples, 0.8 MB of force): the in-cache block. Generated
  /// on its own (identical to the cold set's prefix), so suites that only need it stay fast.
  public static let hot = BenchData(traces: 1000)
  /// The first 5 traces (≈ 1000 samples): the small size of the allocation proof.
  public static let small = hot.prefix(traces: 5)
  /// The cold set with a `Double` force column, for the product sweep.
  public static let coldReplay = ReplayData(cold)
  /// The in-cache block with a `Double` force column, for the replay harness.
  public static let hotReplay = ReplayData(hot)
  /// The small block with a `Double` force column.
  public static let smallReplay = ReplayData(small)
  /// Passes over the in-cache block per kernel timing.
  public static let hotPasses = 20
}

/// A mutable box a benchmark closure keeps between its iterations (so storage reserved once is
/// reused, as a real caller reuses it).
public final class Box<Value>: @unchecked Sendable {
  /// The value.
  public var value: Value
  /// Boxes `value`.
  public init(_ value: Value) { self.value = value }
}
