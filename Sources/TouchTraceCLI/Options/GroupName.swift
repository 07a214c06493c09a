import ArgumentParser
import TouchTuning

/// `--group-by`: the trace label that keeps traces together.
enum GroupName: String, ExpressibleByArgument, CaseIterable {
  case user, session, device

  var key: GroupKey {
    switch self {
    case .user: .user
    case .session: .session
    case .device: .device
    }
  }
}
