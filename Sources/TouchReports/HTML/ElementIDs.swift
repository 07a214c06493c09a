/// Element ids made unique: the second `fig-metrics-x` becomes `fig-metrics-x-2`.
struct ElementIDs {
  private var used: Set<String> = []

  /// `base`, or `base-2`, `base-3`, … when already given out.
  mutating func unique(_ base: String) -> String {
    var candidate = base
    var n = 2
    while used.contains(candidate) {
      candidate = "\(base)-\(n)"
      n += 1
    }
    used.insert(candidate)
    return candidate
  }
}
