/// A unit of sweep work.
enum SweepUnit: Sendable {
  case replay(Int)
  case onePass(OnePassGroup)

  /// The configurations it evaluates.
  var members: [Int] {
    switch self {
    case .replay(let c): [c]
    case .onePass(let group): group.members
    }
  }
}
