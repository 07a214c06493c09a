/// A unit of sweep work.
enum SweepUnit: Sendable {
  case replay(Int)
  case onePass(OnePassGroup)
  case classes(ClassGroup)

  /// The configurations it evaluates.
  var members: [Int] {
    switch self {
    case .replay(let c): [c]
    case .onePass(let group): group.members
    case .classes(let group): group.members
    }
  }

  /// For a unit evaluated by levels (one-pass or class groups): the number of levels, each
  /// member's level and the outcome shape.
  var levels: (count: Int, index: [Int], shape: OutcomeShape)? {
    switch self {
    case .replay: nil
    case .onePass(let group): (group.thresholds.count, group.levelIndex, group.shape)
    case .classes(let group): (group.levelCount, group.levelIndex, group.shape)
    }
  }
}
