import Foundation
import TouchCore

/// The iPhone 6s maximum force and its 1/60 force grid.
public let iPhoneMaximum = 20.0 / 3

/// A trace with the given samples (phases: began, moved…, ended or cancelled); shared by the
/// evaluation and tuning tests.
public func trace(
  _ id: String, t: [Double], force: [Double], intent: Intent? = nil, pressAt: [Double] = [],
  maxForce: Double? = 1, x: [Double]? = nil, y: [Double]? = nil, cancelled: Bool = false
) -> Trace {
  var phase = TouchPhase.defaultSequence(count: t.count)
  if cancelled, !phase.isEmpty { phase[phase.count - 1] = .cancelled }
  return Trace(
    metadata: TraceMetadata(id: id, intent: intent, pressAt: pressAt, maxForce: maxForce), t: t, force: force,
    phase: phase, x: x, y: y)
}

/// A random trace on the 1/60 force grid of an iPhone (force k/60, k = 0…400), with ties,
/// plateaus (stationary samples), optional positions, sometimes cancelled, with a random intent
/// and press_at times (pairs for pops).
public func randomTrace(_ rng: inout SplitMix64, id: String) -> Trace {
  let n = Int.random(in: 1...60, using: &rng)
  let positions = Bool.random(using: &rng)
  var k = Int.random(in: 0...60, using: &rng)
  var t: [Double] = []
  var force: [Double] = []
  var x: [Double] = []
  var y: [Double] = []
  var time = 0.0
  var px = 100.0
  var py = 200.0
  for i in 0..<n {
    if i > 0 {
      time += Double(Int.random(in: 8...20, using: &rng)) / 1000
      if Int.random(in: 0..<4, using: &rng) != 0 { k = min(400, max(0, k + Int.random(in: -50...60, using: &rng))) }
      if positions && Int.random(in: 0..<4, using: &rng) == 0 {
        px += Double(Int.random(in: -12...12, using: &rng)) / 2
        py += Double(Int.random(in: -12...12, using: &rng)) / 2
      }
    }
    t.append(time)
    force.append(Double(k) / 60)
    x.append(px)
    y.append(py)
  }
  let intents: [Intent?] = [.tap, .press, .pop, .hold, .drag, Intent.none, .press, .pop, nil]
  let intent = intents[Int.random(in: 0..<intents.count, using: &rng)]
  var pressAt: [Double] = []
  if intent == .press || intent == .pop {
    let count = intent == .pop ? 2 : Int.random(in: 1...2, using: &rng)
    pressAt = (0..<count).map { _ in Double(Int.random(in: 0...1000, using: &rng)) / 1000 * max(time, 0.01) }.sorted()
  }
  return trace(
    id, t: t, force: force, intent: intent, pressAt: pressAt, maxForce: iPhoneMaximum,
    x: positions ? x : nil, y: positions ? y : nil, cancelled: Int.random(in: 0..<8, using: &rng) == 0)
}

/// The real iPhone 6s recording (shared/realdata/algal-3dtouch, one 60 s file of varied force),
/// cut into contacts at its zero-force samples, 60 Hz: contacts peaking above 3 force units are
/// presses (reference at the first sample above 2), the others taps.
public func realIPhoneContacts() throws -> [Trace] {
  let path = SharedData.realData("algal-3dtouch/data-60secondsVariedForce/04317CA4-3AD0-4776-861E-78040D8BC3E2.json")
  let values = try JSONDecoder().decode([Double].self, from: Data(contentsOf: URL(fileURLWithPath: path)))
  var traces: [Trace] = []
  var start = 0
  for i in 0...values.count where i == values.count || values[i] == 0 {
    if i - start >= 2 {
      let force = Array(values[start..<i])
      let t = force.indices.map { Double($0) / 60 }
      let intent: Intent = (force.max() ?? 0) > 3 ? .press : .tap
      let pressAt = intent == .press ? [t[force.firstIndex { $0 > 2 }!]] : []
      traces.append(
        trace("c\(traces.count)", t: t, force: force, intent: intent, pressAt: pressAt, maxForce: iPhoneMaximum))
    }
    start = i + 1
  }
  return traces
}
