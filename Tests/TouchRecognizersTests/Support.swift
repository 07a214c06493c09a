import TouchCore
import TouchRecognizers
import TouchTestSupport

/// The iPhone 6s maximum possible force, 20/3.
let iPhoneMax = 20.0 / 3.0

/// Force `k` steps of the default 1/60 grid.
func grid(_ k: Int) -> Double { Double(k) / 60 }

/// A hand-built trace: sample `i` at `t0 + i * dt`; phases default to began, moved…, ended
/// (the last one `cancelled` when `cancelled`).
func makeTrace(
  _ force: [Double], dt: Double = 1.0 / 64, t0: Double = 0, times: [Double]? = nil,
  maxForce: Double? = iPhoneMax, x: [Double]? = nil, y: [Double]? = nil,
  cancelled: Bool = false, lastPhase: TouchPhase? = nil, id: String = "t", session: String? = nil
) -> Trace {
  let t = times ?? force.indices.map { t0 + Double($0) * dt }
  var phase = TouchPhase.defaultSequence(count: force.count)
  if force.count > 1 {
    if cancelled { phase[force.count - 1] = .cancelled }
    if let lastPhase { phase[force.count - 1] = lastPhase }
  }
  let yColumn = y ?? x.map { [Double](repeating: 0, count: $0.count) }
  return Trace(
    metadata: TraceMetadata(id: id, session: session, maxForce: maxForce), t: t, force: force,
    phase: phase, x: x, y: yColumn)
}

/// Compact transitions: `[(state, index)]`.
func states(_ result: ReplayResult) -> [String] {
  result.transitions.map { "\($0.state.name)@\($0.index)" + ($0.implicit ? "*" : "") }
}

/// Compact actions: `[kind@index]` (with detail when not 0).
func actionList(_ result: ReplayResult) -> [String] {
  result.actions.map { "\($0.kind.name)@\($0.index)" + ($0.detail != 0 ? "(\($0.detail))" : "") }
}

/// Replays one trace; fails the test on a replay error.
func run<R: ForceRecognizer>(_ recognizer: R, _ trace: Trace) throws -> ReplayResult {
  try Replay.replay(trace: trace, using: recognizer)
}

/// A random force trace on the 1/60 grid: a random walk with holds (unchanged samples), times on
/// a 2^-10 s grid, optional positions, sometimes cancelled. Forces stay within 0…400/60.
func randomTrace(_ rng: inout SplitMix64, id: String, positions: Bool) -> Trace {
  let n = Int.random(in: 2...120, using: &rng)
  var k = Int.random(in: 0...40, using: &rng)
  var force: [Double] = []
  var t: [Double] = []
  var x: [Double] = []
  var y: [Double] = []
  var time = Double(Int.random(in: 0...2000, using: &rng)) / 1024
  var px = 100.0
  var py = 200.0
  for i in 0..<n {
    if i > 0 {
      time += Double(Int.random(in: 8...40, using: &rng)) / 1024
      if Int.random(in: 0..<4, using: &rng) != 0 {
        k = Swift.min(400, Swift.max(0, k + Int.random(in: -40...45, using: &rng)))
      }
      if positions && Int.random(in: 0..<5, using: &rng) == 0 {
        px += Double(Int.random(in: -8...8, using: &rng)) / 2
        py += Double(Int.random(in: -8...8, using: &rng)) / 2
      }
    }
    force.append(grid(k))
    t.append(time)
    x.append(px)
    y.append(py)
  }
  let cancelled = Int.random(in: 0..<10, using: &rng) == 0
  return makeTrace(
    force, times: t, x: positions ? x : nil, y: positions ? y : nil, cancelled: cancelled, id: id)
}

/// The same trace with every time shifted by `shift` seconds.
func shifted(_ trace: Trace, by shift: Double) -> Trace {
  var copy = trace
  copy.t = trace.t.map { $0 + shift }
  return copy
}
