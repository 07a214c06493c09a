/// "Did you mean …?" for a name the user mistyped (a label column, a recognizer): the closest of
/// the known names by edit distance (insertions, deletions, substitutions), when it is close
/// enough to be a slip.
public enum NameSuggestion {
  /// The closest of `candidates` to `word` within max(1, a third of its length) edits; the
  /// first in `candidates` order on a tie; `nil` when none is that close.
  public static func closest(to word: String, in candidates: [String]) -> String? {
    let limit = max(1, word.count / 3)
    var best: (name: String, distance: Int)?
    for candidate in candidates where candidate != word {
      let d = distance(Array(word), Array(candidate))
      if d <= limit, d < (best?.distance ?? .max) { best = (candidate, d) }
    }
    return best?.name
  }

  /// ` (did you mean 'NAME'?)`, or empty.
  public static func clause(for word: String, in candidates: [String]) -> String {
    closest(to: word, in: candidates).map { " (did you mean '\($0)'?)" } ?? ""
  }

  /// The Levenshtein distance of `a` and `b`.
  public static func distance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    var previous = Array(0...b.count)
    var current = previous
    for i in 1...a.count {
      current[0] = i
      for j in stride(from: 1, through: b.count, by: 1) {
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
      }
      swap(&previous, &current)
    }
    return previous[b.count]
  }
}
