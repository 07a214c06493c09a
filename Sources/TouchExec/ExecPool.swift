import Synchronization

/// The children of one `exec:` command: started on demand (one per thread that replays at the
/// same time), handed to one replay at a time, reused across configurations, closed by
/// ``ExecPool/closeAll()``.
final class ExecPool: Sendable {
  /// The command, as given after `exec:`.
  let command: String
  /// How long a child may stay silent while an answer is due, seconds.
  let timeout: Double
  /// The children's whole environment, `NAME=VALUE` entries.
  let environment: [String]
  /// What the first child said of itself.
  let hello: ExecProtocol.Hello

  private struct State {
    var idle: [ChildProcess] = []
    /// The first failure: later requests fail at once with it (a run stops at the first).
    var failure: ChildFailure?
  }
  private let state = Mutex(State())

  /// Every pool of the process, by command, timeout and environment.
  private static let pools = Mutex([String: Result<ExecPool, ChildFailure>]())

  /// Starts a pool: the first child, and its hello.
  private init(command: String, timeout: Double, environment: [String]) throws(ChildFailure) {
    self.command = command
    self.timeout = timeout
    self.environment = environment
    let (child, hello) = try Self.start(command: command, timeout: timeout, environment: environment)
    self.hello = hello
    state.withLock { $0.idle.append(child) }
  }

  /// The pool of `command` (started, and its first child greeted, on first use); the same
  /// failure again for a command that could not start. `environment`: the children's whole
  /// environment, `NAME=VALUE` entries.
  static func pool(command: String, timeout: Double, environment: [String]) throws(ChildFailure) -> ExecPool {
    let key = "\(timeout)\u{1}\(environment.joined(separator: "\u{1}"))\u{0}\(command)"
    if let known = pools.withLock({ $0[key] }) { return try known.get() }
    let made: Result<ExecPool, ChildFailure>
    do throws(ChildFailure) {
      made = .success(try ExecPool(command: command, timeout: timeout, environment: environment))
    } catch {
      made = .failure(error)
    }
    // Two threads may start the same pool at once; the first stored wins, the other is closed.
    let stored = pools.withLock { pools in
      if let existing = pools[key] { return existing }
      pools[key] = made
      return made
    }
    if case .success(let mine) = made, case .success(let kept) = stored, mine !== kept { mine.close() }
    return try stored.get()
  }

  /// Runs `body` with a child of its own: an idle one, or a new one greeted first.
  func withChild<T>(_ body: (ChildProcess) throws(ChildFailure) -> T) throws(ChildFailure) -> T {
    let (idle, failure) = state.withLock { ($0.idle.popLast(), $0.failure) }
    if let failure { throw failure }
    var child = idle
    if child == nil {
      child = try Self.start(command: command, timeout: timeout, environment: environment).child
    }
    let result: T
    do throws(ChildFailure) {
      result = try body(child!)
    } catch {
      child!.terminate()
      let failure = Self.withStandardError(error, of: child!)
      state.withLock { $0.failure = $0.failure ?? failure }
      throw failure
    }
    state.withLock { $0.idle.append(child!) }
    return result
  }

  /// Starts a child and exchanges hellos.
  private static func start(command: String, timeout: Double, environment: [String]) throws(ChildFailure) -> (
    child: ChildProcess, hello: ExecProtocol.Hello
  ) {
    let child = try ChildProcess(command: command, environment: environment)
    var hello: ExecProtocol.Hello?
    do throws(ChildFailure) {
      try child.exchange(ExecProtocol.hello, expecting: 1, timeout: timeout) { line, _ throws(ChildFailure) in
        hello = try ExecProtocol.readHello(line)
      }
    } catch {
      child.terminate()
      throw withStandardError(error, of: child)
    }
    return (child, hello!)
  }

  /// `failure` with what the child wrote to standard error appended.
  private static func withStandardError(_ failure: ChildFailure, of child: ChildProcess) -> ChildFailure {
    let stderr = child.standardError()
    guard !stderr.isEmpty else {
      return ChildFailure(message: failure.message + "; it wrote nothing to standard error")
    }
    return ChildFailure(message: failure.message + "; its standard error ends with:\n" + stderr)
  }

  /// Closes every idle child (its input closed, then waited for).
  private func close() {
    let children = state.withLock { state in
      defer { state.idle.removeAll() }
      return state.idle
    }
    for child in children { child.finish() }
  }

  /// Why a command could not start, for the first command that could not (in no particular
  /// order when several failed), with the command.
  static var firstStartFailure: (command: String, failure: ChildFailure)? {
    pools.withLock { pools in
      for (key, result) in pools.sorted(by: { $0.key < $1.key }) {
        if case .failure(let failure) = result {
          return (String(key.split(separator: "\u{0}", maxSplits: 1)[1]), failure)
        }
      }
      return nil
    }
  }

  /// Closes the children of every pool and forgets the pools: at the end of a command.
  static func closeAll() {
    let all = pools.withLock { pools in
      defer { pools.removeAll() }
      return Array(pools.values)
    }
    for case .success(let pool) in all { pool.close() }
  }
}
