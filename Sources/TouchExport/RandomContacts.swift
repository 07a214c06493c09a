package import TouchCore
import TouchSynth

/// Seeded random contacts made to reach the corners of a recognizer's rules: forces that wander
/// across every threshold and back, repeat exactly (stationary samples), touch zero and exceed
/// the maximum; times with equal and uneven steps; drags past a movement limit; lifts and
/// cancels. The same seed gives the same contacts on every machine.
package enum RandomContacts {
  /// `count` contacts from `seed`, named `random-SEED-K`.
  package static func make(count: Int, seed: UInt64) -> [Trace] {
    var rng = SynthRandom(seed: seed)
    return (0..<max(0, count)).map { contact(k: $0, seed: seed, rng: &rng) }
  }

  static func contact(k: Int, seed: UInt64, rng: inout SynthRandom) -> Trace {
    let maxForces = [20.0 / 3.0, 1.0, 4096.0, 255.0]
    let maxForce = maxForces[Int(rng.next() % UInt64(maxForces.count))]
    let count = 1 + Int(rng.next() % 90)
    let quantized = rng.next() % 2 == 0  // iPhone-like force steps of max/400
    let moves = rng.next() % 2 == 0
    let uneven = rng.next() % 3 == 0
    var t = Double(rng.next() % 1000) / 7
    var force = rng.unit() * maxForce * 0.3
    var x = 100 + rng.unit() * 200
    var y = 100 + rng.unit() * 400
    var ts: [Double] = []
    var fs: [Double] = []
    var xs: [Double] = []
    var ys: [Double] = []
    for i in 0..<count {
      if i > 0 {
        let step = uneven ? [0, 1.0 / 240, 0.004, 0.0213, 0.05, 0.12][Int(rng.next() % 6)] : 1.0 / 60
        t += step
        let roll = rng.next() % 10
        if roll < 3 {
          // repeat the force exactly: a stationary sample unless the finger moved
        } else if roll == 3 {
          force = rng.next() % 2 == 0 ? 0 : maxForce * (1 + rng.unit() * 0.2)
        } else {
          force += (rng.unit() - 0.45) * maxForce * 0.25
          force = Swift.min(Swift.max(force, 0), maxForce * 1.1)
        }
        if moves && rng.next() % 3 == 0 {
          x += (rng.unit() - 0.5) * 8
          y += (rng.unit() - 0.5) * 8
        }
      }
      let f = quantized ? (force / maxForce * 400).rounded() / 400 * maxForce : force
      ts.append(t)
      fs.append(f)
      xs.append(x)
      ys.append(y)
    }
    var phases = TouchPhase.defaultSequence(count: count)
    if count > 1 && rng.next() % 8 == 0 { phases[count - 1] = .cancelled }
    let metadata = TraceMetadata(id: "random-\(seed)-\(k + 1)", maxForce: maxForce)
    return Trace(metadata: metadata, t: ts, force: fs, phase: phases, x: xs, y: ys)
  }
}
