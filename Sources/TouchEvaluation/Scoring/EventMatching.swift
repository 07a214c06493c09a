/// One-to-one matching of action times to reference times within a tolerance.
///
/// The window is inclusive and symmetric: an action at `a` may match a reference at `r` when
/// `|a − r| ≤ tolerance`, where the excess `|a − r| − tolerance` is first rounded to whole
/// microseconds (half to even, as NumPy's `round(x, 6)` in sed_scores_eval), so a distance that
/// equals the tolerance up to floating-point error still matches.
///
/// Among all one-to-one matchings the result has the **most pairs** (as mir_eval's and
/// sed_eval's Hopcroft–Karp matching) and, among those, the **smallest total |a − r|**. It is
/// found by dynamic programming over the two sorted lists: some optimal matching never crosses
/// (if a₁ < a₂ and r₁ < r₂ and both crossed pairs (a₁, r₂), (a₂, r₁) are within the window,
/// so are (a₁, r₁) and (a₂, r₂), and |a₁ − r₁| + |a₂ − r₂| ≤ |a₁ − r₂| + |a₂ − r₁|), and the
/// non-crossing matchings of two prefixes extend one pair at a time. Totals are compared as
/// computed in floating point; on an exact tie the matching that uses earlier references and
/// earlier actions is kept (an action midway between two references matches the earlier one).
public enum EventMatching {
  /// Whether an action at `action` may match a reference at `reference` (seconds): the rounded
  /// excess `|action − reference| − tolerance` is at most 0 µs.
  @inlinable
  public static func isWithin(_ action: Double, _ reference: Double, tolerance: Double) -> Bool {
    let excess = abs(action - reference) - tolerance
    return (excess * 1e6).rounded(.toNearestOrEven) <= 0
  }

  /// The reference a single action matches: the nearest within the window, the earlier one on a
  /// tie; `nil` when none is within it. What ``match(actions:references:tolerance:)`` pairs a
  /// lone action with, found without allocating.
  ///
  /// - Parameters:
  ///   - action: the action's time, seconds.
  ///   - references: reference times, seconds, ascending.
  ///   - tolerance: the window half-width, seconds.
  /// - Returns: the index of the matched reference in `references`.
  @inlinable
  public static func nearest(to action: Double, among references: [Double], tolerance: Double) -> Int? {
    var best: Int?
    var bestDistance = Double.infinity
    for j in references.indices where isWithin(action, references[j], tolerance: tolerance) {
      let d = abs(action - references[j])
      if d < bestDistance {
        best = j
        bestDistance = d
      }
    }
    return best
  }

  /// The pairs (action index, reference index) of the optimal matching, in increasing order of
  /// both indices.
  ///
  /// - Parameters:
  ///   - actions: action times, seconds, ascending.
  ///   - references: reference times, seconds, ascending.
  ///   - tolerance: the window half-width, seconds.
  /// - Precondition: both lists ascending (checked in debug builds).
  /// - Complexity: O(n·m); for one action, O(m) and only the result's array
  ///   (``nearest(to:among:tolerance:)`` gives its reference without it).
  public static func match(
    actions: [Double], references: [Double], tolerance: Double
  ) -> [(action: Int, reference: Int)] {
    let a = actions
    #if TOUCH_INTERNAL_CHECKS
      precondition(zip(a, a.dropFirst()).allSatisfy { $0 <= $1 }, "action times must be ascending")
      precondition(zip(references, references.dropFirst()).allSatisfy { $0 <= $1 }, "reference times must be ascending")
    #endif
    let n = a.count
    let m = references.count
    guard n > 0, m > 0 else { return [] }
    if n == 1 {
      return nearest(to: a[0], among: references, tolerance: tolerance).map { [(0, $0)] } ?? []
    }
    // dp[i][j]: the best matching of actions[0..<i] with references[0..<j].
    let width = m + 1
    var count = [Int](repeating: 0, count: (n + 1) * width)
    var cost = [Double](repeating: 0, count: (n + 1) * width)
    var move = [UInt8](repeating: 0, count: (n + 1) * width)  // 1 skip reference, 2 skip action, 3 match
    for i in 0...n {
      for j in 0...m {
        guard i > 0 || j > 0 else { continue }
        let cell = i * width + j
        var bestCount = -1
        var bestCost = 0.0
        var bestMove: UInt8 = 0
        if j > 0 {
          bestCount = count[cell - 1]
          bestCost = cost[cell - 1]
          bestMove = 1
        }
        if i > 0 {
          let c = count[cell - width]
          let s = cost[cell - width]
          if c > bestCount || (c == bestCount && s < bestCost) {
            bestCount = c
            bestCost = s
            bestMove = 2
          }
        }
        if i > 0, j > 0, isWithin(a[i - 1], references[j - 1], tolerance: tolerance) {
          let c = count[cell - width - 1] + 1
          let s = cost[cell - width - 1] + abs(a[i - 1] - references[j - 1])
          if c > bestCount || (c == bestCount && s < bestCost) {
            bestCount = c
            bestCost = s
            bestMove = 3
          }
        }
        count[cell] = bestCount
        cost[cell] = bestCost
        move[cell] = bestMove
      }
    }
    var pairs: [(action: Int, reference: Int)] = []
    var i = n
    var j = m
    while i > 0 || j > 0 {
      switch move[i * width + j] {
      case 1: j -= 1
      case 2: i -= 1
      default:
        pairs.append((i - 1, j - 1))
        i -= 1
        j -= 1
      }
    }
    return pairs.reversed()
  }
}
