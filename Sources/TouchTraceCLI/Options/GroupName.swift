import ArgumentParser
import TouchTuning

/// `--group-by`: the trace label that keeps traces together: `user`, `session`, `device`,
/// `intent` or an extra label (a labels-file column, a `--label-from-path` placeholder).
struct GroupName: ExpressibleByArgument {
  var key: GroupKey

  init?(argument: String) {
    guard let key = GroupKey(rawValue: argument) else { return nil }
    self.key = key
  }
}
