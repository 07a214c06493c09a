import Foundation

/// The capture server's own thread, as a task executor: the server's tasks (accepting,
/// reading, answering, the session's actor calls made from them) run there, never waiting for
/// a thread of Swift's shared cooperative pool. On a 2-core machine that pool has two threads;
/// synchronous work elsewhere in the process (a command, a test) can hold both, and a server on
/// the pool would then answer nobody until it let go.
///
/// One thread for every server of the process; jobs run in the order they are enqueued.
final class ServerThread: TaskExecutor, @unchecked Sendable {
  /// The process's server thread, started on first use.
  static let shared = ServerThread()

  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []

  private init() {
    let thread = Thread { [unowned self] in self.loop() }
    thread.name = "touchtrace-capture-server"
    thread.start()
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    condition.lock()
    jobs.append(job)
    condition.signal()
    condition.unlock()
  }

  /// Runs jobs as they come, forever (the thread ends with the process).
  private func loop() -> Never {
    while true {
      condition.lock()
      while jobs.isEmpty { condition.wait() }
      let job = jobs.removeFirst()
      condition.unlock()
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }
}
