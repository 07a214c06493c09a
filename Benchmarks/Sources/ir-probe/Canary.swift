@_spi(Benchmarks) import BenchSupport
@_spi(Benchmarks) import TouchRecognizers

/// Deliberately slow copies of two kernels, kept only to prove that the instruction gate catches
/// the mistakes it exists for (they never ship in the product):
/// - the threshold kernel asking an existential (`any SampleTest`) about every sample;
/// - the hysteresis kernel calling a non-inlined function for every comparison.
/// The gate runs them against the real kernels' ceilings and requires them to FAIL.
enum Canary {
  /// A per-sample test behind a protocol.
  protocol SampleTest: Sendable {
    func exceeds(_ force: Float) -> Bool
  }

  struct Above: SampleTest {
    let level: Float
    func exceeds(_ force: Float) -> Bool { force > level }
  }

  struct Below: SampleTest {
    let level: Float
    func exceeds(_ force: Float) -> Bool { force < level }
  }

  /// Chosen at run time, so the optimizer cannot see the concrete type.
  static let tests: [any SampleTest] =
    CommandLine.arguments.count > 99
    ? [Below(level: Kernel.crossingLevel)] : [Above(level: Kernel.crossingLevel)]

  @inline(never)
  static func firstCrossingThroughExistential(
    _ data: Columns, into events: UnsafeMutableBufferPointer<ForceKernels.Event>
  ) -> Int {
    let test = tests[0]
    var count = 0
    for k in 0..<data.traces {
      var i = data.offsets[k]
      let end = data.offsets[k + 1]
      while i < end {
        if test.exceeds(data.force[i]) {
          if count < events.count { events[count] = ForceKernels.Event(trace: Int32(k), kind: 0, index: i) }
          count &+= 1
          break
        }
        i &+= 1
      }
    }
    return count
  }

  @inline(never)
  static func greater(_ a: Float, _ b: Float) -> Bool { a > b }

  @inline(never)
  static func hysteresisWithCalls(
    _ data: Columns, into events: UnsafeMutableBufferPointer<ForceKernels.Event>
  ) -> Int {
    var count = 0
    func emit(_ k: Int, _ kind: Int32, _ i: Int) {
      if count < events.count { events[count] = ForceKernels.Event(trace: Int32(k), kind: kind, index: i) }
      count &+= 1
    }
    for k in 0..<data.traces {
      var state: UInt8 = 0
      var i = data.offsets[k]
      let end = data.offsets[k + 1]
      while i < end {
        let f = data.force[i]
        switch state {
        case 0:
          if greater(f, Kernel.peek) {
            emit(k, 1, i)
            state = 1
          }
        case 1:
          if greater(f, Kernel.pop) {
            emit(k, 2, i)
            state = 2
          } else if greater(Kernel.release, f) {
            emit(k, 3, i)
            state = 0
          }
        default:
          if greater(Kernel.release, f) {
            emit(k, 4, i)
            state = 0
          }
        }
        i &+= 1
      }
    }
    return count
  }

  /// `stable-press` replayed through generic code the optimizer may not specialize: every
  /// per-sample callback goes through the witness table, which is what a catalog recognizer
  /// would cost if its replay were not compiled in its own conformance.
  @inline(never)
  static func replayUnspecialized(_ columns: ReplayColumns) -> Int {
    var log = ReplayLog()
    replayGeneric(StablePress(), columns, into: &log)
    return log.count
  }

  @inline(never)
  @_semantics("optimize.sil.specialize.generic.never")
  static func replayGeneric<R: ForceRecognizer>(_ recognizer: R, _ columns: ReplayColumns, into log: inout ReplayLog) {
    Replay.replay(
      t: columns.t, force: columns.force, offsets: columns.offsets, maxForce: BenchData.maxForce, using: recognizer,
      into: &log)
  }
}
