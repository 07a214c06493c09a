import Testing
@_spi(Benchmarks) import TouchRecognizers
import TouchTestSupport

/// The kernels scan several samples per branch and smooth two traces side by side; these tests
/// hold them to plain one-sample-at-a-time state machines written here (the semantics the
/// kernels document), on seeded random traces chosen to stress the scans: lengths 0 to 40
/// (remainders of the 4-sample steps, unequal pairs, an odd number of traces), forces oscillating
/// around the levels (many events per trace, more than the EMA's pending slots), NaNs and ties.
@Suite("Kernels against sample-by-sample references")
struct KernelEquivalenceTests {
  typealias Event = ForceKernels.Event

  struct Data {
    var force: [Float] = []
    var t: [Double] = []
    var offsets = [0]
  }

  static func data(seed: UInt64) -> Data {
    var rng = SplitMix64(seed: seed)
    var d = Data()
    let traces = 1 + Int(rng.next() % 41)
    var time = 0.0
    for _ in 0..<traces {
      let n = Int(rng.next() % 41)
      let wild = rng.next() % 3 == 0  // a square wave across every level: many events per trace
      for i in 0..<n {
        let u = Double(rng.next() >> 11) * 0x1p-53
        var f = Float(wild ? ((i / 2) % 2 == 0 ? 3.2 : 0) + 0.5 * u : 1.2 + 0.6 * (u - 0.5))
        switch rng.next() % 50 {
        case 0: f = .nan
        case 1: f = 1.0  // ties with the levels below
        case 2: f = 1.5
        default: break
        }
        time += 0.004 + 0.008 * (Double(rng.next() >> 11) * 0x1p-53)
        d.force.append(f)
        d.t.append(time)
      }
      d.offsets.append(d.force.count)
    }
    return d
  }

  /// A kernel's call: times, forces, trace offsets and the output buffer in; the event count out.
  typealias Kernel =
    @Sendable (
      UnsafeBufferPointer<Double>, UnsafeBufferPointer<Float>, UnsafeBufferPointer<Int>,
      UnsafeMutableBufferPointer<Event>
    ) -> Int

  static func run(_ d: Data, _ body: Kernel) -> [Event] {
    var out = [Event](repeating: Event(trace: -1, kind: -1, index: -1), count: d.force.count + 1)
    let n = d.t.withUnsafeBufferPointer { t in
      d.force.withUnsafeBufferPointer { f in
        d.offsets.withUnsafeBufferPointer { o in out.withUnsafeMutableBufferPointer { body(t, f, o, $0) } }
      }
    }
    return Array(out.prefix(n))
  }

  static func traces(_ d: Data) -> [(k: Int32, range: Range<Int>)] {
    (0..<(d.offsets.count - 1)).map { (Int32($0), d.offsets[$0]..<d.offsets[$0 + 1]) }
  }

  /// A kernel and the sample-by-sample state machine it must agree with.
  struct KernelCase: Sendable, CustomTestStringConvertible {
    var testDescription: String
    /// Walks one trace's sample range of the data and reports each event as `(kind, index)`.
    var reference: @Sendable (Data, Range<Int>, (Int32, Int) -> Void) -> Void
    var kernel: Kernel
  }

  static let kernels: [KernelCase] = [
    KernelCase(
      testDescription: "firstCrossing",
      reference: { d, range, emit in
        if let i = range.first(where: { d.force[$0] > 1.0 }) { emit(0, i) }
      },
      kernel: { ForceKernels.firstCrossing(force: $1, offsets: $2, threshold: 1.0, into: $3) }),
    KernelCase(
      testDescription: "hysteresis",
      reference: { d, range, emit in
        var state = 0
        for i in range {
          let f = d.force[i]
          if state == 0 {
            if f > 1.5 {
              emit(1, i)
              state = 1
            }
          } else if state == 1 {
            if f > 3.0 {
              emit(2, i)
              state = 2
            } else if f < 1.0 {
              emit(3, i)
              state = 0
            }
          } else if f < 1.0 {
            emit(4, i)
            state = 0
          }
        }
      },
      kernel: { ForceKernels.hysteresis(force: $1, offsets: $2, peek: 1.5, pop: 3.0, release: 1.0, into: $3) }),
    KernelCase(
      testDescription: "emaThreshold",
      reference: { d, range, emit in
        var s: Float = 0
        var armed = true
        for i in range {
          s += 0.5 * (d.force[i] - s)
          if armed {
            if s > 1.3 {
              emit(5, i)
              armed = false
            }
          } else if s < 1.1 {
            armed = true
          }
        }
      },
      kernel: { ForceKernels.emaThreshold(force: $1, offsets: $2, alpha: 0.5, threshold: 1.3, rearm: 1.1, into: $3) }),
    KernelCase(
      testDescription: "dwell",
      reference: { d, range, emit in
        var inside = false
        var fired = false
        var start = 0.0
        for i in range {
          if d.force[i] > 1.0 {
            if !inside {
              inside = true
              fired = false
              start = d.t[i]
            }
            if !fired && d.t[i] - start >= 0.02 {
              emit(6, i)
              fired = true
            }
          } else {
            inside = false
          }
        }
      },
      kernel: { ForceKernels.dwell(t: $0, force: $1, offsets: $2, level: 1.0, duration: 0.02, into: $3) }),
  ]

  @Test(arguments: kernels, 0..<200 as Range<UInt64>)
  func kernelMatchesItsReference(_ c: KernelCase, seed: UInt64) {
    let d = Self.data(seed: seed)
    var expected: [Event] = []
    for (k, range) in Self.traces(d) {
      c.reference(d, range) { expected.append(Event(trace: k, kind: $0, index: $1)) }
    }
    #expect(Self.run(d, c.kernel) == expected)
  }

  @Test func dataExerciseManyEventsPerTrace() {
    // The EMA pairs hold at most 4 events of the second trace; the data must go beyond that.
    var most = 0
    for seed in 0..<200 as Range<UInt64> {
      let d = Self.data(seed: seed)
      for (_, range) in Self.traces(d) {
        let one = Data(force: Array(d.force[range]), t: Array(d.t[range]), offsets: [0, range.count])
        let n = Self.run(one) {
          ForceKernels.emaThreshold(force: $1, offsets: $2, alpha: 0.5, threshold: 1.3, rearm: 1.1, into: $3)
        }.count
        most = max(most, n)
      }
    }
    #expect(most > 4)
  }
}
