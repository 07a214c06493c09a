import TouchCore
import TouchEvaluation
import TouchRecognizers
import TouchTuning

/// A contact whose normalized force climbs by 0.1 every 20 ms to `peak`/10, holds it for two
/// samples and falls back to 0 (maximum force 1). With a threshold θ strictly between two
/// levels, deep-press acts on the first sample with force ≥ θ: level L = ⌈10·θ⌉, at t = 0.02·L s
/// (when L ≤ peak), else never.
///
/// Positives (`press`) carry `press_at` 0.1 s (the level-5 sample), so an action at level L has a
/// latency of 0.02·L − 0.1 s, well inside the 0.25 s window for every level.
func ramp(_ id: String, peak: Int, intent: Intent, user: String? = nil, session: String? = nil) -> Trace {
  var force: [Double] = []
  for level in 0...peak { force.append(Double(level) / 10) }
  force += [Double(peak) / 10, Double(peak) / 10]
  for level in stride(from: peak - 1, through: 0, by: -1) { force.append(Double(level) / 10) }
  let t = force.indices.map { Double($0) / 50 }
  return Trace(
    metadata: TraceMetadata(
      id: id, intent: intent, pressAt: intent == .press ? [0.1] : [], user: user, session: session, device: "test",
      maxForce: 1),
    t: t, force: force, phase: TouchPhase.defaultSequence(count: t.count))
}

/// Thresholds 0.05, 0.15, …, 0.95: level L = j + 1 at grid point j.
func levelGrid() throws -> SweepPlan {
  try SweepPlan(
    recognizers: [RecognizerSpec(parsing: "deep-press")], axes: [SweepAxis(parsing: "threshold=0.05:0.95:0.1")])
}

/// The threshold a configuration has.
func threshold(_ result: TuningResult, _ c: Int?) -> Double? {
  guard let c, case .number(let x)? = result.sweep.configurations[c].parameters["threshold"] else { return nil }
  return x
}

/// The grid point 0.05 + 0.1·(L − 1) of level L, exactly as the grid computes it.
func thresholdOfLevel(_ level: Int) -> Double { Double(2 * level - 1) / 20 }
