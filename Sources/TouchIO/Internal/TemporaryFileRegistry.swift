import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The temporary output files being written, so that `SIGINT` and `SIGTERM` remove them before
/// the process ends.
///
/// The handler is async-signal-safe: it reads fixed slots allocated once (an atomic state and a
/// C string each), calls only `unlink`, `signal` and `raise`, and allocates nothing. A slot is
/// claimed with a compare-and-exchange, filled, then published; released by storing 0. The
/// handlers are installed on first use, only for signals whose disposition is still the
/// default (a host program's own handler, or an ignored signal, is left alone), and end the
/// process as the default would: after the unlinks the signal is raised again with the default
/// disposition.
enum TemporaryFileRegistry {
  /// A registered temporary path, released when the file is renamed or removed.
  struct Slot {
    let index: Int

    /// Stops removing this path on a signal.
    func release() { storage.states[index].store(Storage.free, ordering: .releasing) }
  }

  /// Registers `path` for removal on `SIGINT`/`SIGTERM`; `nil` (not registered) when every slot
  /// is taken or the path is too long, in which case only the ordinary error paths remove it.
  static func register(_ path: String) -> Slot? {
    _ = handlersInstalled
    let bytes = Array(path.utf8)
    guard bytes.count < Storage.pathCapacity, !bytes.contains(0) else { return nil }
    for index in 0..<Storage.slotCount {
      guard
        storage.states[index].compareExchange(expected: Storage.free, desired: Storage.filling, ordering: .acquiring)
          .exchanged
      else { continue }
      let buffer = storage.paths + index * Storage.pathCapacity
      for (offset, byte) in bytes.enumerated() { buffer[offset] = CChar(bitPattern: byte) }
      buffer[bytes.count] = 0
      storage.states[index].store(Storage.live, ordering: .releasing)
      return Slot(index: index)
    }
    return nil
  }

  /// Fixed memory the signal handler can read without allocating.
  final class Storage: @unchecked Sendable {
    static let slotCount = 64
    static let pathCapacity = 4096
    static let free = 0
    static let filling = 1
    static let live = 2

    let states: UnsafeMutablePointer<Atomic<Int>>
    let paths: UnsafeMutablePointer<CChar>

    init() {
      states = .allocate(capacity: Self.slotCount)
      for index in 0..<Self.slotCount { (states + index).initialize(to: Atomic(Self.free)) }
      paths = .allocate(capacity: Self.slotCount * Self.pathCapacity)
      paths.initialize(repeating: 0, count: Self.slotCount * Self.pathCapacity)
    }
  }

  fileprivate static let storage = Storage()

  /// Installs the handler for `SIGINT` and `SIGTERM` where their disposition is the default.
  private static let handlersInstalled: Void = {
    _ = storage
    for signal in [SIGINT, SIGTERM] {
      var current = sigaction()
      guard sigaction(signal, nil, &current) == 0, isDefault(current) else { continue }
      var action = sigaction()
      #if canImport(Darwin)
        action.__sigaction_u.__sa_handler = removeAndReraise
      #else
        action.__sigaction_handler.sa_handler = removeAndReraise
      #endif
      sigemptyset(&action.sa_mask)
      action.sa_flags = 0
      _ = sigaction(signal, &action, nil)
    }
  }()

  private static func isDefault(_ action: sigaction) -> Bool {
    #if canImport(Darwin)
      return action.__sigaction_u.__sa_handler == nil
    #else
      return action.__sigaction_handler.sa_handler == nil
    #endif
  }
}

/// The signal handler: removes every live temporary file, then ends the process with the signal.
private func removeAndReraise(_ signalNumber: Int32) {
  let storage = TemporaryFileRegistry.storage
  for index in 0..<TemporaryFileRegistry.Storage.slotCount
  where storage.states[index].load(ordering: .acquiring) == TemporaryFileRegistry.Storage.live {
    unlink(storage.paths + index * TemporaryFileRegistry.Storage.pathCapacity)
  }
  signal(signalNumber, SIG_DFL)
  raise(signalNumber)
}
