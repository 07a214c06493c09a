import TouchCore
import TouchSynth

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The draws the benchmark data use, on the toolkit's SplitMix64 stream (as the performance
/// study wrote them: the integer by modulo, the normal from the C library's `log` and `cos`).
extension SplitMix64 {
  /// Uniform in [0, 1), 53 bits.
  mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

  /// Uniform in [a, b).
  mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * unit() }

  /// Uniform integer in `range`.
  mutating func int(in range: ClosedRange<Int>) -> Int {
    range.lowerBound + Int(next() % UInt64(range.count))
  }

  /// Standard normal (Box–Muller, one value per call).
  mutating func normal() -> Double {
    let u = max(unit(), 0x1p-60)
    return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * unit())
  }
}

/// Synthetic force traces in structure-of-arrays columns, generated deterministically (the model of
/// the performance study, perf.md §0): traces of 150–250 samples at 120 Hz (±0.5 ms jitter),
/// absolute times in seconds; force (Float32, device units, 0…20/3 as 3D Touch) ramps up with a
/// smoothstep over 10–35 % of the trace, holds with a 2–5 Hz ±5 % wobble and releases over
/// 10–30 %. Peaks: light 0.3–1.2 (30 % of traces), normal 1.2–3.5 (45 %), hard 3.5–6.5 (25 %);
/// 20 % of traces are double presses (a dip in the hold). Noise N(0, 0.01 + 0.02·peak·envelope),
/// clamped to [0, maxForce].
///
/// Trace `k` depends only on the seed and `k`'s predecessors, so the first N traces of a larger set
/// are the set of N traces: the in-cache block is a prefix of the cold set.
public struct BenchData: Sendable {
  /// The maximum possible force (3D Touch), device units.
  public static let maxForce = 20.0 / 3.0
  /// The seed every benchmark uses.
  public static let seed: UInt64 = 0x7017_C4_7ACE

  /// Trace boundaries: trace `k` is `offsets[k] ..< offsets[k + 1]`.
  public var offsets: [Int]
  /// Sample times, seconds (absolute, traces 2.5 s apart).
  public var t: [Double]
  /// Forces, device units.
  public var force: [Float]

  /// The number of traces.
  public var traces: Int { offsets.count - 1 }
  /// The number of samples.
  public var samples: Int { t.count }

  /// Generates `traces` traces.
  public init(traces: Int, seed: UInt64 = BenchData.seed) {
    var rng = SplitMix64(seed: seed)
    offsets = [0]
    offsets.reserveCapacity(traces + 1)
    t = []
    force = []
    t.reserveCapacity(traces * 201)
    force.reserveCapacity(traces * 201)
    let top = Float(Self.maxForce)
    for k in 0..<traces {
      let n = rng.int(in: 150...250)
      let t0 = 1000 + 2.5 * Double(k)
      let cls = rng.unit()
      let peak =
        cls < 0.30 ? rng.uniform(0.3, 1.2) : cls < 0.75 ? rng.uniform(1.2, 3.5) : rng.uniform(3.5, 6.5)
      let ramp = rng.uniform(0.10, 0.35)
      let release = rng.uniform(0.10, 0.30)
      let wobbleHz = rng.uniform(2, 5)
      let wobblePhase = rng.uniform(0, 2 * Double.pi)
      let double = rng.unit() < 0.2
      let dipDepth = rng.uniform(0.3, 0.7)
      let dipWidth = rng.uniform(0.10, 0.25) * (1 - ramp - release)
      let dipCentre = ramp + (1 - ramp - release) * rng.uniform(0.35, 0.65)
      for i in 0..<n {
        let ti = t0 + Double(i) / 120 + rng.uniform(-0.0005, 0.0005)
        let x = Double(i) / Double(n - 1)
        var envelope = 1.0
        if x < ramp {
          envelope = Self.smoothstep(x / ramp)
        } else if x > 1 - release {
          envelope = Self.smoothstep((1 - x) / release)
        }
        var f = peak * envelope * (1 + 0.05 * sin(2 * Double.pi * wobbleHz * (ti - t0) + wobblePhase))
        if double {
          let d = (x - dipCentre) / dipWidth
          if abs(d) < 1 { f *= 1 - dipDepth * 0.5 * (1 + cos(Double.pi * d)) }
        }
        f += (0.01 + 0.02 * peak * envelope) * rng.normal()
        t.append(ti)
        force.append(min(max(Float(f), 0), top))
      }
      offsets.append(t.count)
    }
  }

  /// The smallest set of whole traces holding at least `samples` samples.
  public init(atLeast samples: Int, seed: UInt64 = BenchData.seed) {
    // 200 samples per trace on average; generate a little more and cut.
    let data = BenchData(traces: samples / 195 + 16, seed: seed)
    guard let last = data.offsets.firstIndex(where: { $0 >= samples }) else {
      preconditionFailure("generator produced fewer samples than expected")
    }
    self = data.prefix(traces: last)
  }

  private init(offsets: [Int], t: [Double], force: [Float]) {
    self.offsets = offsets
    self.t = t
    self.force = force
  }

  /// The first `count` traces.
  public func prefix(traces count: Int) -> BenchData {
    let end = offsets[count]
    return BenchData(offsets: Array(offsets[...count]), t: Array(t[..<end]), force: Array(force[..<end]))
  }

  /// The force column as `Double` (what the replay harness reads), exactly the same values.
  public var forceAsDouble: [Double] { force.map(Double.init) }

  @inline(__always) static func smoothstep(_ x: Double) -> Double { x * x * (3 - 2 * x) }

  /// Writes the columns in the file format the numpy peer reads (little-endian): the 8 bytes
  /// `TTBENCH1`, traces and samples as Int64, then offsets (Int64 × traces+1), t (Float64 ×
  /// samples), force (Float32 × samples).
  public func write(to path: String) throws(BenchError) {
    guard let file = fopen(path, "wb") else { throw BenchError("cannot write \(path)") }
    defer { fclose(file) }
    var ok = true
    func put<T>(_ array: [T]) {
      array.withUnsafeBytes { ok = ok && fwrite($0.baseAddress, 1, $0.count, file) == $0.count }
    }
    put(Array("TTBENCH1".utf8))
    put([Int64(traces), Int64(samples)])
    put(offsets.map(Int64.init))
    put(t)
    put(force)
    guard ok else { throw BenchError("short write to \(path)") }
  }
}

/// A failure of the benchmark tooling itself (not of the code measured).
public struct BenchError: Error, CustomStringConvertible {
  /// What went wrong.
  public var description: String
  /// Creates an error.
  public init(_ description: String) { self.description = description }
}
